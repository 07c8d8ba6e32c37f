-- One row per (unit, rater who judged it more than once): how many values the rater gave there,
-- how many of their judgements are missing, their lowest and highest value code (equal when
-- all their values on the unit are the same) and the sum of their numeric values. Raters with
-- one judgement on a unit need none of this: their judgement row says it all.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}
    where n_rater_judgements > 1

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

final as (

    select
        agreement_values.unit_id,
        agreement_values.rater_number,
        agreement_values.question_id,
        cast(count(agreement_values.value_code) as integer) as n_values,
        cast(count(*) - count(agreement_values.value_code) as integer) as n_missing,
        min(agreement_values.value_code) as lowest_value_code,
        max(agreement_values.value_code) as highest_value_code,
        sum(value_labels.value_numeric) as value_sum
    from agreement_values
    left join value_labels
        on
            agreement_values.question_id = value_labels.question_id
            and agreement_values.value_code = value_labels.value_code
    group by agreement_values.unit_id, agreement_values.rater_number, agreement_values.question_id

)

select * from final
