-- Every judge's judgement meets a unit the humans judged. The ingest checks dialogue, question and
-- movie against the marts it was loaded beside, so a row here is a judgement loaded against an
-- older build whose unit this build does not have: named by its file and line.
with

judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

keyed as (

    select * from {{ ref('int_judges__judgements') }}

),

judged_units as (

    select * from {{ ref('int_agreement__judged_units') }}

),

reached as (

    select distinct
        keyed.judge,
        judged_units.dialogue_key,
        judged_units.movie_id
    from keyed
    inner join judged_units on keyed.unit_id = judged_units.unit_id

),

final as (

    select
        judgements.judge,
        judgements.dialogue_key,
        judgements.question,
        judgements.movie_id,
        judgements.source_file,
        judgements.line_number
    from judgements
    left join reached
        on
            judgements.judge = reached.judge
            and judgements.dialogue_key = reached.dialogue_key
            and judgements.movie_id is not distinct from reached.movie_id
    where reached.judge is null

)

select * from final
