{#-
    `values_in_vocabularies`: every documented list of values of one relation, in one test (one
    dbt node instead of one per column). `rules` lists them; each may have a `name` (else one is
    made from its column), its own `where` (the rows it reads) and `show_columns` (what its
    offending rows show). The offending rows of all rules come back together, each after
    `broken_rule`, the name of the rule it breaks (`union all by name`, as in `rules_hold`).

    A rule is one of:
    - `{column:, values: [...]}`: the column's values are among `values`; a null passes (dbt's
      `accepted_values`). Fails on each offending row, whole (or `show_columns`); made name
      `accepted_values(<column>)`.
    - `{column:, vocabulary: <name>}` or `{column:, vocabulary_column: <expression>}`: the value is
      in a vocabulary of `source` (the test's argument) in the `vocabularies` seed, the fixed one or
      the one the expression names per row (a DICES question's answer vocabulary, DUO's
      `'metrics_' || setting`); a null fails unless `allow_null: true` (a documented empty field).
      `match: code` compares with the vocabulary's codes (ReDial's 0 / 1 / 2), else its labels;
      `is_list: true` checks every element of a list column (an empty list passes);
      `case_insensitive: true` compares lower(trim(...)) (DICES harm types). Fails on each offending
      value, showing `show_columns`, the `vocabulary` and the `value`; made name
      `in_vocabulary(<column>)`.
    - `{columns: [...]}`: each column's values are in the vocabulary of the same name of `source`;
      a null fails. One scan for all of them (a DICES rater's gender, race, age group, …). Fails on
      each offending value, showing `show_columns`, the column (`vocabulary`, its vocabulary's name)
      and the `value`; made name `in_vocabularies(<columns>)`.
-#}
{% test values_in_vocabularies(model, rules, source=none) %}

{%- set branches = [] -%}
{%- for rule in rules -%}
    {%- if 'values' in rule -%}
        {%- do branches.append(values_in_vocabularies__unaccepted_rows(model, rule) | trim) -%}
    {%- elif 'vocabulary' in rule or 'vocabulary_column' in rule -%}
        {%- do branches.append(values_in_vocabularies__unknown_values(model, rule, source) | trim) -%}
    {%- elif 'columns' in rule -%}
        {%- do branches.append(values_in_vocabularies__unknown_column_values(model, rule, source) | trim) -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error("values_in_vocabularies on " ~ model ~ ": a rule needs `values`, a `vocabulary` (or `vocabulary_column`) or `columns`") }}
    {%- endif -%}
{%- endfor -%}
{%- if not branches -%}
    {{ exceptions.raise_compiler_error("values_in_vocabularies on " ~ model ~ ": give at least one rule") }}
{%- endif %}

{{ branches | join('\n\nunion all by name\n\n') }}

{% endtest %}


{#- The rows whose value is not among the rule's `values` (a null passes). -#}
{% macro values_in_vocabularies__unaccepted_rows(model, rule) %}
select
    '{{ rule.get('name') or 'accepted_values(' ~ rule['column'] ~ ')' }}' as broken_rule,
    {{ rule.get('show_columns') | join(', ') if rule.get('show_columns') else '*' }}
from {{ model }}
where
    {% if rule.get('where') %}({{ rule['where'] }}) and {% endif %}{{ rule['column'] }} not in (
        {%- for value in rule['values'] -%}
        '{{ value | string | replace("'", "''") }}'{{ ', ' if not loop.last }}
        {%- endfor -%}
    )
{%- endmacro %}


{#- The values not in their vocabulary of the seed, with the columns that name their row. -#}
{% macro values_in_vocabularies__unknown_values(model, rule, source) %}
{%- set vocabulary = rule['vocabulary_column'] if rule.get('vocabulary_column') else "'" ~ rule['vocabulary'] ~ "'" -%}
{%- set known = 'cast(vocabularies.code as varchar)' if rule.get('match') == 'code' else 'vocabularies.label' -%}
{%- set given = 'cast(checked.value as varchar)' if rule.get('match') == 'code' else 'checked.value' -%}
select
    '{{ rule.get('name') or 'in_vocabulary(' ~ rule['column'] ~ ')' }}' as broken_rule,
    checked.*
from (
    select
        {%- for column in rule.get('show_columns', []) %}
        {{ column }},
        {%- endfor %}
        {{ vocabulary }} as vocabulary,
        {% if rule.get('is_list') -%}
        unnest({{ rule['column'] }}) as value
        {%- else -%}
        {{ rule['column'] }} as value
        {%- endif %}
    from {{ model }}
    {%- if rule.get('where') %}
    where {{ rule['where'] }}
    {%- endif %}
) as checked
where
    {% if rule.get('allow_null') %}checked.value is not null and {% endif %}not exists (
        select 1
        from {{ ref('vocabularies') }} as vocabularies
        where
            vocabularies.source = '{{ source }}'
            and vocabularies.vocabulary = checked.vocabulary
            {% if rule.get('case_insensitive') -%}
            and lower(trim({{ known }})) = lower(trim({{ given }}))
            {%- else -%}
            and {{ known }} = {{ given }}
            {%- endif %}
    )
{%- endmacro %}


{#- Each value of the rule's `columns` not in the vocabulary named as its column (a null fails). -#}
{% macro values_in_vocabularies__unknown_column_values(model, rule, source) %}
select
    '{{ rule.get('name') or 'in_vocabularies(' ~ rule['columns'] | join(', ') ~ ')' }}' as broken_rule,
    checked.*
from (
    select *
    from (
        select {{ (rule.get('show_columns', []) + rule['columns']) | join(', ') }}
        from {{ model }}
        {%- if rule.get('where') %}
        where {{ rule['where'] }}
        {%- endif %}
    )
    unpivot include nulls (value for vocabulary in ({{ rule['columns'] | join(', ') }}))
) as checked
where
    not exists (
        select 1
        from {{ ref('vocabularies') }} as vocabularies
        where
            vocabularies.source = '{{ source }}'
            and vocabularies.vocabulary = checked.vocabulary
            and vocabularies.label = checked.value
    )
{%- endmacro %}
