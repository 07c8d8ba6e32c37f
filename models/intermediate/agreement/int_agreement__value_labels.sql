-- Every value a question's units can hold, numbered within the question (1, 2, …): the agreement
-- models count these small codes instead of repeating answer texts on millions of rows, and
-- `agreement` keeps one count per code. DICES values are the labels of the question's vocabulary
-- in the catalog's order (answers outside it fail `dices_answers_in_vocabulary`); DUO scores and
-- ReDial form answers are the numbers their ratings hold, in order, written without decimals.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in {{ agreement_unit_rating_kinds() }}

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('dices_vocabularies') }}

),

dices_values as (

    select
        questions.question_id,
        cast(dices_vocabularies.position as integer) as value_code,
        dices_vocabularies.label as value_text,
        cast(null as double) as value_numeric
    from questions
    inner join dices_questions
        on
            questions.scope = dices_questions.dataset_config
            and questions.question = dices_questions.question
    inner join dices_vocabularies on dices_questions.answer_vocabulary = dices_vocabularies.vocabulary
    where questions.source = 'dices'

),

rated_values as (

    select distinct
        dialogues.source,
        {{ agreement_scope('dialogues') }} as scope,
        ratings.rating_kind,
        ratings.question,
        ratings.value_numeric
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key
    where not {{ agreement_value_is_missing('ratings.rating_kind', 'ratings.question', 'ratings.value_numeric') }}

),

numbered_rated_values as (

    select
        questions.question_id,
        cast(row_number() over (
            partition by questions.question_id order by rated_values.value_numeric
        ) as integer) as value_code,
        {{ agreement_number_text('rated_values.value_numeric') }} as value_text,
        rated_values.value_numeric
    from rated_values
    inner join questions
        on
            rated_values.source = questions.source
            and rated_values.scope = questions.scope
            and rated_values.rating_kind = questions.rating_kind
            and rated_values.question = questions.question

),

final as (

    select * from dices_values
    union all
    select * from numbered_rated_values

)

select * from final
