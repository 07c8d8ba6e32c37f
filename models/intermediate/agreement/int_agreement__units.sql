-- One row per unit of every question with judgements: its keys, and what the agreement models
-- count of it over the raters not excluded (their first judgements with a value, their repeats
-- and their judgements without a value). `is_agreement_unit`: a unit of a question several raters
-- judge, with a judgement of a rater not excluded, what `agreement` and the distributions count;
-- the judges' models match their judgements to every unit. The mean and sample SD of the values are
-- those of their codes, which are the scores of an interval question (`judgement_labels`).
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

final as (

    select
        unit_id,
        any_value(question_id) as question_id,
        any_value(unit_key) as unit_key,
        any_value(dialogue_key) as dialogue_key,
        any_value(movie_id) as movie_id,
        bool_or(several_raters_per_unit and is_first and not is_excluded) as is_agreement_unit,
        count(value_code) filter (where is_first and not is_excluded) as n_values,
        avg(value_code) filter (where is_first and not is_excluded) as mean_value,
        stddev_samp(value_code) filter (where is_first and not is_excluded) as sd_value,
        cast(coalesce(sum(greatest(n_values - 1, 0)) filter (where is_first and not is_excluded), 0) as bigint)
            as n_repeats,
        cast(coalesce(sum(n_missing) filter (where is_first and not is_excluded), 0) as bigint) as n_missing
    from judgements
    group by unit_id

)

select * from final
