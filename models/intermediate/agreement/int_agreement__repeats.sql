-- The judgements of raters who gave a unit more than one value (DICES 990's later phases): one
-- row per such judgement with a value, the rater's first of the unit (`is_first`) and each
-- repeat, beside the first's value. What `rater_consistency` and the repeats of
-- `int_agreement__replication_values` compare. Every rater, excluded or not: the readers leave
-- the excluded out.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

final as (

    select
        question_id,
        unit_id,
        unit_key,
        rater_id,
        rater_key,
        is_first,
        value_code,
        first_value_code
    from judgements
    where n_values > 1 and value_code is not null and rater_id is not null

)

select * from final
