-- One row per judgement of a unit, as small integers: the unit, its question, the rater, the
-- value's code within the question (null when the judgement is missing: a null answer, or
-- ReDial's "did not say") and how many judgements the rater gave on that unit. Repeats by one
-- rater stay separate rows; knowing them here spares every agreement model a group-by of all
-- (unit, rater) pairs. DICES answers are read as the integer codes `int_dices__answers` stores:
-- each code is translated through a small map (per record, per question, per answer text), so
-- no text is built or compared for the ~3 million answers (scale 1). The test
-- `agreement_values_reconcile_with_ratings` proves that nothing is lost on the way.
with

rated_judgements as (

    select * from {{ ref('int_agreement__rated_judgements') }}

),

dices_answers as (

    select * from {{ ref('int_dices__answers') }}

),

dices_rows as (

    select * from {{ ref('int_dices__rows') }}

),

dices_questions as (

    select * from {{ ref('int_dices__questions') }}

),

dices_answer_texts as (

    select * from {{ ref('int_dices__answer_texts') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

-- every CSV row answers every question of its release (nulls included), so a rater's judgements
-- of an (item, question) are their rows of the item
dices_repeated_rows as (

    select
        dataset_config,
        item_id,
        rater_id,
        count(*) as n_rows
    from dices_rows
    group by dataset_config, item_id, rater_id
    having count(*) > 1

),

dices_distinct_items as (

    select distinct
        dataset_config,
        item_id
    from dices_rows

),

dices_items as (

    select
        dataset_config,
        item_id,
        cast(row_number() over (order by dataset_config, item_id) as integer) as item_number
    from dices_distinct_items

),

-- per CSV record: its item's number, its rater's number and how often the rater rated the item
dices_record_map as (

    select
        dices_rows.row_ref,
        dices_items.item_number,
        raters.rater_number,
        cast(coalesce(dices_repeated_rows.n_rows, 1) as integer) as n_rater_judgements
    from dices_rows
    inner join dices_items
        on
            dices_rows.dataset_config = dices_items.dataset_config
            and dices_rows.item_id = dices_items.item_id
    inner join raters
        on
            raters.source = 'dices'
            and dices_rows.rater_id = raters.source_rater_id
    left join dices_repeated_rows
        on
            dices_rows.dataset_config = dices_repeated_rows.dataset_config
            and dices_rows.item_id = dices_repeated_rows.item_id
            and dices_rows.rater_id = dices_repeated_rows.rater_id

),

-- per question column: its question in the agreement models
dices_question_ids as (

    select
        dices_questions.question_ref,
        dices_questions.dataset_config,
        questions.question_id
    from dices_questions
    inner join questions
        on
            questions.source = 'dices'
            and dices_questions.dataset_config = questions.scope
            and dices_questions.question = questions.question

),

-- per (question column, item): the unit
dices_unit_map as (

    select
        dices_question_ids.question_ref,
        dices_items.item_number,
        units.unit_id,
        units.question_id
    from dices_question_ids
    inner join units on dices_question_ids.question_id = units.question_id
    inner join dices_items
        on
            dices_question_ids.dataset_config = dices_items.dataset_config
            and units.dices_item_id = dices_items.item_id

),

-- per (question column, answer text): the value's code
dices_value_map as (

    select
        dices_question_ids.question_ref,
        dices_answer_texts.answer_ref,
        value_labels.value_code
    from dices_question_ids
    inner join value_labels on dices_question_ids.question_id = value_labels.question_id
    inner join dices_answer_texts on value_labels.value_text = dices_answer_texts.answer

),

dices_values as (

    select
        dices_unit_map.unit_id,
        dices_unit_map.question_id,
        dices_record_map.rater_number,
        dices_value_map.value_code,
        dices_record_map.n_rater_judgements
    from dices_answers
    inner join dices_record_map on dices_answers.row_ref = dices_record_map.row_ref
    inner join dices_unit_map
        on
            dices_answers.question_ref = dices_unit_map.question_ref
            and dices_record_map.item_number = dices_unit_map.item_number
    left join dices_value_map
        on
            dices_answers.question_ref = dices_value_map.question_ref
            and dices_answers.answer_ref = dices_value_map.answer_ref

),

rated_values as (

    select
        units.unit_id,
        units.question_id,
        raters.rater_number,
        case
            when
                not {{ agreement_value_is_missing(
                    'rated_judgements.rating_kind', 'rated_judgements.question', 'rated_judgements.value_numeric'
                ) }}
                then value_labels.value_code
        end as value_code,
        cast(count(*) over (partition by units.unit_id, raters.rater_number) as integer) as n_rater_judgements
    from rated_judgements
    inner join units
        on
            rated_judgements.question_id = units.question_id
            and rated_judgements.dialogue_key = units.dialogue_key
            and rated_judgements.movie_id is not distinct from units.movie_id
    inner join raters on rated_judgements.rater_key = raters.rater_key
    left join value_labels
        on
            rated_judgements.question_id = value_labels.question_id
            and rated_judgements.value_numeric = value_labels.value_numeric

),

final as (

    select * from dices_values
    union all
    select * from rated_values

)

select * from final
