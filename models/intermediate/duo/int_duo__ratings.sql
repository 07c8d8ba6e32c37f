-- DUO's scores in the shape of the `ratings` mart, each with its rater.
with

scores as (

    select * from {{ ref('int_duo__scores') }}

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
        scores.rater_key,
        scores.rating_kind,
        scores.metric as question,
        scores.annotator_slot,
        scores.score as value_numeric,
        scores.score_raw as value_raw,
        scores.published_mean,
        'duo' as source
    from scores

)

select * from final
