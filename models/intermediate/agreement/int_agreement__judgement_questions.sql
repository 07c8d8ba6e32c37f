-- Every question the agreement models know, in the inner form's shape: the built-in sources'
-- (`seeds/judgement_questions.csv`) and every loaded dataset's (`stg_dataset__questions`), whose
-- questions are each a `judgement` asked of units several raters judge. A view.
{{ config(materialized='view') }}

with

seeded_questions as (

    select * from {{ ref('judgement_questions') }}

),

dataset_questions as (

    select * from {{ ref('stg_dataset__questions') }}

),

final as (

    select * from seeded_questions
    union all by name
    select
        source,
        'judgement' as rating_kind,
        question,
        label_set,
        level_of_measurement,
        true as several_raters_per_unit,
        wording
    from dataset_questions

)

select * from final
