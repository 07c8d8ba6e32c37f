-- One row per question of a dataset, named as the shared questions are: its label set is the
-- dataset's own (`<dataset>:<question>`).
with

source as (

    select * from {{ source('dataset', 'dataset_questions') }}

),

final as (

    select
        dataset as source,
        question,
        dataset || ':' || question as label_set,
        level as level_of_measurement,
        labels,
        min_value,
        max_value,
        wording,
        meanings,
        line_number
    from source

)

select * from final
