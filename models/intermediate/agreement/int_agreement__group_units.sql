-- One row per (rater group, unit where the group gave a value): how many values the group and
-- the raters outside it gave there, and the entropy and plurality share of the group's own
-- values on the unit (`agreement` averages them per group; `rating_distributions` reads the
-- group `all`'s). Straight from the values, beside the figures: `agreement` waits for no more.
with

agreement_values as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_agreement_value

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

unit_totals as (

    select
        unit_id,
        any_value(question_id) as question_id,
        count(*) as n_values
    from agreement_values
    group by unit_id

),

group_value_counts as (

    select
        rater_groups.group_id,
        agreement_values.unit_id,
        count(*) as n_in_group
    from agreement_values
    inner join rater_groups on agreement_values.rater_id = rater_groups.rater_id
    group by rater_groups.group_id, agreement_values.unit_id, agreement_values.value_code

),

group_values as (

    select
        group_id,
        unit_id,
        cast(sum(n_in_group) as bigint) as n_in_group,
        max(n_in_group) as n_plurality
    from group_value_counts
    group by group_id, unit_id

),

value_entropies as (

    select
        group_value_counts.group_id,
        group_value_counts.unit_id,
        -sum(
            group_value_counts.n_in_group / group_values.n_in_group
            * ln(group_value_counts.n_in_group / group_values.n_in_group)
        ) as entropy
    from group_value_counts
    inner join group_values
        on
            group_value_counts.group_id = group_values.group_id
            and group_value_counts.unit_id = group_values.unit_id
    group by group_value_counts.group_id, group_value_counts.unit_id

),

final as (

    select
        group_values.group_id,
        group_values.unit_id,
        unit_totals.question_id,
        group_values.n_in_group,
        unit_totals.n_values - group_values.n_in_group as n_outside_group,
        value_entropies.entropy + 0.0 as entropy,  -- + 0.0: a unanimous unit has entropy 0, not -0
        group_values.n_plurality / group_values.n_in_group as plurality_share
    from group_values
    inner join unit_totals on group_values.unit_id = unit_totals.unit_id
    inner join value_entropies
        on
            group_values.group_id = value_entropies.group_id
            and group_values.unit_id = value_entropies.unit_id

)

select * from final
