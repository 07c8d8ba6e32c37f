-- ReDial's references for the judges: the seeker's form (`seeker`) and the recommender's
-- (`recommender`), each answer of the form about a movie, in the judgements feed's shape. Their
-- raters are workers who may sit on either side in other conversations, so the reference is the
-- form, not a kind of rater (`seeds/judge_references.csv`).
with

ratings as (

    select * from {{ ref('int_redial__ratings') }}

),

dialogues as (

    select * from {{ ref('int_redial__dialogues') }}

),

final as (

    select
        ratings.source,
        dialogues.split as scope,
        ratings.rating_kind,
        ratings.question,
        ratings.dialogue_key || ':' || ratings.movie_id as unit_key,
        ratings.rater_key,
        ratings.form_role as reference,
        cast(ratings.value_numeric as integer) as value_code
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key

)

select * from final
