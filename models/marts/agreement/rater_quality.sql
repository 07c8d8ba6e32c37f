-- One row per (rater, scope): what a reader looks at to choose a quality filter (DICES ships every
-- rater "in case other researchers want to apply a different strategy for quality of raters").
-- The rater's mean agreement with the others over the scope's questions and its percentile rank
-- in the scope, the share of answers the rater could not decide on, the median time taken, how
-- often repeats matched the first answer, and whether `seeds/excluded_raters.csv` leaves the
-- rater out already (an excluded rater is compared with no one: its agreement is null).
with

rater_scopes as (

    select * from {{ ref('int_agreement__rater_scopes') }}

),

rater_agreement as (

    select * from {{ ref('rater_agreement') }}

),

rater_consistency as (

    select * from {{ ref('rater_consistency') }}
    where rater_key is not null

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

agreement_per_scope as (

    select
        source,
        scope,
        rater_key,
        avg(agreement_with_others) as mean_agreement_with_others
    from rater_agreement
    group by source, scope, rater_key

),

agreement_ranks as (

    select
        *,
        -- ranked on 12 decimals: means equal up to float rounding (summed in any order) are ties
        percent_rank() over (
            partition by source, scope order by round(mean_agreement_with_others, 12)
        ) as agreement_percentile
    from agreement_per_scope
    where mean_agreement_with_others is not null

),

consistency_per_scope as (

    select
        source,
        scope,
        rater_key,
        sum(n_repeats) as n_repeats,
        sum(n_identical) / sum(n_repeats) as share_identical
    from rater_consistency
    group by source, scope, rater_key

),

mart_rows as (

    select
        rater_scopes.rater_key,
        rater_scopes.source,
        rater_scopes.scope,
        rater_scopes.n_items,
        agreement_ranks.mean_agreement_with_others,
        agreement_ranks.agreement_percentile,
        rater_scopes.share_unsure,
        rater_scopes.median_answer_time_ms,
        cast(coalesce(consistency_per_scope.n_repeats, 0) as bigint) as n_repeats,
        consistency_per_scope.share_identical,
        raters.is_excluded as excluded
    from rater_scopes
    inner join raters on rater_scopes.rater_key = raters.rater_key
    left join agreement_ranks
        on
            rater_scopes.source = agreement_ranks.source
            and rater_scopes.scope = agreement_ranks.scope
            and rater_scopes.rater_key = agreement_ranks.rater_key
    left join consistency_per_scope
        on
            rater_scopes.source = consistency_per_scope.source
            and rater_scopes.scope = consistency_per_scope.scope
            and rater_scopes.rater_key = consistency_per_scope.rater_key

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
