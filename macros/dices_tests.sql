{#-
    Every value of `column_name` must be a label of a `dices_vocabularies` vocabulary: the fixed
    `vocabulary`, or the one named per row by `vocabulary_column` (answers: Q1's sentences or
    Yes / No / Unsure). Fails on each offending row, showing `show_columns` (item, rater, row),
    the vocabulary and the value, so that the build output names them.

    is_list: the column is a list; every element is checked (an empty list passes).
    case_insensitive: compare lower(trim(value)) with lower(trim(label)) (harm types).
    allow_null: a null value passes (documented empty fields); otherwise null fails.
    Restrict the rows with dbt's own `config: where:`.
-#}
{% test dices_in_vocabulary(
    model,
    column_name,
    vocabulary=none,
    vocabulary_column=none,
    show_columns=[],
    is_list=false,
    case_insensitive=false,
    allow_null=false
) %}

{%- set vocabulary_expression = vocabulary_column if vocabulary_column else "'" ~ vocabulary ~ "'" -%}

with

vocabularies as (

    select vocabulary, label from {{ ref('dices_vocabularies') }}

),

checked as (

    select
        {%- for column in show_columns %}
        {{ column }},
        {%- endfor %}
        {{ vocabulary_expression }} as vocabulary,
        {% if is_list -%}
        unnest({{ column_name }}) as value
        {%- else -%}
        {{ column_name }} as value
        {%- endif %}
    from {{ model }}

)

select checked.*
from checked
where
    {% if allow_null %}checked.value is not null and{% endif %}
    not exists (
        select 1
        from vocabularies
        where
            vocabularies.vocabulary = checked.vocabulary
            {% if case_insensitive -%}
            and lower(trim(vocabularies.label)) = lower(trim(checked.value))
            {%- else -%}
            and vocabularies.label = checked.value
            {%- endif %}
    )

{% endtest %}

{#-
    Every DICES answer must be a label of its question's vocabulary (Q1's sentences or Yes / No /
    Unsure); a null answer fails too. The answers are integer codes, so the check runs once per
    distinct (question, answer) pair and then names every offending record: release, item,
    rater, CSV id, question, vocabulary and value.
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

vocabularies as (

    select vocabulary, label from {{ ref('dices_vocabularies') }}

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
        questions.answer_vocabulary as vocabulary,
        answer_texts.answer as value
    from pairs
    inner join questions on pairs.question_ref = questions.question_ref
    left join answer_texts on pairs.answer_ref = answer_texts.answer_ref
    where not exists (
        select 1
        from vocabularies
        where
            vocabularies.vocabulary = questions.answer_vocabulary
            and vocabularies.label = answer_texts.answer
    )

)

select
    answer_rows.dataset_config,
    answer_rows.item_id,
    answer_rows.rater_id,
    answer_rows.source_row_id,
    offending_pairs.question,
    offending_pairs.vocabulary,
    offending_pairs.value
from answers
inner join offending_pairs
    on
        answers.question_ref = offending_pairs.question_ref
        and answers.answer_ref is not distinct from offending_pairs.answer_ref
inner join answer_rows on answers.row_ref = answer_rows.row_ref

{% endtest %}
