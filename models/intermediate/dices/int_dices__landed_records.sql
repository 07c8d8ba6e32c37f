-- What DICES declares about its landed records, for reconciliation: each CSV record (one rater x
-- item) becomes the ratings of its question columns.
{{ config(materialized='view') }}

with

ratings_350 as (

    select * from {{ ref('stg_dices__ratings_350') }}

),

ratings_990 as (

    select * from {{ ref('stg_dices__ratings_990') }}

),

records as (

    select
        file_path,
        row_number,
        record_key
    from ratings_350
    union all
    select
        file_path,
        row_number,
        record_key
    from ratings_990

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
