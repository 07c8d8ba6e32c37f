-- Each judge's judgements on the agreement models' units, one row per (judge, human question,
-- unit): a DUO judgement of a metric meets both its users' (subjective) and its annotators'
-- (objective) question. The value stays a number: a judge of a score may give 3.5.
with

judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

final as (

    select
        judgements.judge,
        units.question_id,
        units.unit_id,
        judgements.judge_value
    from judgements
    inner join questions
        on
            judgements.source = questions.source
            and judgements.question = questions.question
    inner join units
        on
            questions.question_id = units.question_id
            and judgements.dialogue_key = units.dialogue_key
            and judgements.movie_id is not distinct from units.movie_id

)

select * from final
