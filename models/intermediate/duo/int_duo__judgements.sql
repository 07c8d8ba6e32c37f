-- DUO's judgements for the agreement models: every score of a dialogue, the user's (subjective)
-- and its three annotators' (objective), as the value code of the 1–5 label set. A unit is a
-- (dialogue, metric); the scope is the dialogue's language and setting. DUO has no repeats.
with

scores as (

    select * from {{ ref('int_duo__scores') }}

),

final as (

    select
        'duo' as source,
        scores.language || ':' || scores.setting as scope,
        scores.rating_kind,
        scores.metric as question,
        scores.dialogue_key as unit_key,
        scores.dialogue_key,
        cast(null as varchar) as movie_id,
        scores.rater_key,
        cast(scores.score as integer) as value_code,
        cast(null as varchar) as judgement_round,
        cast(null as bigint) as judgement_row
    from scores

)

select * from final
