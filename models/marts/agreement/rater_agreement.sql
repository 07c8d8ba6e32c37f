-- One row per (rater, scope, rating kind, question): how often the rater sides with the
-- plurality of the other raters on the units they rated.
with

rater_questions as (

    select * from {{ ref('int_agreement__rater_questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

final as (

    select
        raters.rater_key,
        rater_questions.source,
        rater_questions.scope,
        rater_questions.rating_kind,
        rater_questions.question,
        rater_questions.n_units,
        cast(rater_questions.n_values as bigint) as n_ratings,
        cast(rater_questions.n_missing as bigint) as n_missing,
        cast(rater_questions.n_compared as bigint) as n_compared,
        cast(rater_questions.n_agreeing as bigint) as n_agreeing,
        rater_questions.n_agreeing / nullif(rater_questions.n_compared, 0) as agreement_with_others,
        case
            when rater_questions.level_of_measurement = 'interval'
                then rater_questions.value_sum / nullif(rater_questions.n_values, 0)
        end as mean_value
    from rater_questions
    inner join raters on rater_questions.rater_number = raters.rater_number

)

select * from final
