-- How much raters agree, one row per (source, scope, rating kind, question, rater group): every
-- group of the scope for every question of it (`int_agreement__group_questions`, with its rater
-- counts), with α, xRR, GAI and their Monte Carlo uncertainty where the group gave values
-- (`int_agreement__group_figures`), and the concentration of its values
-- (`int_agreement__group_units`). Definitions: docs/INTERFACE.md, "Agreement definitions".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

group_questions as (

    select * from {{ ref('int_agreement__group_questions') }}

),

group_figures as (

    select * from {{ ref('int_agreement__group_figures') }}

),

-- negentropy and plurality share, averaged over the units where the group gave ≥ 2 values
group_concentration as (

    select
        group_units.group_id,
        group_units.question_id,
        avg(ln(questions.n_labels) - group_units.entropy) as mean_negentropy,
        avg(group_units.plurality_share) as mean_plurality_share
    from {{ ref('int_agreement__group_units') }} as group_units
    inner join questions on group_units.question_id = questions.question_id
    where group_units.n_in_group >= 2
    group by group_units.group_id, group_units.question_id

),

rater_groups as (

    select distinct
        group_id,
        group_dimension,
        group_value
    from {{ ref('int_agreement__rater_groups') }}

),

mart_rows as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        rater_groups.group_dimension,
        rater_groups.group_value,
        questions.level_of_measurement,
        questions.n_labels,
        group_questions.n_raters,
        group_questions.n_excluded_raters,
        coalesce(group_figures.n_units, 0) as n_units,
        coalesce(group_figures.n_values, 0) as n_values,
        group_figures.observed_disagreement,
        group_figures.expected_disagreement,
        group_figures.alpha,
        group_figures.alpha_ci_low,
        group_figures.alpha_ci_high,
        coalesce(group_figures.n_xrr_units, 0) as n_xrr_units,
        group_figures.xrr_observed_disagreement,
        group_figures.xrr_expected_disagreement,
        group_figures.xrr,
        group_figures.gai,
        group_figures.alpha_p,
        group_figures.xrr_p,
        group_figures.gai_p,
        group_figures.gai_q,
        group_figures.min_attainable_p,
        coalesce(group_figures.n_units, 0) as n_units_2plus,
        group_concentration.mean_negentropy,
        group_concentration.mean_plurality_share
    from group_questions
    inner join questions on group_questions.question_id = questions.question_id
    inner join rater_groups on group_questions.group_id = rater_groups.group_id
    left join group_figures
        on
            questions.source = group_figures.source
            and questions.scope = group_figures.scope
            and questions.rating_kind = group_figures.rating_kind
            and questions.question = group_figures.question
            and rater_groups.group_dimension = group_figures.group_dimension
            and rater_groups.group_value = group_figures.group_value
    left join group_concentration
        on
            group_questions.question_id = group_concentration.question_id
            and group_questions.group_id = group_concentration.group_id

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
