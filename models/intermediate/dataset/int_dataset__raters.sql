-- Every rater of a dataset, in the `raters` mart's shape: those raters.csv lists and those who
-- judged without a row there (no attributes; `dwh ingest` named them). rater_kind: `expert` where
-- raters.csv says so, else `crowd`.
with

listed_raters as (

    select * from {{ ref('stg_dataset__raters') }}

),

judging_raters as (

    select distinct
        source,
        rater_key,
        source_rater_id
    from {{ ref('stg_dataset__judgements') }}

),

final as (

    select
        coalesce(listed_raters.rater_key, judging_raters.rater_key) as rater_key,
        coalesce(listed_raters.source, judging_raters.source) as source,
        coalesce(listed_raters.source, judging_raters.source) || '_rater' as rater_role,
        coalesce(listed_raters.source_rater_id, judging_raters.source_rater_id) as source_rater_id,
        coalesce(listed_raters.rater_kind, 'crowd') as rater_kind
    from listed_raters
    full outer join judging_raters on listed_raters.rater_key = judging_raters.rater_key

)

select * from final
