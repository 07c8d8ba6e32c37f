-- How well each automatic evaluator (judge) agrees with each human perspective, beside how well
-- the humans agree with one another: one row per (judge, source, scope, question, reference).
-- Definitions: docs/INTERFACE.md, "Judges"; how to read them: docs/AGREEMENT.md, "Judging a judge".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

judge_figures as (

    select * from {{ ref('int_judges__agreement') }}

),

mart_rows as (

    select
        judge_figures.judge,
        questions.source,
        questions.scope,
        questions.question,
        judge_figures.reference_dimension,
        judge_figures.reference_value,
        questions.level_of_measurement,
        judge_figures.n_units,
        judge_figures.xrr,
        judge_figures.xrr_ci_low,
        judge_figures.xrr_ci_high,
        judge_figures.spearman_rho,
        judge_figures.spearman_p,
        judge_figures.kendall_tau_b,
        judge_figures.kendall_p,
        judge_figures.plurality_agreement,
        judge_figures.member_agreement,
        judge_figures.human_xrr_median,
        judge_figures.n_human_raters,
        judge_figures.judge_percentile,
        judge_figures.xrr_with_rest,
        judge_figures.alignment,
        judge_figures.alignment_p,
        judge_figures.alignment_q,
        judge_figures.min_attainable_p
    from judge_figures
    inner join questions
        on
            judge_figures.source = questions.source
            and judge_figures.scope = questions.scope
            and judge_figures.rating_kind = questions.rating_kind
            and judge_figures.question = questions.question

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
