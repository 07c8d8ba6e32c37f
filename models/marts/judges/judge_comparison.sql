-- Is judge A better than judge B? One row per ordered pair of judges (judge_a < judge_b) and
-- (source, scope, question, reference) where both judged units: each judge's xRR over those
-- units and their difference, with its paired interval and p-value.
-- Definitions: docs/INTERFACE.md, "Judges"; how to read them: docs/AGREEMENT.md, "Judging a judge".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

comparisons as (

    select * from {{ ref('int_judges__comparison') }}

),

mart_rows as (

    select
        comparisons.judge_a,
        comparisons.judge_b,
        questions.source,
        questions.scope,
        questions.question,
        comparisons.reference_dimension,
        comparisons.reference_value,
        questions.level_of_measurement,
        comparisons.n_units,
        comparisons.xrr_a,
        comparisons.xrr_b,
        comparisons.xrr_difference,
        comparisons.xrr_difference_ci_low,
        comparisons.xrr_difference_ci_high,
        comparisons.difference_p,
        comparisons.min_attainable_p
    from comparisons
    inner join questions
        on
            comparisons.source = questions.source
            and comparisons.scope = questions.scope
            and comparisons.rating_kind = questions.rating_kind
            and comparisons.question = questions.question

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
