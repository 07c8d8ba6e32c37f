-- Every unit with a value has its distribution. The judgements find their unit by an id computed
-- from the unit's keys in three models (`agreement_unit_id`), never by joining back to
-- `int_agreement__units`: a unit whose id there did not match would drop out of
-- `rating_distributions` without a word. Fails naming the question whose counts differ.
with

unit_counts as (

    select * from {{ ref('int_agreement__unit_counts') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

rating_distributions as (

    select * from {{ ref('rating_distributions') }}

),

units_per_question as (

    select
        question_id,
        count(*) as n_units_with_values
    from unit_counts
    group by question_id

),

distributions_per_question as (

    select
        source,
        scope,
        rating_kind,
        question,
        count(*) as n_distributions
    from rating_distributions
    group by source, scope, rating_kind, question

),

final as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        units_per_question.n_units_with_values,
        coalesce(distributions_per_question.n_distributions, 0) as n_distributions
    from units_per_question
    inner join questions on units_per_question.question_id = questions.question_id
    left join distributions_per_question
        on
            questions.source = distributions_per_question.source
            and questions.scope = distributions_per_question.scope
            and questions.rating_kind = distributions_per_question.rating_kind
            and questions.question = distributions_per_question.question
    where units_per_question.n_units_with_values <> coalesce(distributions_per_question.n_distributions, 0)

)

select * from final
