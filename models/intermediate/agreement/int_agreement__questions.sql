-- One row per question of a scope (source, scope, rating kind, question) that has judgements,
-- with the number `int_agreement__units` gave it: the grain of `agreement`. What the figures need
-- to know about the question comes from the `judgement_questions` seed; K is the number of its
-- labels that are values.
with

units as (

    select * from {{ ref('int_agreement__units') }}

),

judgement_questions as (

    select * from {{ ref('int_agreement__judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}

),

scoped_questions as (

    select distinct
        question_id,
        source,
        scope,
        rating_kind,
        question
    from units

),

label_set_sizes as (

    select
        label_set,
        count(*) filter (where not counts_as_missing) as n_labels
    from judgement_labels
    group by label_set

),

final as (

    select
        scoped_questions.question_id,
        scoped_questions.source,
        scoped_questions.scope,
        scoped_questions.rating_kind,
        scoped_questions.question,
        judgement_questions.level_of_measurement,
        judgement_questions.label_set,
        label_set_sizes.n_labels,
        judgement_questions.several_raters_per_unit
    from scoped_questions
    inner join judgement_questions
        on
            scoped_questions.source = judgement_questions.source
            and scoped_questions.rating_kind = judgement_questions.rating_kind
            and scoped_questions.question = judgement_questions.question
    inner join label_set_sizes on judgement_questions.label_set = label_set_sizes.label_set

)

select * from final
