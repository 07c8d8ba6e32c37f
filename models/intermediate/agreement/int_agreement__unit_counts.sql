-- One row per unit the agreement figures count (a question several raters judge) with a
-- judgement of a rater not excluded: its keys, its values, one per rater, their repeats and the judgements
-- without a value. The mean and sample SD of the values are those of their codes, which are the
-- scores of an interval question (`judgement_labels`).
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and several_raters_per_unit and not is_excluded and not is_judge

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

unit_judgements as (

    select
        unit_id,
        count(value_code) as n_values,
        avg(value_code) as mean_value,
        stddev_samp(value_code) as sd_value,
        cast(sum(greatest(n_values - 1, 0)) as bigint) as n_repeats,
        cast(sum(n_missing) as bigint) as n_missing
    from judgements
    group by unit_id

),

final as (

    select
        units.unit_id,
        units.question_id,
        units.dialogue_key,
        units.movie_id,
        unit_judgements.n_values,
        unit_judgements.mean_value,
        unit_judgements.sd_value,
        unit_judgements.n_repeats,
        unit_judgements.n_missing
    from unit_judgements
    inner join units on unit_judgements.unit_id = units.unit_id

)

select * from final
