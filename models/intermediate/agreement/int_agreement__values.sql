-- One row per judgement of a unit, as three small integers: the unit, the rater and the value
-- (null when the judgement is missing: a null answer, or ReDial's "did not say"). Repeats by one
-- rater stay separate rows. DICES answers are read with their ids, as `ratings` shows them but
-- before their text keys are built: building ~3 million keys costs more than the agreement maths.
-- The test `agreement_values_reconcile_with_ratings` proves that nothing is lost on the way.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in ('objective', 'movie_form')

),

dices_answers as (

    select * from {{ ref('int_dices__answers') }}

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

dices_values as (

    select
        units.unit_id,
        raters.rater_number,
        value_labels.value_code
    from dices_answers
    inner join units
        on
            units.source = 'dices'
            and dices_answers.dataset_config = units.dataset_config
            and dices_answers.item_id = units.source_dialogue_id
            and dices_answers.question = units.question
    inner join raters
        on
            raters.source = 'dices'
            and dices_answers.rater_id = raters.source_rater_id
    left join value_labels on dices_answers.answer = value_labels.value_text

),

rated_values as (

    select
        units.unit_id,
        raters.rater_number,
        case
            when
                not {{ agreement_value_is_missing('ratings.rating_kind', 'ratings.question', 'ratings.value_numeric') }}
                then value_labels.value_code
        end as value_code
    from ratings
    inner join units
        on
            ratings.dialogue_key = units.dialogue_key
            and ratings.question = units.question
            and ratings.movie_id is not distinct from units.movie_id
    inner join raters on ratings.rater_key = raters.rater_key
    left join value_labels
        on {{ agreement_number_text('ratings.value_numeric') }} = value_labels.value_text

),

final as (

    select * from dices_values
    union all
    select * from rated_values

)

select * from final
