-- One row per individual third-party score: annotator slot = position in the scores list.
with

metrics as (

    select * from {{ ref('int_duo__objective_metrics') }}

),

scores as (

    select
        dialogue_key,
        language,
        metric,
        published_mean,
        unnest(cast(scores_raw as json[])) as score,
        generate_subscripts(cast(scores_raw as json[]), 1) as annotator_slot
    from metrics
    where json_type(cast(scores_raw as json)) = 'ARRAY'

),

final as (

    select
        dialogue_key,
        metric,
        annotator_slot,
        {{ duo_score_columns('score') }},
        published_mean,
        language
    from scores

)

select * from final
