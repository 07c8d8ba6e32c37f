-- How much raters agree, one row per (source, scope, rating kind, question, rater group): α,
-- xRR and GAI (`int_agreement__group_figures`) with their Monte Carlo uncertainty
-- (`int_agreement__monte_carlo`: α's bootstrap interval, permutation p-values, GAI's q-value).
-- Definitions: WAREHOUSE_CONTRACT.md, "Agreement and disagreement marts".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

group_figures as (

    select * from {{ ref('int_agreement__group_figures') }}

),

monte_carlo as (

    select * from {{ ref('int_agreement__monte_carlo') }}

),

rater_groups as (

    select distinct
        group_id,
        group_dimension,
        group_value
    from {{ ref('int_agreement__rater_groups') }}

),

final as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        rater_groups.group_dimension,
        rater_groups.group_value,
        questions.level_of_measurement,
        questions.n_labels,
        group_figures.n_raters,
        group_figures.n_excluded_raters,
        group_figures.n_units,
        group_figures.n_values,
        group_figures.observed_disagreement,
        group_figures.expected_disagreement,
        group_figures.alpha,
        monte_carlo.alpha_ci_low,
        monte_carlo.alpha_ci_high,
        group_figures.n_xrr_units,
        group_figures.xrr_observed_disagreement,
        group_figures.xrr_expected_disagreement,
        group_figures.xrr,
        group_figures.gai,
        monte_carlo.alpha_p,
        monte_carlo.xrr_p,
        monte_carlo.gai_p,
        monte_carlo.gai_q,
        group_figures.n_units as n_units_2plus,
        group_figures.mean_negentropy,
        group_figures.mean_plurality_share
    from group_figures
    inner join questions on group_figures.question_id = questions.question_id
    inner join rater_groups on group_figures.group_id = rater_groups.group_id
    left join monte_carlo
        on
            group_figures.question_id = monte_carlo.question_id
            and group_figures.group_id = monte_carlo.group_id

)

select * from final
