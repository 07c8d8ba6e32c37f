-- How often each value was given on each unit (missing judgements left out), with the unit's
-- number of values, its plurality count, and what the rater agreement needs to find the
-- plurality of the other raters without a self-join: the highest count among the unit's other
-- values. The unit's missing judgements and its raters of one judgement are counted in the
-- same pass, for the distributions.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

-- the null value code counts the missing judgements
counted_with_missing as (

    select
        unit_id,
        question_id,
        value_code,
        cast(count(*) as integer) as n_values,
        cast(count(*) filter (where n_rater_judgements = 1) as integer) as n_single_judgements
    from agreement_values
    group by unit_id, question_id, value_code

),

counted as (

    select
        *,
        max(n_values) over (partition by unit_id) as top_count
    from counted_with_missing
    where value_code is not null

),

missing as (

    select
        unit_id,
        n_values as n_missing_judgements
    from counted_with_missing
    where value_code is null

),

unit_tops as (

    select
        unit_id,
        top_count,
        cast(sum(n_values) as integer) as n_unit_values,
        cast(sum(n_single_judgements) as integer) as n_single_judgement_raters,
        count(*) filter (where n_values = top_count) as n_values_at_top_count,
        max(n_values) filter (where n_values < top_count) as second_count
    from counted
    group by unit_id, top_count

),

final as (

    select
        counted.unit_id,
        counted.question_id,
        counted.value_code,
        counted.n_values,
        unit_tops.n_unit_values,
        unit_tops.top_count as plurality_count,
        case
            when counted.n_values = unit_tops.top_count and unit_tops.n_values_at_top_count = 1
                then coalesce(unit_tops.second_count, 0)
            else unit_tops.top_count
        end as max_count_of_other_values,
        unit_tops.n_single_judgement_raters,
        coalesce(missing.n_missing_judgements, 0) as n_missing_judgements
    from counted
    inner join unit_tops on counted.unit_id = unit_tops.unit_id
    left join missing on counted.unit_id = missing.unit_id

)

select * from final
