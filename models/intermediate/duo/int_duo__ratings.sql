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

subjective as (

    select
        subjective_scores.dialogue_key || ':subjective:' || subjective_scores.metric as rating_id,
        subjective_scores.dialogue_key,
        dialogues.user_key as rater_key,
        'subjective' as rating_kind,
        subjective_scores.metric as question,
        subjective_scores.score as value_numeric,
        subjective_scores.score_raw as value_raw
    from subjective_scores
    inner join dialogues on subjective_scores.dialogue_key = dialogues.dialogue_key

),

objective as (

    select
        dialogue_key || ':objective:' || metric || ':' || annotator_slot as rating_id,
        dialogue_key,
        {{ duo_annotator_key('dialogue_key', 'annotator_slot') }} as rater_key,
        'objective' as rating_kind,
        metric as question,
        annotator_slot,
        score as value_numeric,
        score_raw as value_raw,
        published_mean
    from objective_scores

),

unioned as (

    select * from subjective
    union all by name
    select * from objective

),

final as (

    select
        *,
        'duo' as source
    from unioned

)

select * from final
