-- One row per judgement of a unit, as small integers: the unit, its question, the rater, the
-- value's code within the question (null when the judgement is missing: a null answer, or
-- ReDial's "did not say") and how many judgements the rater gave on that unit. Repeats by one
-- rater stay separate rows; knowing them here spares every agreement model a group-by of all
-- (unit, rater) pairs. DICES answers are read with their ids, as `ratings` shows them but before
-- their text keys are built: building ~3 million keys (scale 1) costs more than the agreement maths. The
-- test `agreement_values_reconcile_with_ratings` proves that nothing is lost on the way.
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

dices_values as (

    select
        units.unit_id,
        units.question_id,
        raters.rater_number,
        value_labels.value_code,
        cast(coalesce(dices_repeated_rows.n_rows, 1) as integer) as n_rater_judgements
    from dices_answers
    inner join questions
        on
            questions.source = 'dices'
            and dices_answers.dataset_config = questions.scope
            and dices_answers.question = questions.question
    inner join units
        on
            questions.question_id = units.question_id
            and dices_answers.item_id = units.dices_item_id
    inner join raters
        on
            raters.source = 'dices'
            and dices_answers.rater_id = raters.source_rater_id
    left join value_labels
        on
            questions.question_id = value_labels.question_id
            and dices_answers.answer = value_labels.value_text
    left join dices_repeated_rows
        on
            dices_answers.dataset_config = dices_repeated_rows.dataset_config
            and dices_answers.item_id = dices_repeated_rows.item_id
            and dices_answers.rater_id = dices_repeated_rows.rater_id

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
