-- One row per score DUO publishes, of both kinds: the user's own (subjective, one per metric of
-- their dialogue) and each third-party annotator's (objective, the annotator slot its position in
-- the metric's list, beside the published mean the list summarises), with who gave it. The one
-- place DUO's scores are read out of the files: ratings, judgements and raters read them here.
with

dialogues as (

    select
        dialogue_key,
        language,
        path_setting as setting,
        user_id,
        subjective_evaluation,
        objective_evaluation
    from {{ ref('stg_duo__dialogues') }}

),

subjective_metrics as (

    select
        dialogue_key,
        language,
        setting,
        user_id,
        subjective_evaluation,
        unnest(json_keys(subjective_evaluation)) as metric
    from dialogues
    where subjective_evaluation is not null

),

subjective as (

    select
        dialogue_key,
        language,
        setting,
        'subjective' as rating_kind,
        metric,
        user_id,
        cast(null as bigint) as annotator_slot,
        subjective_evaluation -> metric as score_json,
        cast(null as double) as published_mean
    from subjective_metrics

),

objective_keys as (

    select
        dialogue_key,
        language,
        setting,
        objective_evaluation,
        unnest(json_keys(objective_evaluation)) as evaluation_key
    from dialogues
    where objective_evaluation is not null

),

-- an objective evaluation writes each metric twice: `<metric>` the published mean and
-- `<metric>_scores` the annotators' list it summarises (int_duo__objective_metrics checks the pair)
objective_lists as (

    select
        dialogue_key,
        language,
        setting,
        regexp_replace(evaluation_key, '_scores$', '') as metric,
        objective_evaluation -> evaluation_key as score_list,
        try_cast(objective_evaluation ->> regexp_replace(evaluation_key, '_scores$', '') as double) as published_mean
    from objective_keys
    where
        evaluation_key like '%\_scores' escape '\'
        and json_type(objective_evaluation -> evaluation_key) = 'ARRAY'

),

objective as (

    select
        dialogue_key,
        language,
        setting,
        'objective' as rating_kind,
        metric,
        unnest(cast(score_list as json[])) as score_json,
        generate_subscripts(cast(score_list as json[]), 1) as annotator_slot,
        published_mean
    from objective_lists

),

scores as (

    select * from subjective
    union all by name
    select * from objective

),

final as (

    select
        dialogue_key,
        language,
        setting,
        rating_kind,
        metric,
        annotator_slot,
        -- the user who talked in the dialogue rated it (subjective); the annotators are anonymous
        -- slots per dialogue (objective)
        case
            when rating_kind = 'subjective' then {{ duo_user_key('language', 'user_id') }}
            else {{ duo_annotator_key('dialogue_key', 'annotator_slot') }}
        end as rater_key,
        {{ duo_score_columns('score_json') }},
        published_mean
    from scores

)

select * from final
