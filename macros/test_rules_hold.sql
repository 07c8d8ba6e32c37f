{#-
    `rules_hold`: the named rules of one relation in one test (one dbt node instead of one per
    rule). `rules` maps each rule's name to what it checks; every rule has its own `where`, which
    restricts the rows it reads (dbt's `config: where:` would restrict every rule at once). The
    offending rows of all rules come back together, each after `broken_rule`, the name of the rule
    it breaks (`union all by name`: a column one rule returns and another does not is null on the
    other's rows, and the build output leaves out the columns null on every row it shows).

    A rule is one of:
    - an expression, true on every row: `<name>: "<expression>"`, or `<name>: {expression:,
      where:, show_columns:}`. Fails on each row where it is not true (null counts as not true),
      returned whole, or only `show_columns` (e.g. the item, rater and row of a wide DICES row).
      dbt_utils' `expression_is_true`.
    - a count per group: `{group_by: [...], expected: <count or expression>, distinct_column:,
      list_column:, each_once:, where:}`. Each group must have `expected` rows, or `expected`
      distinct values of `distinct_column`; with `each_once`, every value of that column at most
      once in its group too. Fails on each group that does not, with `n_found`, `n_expected`
      (`n_repeated` with `each_once`) and, with `list_column`, the values it has (`found_values`).
    - a sequence: `{sequential: <column>, group_by: [...], interval:, where:}`. Within each group,
      ordered by the column, every value is the previous one plus `interval` (default 1); fails on
      each row that is not, with the value before it (`previous_<column>`). The first row of a
      group has no previous value and is not checked. dbt_utils' `sequential_values`.

    A warning rule goes in a test of its own with `config: severity: warn`, never beside error
    rules: one test has one severity.
-#}
{% test rules_hold(model, rules) %}

{%- set branches = [] -%}
{%- for name, rule in rules.items() -%}
    {%- set spec = {'expression': rule} if rule is string else rule -%}
    {%- if 'expression' in spec -%}
        {%- do branches.append(rules_hold__false_rows(model, name, spec) | trim) -%}
    {%- elif 'expected' in spec -%}
        {%- do branches.append(rules_hold__miscounted_groups(model, name, spec) | trim) -%}
    {%- elif 'sequential' in spec -%}
        {%- do branches.append(rules_hold__out_of_sequence_rows(model, name, spec) | trim) -%}
    {%- else -%}
        {{ exceptions.raise_compiler_error("rules_hold on " ~ model ~ ", rule " ~ name ~ ": give an `expression`, an `expected` count or a `sequential` column") }}
    {%- endif -%}
{%- endfor -%}
{%- if not branches -%}
    {{ exceptions.raise_compiler_error("rules_hold on " ~ model ~ ": give at least one rule") }}
{%- endif %}

{{ branches | join('\n\nunion all by name\n\n') }}

{% endtest %}


{#- The rows where the rule's expression is not true. -#}
{% macro rules_hold__false_rows(model, name, spec) %}
select
    '{{ name }}' as broken_rule,
    {{ spec.get('show_columns') | join(', ') if spec.get('show_columns') else '*' }}
from {{ model }}
where
    {% if spec.get('where') %}({{ spec['where'] }}) and {% endif %}not coalesce(({{ spec['expression'] }}), false)
{%- endmacro %}


{#- The groups without their expected count of rows (or of distinct values). -#}
{% macro rules_hold__miscounted_groups(model, name, spec) %}
{%- set group_by = spec['group_by'] | join(', ') -%}
{%- set counted = 'count(distinct ' ~ spec['distinct_column'] ~ ')' if spec.get('distinct_column') else 'count(*)' -%}
select
    '{{ name }}' as broken_rule,
    {{ group_by }},
    {{ counted }} as n_found,
    {{ spec['expected'] }} as n_expected
    {%- if spec.get('each_once') %},
    count(*) - count(distinct {{ spec['each_once'] }}) as n_repeated
    {%- endif %}
    {%- if spec.get('list_column') %},
    list({{ spec['list_column'] }} order by {{ spec['list_column'] }}) as found_values
    {%- endif %}
from {{ model }}
{%- if spec.get('where') %}
where {{ spec['where'] }}
{%- endif %}
group by {{ group_by }}
having
    {{ counted }} <> {{ spec['expected'] }}
    {%- if spec.get('each_once') %} or count(*) <> count(distinct {{ spec['each_once'] }}){% endif %}
{%- endmacro %}


{#- The rows that do not follow the one before them in their group by `interval`. -#}
{% macro rules_hold__out_of_sequence_rows(model, name, spec) %}
{%- set column = spec['sequential'] -%}
{%- set group_by = spec.get('group_by', []) -%}
select
    '{{ name }}' as broken_rule,
    *
from (
    select
        {% for group_column in group_by -%}
        {{ group_column }},
        {% endfor -%}
        {{ column }},
        lag({{ column }}) over (
            {% if group_by %}partition by {{ group_by | join(', ') }} {% endif %}order by {{ column }}
        ) as previous_{{ column }}
    from {{ model }}
    {%- if spec.get('where') %}
    where {{ spec['where'] }}
    {%- endif %}
) as windowed
where not ({{ column }} = previous_{{ column }} + {{ spec.get('interval', 1) }})
{%- endmacro %}
