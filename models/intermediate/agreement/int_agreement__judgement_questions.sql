-- Every question the agreement models know: the built-in sources' (`seeds/judgement_questions.csv`)
-- and every loaded dataset's (`int_dataset__judgement_questions`), in one shape. A view.
{{ config(materialized='view') }}

with

seeded_questions as (

    select * from {{ ref('judgement_questions') }}

),

dataset_questions as (

    select * from {{ ref('int_dataset__judgement_questions') }}

),

final as (

    select * from seeded_questions
    union all by name
    select * from dataset_questions

)

select * from final
