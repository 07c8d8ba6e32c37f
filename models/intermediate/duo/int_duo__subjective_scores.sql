-- One row per metric the user gave their own dialogue.
with

dialogues as (

    select
        dialogue_key,
        path_setting as setting,
        subjective_evaluation
    from {{ ref('stg_duo__dialogues') }}
    where subjective_evaluation is not null

),

evaluation_keys as (

    select
        dialogue_key,
        setting,
        subjective_evaluation,
        unnest(json_keys(subjective_evaluation)) as metric
    from dialogues

),

scores as (

    select
        dialogue_key,
        setting,
        metric,
        subjective_evaluation -> metric as score_json
    from evaluation_keys

),

final as (

    select
        dialogue_key,
        setting,
        metric,
        {{ duo_score_columns('score_json') }}
    from scores

)

select * from final
