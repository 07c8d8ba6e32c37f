-- The two seeds name the same DICES questions: every question column of `dices_questions` has
-- its wording and label set in `judgement_questions`, and every DICES question there is a column
-- of a release. Fails naming the question and the seed it is missing from.
with

dices_questions as (

    select distinct question from {{ ref('dices_questions') }}

),

judgement_questions as (

    select question from {{ ref('judgement_questions') }}
    where source = 'dices'

),

final as (

    select
        coalesce(dices_questions.question, judgement_questions.question) as question,
        case
            when judgement_questions.question is null then 'judgement_questions' else 'dices_questions'
        end as missing_from
    from dices_questions
    full outer join judgement_questions on dices_questions.question = judgement_questions.question
    where dices_questions.question is null or judgement_questions.question is null

)

select * from final
