-- How often each rater group gave each value on each unit (missing judgements left out): the
-- counts Krippendorff's α, xRR and the group's disagreement measures are computed from.
-- One row per (group, unit, value). The `all` group's counts are the units' own counts; only
-- the demographic groups are counted from the judgements.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

everyone as (

    select distinct group_id from rater_groups
    where group_dimension = 'all'

),

demographic_groups as (

    select * from rater_groups
    where group_dimension <> 'all'

),

everyone_counts as (

    select
        everyone.group_id,
        unit_value_counts.unit_id,
        unit_value_counts.value_code,
        unit_value_counts.n_values
    from unit_value_counts
    cross join everyone

),

demographic_counts as (

    select
        demographic_groups.group_id,
        agreement_values.unit_id,
        agreement_values.value_code,
        cast(count(*) as integer) as n_values
    from agreement_values
    inner join demographic_groups on agreement_values.rater_number = demographic_groups.rater_number
    where agreement_values.value_code is not null
    group by demographic_groups.group_id, agreement_values.unit_id, agreement_values.value_code

),

final as (

    select * from everyone_counts
    union all
    select * from demographic_counts

)

select * from final
