-- For each rater group and each unit where the group gave a value: every value given there,
-- with how many of the group's raters gave it and how many raters outside the group did. The
-- counts the groups' distributions, entropy and plurality share are computed from. The group `all`
-- holds every rater, so no one is outside it.
with

agreement_values as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_agreement_value

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

group_value_counts as (

    select
        rater_groups.group_id,
        agreement_values.unit_id,
        agreement_values.value_code,
        count(*) as n_in_group
    from agreement_values
    inner join rater_groups on agreement_values.rater_id = rater_groups.rater_id
    group by rater_groups.group_id, agreement_values.unit_id, agreement_values.value_code

),

group_units as (

    select distinct
        group_id,
        unit_id
    from group_value_counts

),

final as (

    select
        group_units.group_id,
        group_units.unit_id,
        unit_value_counts.value_code,
        coalesce(group_value_counts.n_in_group, 0) as n_in_group,
        unit_value_counts.n_values - coalesce(group_value_counts.n_in_group, 0) as n_outside_group
    from group_units
    inner join unit_value_counts on group_units.unit_id = unit_value_counts.unit_id
    left join group_value_counts
        on
            group_units.group_id = group_value_counts.group_id
            and group_units.unit_id = group_value_counts.unit_id
            and unit_value_counts.value_code = group_value_counts.value_code

)

select * from final
