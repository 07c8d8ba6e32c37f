{#-
    Every DICES answer must be a label of its question's label set (`judgement_labels`: Q1's
    sentences or Yes / No / Unsure); a null answer fails too. The answers are integer codes, so the check runs once per
    distinct (question, answer) pair and then names every offending record: release, item,
    rater, CSV id, question, label set and value.
-#}
{% test dices_answers_in_vocabulary(model) %}

with

answers as (

    select * from {{ model }}

),

answer_rows as (

    select * from {{ ref('int_dices__rows') }}

),

questions as (

    select * from {{ ref('int_dices__questions') }}

),

answer_texts as (

    select * from {{ ref('int_dices__answer_texts') }}

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}

),

pairs as (

    select distinct
        question_ref,
        answer_ref
    from answers

),

offending_pairs as (

    select
        pairs.question_ref,
        pairs.answer_ref,
        questions.question,
        questions.label_set,
        answer_texts.answer as value
    from pairs
    inner join questions on pairs.question_ref = questions.question_ref
    left join answer_texts on pairs.answer_ref = answer_texts.answer_ref
    where not exists (
        select 1
        from judgement_labels
        where
            judgement_labels.label_set = questions.label_set
            and judgement_labels.value_text = answer_texts.answer
    )

)

select
    answer_rows.dataset_config,
    answer_rows.item_id,
    answer_rows.rater_id,
    answer_rows.source_row_id,
    offending_pairs.question,
    offending_pairs.label_set,
    offending_pairs.value
from answers
inner join offending_pairs
    on
        answers.question_ref = offending_pairs.question_ref
        and answers.answer_ref is not distinct from offending_pairs.answer_ref
inner join answer_rows on answers.row_ref = answer_rows.row_ref

{% endtest %}
