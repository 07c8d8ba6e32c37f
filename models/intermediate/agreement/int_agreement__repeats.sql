-- The judgements of raters who gave a unit more than one value (DICES 990's later phases): one
-- row per such judgement with a value, the rater's first of the unit (`is_first`) and each
-- repeat, beside the first's value. What `rater_consistency` and the repeats of
-- `int_agreement__replication_values` compare. Every rater, excluded or not: the readers leave
-- the excluded out.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where n_values > 1 and value_code is not null and not is_judge

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

final as (

    select
        judgements.question_id,
        judgements.unit_id,
        units.unit_key,
        judgements.rater_id,
        raters.rater_key,
        judgements.is_first,
        judgements.value_code,
        judgements.first_value_code
    from judgements
    inner join units on judgements.unit_id = units.unit_id
    inner join raters on judgements.rater_id = raters.rater_id

)

select * from final
