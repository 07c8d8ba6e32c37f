-- DUO's judgements for the agreement models: every score of a dialogue, the user's (subjective)
-- and its three annotators' (objective), as the value code of the 1–5 label set. A unit is a
-- (dialogue, metric); the scope is the dialogue's language and setting. DUO has no repeats.
with

dialogues as (

    select * from {{ ref('int_duo__dialogues') }}

),

subjective_scores as (

    select * from {{ ref('int_duo__subjective_scores') }}

),

objective_scores as (

    select * from {{ ref('int_duo__objective_scores') }}

),

-- the user who talked in the dialogue rated it; the annotators are anonymous slots per dialogue
scores as (

    select
        subjective_scores.dialogue_key,
        'subjective' as rating_kind,
        subjective_scores.metric,
        dialogues.user_key as rater_key,
        subjective_scores.score
    from subjective_scores
    inner join dialogues on subjective_scores.dialogue_key = dialogues.dialogue_key
    union all
    select
        dialogue_key,
        'objective' as rating_kind,
        metric,
        {{ duo_annotator_key('dialogue_key', 'annotator_slot') }} as rater_key,
        score
    from objective_scores

),

final as (

    select
        'duo' as source,
        dialogues.language || ':' || dialogues.setting as scope,
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
    inner join dialogues on scores.dialogue_key = dialogues.dialogue_key

)

select * from final
