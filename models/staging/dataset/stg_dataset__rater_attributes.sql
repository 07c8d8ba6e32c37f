-- One row per (rater, attribute) of a dataset's raters.csv, keyed as the marts key raters, in the
-- long shape of `rater_attributes`: value_raw the text as given, null where it means "no answer";
-- value the band where the dataset bins the attribute (decided at landing:
-- ingest/datasets/banding.py), else the text as given.
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
        band,
        case when not is_missing then coalesce(band, value) end as value,
        is_dimension,
        is_banded
    from source

)

select * from final
