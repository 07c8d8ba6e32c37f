-- DICES's judgements in the inner form, straight from staging: both releases' wide records
-- unpivoted, one row per (CSV record, question column), the answer as the code of its question's
-- label set (null where the field is empty or not a label). A unit is an (item, question); the
-- scope is the release. A rater who rated an item again (DICES 990's later phases) has several
-- judgements of it, ordered by phase, then by the record's row in its CSV file. A view: the
-- agreement models read it once.
{{ config(materialized='view') }}
{%- set judgement_columns = "'^(dataset_config|dialogue_key|rater_key|phase|row_number|answer_time_ms|Q.*)$'" %}

with

-- the columns a judgement keeps, and the question columns (990 has no answer times)
ratings as (

    select columns({{ judgement_columns }}) from {{ ref('stg_dices__ratings') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}
    where source = 'dices'

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}

),

answers as (

    {{ dices_unpivot_answers('ratings') }}

),

final as (

    select
        'dices' as source,
        answers.dataset_config as scope,
        'safety' as rating_kind,
        answers.question,
        answers.dialogue_key as unit_key,
        answers.dialogue_key,
        cast(null as varchar) as movie_id,
        answers.rater_key,
        judgement_labels.value_code,
        answers.phase as judgement_round,
        answers.row_number as judgement_row,
        answers.answer_time_ms
    from answers
    left join judgement_questions on answers.question = judgement_questions.question
    left join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and answers.answer = judgement_labels.value_text

)

select * from final
