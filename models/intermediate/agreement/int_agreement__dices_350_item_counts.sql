{{ agreement_dices_item_counts('350') }}
