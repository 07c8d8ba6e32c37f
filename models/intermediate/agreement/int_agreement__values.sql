-- The values the agreement figures are computed from: one row per (unit, rater) with the
-- rater's first judgement's value, for the units of `int_agreement__units` and the raters not
-- excluded. Small integers only: at DICES's size this is the longest table the figures read.
with

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where value_code is not null

),

units as (

    select * from {{ ref('int_agreement__units') }}

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
    inner join units on first_judgements.unit_id = units.unit_id
    inner join raters on first_judgements.rater_id = raters.rater_id

)

select * from final
