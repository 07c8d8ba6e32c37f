{#-
    Every value of `column_name` must be in a vocabulary of `source` in the `vocabularies` seed:
    the fixed `vocabulary`, or the one an expression names per row (`vocabulary_column`, e.g. a
    DICES question's answer vocabulary or DUO's `'metrics_' || setting`). Fails on each offending
    row, showing `show_columns`, the vocabulary and the value, so that the build output names them.
    The one test of every documented list of values, for every source.

    match: `label` (the value is a label) or `code` (the value is a code, as ReDial's 0 / 1 / 2).
    is_list: the column is a list; every element is checked (an empty list passes).
    case_insensitive: compare lower(trim(value)) with lower(trim(label)) (DICES harm types).
    allow_null: a null value passes (documented empty fields); otherwise null fails.
    Restrict the rows with dbt's own `config: where:`.
-#}
{% test in_vocabulary(
    model,
    column_name,
    source,
    vocabulary=none,
    vocabulary_column=none,
    match='label',
    show_columns=[],
    is_list=false,
    case_insensitive=false,
    allow_null=false
) %}

{%- set vocabulary_expression = vocabulary_column if vocabulary_column else "'" ~ vocabulary ~ "'" -%}
{%- set known = 'cast(vocabularies.code as varchar)' if match == 'code' else 'vocabularies.label' -%}
{%- set given = 'cast(checked.value as varchar)' if match == 'code' else 'checked.value' -%}

with

vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = '{{ source }}'

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
            and lower(trim({{ known }})) = lower(trim({{ given }}))
            {%- else -%}
            and {{ known }} = {{ given }}
            {%- endif %}
    )

{% endtest %}
