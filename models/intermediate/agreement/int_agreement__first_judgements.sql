-- One row per (rater, unit): the rater's first judgement of the unit. A unit's values are one
-- per rater: where a rater judged a unit more than once, the earliest judgement with a value
-- counts (`judgement_order`) and the later ones are repeats, which only `rater_consistency`
-- compares. `n_values` counts the rater's values on the unit, repeats included.
-- Most raters judge a unit once: only the (unit, rater) pairs judged more than once are grouped
-- to find their first judgement, so that the millions of single judgements need no aggregate
-- state beyond a count (which DuckDB can spill to disk at any size).
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

judged_more_than_once as (

    select
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        rater_key
    from judgements
    group by source, scope, rating_kind, question, unit_key, rater_key
    having count(*) > 1

),

single_judgements as (

    select
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.unit_key,
        judgements.rater_key,
        judgements.dialogue_key,
        judgements.movie_id,
        judgements.value_code,
        case when judgements.value_code is not null then judgements.judgement_order end as first_judgement_order,
        cast(judgements.value_code is not null as bigint) as n_values,
        cast(judgements.value_code is null as bigint) as n_missing
    from judgements
    anti join judged_more_than_once
        on
            judgements.source = judged_more_than_once.source
            and judgements.scope = judged_more_than_once.scope
            and judgements.rating_kind = judged_more_than_once.rating_kind
            and judgements.question = judged_more_than_once.question
            and judgements.unit_key = judged_more_than_once.unit_key
            and judgements.rater_key = judged_more_than_once.rater_key

),

repeated_rows as (

    select judgements.*
    from judgements
    semi join judged_more_than_once
        on
            judgements.source = judged_more_than_once.source
            and judgements.scope = judged_more_than_once.scope
            and judgements.rating_kind = judged_more_than_once.rating_kind
            and judgements.question = judged_more_than_once.question
            and judgements.unit_key = judged_more_than_once.unit_key
            and judgements.rater_key = judged_more_than_once.rater_key

),

repeated_judgements as (

    select
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        rater_key,
        dialogue_key,
        movie_id,
        arg_min(value_code, judgement_order) filter (where value_code is not null) as value_code,
        min(judgement_order) filter (where value_code is not null) as first_judgement_order,
        count(value_code) as n_values,
        count(*) - count(value_code) as n_missing
    from repeated_rows
    group by source, scope, rating_kind, question, unit_key, rater_key, dialogue_key, movie_id

),

final as (

    select * from single_judgements
    union all
    select * from repeated_judgements

)

select * from final
