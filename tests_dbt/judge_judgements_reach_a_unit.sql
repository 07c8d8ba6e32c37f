-- Every judge's judgement meets a unit the humans judged. The ingest checks dialogue, question and
-- movie against the marts it was loaded beside, so a row here is a judgement loaded against an
-- older build whose unit this build no longer has (a release reloaded without it). A warning: the
-- build publishes, these judgements are set aside (no figure of `judge_agreement` uses them), and
-- each row names its file and line and the command that drops them for good (loading the judge's
-- file again checks it against this build: their rows become rejects, the rest replaces the judge).
{{ config(severity='warn') }}

with

judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

keyed as (

    select * from {{ ref('int_judges__judgements') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

reached as (

    select distinct
        keyed.judge,
        units.dialogue_key,
        questions.question,
        units.movie_id
    from keyed
    inner join units on keyed.unit_id = units.unit_id
    inner join questions on keyed.question_id = questions.question_id

),

final as (

    select
        judgements.judge,
        judgements.dialogue_key,
        judgements.question,
        judgements.movie_id,
        judgements.source_file,
        judgements.line_number,
        'dwh ingest --judges ' || judgements.source_file as to_drop_them
    from judgements
    left join reached
        on
            judgements.judge = reached.judge
            and judgements.dialogue_key = reached.dialogue_key
            and judgements.question = reached.question
            and judgements.movie_id is not distinct from reached.movie_id
    where reached.judge is null

)

select * from final
