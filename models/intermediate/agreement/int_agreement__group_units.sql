-- One row per (rater group, unit where the group gave a value): how many values the group and
-- the raters outside it gave there, and the entropy and plurality share of the group's own
-- values on the unit (`agreement` averages them per group; `rating_distributions` reads the
-- group `all`'s).
with

group_unit_counts as (

    select * from {{ ref('int_agreement__group_unit_counts') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

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
        value_entropies.entropy + 0.0 as entropy,  -- + 0.0: a unanimous unit has entropy 0, not -0
        group_values.n_plurality / group_values.n_in_group as plurality_share
    from group_values
    inner join units on group_values.unit_id = units.unit_id
    inner join value_entropies
        on
            group_values.group_id = value_entropies.group_id
            and group_values.unit_id = value_entropies.unit_id

)

select * from final
