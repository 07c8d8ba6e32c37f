-- One row per (unit, rater): how many values the rater gave on the unit (more than one when
-- they rated it again), how many of their judgements are missing, their lowest and highest
-- value code (equal when all their values on the unit are the same) and the sum of their
-- numeric values. The grain of the rater agreement and of the raters-per-unit counts.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

final as (

    select
        agreement_values.unit_id,
        agreement_values.rater_number,
        count(agreement_values.value_code) as n_values,
        count(*) - count(agreement_values.value_code) as n_missing,
        min(agreement_values.value_code) as lowest_value_code,
        max(agreement_values.value_code) as highest_value_code,
        sum(value_labels.value_numeric) as value_sum
    from agreement_values
    left join value_labels on agreement_values.value_code = value_labels.value_code
    group by agreement_values.unit_id, agreement_values.rater_number

)

select * from final
