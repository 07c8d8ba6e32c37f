-- One row per (source, scope, rating kind, question, rater group): how much the group's raters
-- agree among themselves (Krippendorff's α), with the raters outside the group (xRR), and the
-- ratio of the two (GAI), from per-unit value counts (no pairs of raters are ever formed).
with

units as (

    select * from {{ ref('int_agreement__units') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

group_value_counts as (

    select * from {{ ref('int_agreement__group_value_counts') }}

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

rater_questions as (

    select * from {{ ref('int_agreement__rater_questions') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

groups as (

    select distinct
        group_id,
        group_dimension,
        group_value
    from rater_groups

),

-- every question of a scope, for every group with a rater who rated in that scope
group_questions as (

    select distinct
        rater_groups.group_id,
        questions.question_id
    from rater_questions
    inner join rater_groups on rater_questions.rater_number = rater_groups.rater_number
    inner join questions
        on
            rater_questions.source = questions.source
            and rater_questions.scope = questions.scope

),

raters_per_group as (

    select
        rater_groups.group_id,
        rater_questions.question_id,
        count(*) as n_raters
    from rater_questions
    inner join rater_groups on rater_questions.rater_number = rater_groups.rater_number
    where rater_questions.n_values > 0
    group by rater_groups.group_id, rater_questions.question_id

),

-- the group's counts on each unit it gave a value to, beside the unit's counts of all raters
per_group_unit as (

    select
        group_value_counts.group_id,
        group_value_counts.unit_id,
        sum(group_value_counts.n_values) as n_group,
        any_value(unit_value_counts.n_unit_values) - sum(group_value_counts.n_values) as n_others,
        sum(group_value_counts.n_values * group_value_counts.n_values) as group_same_value_pairs,
        sum(group_value_counts.n_values * (unit_value_counts.n_values - group_value_counts.n_values))
            as cross_same_value_pairs,
        sum(group_value_counts.n_values * value_labels.value_numeric) as group_value_sum,
        sum(group_value_counts.n_values * value_labels.value_numeric * value_labels.value_numeric)
            as group_value_square_sum,
        max(group_value_counts.n_values) as group_plurality_count,
        sum(group_value_counts.n_values * ln(group_value_counts.n_values)) as group_count_log_sum
    from group_value_counts
    inner join unit_value_counts
        on
            group_value_counts.unit_id = unit_value_counts.unit_id
            and group_value_counts.value_code = unit_value_counts.value_code
    inner join value_labels on group_value_counts.value_code = value_labels.value_code
    group by group_value_counts.group_id, group_value_counts.unit_id

),

classified_units as (

    select
        per_group_unit.*,
        units.question_id,
        units.n_labels,
        per_group_unit.n_group >= 2 as is_pairable,
        per_group_unit.n_others >= 1 as is_rated_by_both,
        case
            when per_group_unit.group_plurality_count = per_group_unit.n_group then 0.0
            else ln(per_group_unit.n_group) - per_group_unit.group_count_log_sum / per_group_unit.n_group
        end as group_entropy
    from per_group_unit
    inner join units on per_group_unit.unit_id = units.unit_id

),

-- per value: how often the group gave it on its pairable units and on the units both rated
group_value_totals as (

    select
        classified_units.group_id,
        classified_units.question_id,
        group_value_counts.value_code,
        sum(group_value_counts.n_values) filter (where classified_units.is_pairable) as pairable_count,
        sum(group_value_counts.n_values) filter (where classified_units.is_rated_by_both) as shared_count
    from group_value_counts
    inner join classified_units
        on
            group_value_counts.group_id = classified_units.group_id
            and group_value_counts.unit_id = classified_units.unit_id
    group by classified_units.group_id, classified_units.question_id, group_value_counts.value_code

),

-- per value: how often anyone gave it on the units both the group and the others rated
everyone_value_totals as (

    select
        classified_units.group_id,
        classified_units.question_id,
        unit_value_counts.value_code,
        sum(unit_value_counts.n_values) as shared_count
    from classified_units
    inner join unit_value_counts on classified_units.unit_id = unit_value_counts.unit_id
    where classified_units.is_rated_by_both
    group by classified_units.group_id, classified_units.question_id, unit_value_counts.value_code

),

expected_parts as (

    select
        coalesce(everyone_value_totals.group_id, group_value_totals.group_id) as group_id,
        coalesce(everyone_value_totals.question_id, group_value_totals.question_id) as question_id,
        sum(group_value_totals.pairable_count * group_value_totals.pairable_count) as pairable_same_value_pairs,
        -- the group's count of a value times the others' count of it (everyone's minus the group's)
        sum(
            coalesce(group_value_totals.shared_count, 0)
            * (everyone_value_totals.shared_count - coalesce(group_value_totals.shared_count, 0))
        ) as shared_same_value_pairs
    from everyone_value_totals
    full outer join group_value_totals
        on
            everyone_value_totals.group_id = group_value_totals.group_id
            and everyone_value_totals.question_id = group_value_totals.question_id
            and everyone_value_totals.value_code = group_value_totals.value_code
    group by
        coalesce(everyone_value_totals.group_id, group_value_totals.group_id),
        coalesce(everyone_value_totals.question_id, group_value_totals.question_id)

),

per_group_question as (

    select
        group_id,
        question_id,
        count(*) filter (where is_pairable) as n_units,
        coalesce(sum(n_group) filter (where is_pairable), 0) as n_values,
        sum((n_group * n_group - group_same_value_pairs) / (n_group - 1))
        filter (where is_pairable) as nominal_disagreeing_pairs,
        sum(2 * (n_group * group_value_square_sum - group_value_sum * group_value_sum) / (n_group - 1))
        filter (where is_pairable) as interval_squared_differences,
        sum(group_value_sum) filter (where is_pairable) as pairable_value_sum,
        sum(group_value_square_sum) filter (where is_pairable) as pairable_value_square_sum,
        count(*) filter (where is_rated_by_both) as n_xrr_units,
        sum(n_group) filter (where is_rated_by_both) as n_group_values_on_shared_units,
        sum(n_others) filter (where is_rated_by_both) as n_others_values_on_shared_units,
        sum((n_group + n_others) * (1 - cross_same_value_pairs / (n_group * n_others)))
        filter (where is_rated_by_both) as xrr_weighted_disagreement,
        avg(ln(n_labels) - group_entropy) filter (where n_group >= 1) as mean_negentropy,
        avg(group_plurality_count / n_group) filter (where n_group >= 1) as mean_plurality_share
    from classified_units
    group by group_id, question_id

),

disagreements as (

    select
        group_questions.group_id,
        group_questions.question_id,
        coalesce(per_group_question.n_units, 0) as n_units,
        coalesce(per_group_question.n_values, 0) as n_values,
        case
            when questions.level_of_measurement = 'nominal'
                then per_group_question.nominal_disagreeing_pairs / per_group_question.n_values
            else per_group_question.interval_squared_differences / per_group_question.n_values
        end as observed_disagreement,
        case
            when per_group_question.n_values >= 2
                then
                    case
                        when questions.level_of_measurement = 'nominal'
                            then
                                per_group_question.n_values * per_group_question.n_values
                                - expected_parts.pairable_same_value_pairs
                        else
                            2 * (
                                per_group_question.n_values * per_group_question.pairable_value_square_sum
                                - per_group_question.pairable_value_sum * per_group_question.pairable_value_sum
                            )
                    end
                    / (per_group_question.n_values * (per_group_question.n_values - 1))
        end as expected_disagreement,
        per_group_question.n_xrr_units,
        per_group_question.xrr_weighted_disagreement
        / (
            per_group_question.n_group_values_on_shared_units + per_group_question.n_others_values_on_shared_units
        ) as xrr_observed_disagreement,
        (
            per_group_question.n_group_values_on_shared_units * per_group_question.n_others_values_on_shared_units
            - expected_parts.shared_same_value_pairs
        )
        / (
            per_group_question.n_group_values_on_shared_units * per_group_question.n_others_values_on_shared_units
        ) as xrr_expected_disagreement,
        per_group_question.mean_negentropy,
        per_group_question.mean_plurality_share
    from group_questions
    inner join questions on group_questions.question_id = questions.question_id
    left join per_group_question
        on
            group_questions.group_id = per_group_question.group_id
            and group_questions.question_id = per_group_question.question_id
    left join expected_parts
        on
            group_questions.group_id = expected_parts.group_id
            and group_questions.question_id = expected_parts.question_id

),

coefficients as (

    select
        disagreements.*,
        1 - disagreements.observed_disagreement / nullif(disagreements.expected_disagreement, 0) as alpha,
        case
            when groups.group_dimension <> 'all' and questions.level_of_measurement = 'nominal'
                then 1 - disagreements.xrr_observed_disagreement / nullif(disagreements.xrr_expected_disagreement, 0)
        end as xrr
    from disagreements
    inner join groups on disagreements.group_id = groups.group_id
    inner join questions on disagreements.question_id = questions.question_id

),

final as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        groups.group_dimension,
        groups.group_value,
        questions.level_of_measurement,
        cast(questions.n_labels as bigint) as n_labels,
        coalesce(raters_per_group.n_raters, 0) as n_raters,
        coefficients.n_units,
        cast(coefficients.n_values as bigint) as n_values,
        case when coefficients.n_values >= 2 then coefficients.observed_disagreement end as observed_disagreement,
        coefficients.expected_disagreement,
        coefficients.alpha,
        coalesce(coefficients.n_xrr_units, 0) as n_xrr_units,
        case when coefficients.n_xrr_units > 0 then coefficients.xrr_observed_disagreement end
            as xrr_observed_disagreement,
        case when coefficients.n_xrr_units > 0 then coefficients.xrr_expected_disagreement end
            as xrr_expected_disagreement,
        coefficients.xrr,
        -- an xRR within rounding of 0 is 0: the ratio would be float noise
        case when abs(coefficients.xrr) >= 1e-12 then coefficients.alpha / coefficients.xrr end as gai,
        coefficients.mean_negentropy,
        coefficients.mean_plurality_share
    from coefficients
    inner join groups on coefficients.group_id = groups.group_id
    inner join questions on coefficients.question_id = questions.question_id
    left join raters_per_group
        on
            coefficients.group_id = raters_per_group.group_id
            and coefficients.question_id = raters_per_group.question_id

)

select * from final
