-- Every judgement of `int_agreement__judgements`, keyed by small integers: the unit
-- (`int_agreement__judged_units`, which holds its question) and the rater
-- (`int_agreement__raters`). The agreement models join and group these, not the text keys: at
-- DICES's size a window or join over six text keys costs several times one over two integers.
-- Left joins: a judgement whose rater no source declares keeps a null rater_id, which its test
-- reports, rather than dropping out of every figure unseen.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

judged_units as (

    select * from {{ ref('int_agreement__judged_units') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

final as (

    select
        judged_units.unit_id,
        raters.rater_id,
        judgements.value_code,
        judgements.judgement_order,
        judgements.answer_time_ms
    from judgements
    left join questions
        on
            judgements.source = questions.source
            and judgements.scope = questions.scope
            and judgements.rating_kind = questions.rating_kind
            and judgements.question = questions.question
    left join judged_units
        on
            questions.question_id = judged_units.question_id
            and judgements.unit_key = judged_units.unit_key
    left join raters on judgements.rater_key = raters.rater_key

)

select * from final
