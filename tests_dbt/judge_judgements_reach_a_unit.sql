-- Every judge's judgement meets a unit the humans judged, with a value of its question. The ingest
-- checks dialogue, question, movie and value against the build it was loaded beside, so a row here
-- is a judgement loaded against an older build: its unit is gone (a release reloaded without it),
-- or its value is no longer a label of the question (a dataset reloaded with other labels; the
-- build codes a judge's value by the labels of the day). A warning: the build publishes, these
-- judgements are set aside (no figure of the judges' marts uses them), and each row names its
-- judge, question, file and line, why, and the command that drops them for good (loading the
-- judge's file again checks it against this build: their rows become rejects, the rest replaces
-- the judge).
{{ config(severity='warn') }}

with

judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

keyed as (

    select * from {{ ref('int_judges__judgements') }}

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

-- each human question's units by their text keys, with the labels a judge's value must be one of
units_of_questions as (

    select distinct
        questions.source,
        questions.question,
        units.dialogue_key,
        units.movie_id,
        questions.label_set
    from units
    inner join questions on units.question_id = questions.question_id

),

label_lists as (

    select
        label_set,
        string_agg(value_text, ', ' order by value_code) as labels
    from judgement_labels
    group by label_set

),

reached as (

    select distinct
        keyed.judge,
        units.dialogue_key,
        questions.question,
        units.movie_id
    from keyed
    inner join units on keyed.unit_id = units.unit_id
    inner join questions on keyed.question_id = questions.question_id

),

final as (

    select
        judgements.judge,
        judgements.dialogue_key,
        judgements.question,
        judgements.movie_id,
        judgements.value_text,
        case
            when units_of_questions.dialogue_key is null then 'its unit is not in this build'
            else
                'value ' || judgements.value_text || ' is not a value of ' || judgements.question
                || coalesce(' in this build (' || label_lists.labels || ')', '')
        end as reason,
        judgements.source_file,
        judgements.line_number,
        'dwh ingest --judges ' || judgements.source_file as to_drop_them
    from judgements
    left join reached
        on
            judgements.judge = reached.judge
            and judgements.dialogue_key = reached.dialogue_key
            and judgements.question = reached.question
            and judgements.movie_id is not distinct from reached.movie_id
    left join units_of_questions
        on
            judgements.source = units_of_questions.source
            and judgements.question = units_of_questions.question
            and judgements.dialogue_key = units_of_questions.dialogue_key
            and judgements.movie_id is not distinct from units_of_questions.movie_id
    left join label_lists on units_of_questions.label_set = label_lists.label_set
    where reached.judge is null

)

select * from final
