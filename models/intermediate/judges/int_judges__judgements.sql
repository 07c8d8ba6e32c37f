-- Each judge's judgements on the agreement models' units, one row per (judge, human question,
-- unit): a DUO judgement of a metric meets both its users' (subjective) and its annotators'
-- (objective) question. The value is coded here, by the question's labels of this build (a
-- label's code, `raw.value_key` matching its text), or read as a number (interval, ratio: a judge of a
-- score may give 3.5): a dataset reloaded with its labels reordered recodes its judges too. A
-- value that is no longer a label of its question has no row: the warning
-- `judge_judgements_reach_a_unit` names it.
with

judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}
    where not counts_as_missing

),

judged_units as (

    select
        judgements.judge,
        units.question_id,
        units.unit_id,
        questions.label_set,
        questions.level_of_measurement in ('interval', 'ratio') as takes_numbers,
        judgements.value_text
    from judgements
    inner join questions
        on
            judgements.source = questions.source
            and judgements.question = questions.question
    inner join units
        on
            questions.question_id = units.question_id
            and judgements.dialogue_key = units.dialogue_key
            and judgements.movie_id is not distinct from units.movie_id

),

coded as (

    select
        judged_units.judge,
        judged_units.question_id,
        judged_units.unit_id,
        if(
            judged_units.takes_numbers,
            try_cast(trim(judged_units.value_text) as double),
            judgement_labels.value_code
        ) as judge_value
    from judged_units
    left join judgement_labels
        on
            not judged_units.takes_numbers
            and judged_units.label_set = judgement_labels.label_set
            and raw.value_key(judged_units.value_text) = raw.value_key(judgement_labels.value_text)

),

final as (

    select * from coded
    where judge_value is not null

)

select * from final
