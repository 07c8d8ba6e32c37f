-- What DICES declares about its landed records, for reconciliation: each CSV record (one rater x
-- item) becomes the ratings of its question columns.
{{ config(materialized='view') }}

with

records as (

    select * from {{ ref('stg_dices__ratings') }}

),

final as (

    select
        'dices' as source,
        file_path,
        row_number as record_number,
        'ratings' as expected_mart,
        record_key as expected_key
    from records

)

select * from final
