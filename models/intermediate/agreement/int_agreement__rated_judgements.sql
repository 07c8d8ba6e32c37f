-- The DUO objective scores of `ratings` with their question's number: the one place that matches
-- such a rating to its (source, scope, rating kind, question). ReDial form answers reach the
-- agreement models as the two forms' answers side by side (`int_agreement__redial_form_units`),
-- DICES answers as the releases' records. A view: the value labels and the values each read it
-- once, as they did `ratings`.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind = 'objective'

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
