-- One row per (rater, source, scope, rating kind, question): the rater's values and how many of
-- them agree with the plurality of the other raters on the same unit. All of the rater's own
-- values on a unit are left out of the others' plurality; a value agrees when its count among
-- the others is the others' highest count (ties count as agreement). Most raters give one
-- value (or one repeated value) per unit: their plurality comes from the unit's counts without
-- any self-join. Raters who gave different values to one unit are worked out value by value.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

unit_raters as (

    select * from {{ ref('int_agreement__unit_raters') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

-- raters whose values on the unit are all the same (or all missing)
single_valued as (

    select
        unit_raters.unit_id,
        unit_raters.rater_number,
        unit_raters.n_values,
        unit_raters.n_missing,
        unit_raters.value_sum,
        coalesce(unit_value_counts.n_unit_values, 0) - unit_raters.n_values as n_other_values,
        unit_value_counts.n_values - unit_raters.n_values as n_others_same_value,
        greatest(
            unit_value_counts.n_values - unit_raters.n_values,
            unit_value_counts.max_count_of_other_values
        ) as others_plurality_count
    from unit_raters
    left join unit_value_counts
        on
            unit_raters.unit_id = unit_value_counts.unit_id
            and unit_raters.lowest_value_code = unit_value_counts.value_code
    where unit_raters.lowest_value_code is not distinct from unit_raters.highest_value_code

),

single_valued_scored as (

    select
        unit_id,
        rater_number,
        n_values,
        n_missing,
        value_sum,
        case when n_other_values > 0 then n_values else 0 end as n_compared,
        case
            when n_other_values > 0 and n_others_same_value = others_plurality_count then n_values else 0
        end as n_agreeing
    from single_valued

),

mixed_raters as (

    select * from unit_raters
    where lowest_value_code <> highest_value_code

),

mixed_own_counts as (

    select
        agreement_values.unit_id,
        agreement_values.rater_number,
        agreement_values.value_code,
        count(*) as n_own
    from agreement_values
    semi join mixed_raters
        on
            agreement_values.unit_id = mixed_raters.unit_id
            and agreement_values.rater_number = mixed_raters.rater_number
    where agreement_values.value_code is not null
    group by agreement_values.unit_id, agreement_values.rater_number, agreement_values.value_code

),

-- every value of the unit, with the rater's own count and the others' count
mixed_cells as (

    select
        mixed_raters.unit_id,
        mixed_raters.rater_number,
        coalesce(mixed_own_counts.n_own, 0) as n_own,
        unit_value_counts.n_values - coalesce(mixed_own_counts.n_own, 0) as n_others
    from mixed_raters
    inner join unit_value_counts on mixed_raters.unit_id = unit_value_counts.unit_id
    left join mixed_own_counts
        on
            mixed_raters.unit_id = mixed_own_counts.unit_id
            and mixed_raters.rater_number = mixed_own_counts.rater_number
            and unit_value_counts.value_code = mixed_own_counts.value_code

),

mixed_cells_with_plurality as (

    select
        *,
        max(n_others) over (partition by unit_id, rater_number) as others_plurality_count,
        sum(n_others) over (partition by unit_id, rater_number) as n_other_values
    from mixed_cells

),

mixed_scored as (

    select
        mixed_cells_with_plurality.unit_id,
        mixed_cells_with_plurality.rater_number,
        mixed_raters.n_values,
        mixed_raters.n_missing,
        mixed_raters.value_sum,
        sum(
            case when mixed_cells_with_plurality.n_other_values > 0 then mixed_cells_with_plurality.n_own else 0 end
        ) as n_compared,
        sum(
            case
                when
                    mixed_cells_with_plurality.n_other_values > 0
                    and mixed_cells_with_plurality.n_others = mixed_cells_with_plurality.others_plurality_count
                    then mixed_cells_with_plurality.n_own
                else 0
            end
        ) as n_agreeing
    from mixed_cells_with_plurality
    inner join mixed_raters
        on
            mixed_cells_with_plurality.unit_id = mixed_raters.unit_id
            and mixed_cells_with_plurality.rater_number = mixed_raters.rater_number
    group by all

),

scored as (

    select * from single_valued_scored
    union all by name
    select * from mixed_scored

),

final as (

    select
        scored.rater_number,
        units.question_id,
        units.source,
        units.scope,
        units.rating_kind,
        units.question,
        units.level_of_measurement,
        count(*) as n_units,
        sum(scored.n_values) as n_values,
        sum(scored.n_missing) as n_missing,
        sum(scored.n_compared) as n_compared,
        sum(scored.n_agreeing) as n_agreeing,
        sum(scored.value_sum) as value_sum
    from scored
    inner join units on scored.unit_id = units.unit_id
    group by all

)

select * from final
