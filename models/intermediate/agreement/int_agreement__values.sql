-- The values the agreement figures are computed from: one row per (unit, rater) with the
-- rater's first judgement's value, for the raters not excluded. Small integers only: at
-- DICES's size this is the longest table the figures read.
with

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where value_code is not null

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

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
        units.unit_id,
        raters.rater_id,
        first_judgements.value_code
    from first_judgements
    inner join questions
        on
            first_judgements.source = questions.source
            and first_judgements.scope = questions.scope
            and first_judgements.rating_kind = questions.rating_kind
            and first_judgements.question = questions.question
    inner join units
        on
            questions.question_id = units.question_id
            and first_judgements.unit_key = units.unit_key
    inner join raters on first_judgements.rater_key = raters.rater_key

)

select * from final
