-- One row per (rater group, unit where the group gave a value): the sums the group's figures
-- are built from. Distances are summed over ordered pairs of values (δ from
-- `int_agreement__value_distances`): `within_group_distance` over pairs of the group's own values
-- (Krippendorff's observed disagreement on the unit), `cross_distance` over pairs of one of the
-- group's values and one of an outsider's (xRR's). Entropy and plurality share describe the
-- group's own values on the unit.
with

group_unit_counts as (

    select * from {{ ref('int_agreement__group_unit_counts') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

value_distances as (

    select * from {{ ref('int_agreement__value_distances') }}

),

value_pairs as (

    select
        value_a.group_id,
        value_a.unit_id,
        sum(value_a.n_in_group * value_b.n_in_group * value_distances.distance) as within_group_distance,
        sum(value_a.n_in_group * value_b.n_outside_group * value_distances.distance) as cross_distance
    from group_unit_counts as value_a
    inner join group_unit_counts as value_b
        on
            value_a.group_id = value_b.group_id
            and value_a.unit_id = value_b.unit_id
    inner join units on value_a.unit_id = units.unit_id
    inner join value_distances
        on
            units.question_id = value_distances.question_id
            and value_a.value_code = value_distances.value_a
            and value_b.value_code = value_distances.value_b
    -- a value no rater of the group gave adds nothing to either sum (every group's unit has one)
    where value_a.n_in_group > 0
    group by value_a.group_id, value_a.unit_id

),

group_values as (

    select
        group_id,
        unit_id,
        cast(sum(n_in_group) as bigint) as n_in_group,
        cast(sum(n_outside_group) as bigint) as n_outside_group,
        max(n_in_group) as n_plurality
    from group_unit_counts
    group by group_id, unit_id

),

value_entropies as (

    select
        group_unit_counts.group_id,
        group_unit_counts.unit_id,
        -sum(
            group_unit_counts.n_in_group / group_values.n_in_group
            * ln(group_unit_counts.n_in_group / group_values.n_in_group)
        ) as entropy
    from group_unit_counts
    inner join group_values
        on
            group_unit_counts.group_id = group_values.group_id
            and group_unit_counts.unit_id = group_values.unit_id
    where group_unit_counts.n_in_group > 0
    group by group_unit_counts.group_id, group_unit_counts.unit_id

),

final as (

    select
        group_values.group_id,
        group_values.unit_id,
        units.question_id,
        group_values.n_in_group,
        group_values.n_outside_group,
        value_pairs.within_group_distance,
        value_pairs.cross_distance,
        value_entropies.entropy + 0.0 as entropy,  -- + 0.0: a unanimous unit has entropy 0, not -0
        group_values.n_plurality / group_values.n_in_group as plurality_share
    from group_values
    inner join units on group_values.unit_id = units.unit_id
    inner join value_pairs
        on
            group_values.group_id = value_pairs.group_id
            and group_values.unit_id = value_pairs.unit_id
    inner join value_entropies
        on
            group_values.group_id = value_entropies.group_id
            and group_values.unit_id = value_entropies.unit_id

)

select * from final
