-- One row per unit of every question with judgements, numbered: the small integers the agreement
-- and judge models key a question and a unit by, in place of their text keys. Questions are
-- numbered in the order of (source, scope, rating kind, question), a question's units in the order
-- of their keys. Only the questions the seeds list (`int_agreement__judgement_questions`).
with

judgements as (

    {{ union_source_models('judgements') }}

),

judgement_questions as (

    select * from {{ ref('int_agreement__judgement_questions') }}

),

judged_units as (

    select distinct
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.unit_key,
        judgements.dialogue_key,
        judgements.movie_id,
        judgement_questions.several_raters_per_unit
    from judgements
    inner join judgement_questions
        on
            judgements.source = judgement_questions.source
            and judgements.rating_kind = judgement_questions.rating_kind
            and judgements.question = judgement_questions.question

),

final as (

    select
        cast(row_number() over (order by source, scope, rating_kind, question, unit_key) as integer) as unit_id,
        cast(dense_rank() over (order by source, scope, rating_kind, question) as integer) as question_id,
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        dialogue_key,
        movie_id,
        several_raters_per_unit
    from judged_units

)

select * from final
