-- One row per unit of a question that several raters judge, numbered: what the agreement models
-- count values of. Counts are over the raters not excluded: their first judgements with a value,
-- their repeats and their judgements without a value. The mean and sample SD of the values are
-- those of their codes, which are the scores of an interval question (`judgement_labels`).
with

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}

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
        questions.question_id,
        first_judgements.unit_key,
        first_judgements.dialogue_key,
        first_judgements.movie_id,
        count(first_judgements.value_code) as n_values,
        avg(first_judgements.value_code) as mean_value,
        stddev_samp(first_judgements.value_code) as sd_value,
        sum(greatest(first_judgements.n_values - 1, 0)) as n_repeats,
        sum(first_judgements.n_missing) as n_missing
    from first_judgements
    inner join questions
        on
            first_judgements.source = questions.source
            and first_judgements.scope = questions.scope
            and first_judgements.rating_kind = questions.rating_kind
            and first_judgements.question = questions.question
    inner join raters on first_judgements.rater_key = raters.rater_key
    group by questions.question_id, first_judgements.unit_key, first_judgements.dialogue_key, first_judgements.movie_id

),

final as (

    select
        cast(row_number() over (order by question_id, unit_key) as integer) as unit_id,
        question_id,
        unit_key,
        dialogue_key,
        movie_id,
        n_values,
        mean_value,
        sd_value,
        cast(n_repeats as bigint) as n_repeats,
        cast(n_missing as bigint) as n_missing
    from unit_judgements

)

select * from final
