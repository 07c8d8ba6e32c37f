-- One row per (rater, attribute) of a dataset's raters.csv, keyed as the marts key raters: the
-- text as given, null where it means "no answer".
with

source as (

    select * from {{ source('dataset', 'dataset_rater_attributes') }}

),

final as (

    select
        dataset as source,
        dataset || ':rater:' || rater_id as rater_key,
        attribute,
        case when not is_missing then value end as value_raw,
        is_dimension
    from source

)

select * from final
