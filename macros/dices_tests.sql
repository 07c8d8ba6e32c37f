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
