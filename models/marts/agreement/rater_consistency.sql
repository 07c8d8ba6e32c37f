-- How often raters repeat themselves: one row per (rater, scope, rating kind, question) where the
-- rater judged a unit again (DICES 990's later phases), and one row per (scope, rating kind,
-- question) with rater_key null pooling every rater's repeats. A repeat is a judgement with a
-- value after the rater's first of the unit; it is identical when it gives the same value.
with

repeats as (

    select * from {{ ref('int_agreement__repeats') }}
    where not is_first

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where not is_excluded

),

rater_repeats as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        repeats.rater_key,
        repeats.value_code = repeats.first_value_code as is_identical
    from repeats
    inner join questions on repeats.question_id = questions.question_id
    inner join raters on repeats.rater_id = raters.rater_id

),

per_rater as (

    select
        rater_key,
        source,
        scope,
        rating_kind,
        question,
        count(*) as n_repeats,
        count(*) filter (where is_identical) as n_identical
    from rater_repeats
    group by rater_key, source, scope, rating_kind, question

),

pooled as (

    select
        cast(null as varchar) as rater_key,
        source,
        scope,
        rating_kind,
        question,
        sum(n_repeats) as n_repeats,
        sum(n_identical) as n_identical
    from per_rater
    group by source, scope, rating_kind, question

),

per_rater_and_pooled as (

    select * from per_rater
    union all
    select * from pooled

),

mart_rows as (

    select
        rater_key,
        source,
        scope,
        rating_kind,
        question,
        cast(n_repeats as bigint) as n_repeats,
        cast(n_identical as bigint) as n_identical,
        n_identical / n_repeats as share_identical
    from per_rater_and_pooled

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
