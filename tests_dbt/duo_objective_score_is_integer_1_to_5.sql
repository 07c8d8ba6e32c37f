-- The card: every third-party score is an integer 1-5. Tested where the scores first appear (the
-- staged dialogue's objective_evaluation), so that it runs even where a test of the staged
-- dialogues fails and dbt skips int_duo__scores after them: one row per score off the scale,
-- naming the dialogue, its file, the metric and the annotator slot. A value that is no number fails
-- duo_objective_score_is_a_json_number instead.
with

evaluations as (

    select
        dialogue_key,
        file_path,
        objective_evaluation,
        unnest(json_keys(objective_evaluation)) as evaluation_key
    from {{ ref('stg_duo__dialogues') }}
    where objective_evaluation is not null

),

score_lists as (

    select
        dialogue_key,
        file_path,
        regexp_replace(evaluation_key, '_scores$', '') as metric,
        objective_evaluation -> evaluation_key as scores
    from evaluations
    where
        evaluation_key like '%\_scores' escape '\'
        and json_type(objective_evaluation -> evaluation_key) = 'ARRAY'

),

scores as (

    select
        dialogue_key,
        file_path,
        metric,
        unnest(cast(scores as json[])) as score_json,
        generate_subscripts(cast(scores as json[]), 1) as annotator_slot
    from score_lists

),

final as (

    select
        dialogue_key,
        file_path,
        metric,
        annotator_slot,
        {{ duo_score_columns('score_json') }}
    from scores

)

select
    dialogue_key,
    file_path,
    metric,
    annotator_slot,
    score_raw,
    score
from final
where
    score_problem is null
    and not (score between 1 and 5 and score = floor(score))
