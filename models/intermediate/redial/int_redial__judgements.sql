-- ReDial's judgements for the agreement models: every answer of the two movie forms. A unit is
-- a (conversation, movie, question), judged by the seeker's form and the recommender's; the
-- scope is the split. The value code is the form's 0 / 1 / 2 (2, "did not say", counts as
-- missing: `judgement_labels`). The seeker's form comes first in the release, so it is the
-- first judgement should one worker have filled both forms.
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
        ratings.dialogue_key,
        ratings.movie_id,
        ratings.rater_key,
        cast(ratings.value_numeric as integer) as value_code,
        cast(null as varchar) as judgement_round,
        case ratings.form when 'initiator' then 1 else 2 end as judgement_row
    from ratings
    inner join conversations on ratings.dialogue_key = conversations.dialogue_key

)

select * from final
