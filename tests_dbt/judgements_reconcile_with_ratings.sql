-- Nothing is lost between the `ratings` mart and the judgements the agreement models read: per
-- (source, rating kind, question), as many judgements as ratings, and as many with a value
-- (every question whose units the agreement figures count). Fails naming the question and both counts.
with

all_judgements as (

    {{ union_source_models('judgements') }}

),

ratings as (

    select
        source,
        rating_kind,
        question,
        count(*) as n_ratings,
        count(*) filter (where value_numeric is not null or value_label is not null) as n_ratings_with_a_value
    from {{ ref('ratings') }}
    group by source, rating_kind, question

),

judgements as (

    select
        source,
        rating_kind,
        question,
        count(*) as n_judgements,
        count(value_code) as n_judgements_with_a_value
    from all_judgements
    group by source, rating_kind, question

),

final as (

    select
        coalesce(ratings.source, judgements.source) as source,
        coalesce(ratings.rating_kind, judgements.rating_kind) as rating_kind,
        coalesce(ratings.question, judgements.question) as question,
        ratings.n_ratings,
        judgements.n_judgements,
        ratings.n_ratings_with_a_value,
        judgements.n_judgements_with_a_value
    from ratings
    full outer join judgements
        on
            ratings.source = judgements.source
            and ratings.rating_kind = judgements.rating_kind
            and ratings.question = judgements.question
    where
        ratings.n_ratings is distinct from judgements.n_judgements
        or ratings.n_ratings_with_a_value is distinct from judgements.n_judgements_with_a_value

)

select * from final
