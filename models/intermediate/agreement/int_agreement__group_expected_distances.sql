-- One row per (rater group, question): the distance sums of the figures' chance disagreements,
-- over pairs of values drawn regardless of unit (δ from `int_agreement__value_distances`).
-- `pairable_distance` pairs the group's values on its pairable units (≥ 2 of its values) with
-- each other: Krippendorff's expected disagreement. `cross_distance` pairs the group's values
-- with the outsiders' on the units both gave values to: xRR's.
with

group_unit_counts as (

    select * from {{ ref('int_agreement__group_unit_counts') }}

),

group_units as (

    select * from {{ ref('int_agreement__group_units') }}

),

value_distances as (

    select * from {{ ref('int_agreement__value_distances') }}

),

value_totals as (

    select
        group_units.group_id,
        group_units.question_id,
        group_unit_counts.value_code,
        sum(group_unit_counts.n_in_group) filter (where group_units.n_in_group >= 2) as n_pairable,
        sum(group_unit_counts.n_in_group) filter (where group_units.n_outside_group >= 1) as n_shared_in_group,
        sum(group_unit_counts.n_outside_group) filter (where group_units.n_outside_group >= 1) as n_shared_outside
    from group_unit_counts
    inner join group_units
        on
            group_unit_counts.group_id = group_units.group_id
            and group_unit_counts.unit_id = group_units.unit_id
    group by group_units.group_id, group_units.question_id, group_unit_counts.value_code

),

final as (

    select
        value_a.group_id,
        value_a.question_id,
        sum(value_a.n_pairable * value_b.n_pairable * value_distances.distance) as pairable_distance,
        sum(value_a.n_shared_in_group * value_b.n_shared_outside * value_distances.distance) as cross_distance
    from value_totals as value_a
    inner join value_totals as value_b
        on
            value_a.group_id = value_b.group_id
            and value_a.question_id = value_b.question_id
    inner join value_distances
        on
            value_a.question_id = value_distances.question_id
            and value_a.value_code = value_distances.value_a
            and value_b.value_code = value_distances.value_b
    group by value_a.group_id, value_a.question_id

)

select * from final
