-- One row per DUO objective score, as small integers: the unit (its id and keys), its question,
-- the rater, the value's code within the question (null when the judgement is missing) and how
-- many judgements the rater gave on that unit. Repeats by one rater stay separate rows; knowing
-- them here spares every agreement model a group-by of all (unit, rater) pairs. DICES answers
-- and ReDial form answers are not here: the agreement models count DICES answers from the
-- releases' records in their wide shape (`int_agreement__dices_<config>_records`, 26 times fewer
-- rows) and read ReDial's two forms side by side (`int_agreement__redial_form_units`). The test
-- `agreement_values_reconcile_with_ratings` proves that nothing is lost on the way.
with

rated_judgements as (

    select * from {{ ref('int_agreement__rated_judgements') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

-- each judgement with the id of its unit
rated_unit_judgements as (

    select
        {{ agreement_unit_id('question_id', 'dialogue_key', 'movie_id') }} as unit_id,
        question_id,
        dialogue_key,
        movie_id,
        rater_key,
        rating_kind,
        question,
        value_numeric
    from rated_judgements

),

rated_values as (

    select
        rated_unit_judgements.unit_id,
        rated_unit_judgements.question_id,
        rated_unit_judgements.dialogue_key,
        rated_unit_judgements.movie_id,
        raters.rater_number,
        case
            when
                not {{ agreement_value_is_missing(
                    'rated_unit_judgements.rating_kind',
                    'rated_unit_judgements.question',
                    'rated_unit_judgements.value_numeric'
                ) }}
                then value_labels.value_code
        end as value_code
    from rated_unit_judgements
    inner join raters on rated_unit_judgements.rater_key = raters.rater_key
    left join value_labels
        on
            rated_unit_judgements.question_id = value_labels.question_id
            and rated_unit_judgements.value_numeric = value_labels.value_numeric

),

-- the (unit, rater) pairs with more than one judgement: a handful, found by a group-by of the
-- two numbers alone (a window over all judgements would sort them with their keys)
repeat_pairs as (

    select
        unit_id,
        rater_number,
        cast(count(*) as integer) as n_rater_judgements
    from rated_values
    group by unit_id, rater_number
    having count(*) > 1

),

final as (

    select
        rated_values.*,
        coalesce(repeat_pairs.n_rater_judgements, 1) as n_rater_judgements
    from rated_values
    left join repeat_pairs
        on
            rated_values.unit_id = repeat_pairs.unit_id
            and rated_values.rater_number = repeat_pairs.rater_number

)

select * from final
