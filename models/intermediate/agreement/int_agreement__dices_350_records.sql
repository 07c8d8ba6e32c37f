{{ agreement_dices_records('stg_dices__ratings_350') }}
