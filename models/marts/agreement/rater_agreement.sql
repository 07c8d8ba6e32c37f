-- One row per (rater, scope, rating kind, question): how often the rater's value on a unit is
-- the plurality value of the other raters' values there (ties count when the rater's value is
-- among the tied). Raters the exclusions seed leaves out are neither rows nor others.
with

agreement_values as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_agreement_value

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

-- for a rater who gave `value_code` on the unit: the others' values once that rater is left out
others_by_given_value as (

    select
        given.unit_id,
        given.value_code,
        sum(other.n_values) - 1 as n_others,
        any_value(given.n_values) - 1 as n_others_with_same_value,
        max(other.n_values - cast(other.value_code = given.value_code as integer)) as n_others_plurality
    from unit_value_counts as given
    inner join unit_value_counts as other on given.unit_id = other.unit_id
    group by given.unit_id, given.value_code

),

rater_questions as (

    select
        agreement_values.question_id,
        agreement_values.rater_id,
        count(*) as n_ratings,
        count(*) filter (where others.n_others > 0) as n_compared,
        count(*) filter (
            where others.n_others > 0 and others.n_others_with_same_value = others.n_others_plurality
        ) as n_agreeing,
        avg(agreement_values.value_code) as mean_value
    from agreement_values
    inner join others_by_given_value as others
        on
            agreement_values.unit_id = others.unit_id
            and agreement_values.value_code = others.value_code
    group by agreement_values.question_id, agreement_values.rater_id

),

mart_rows as (

    select
        raters.rater_key,
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        rater_questions.n_ratings,
        rater_questions.n_compared,
        rater_questions.n_agreeing,
        rater_questions.n_agreeing / nullif(rater_questions.n_compared, 0) as agreement_with_others,
        -- value codes are the scores of an interval question
        case when questions.level_of_measurement = 'interval' then rater_questions.mean_value end as mean_value
    from rater_questions
    inner join questions on rater_questions.question_id = questions.question_id
    inner join raters on rater_questions.rater_id = raters.rater_id

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
