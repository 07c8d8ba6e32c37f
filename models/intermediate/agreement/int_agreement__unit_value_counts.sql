-- How many raters gave each value on each unit: one row per (unit, value given there).
with

agreement_values as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_agreement_value

),

final as (

    select
        unit_id,
        value_code,
        count(*) as n_values
    from agreement_values
    group by unit_id, value_code

)

select * from final
