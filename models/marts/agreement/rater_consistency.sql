-- How often raters repeat themselves: one row per (rater, scope, rating kind, question) where the
-- rater judged a unit again (DICES 990's later phases), and one row per (scope, rating kind,
-- question) with rater_key null pooling every rater's repeats. A repeat is a judgement with a
-- value after the rater's first of the unit; it is identical when it gives the same value.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where value_code is not null

),

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where n_values > 1

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where not is_excluded

),

repeats as (

    select
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.rater_key,
        judgements.value_code = first_judgements.value_code as is_identical
    from judgements
    inner join first_judgements
        on
            judgements.source = first_judgements.source
            and judgements.scope = first_judgements.scope
            and judgements.rating_kind = first_judgements.rating_kind
            and judgements.question = first_judgements.question
            and judgements.unit_key = first_judgements.unit_key
            and judgements.rater_key = first_judgements.rater_key
    inner join raters on judgements.rater_key = raters.rater_key
    where judgements.judgement_order <> first_judgements.first_judgement_order

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
    from repeats
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

final as (

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

)

select * from final
