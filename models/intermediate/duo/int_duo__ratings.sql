-- DUO's scores in the shape of the `ratings` mart, each with its rater.
with

scores as (

    select * from {{ ref('int_duo__scores') }}

),

dialogues as (

    select * from {{ ref('int_duo__dialogues') }}

),

final as (

    select
        scores.dialogue_key
        || ':'
        || scores.rating_kind
        || ':'
        || scores.metric
        || coalesce(':' || scores.annotator_slot, '') as rating_id,
        scores.dialogue_key,
        {{ duo_rater_key('scores.rating_kind', 'dialogues.user_key', 'scores.dialogue_key', 'scores.annotator_slot') }}
            as rater_key,
        scores.rating_kind,
        scores.metric as question,
        scores.annotator_slot,
        scores.score as value_numeric,
        scores.score_raw as value_raw,
        scores.published_mean,
        'duo' as source
    from scores
    left join dialogues on scores.dialogue_key = dialogues.dialogue_key

)

select * from final
