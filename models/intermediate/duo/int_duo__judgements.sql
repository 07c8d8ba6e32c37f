-- DUO's judgements for the agreement models: every score of a dialogue, the user's (subjective)
-- and its three annotators' (objective), as the value code of the 1–5 label set. A unit is a
-- (dialogue, metric); the scope is the dialogue's language and setting. DUO has no repeats.
with

ratings as (

    select * from {{ ref('int_duo__ratings') }}

),

dialogues as (

    select * from {{ ref('int_duo__dialogues') }}

),

final as (

    select
        ratings.source,
        dialogues.language || ':' || dialogues.setting as scope,
        ratings.rating_kind,
        ratings.question,
        ratings.dialogue_key as unit_key,
        ratings.dialogue_key,
        cast(null as varchar) as movie_id,
        ratings.rater_key,
        cast(ratings.value_numeric as integer) as value_code,
        cast(null as varchar) as judgement_round,
        cast(null as bigint) as judgement_row
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key

)

select * from final
