-- The DUO objective scores and ReDial form answers of `ratings` with their question's number:
-- the one place that matches a rating to its (source, scope, rating kind, question). A view: the
-- units, the value labels and the values each read it once, as they did `ratings`.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in {{ agreement_unit_rating_kinds() }}

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

final as (

    select
        questions.question_id,
        ratings.dialogue_key,
        ratings.movie_id,
        ratings.rater_key,
        ratings.rating_kind,
        ratings.question,
        ratings.value_numeric
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key
    inner join questions
        on
            dialogues.source = questions.source
            and {{ agreement_scope('dialogues') }} = questions.scope
            and ratings.rating_kind = questions.rating_kind
            and ratings.question = questions.question

)

select * from final
