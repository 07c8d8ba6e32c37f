-- Every judgement the agreement models compare, one row per (rater, unit, judgement): the
-- `int_<source>__judgements` models that `source_models('judgements')` lists, in one long shape,
-- with what the `judgement_questions` and `judgement_labels` seeds say of them: a value the
-- question's labels count as missing is no value (null), and `judgement_order` orders a rater's
-- judgements of a unit (by round, then row in the release; nulls last). A judgement of a
-- question the seed does not list is left out here and fails `judgements_fit_their_questions`.
-- Optional columns a source may leave out (null here): answer_time_ms. A view: its readers each
-- read it once.
{{ config(materialized='view') }}

with

judgements as (

    {{ union_source_models('judgements') }}

),

judgement_questions as (

    select * from {{ ref('int_agreement__judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}

),

final as (

    select
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.unit_key,
        judgements.dialogue_key,
        judgements.movie_id,
        judgements.rater_key,
        case when not judgement_labels.counts_as_missing then judgements.value_code end as value_code,
        { 'round': judgements.judgement_round, 'row': judgements.judgement_row } as judgement_order,
        judgements.answer_time_ms
    from judgements
    inner join judgement_questions
        on
            judgements.source = judgement_questions.source
            and judgements.rating_kind = judgement_questions.rating_kind
            and judgements.question = judgement_questions.question
    left join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and judgements.value_code = judgement_labels.value_code

)

select * from final
