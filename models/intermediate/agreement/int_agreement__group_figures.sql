-- One row per (rater group, question) that `agreement` reports: the sums of
-- `int_agreement__group_units` and `int_agreement__group_expected_distances` turned into
-- Krippendorff's α among the group's own values, xRR against the raters outside it, and GAI.
-- Definitions: WAREHOUSE_CONTRACT.md, "Agreement and disagreement marts".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

group_questions as (

    select * from {{ ref('int_agreement__group_questions') }}

),

group_units as (

    select * from {{ ref('int_agreement__group_units') }}

),

expected_distances as (

    select * from {{ ref('int_agreement__group_expected_distances') }}

),

-- pairable units: the group gave 2 values or more; shared units: outsiders gave values too
classified_units as (

    select
        group_units.*,
        group_units.n_in_group >= 2 as is_pairable,
        group_units.n_outside_group >= 1 as is_shared,
        ln(questions.n_labels) - group_units.entropy as negentropy,
        -- xRR weighs each unit's mean cross distance by the unit's number of values
        group_units.cross_distance / (group_units.n_in_group * group_units.n_outside_group)
        * (group_units.n_in_group + group_units.n_outside_group) as weighted_cross_distance
    from group_units
    inner join questions on group_units.question_id = questions.question_id

),

unit_sums as (

    select
        group_id,
        question_id,
        count(*) filter (where is_pairable) as n_units,
        cast(coalesce(sum(n_in_group) filter (where is_pairable), 0) as bigint) as n_values,
        sum(within_group_distance / (n_in_group - 1)) filter (where is_pairable) as within_distance_per_pairing,
        avg(negentropy) filter (where is_pairable) as mean_negentropy,
        avg(plurality_share) filter (where is_pairable) as mean_plurality_share,
        count(*) filter (where is_shared) as n_xrr_units,
        sum(weighted_cross_distance) filter (where is_shared) as weighted_cross_distance,
        sum(n_in_group + n_outside_group) filter (where is_shared) as n_shared_values,
        sum(n_in_group) filter (where is_shared) as n_shared_in_group,
        sum(n_outside_group) filter (where is_shared) as n_shared_outside
    from classified_units
    group by group_id, question_id

),

disagreements as (

    select
        group_questions.group_id,
        group_questions.question_id,
        group_questions.n_raters,
        group_questions.n_excluded_raters,
        coalesce(unit_sums.n_units, 0) as n_units,
        coalesce(unit_sums.n_values, 0) as n_values,
        case when unit_sums.n_values >= 2 then unit_sums.within_distance_per_pairing / unit_sums.n_values end
            as observed_disagreement,
        case
            when unit_sums.n_values >= 2
                then expected_distances.pairable_distance / (unit_sums.n_values * (unit_sums.n_values - 1))
        end as expected_disagreement,
        coalesce(unit_sums.n_xrr_units, 0) as n_xrr_units,
        unit_sums.weighted_cross_distance / unit_sums.n_shared_values as xrr_observed_disagreement,
        expected_distances.cross_distance / (unit_sums.n_shared_in_group * unit_sums.n_shared_outside)
            as xrr_expected_disagreement,
        unit_sums.mean_negentropy,
        unit_sums.mean_plurality_share
    from group_questions
    left join unit_sums
        on
            group_questions.group_id = unit_sums.group_id
            and group_questions.question_id = unit_sums.question_id
    left join expected_distances
        on
            group_questions.group_id = expected_distances.group_id
            and group_questions.question_id = expected_distances.question_id

),

reliabilities as (

    select
        *,
        1 - observed_disagreement / nullif(expected_disagreement, 0) as alpha,
        1 - xrr_observed_disagreement / nullif(xrr_expected_disagreement, 0) as xrr
    from disagreements

),

final as (

    select
        *,
        -- xRR within rounding of 0 is 0: the ratio would be float noise
        case when abs(xrr) >= 1e-12 then alpha / xrr end as gai
    from reliabilities

)

select * from final
