-- One row per unit a dataset's units file lists, keyed as the marts key dialogues.
with

source as (

    select * from {{ source('dataset', 'dataset_units') }}

),

final as (

    select
        dataset as source,
        dataset || ':' || unit_id as dialogue_key,
        unit_id as source_unit_id,
        scope,
        split,
        language,
        turns as turns_json,
        text,
        other_columns,
        file_path,
        line_number
    from source

)

select * from final
