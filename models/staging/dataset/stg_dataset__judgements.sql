-- One row per landed judgement row of a dataset, keyed as the marts key units and raters
-- (`<dataset>:<unit_id>`, `<dataset>:rater:<rater_id>`). value_number: interval and ratio, the
-- value; label_position: nominal and ordinal, its label's place in the question's order.
with

source as (

    select * from {{ source('dataset', 'dataset_judgements') }}

),

final as (

    select
        dataset as source,
        dataset || ':' || unit_id as dialogue_key,
        unit_id as source_unit_id,
        dataset || ':rater:' || rater_id as rater_key,
        rater_id as source_rater_id,
        question,
        value as value_raw,
        is_missing,
        label_position,
        value_number,
        round_rank,
        file_path,
        line_number
    from source

)

select * from final
