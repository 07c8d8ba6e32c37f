-- One row per (objective-evaluated dialogue, metric): the published mean next to the
-- individual annotator scores it summarises.
with

dialogues as (

    select
        dialogue_key,
        language,
        path_setting as setting,
        objective_evaluation
    from {{ ref('stg_duo__dialogues') }}
    where objective_evaluation is not null

),

evaluation_keys as (

    select
        dialogue_key,
        language,
        setting,
        objective_evaluation,
        unnest(json_keys(objective_evaluation)) as evaluation_key
    from dialogues

),

metrics as (

    select
        dialogue_key,
        language,
        setting,
        regexp_replace(evaluation_key, '_scores$', '') as metric,
        max(case when evaluation_key not like '%\_scores' escape '\' then objective_evaluation ->> evaluation_key end)
            as published_mean_raw,
        max(case when evaluation_key like '%\_scores' escape '\' then objective_evaluation -> evaluation_key end)
            as scores
    from evaluation_keys
    group by all

),

final as (

    select
        dialogue_key,
        language,
        setting,
        metric,
        published_mean_raw,
        try_cast(published_mean_raw as double) as published_mean,
        cast(scores as varchar) as scores_raw,
        list_avg(list_transform(cast(scores as json[]), score -> {{ duo_score_number('score') }}))
            as mean_of_scores,
        coalesce(json_array_length(scores), 0) as n_scores,
        coalesce(len(list_filter(cast(scores as json[]), score -> {{ duo_score_problem('score') }} is not null)), 0)
            as n_scores_not_numbers
    from metrics

)

select * from final
