-- One row per (rater, unit): the rater's first judgement of the unit. A unit's values are one
-- per rater: where a rater judged a unit more than once, the earliest judgement with a value
-- counts (`judgement_order`) and the later ones are repeats, which only `rater_consistency`
-- compares. `n_values` counts the rater's values on the unit, repeats included.
-- One window over each (unit, rater)'s judgements, not a group-by and joins back: DuckDB sorts
-- the windows' partitions on disk when they do not fit its memory, at any size.
with

keyed_judgements as (

    select * from {{ ref('int_agreement__keyed_judgements') }}

),

ranked_judgements as (

    select
        unit_id,
        rater_id,
        value_code,
        judgement_order,
        row_number() over unit_rater as judgement_rank,
        count(value_code) over unit_rater as n_values,
        count(*) over unit_rater as n_judgements
    from keyed_judgements
    window unit_rater as (
        partition by unit_id, rater_id
        -- the judgements with a value first, earliest first
        order by value_code is null, {{ judgement_order('judgement_order.round', 'judgement_order.row') }}
        rows between unbounded preceding and unbounded following
    )

),

final as (

    select
        unit_id,
        rater_id,
        value_code,
        case when value_code is not null then judgement_order end as first_judgement_order,
        n_values,
        n_judgements - n_values as n_missing
    from ranked_judgements
    where judgement_rank = 1

)

select * from final
