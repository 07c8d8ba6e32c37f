-- Each judge's judgements on the agreement models' units, one row per (judge, human question,
-- unit): the spine's judgements of the raters of kind judge (`int_agreement__judgements`, which
-- codes their values by the labels of this build), by judge name, as the judges' figures read them.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_judge and is_first

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where is_judge

),

final as (

    select
        raters.judge,
        judgements.question_id,
        judgements.unit_id,
        judgements.value_code as judge_value
    from judgements
    inner join raters on judgements.rater_id = raters.rater_id

)

select * from final
