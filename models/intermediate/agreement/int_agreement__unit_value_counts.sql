-- How often each value was given on each unit (missing judgements left out), with the unit's
-- number of values, its plurality count, and what the rater agreement needs to find the
-- plurality of the other raters without a self-join: the highest count among the unit's other
-- values.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

counted as (

    select
        unit_id,
        value_code,
        count(*) as n_values
    from agreement_values
    where value_code is not null
    group by unit_id, value_code

),

with_top_count as (

    select
        *,
        max(n_values) over (partition by unit_id) as top_count
    from counted

),

unit_tops as (

    select
        unit_id,
        top_count,
        sum(n_values) as n_unit_values,
        count(*) filter (where n_values = top_count) as n_values_at_top_count,
        max(n_values) filter (where n_values < top_count) as second_count
    from with_top_count
    group by unit_id, top_count

),

final as (

    select
        counted.unit_id,
        counted.value_code,
        counted.n_values,
        unit_tops.n_unit_values,
        unit_tops.top_count as plurality_count,
        case
            when counted.n_values = unit_tops.top_count and unit_tops.n_values_at_top_count = 1
                then coalesce(unit_tops.second_count, 0)
            else unit_tops.top_count
        end as max_count_of_other_values
    from counted
    inner join unit_tops on counted.unit_id = unit_tops.unit_id

)

select * from final
