-- One row per DICES answer in the shape of the `ratings` mart: rating_kind `safety`, the
-- question column's name as the question, the answer text as label and raw value.
-- A view: the integer-coded answers joined to their record, question and text, so that the
-- ~3 million answers (31 million at scale 10) are never written again as text.
{{ config(materialized='view') }}

with

answers as (

    select * from {{ ref('int_dices__answers') }}

),

answer_rows as (

    select * from {{ ref('int_dices__rows') }}

),

questions as (

    select * from {{ ref('int_dices__questions') }}

),

answer_texts as (

    select * from {{ ref('int_dices__answer_texts') }}

),

final as (

    select
        {{ dices_rating_id(
            'answer_rows.dataset_config', 'answer_rows.source_row_id', 'questions.question'
        ) }} as rating_id,
        answer_rows.dialogue_key,
        answer_rows.rater_key,
        'safety' as rating_kind,
        questions.question,
        answer_rows.source_row_id,
        answer_texts.answer as value_label,
        answer_texts.answer as value_raw,
        'dices' as source,
        questions.question_category,
        questions.is_aggregate_question,
        answer_rows.phase,
        answer_rows.answer_time_ms,
        answer_rows.answer_timestamp,
        answer_rows.dataset_config
    from answers
    inner join answer_rows on answers.row_ref = answer_rows.row_ref
    inner join questions on answers.question_ref = questions.question_ref
    left join answer_texts on answers.answer_ref = answer_texts.answer_ref

)

select * from final
