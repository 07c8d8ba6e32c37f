-- One row per (rater, unit): the rater's first judgement of the unit. A unit's values are one
-- per rater: where a rater judged a unit more than once, the earliest judgement with a value
-- counts (`judgement_order`) and the later ones are repeats, which only `rater_consistency`
-- compares. `n_values` counts the rater's values on the unit, repeats included.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

final as (

    select
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        rater_key,
        any_value(dialogue_key) as dialogue_key,
        any_value(movie_id) as movie_id,
        arg_min(value_code, judgement_order) filter (where value_code is not null) as value_code,
        min(judgement_order) filter (where value_code is not null) as first_judgement_order,
        count(value_code) as n_values,
        count(*) - count(value_code) as n_missing
    from judgements
    group by source, scope, rating_kind, question, unit_key, rater_key

)

select * from final
