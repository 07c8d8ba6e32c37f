-- Do two sets of judgements of the same units agree: one row per (source, scope, question,
-- replication a, replication b), xRR between them with its bootstrap interval over units
-- (`int_agreement__replication_figures`). DUO users against annotators, DICES 350's crowd
-- against its experts, a rater's repeats against their first judgements (DICES 990).
with

replication_figures as (

    select * from {{ ref('int_agreement__replication_figures') }}

),

mart_rows as (

    select
        source,
        scope,
        question,
        replication_a,
        replication_b,
        level_of_measurement,
        n_units,
        observed_disagreement,
        expected_disagreement,
        xrr,
        xrr_ci_low,
        xrr_ci_high
    from replication_figures

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
