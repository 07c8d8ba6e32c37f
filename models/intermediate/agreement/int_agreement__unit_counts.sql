-- One row per unit the agreement figures count (a question several raters judge) with a
-- judgement of a rater not excluded: its values, one per rater, their repeats and the judgements
-- without a value. The mean and sample SD of the values are those of their codes, which are the
-- scores of an interval question (`judgement_labels`).
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and several_raters_per_unit and not is_excluded

),

final as (

    select
        unit_id,
        any_value(question_id) as question_id,
        count(value_code) as n_values,
        avg(value_code) as mean_value,
        stddev_samp(value_code) as sd_value,
        cast(sum(greatest(n_values - 1, 0)) as bigint) as n_repeats,
        cast(sum(n_missing) as bigint) as n_missing
    from judgements
    group by unit_id

)

select * from final
