-- The values the agreement figures are computed from: one row per (unit, rater) with the
-- rater's first judgement's value, for the units of the questions several raters judge and the
-- raters not excluded: the units `int_agreement__units` counts, with a value. Read beside that
-- model, not after it, so that the figures do not wait for the units' counts. Small integers
-- only: at DICES's size this is the longest table the figures read.
with

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where value_code is not null

),

judged_units as (

    select * from {{ ref('int_agreement__judged_units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where several_raters_per_unit

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where not is_excluded

),

final as (

    select
        first_judgements.unit_id,
        first_judgements.rater_id,
        first_judgements.value_code
    from first_judgements
    inner join judged_units on first_judgements.unit_id = judged_units.unit_id
    inner join questions on judged_units.question_id = questions.question_id
    inner join raters on first_judgements.rater_id = raters.rater_id

)

select * from final
