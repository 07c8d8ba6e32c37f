-- Every value a question's units can hold, numbered within the question (1, 2, …): the agreement
-- models count these small codes instead of repeating answer texts on millions of rows, and
-- `agreement` keeps one count per code. DICES values are the labels of the question's vocabulary
-- in the catalog's order (answers outside it fail `dices_answers_in_vocabulary`); DUO scores are
-- the numbers their ratings hold, ReDial form answers the codes of their vocabulary but "did not
-- say" (answers outside it fail `redial_form_answers_in_vocabulary`): numbers, in order, written
-- without decimals.
with

rated_judgements as (

    select * from {{ ref('int_agreement__rated_judgements') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'dices'

),

redial_vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'redial'

),

dices_values as (

    select
        questions.question_id,
        dices_vocabularies.code as value_code,
        dices_vocabularies.label as value_text
    from questions
    inner join dices_questions
        on
            questions.scope = dices_questions.dataset_config
            and questions.question = dices_questions.question
    inner join dices_vocabularies on dices_questions.answer_vocabulary = dices_vocabularies.vocabulary
    where questions.source = 'dices'

),

duo_values as (

    select distinct
        question_id,
        value_numeric
    from rated_judgements
    where not {{ agreement_value_is_missing('rating_kind', 'question', 'value_numeric') }}

),

redial_values as (

    select
        questions.question_id,
        cast(redial_vocabularies.code as double) as value_numeric
    from questions
    inner join redial_vocabularies on questions.question = redial_vocabularies.vocabulary
    where
        questions.source = 'redial'
        and not {{ agreement_value_is_missing(
            'questions.rating_kind', 'questions.question', 'redial_vocabularies.code'
        ) }}

),

rated_values as (

    select * from duo_values
    union all
    select * from redial_values

),

numbered_rated_values as (

    select
        question_id,
        cast(row_number() over (partition by question_id order by value_numeric) as integer) as value_code,
        {{ agreement_number_text('value_numeric') }} as value_text,
        value_numeric
    from rated_values

),

final as (

    select * from dices_values
    union all by name
    select * from numbered_rated_values

)

select * from final
