-- One row per unit of a question that several raters judge: what the agreement models count
-- values of. Counts are over the raters not excluded: their first judgements with a value,
-- their repeats and their judgements without a value. The mean and sample SD of the values are
-- those of their codes, which are the scores of an interval question (`judgement_labels`).
with

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}

),

judged_units as (

    select * from {{ ref('int_agreement__judged_units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where several_raters_per_unit

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where not is_excluded

),

unit_judgements as (

    select
        first_judgements.unit_id,
        count(first_judgements.value_code) as n_values,
        avg(first_judgements.value_code) as mean_value,
        stddev_samp(first_judgements.value_code) as sd_value,
        sum(greatest(first_judgements.n_values - 1, 0)) as n_repeats,
        sum(first_judgements.n_missing) as n_missing
    from first_judgements
    inner join raters on first_judgements.rater_id = raters.rater_id
    group by first_judgements.unit_id

),

final as (

    select
        judged_units.unit_id,
        judged_units.question_id,
        judged_units.unit_key,
        judged_units.dialogue_key,
        judged_units.movie_id,
        unit_judgements.n_values,
        unit_judgements.mean_value,
        unit_judgements.sd_value,
        cast(unit_judgements.n_repeats as bigint) as n_repeats,
        cast(unit_judgements.n_missing as bigint) as n_missing
    from unit_judgements
    inner join judged_units on unit_judgements.unit_id = judged_units.unit_id
    inner join questions on judged_units.question_id = questions.question_id

)

select * from final
