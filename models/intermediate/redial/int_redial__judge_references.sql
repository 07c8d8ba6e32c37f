-- ReDial's references for the judges: the seeker's form (`seeker`) and the recommender's
-- (`recommender`), each answer of the form about a movie, in the judgements feed's shape. Their
-- raters are workers who may sit on either side in other conversations, so the reference is the
-- form, not a kind of rater (`seeds/judge_references.csv`).
with

ratings as (

    select * from {{ ref('int_redial__ratings') }}

),

-- the split straight from the conversations, not from `int_redial__dialogues`, which waits for
-- the movie mentions: the agreement models wait for this model
conversations as (

    select
        dialogue_key,
        split
    from {{ ref('stg_redial__conversations') }}

),

final as (

    select
        ratings.source,
        conversations.split as scope,
        ratings.rating_kind,
        ratings.question,
        ratings.dialogue_key || ':' || ratings.movie_id as unit_key,
        ratings.rater_key,
        ratings.form_role as reference,
        cast(ratings.value_numeric as integer) as value_code
    from ratings
    inner join conversations on ratings.dialogue_key = conversations.dialogue_key

)

select * from final
