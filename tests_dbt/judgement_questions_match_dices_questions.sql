-- A DICES question's label set in `seeds/judgement_questions.csv` is the answer vocabulary
-- `seeds/dices_questions.csv` gives its column, and every seeded DICES column has its question:
-- the two seeds describe the same columns. Fails naming the question and both values.
with

dices_questions as (

    select distinct
        question,
        answer_vocabulary
    from {{ ref('dices_questions') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}
    where source = 'dices'

),

final as (

    select
        coalesce(dices_questions.question, judgement_questions.question) as question,
        dices_questions.answer_vocabulary,
        judgement_questions.label_set
    from dices_questions
    full outer join judgement_questions on dices_questions.question = judgement_questions.question
    where dices_questions.answer_vocabulary is distinct from judgement_questions.label_set

)

select * from final
