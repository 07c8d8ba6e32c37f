-- ReDial's judgements for the agreement models: every answer of the two movie forms. A unit is
-- a (conversation, movie, question), judged by the seeker's form and the recommender's; the
-- scope is the split. The value code is the form's 0 / 1 / 2 (2, "did not say", counts as
-- missing: `judgement_labels`). The seeker's form comes first in the release, so it is the
-- first judgement should one worker have filled both forms.
with

form_answers as (

    select * from {{ ref('int_redial__form_answers') }}
    -- an entry without questions is no answer; the form-answer tests report it
    where question is not null

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
        'redial' as source,
        conversations.split as scope,
        'movie_form' as rating_kind,
        form_answers.question,
        form_answers.dialogue_key || ':' || form_answers.movie_id as unit_key,
        form_answers.dialogue_key,
        form_answers.movie_id,
        form_answers.rater_key,
        form_answers.value_numeric as value_code,
        cast(null as varchar) as judgement_round,
        case form_answers.form when 'initiator' then 1 else 2 end as judgement_row
    from form_answers
    inner join conversations on form_answers.dialogue_key = conversations.dialogue_key

)

select * from final
