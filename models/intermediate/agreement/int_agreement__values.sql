-- The values the agreement figures are computed from: one row per (unit, rater) with the
-- rater's first judgement's value, for the questions several raters judge and the raters not
-- excluded. Small integers only: at DICES's size this is the longest table the figures read.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

final as (

    select
        question_id,
        unit_id,
        rater_id,
        value_code
    from judgements
    where is_first and value_code is not null and several_raters_per_unit and not is_excluded

)

select * from final
