-- One row per score DUO publishes, of both kinds: the user's own (subjective, one per metric of
-- their dialogue) and each third-party annotator's (objective, the annotator slot its position in
-- the metric's list, beside the published mean the list summarises). The one place DUO's scores
-- are read out of the files: ratings, judgements and raters read them here.
with

dialogues as (

    select
        dialogue_key,
        language,
        path_setting as setting,
        subjective_evaluation
    from {{ ref('stg_duo__dialogues') }}
    where subjective_evaluation is not null

),

objective_metrics as (

    select * from {{ ref('int_duo__objective_metrics') }}

),

subjective_metrics as (

    select
        dialogue_key,
        language,
        setting,
        subjective_evaluation,
        unnest(json_keys(subjective_evaluation)) as metric
    from dialogues

),

subjective as (

    select
        dialogue_key,
        language,
        setting,
        'subjective' as rating_kind,
        metric,
        cast(null as bigint) as annotator_slot,
        subjective_evaluation -> metric as score_json,
        cast(null as double) as published_mean
    from subjective_metrics

),

objective as (

    select
        dialogue_key,
        language,
        setting,
        'objective' as rating_kind,
        metric,
        unnest(cast(scores_raw as json[])) as score_json,
        generate_subscripts(cast(scores_raw as json[]), 1) as annotator_slot,
        published_mean
    from objective_metrics
    where json_type(cast(scores_raw as json)) = 'ARRAY'

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
        {{ duo_score_columns('score_json') }},
        published_mean
    from scores

)

select * from final
