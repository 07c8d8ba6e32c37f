-- DICES's judgements for the agreement models: the releases' wide records unpivoted, one row per
-- (record, question column), the answer as the code of the question's label set. A unit is an
-- (item, question); the scope is the release. A rater who rated an item again (DICES 990's
-- later phases) has several judgements of it, ordered by phase, then by the record's row in
-- its CSV file. A view over the integer-coded answers: the agreement models read it once.
{{ config(materialized='view') }}

with

answers as (

    select * from {{ ref('int_dices__answers') }}

),

answer_rows as (

    select * from {{ ref('int_dices__rows') }}

),

dices_questions as (

    select * from {{ ref('int_dices__questions') }}

),

answer_texts as (

    select * from {{ ref('int_dices__answer_texts') }}

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}

),

-- every (question column, answer text) pair as the code of that answer in the question's labels
answer_codes as (

    select
        dices_questions.question_ref,
        answer_texts.answer_ref,
        judgement_labels.value_code
    from dices_questions
    inner join judgement_labels on dices_questions.label_set = judgement_labels.label_set
    inner join answer_texts on judgement_labels.value_text = answer_texts.answer

),

final as (

    select
        'dices' as source,
        answer_rows.dataset_config as scope,
        'safety' as rating_kind,
        dices_questions.question,
        answer_rows.dialogue_key as unit_key,
        answer_rows.dialogue_key,
        cast(null as varchar) as movie_id,
        answer_rows.rater_key,
        answer_codes.value_code,
        answer_rows.phase as judgement_round,
        answer_rows.row_number as judgement_row,
        answer_rows.answer_time_ms
    from answers
    inner join answer_rows on answers.row_ref = answer_rows.row_ref
    inner join dices_questions on answers.question_ref = dices_questions.question_ref
    left join answer_codes
        on
            answers.question_ref = answer_codes.question_ref
            and answers.answer_ref = answer_codes.answer_ref

)

select * from final
