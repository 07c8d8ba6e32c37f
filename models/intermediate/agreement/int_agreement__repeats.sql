-- The judgements of raters who gave a unit more than one value (DICES 990's later phases): one
-- row per such judgement with a value, the rater's first of the unit (`is_first`) and each
-- repeat, beside the first's value. What `rater_consistency` and the repeats of
-- `int_agreement__replication_values` compare. Every rater, excluded or not: the readers leave
-- the excluded out.
with

keyed_judgements as (

    select * from {{ ref('int_agreement__keyed_judgements') }}
    where value_code is not null

),

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where n_values > 1

),

judged_units as (

    select * from {{ ref('int_agreement__judged_units') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

final as (

    select
        judged_units.question_id,
        judged_units.unit_id,
        judged_units.unit_key,
        raters.rater_id,
        raters.rater_key,
        keyed_judgements.judgement_order = first_judgements.first_judgement_order as is_first,
        keyed_judgements.value_code,
        first_judgements.value_code as first_value_code
    from keyed_judgements
    inner join first_judgements
        on
            keyed_judgements.unit_id = first_judgements.unit_id
            and keyed_judgements.rater_id = first_judgements.rater_id
    inner join judged_units on keyed_judgements.unit_id = judged_units.unit_id
    inner join raters on keyed_judgements.rater_id = raters.rater_id

)

select * from final
