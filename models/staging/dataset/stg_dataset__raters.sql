-- One row per rater a dataset's raters.csv lists, keyed as the marts key raters.
with

source as (

    select * from {{ source('dataset', 'dataset_raters') }}

),

final as (

    select
        dataset as source,
        dataset || ':rater:' || rater_id as rater_key,
        rater_id as source_rater_id,
        rater_kind,
        line_number
    from source

)

select * from final
