{#-
    `keys_hold`: the keys of one relation in one test (one dbt node, where a test per column and
    key cost dbt's overhead each): the columns that may hold no null, and the keys no two rows may
    share. Returns every offending row whole, after `broken_rule`, the rule it breaks, so that the
    build output names the record (its file and line where the relation has them) and the rule:

    - `not_null(<the row's null columns>)`: a row with a null in a `not_null` column. The plain
      columns are checked in one scan.
    - `unique(<key>)`: every row whose key another row repeats, all of them.

    not_null: columns; an entry `{columns: [...], where: <condition>, name: <rule>}` is a rule of
        its own on the rows `where` selects, named `name` if given.
    unique: keys, each a column or a list of columns; an entry `{columns:, where:, name:}` is a
        key on the rows `where` selects, named `name` if given. A key of one column ignores nulls, as dbt's `unique`
        does; a key of several compares nulls as equal, as the GROUP BY of dbt_utils'
        `unique_combination_of_columns` does: each rule answers as the test it replaced.

    A repeated key is found by grouping the key's columns alone, as those tests did (a hash
    aggregate DuckDB spills), and only then are its rows read back: no window over whole rows. The
    tables that grow with the corpus keep `unique_at_scale` (macros/test_unique_at_scale.sql).
-#}
{% test keys_hold(model, not_null=[], unique=[]) %}

{%- set branches = [] -%}
{%- set plain_columns = not_null | reject('mapping') | list -%}
{%- if plain_columns -%}
    {%- do branches.append(keys_hold__null_rows(model, plain_columns) | trim) -%}
{%- endif -%}
{%- for rule in not_null | select('mapping') -%}
    {%- do branches.append(keys_hold__null_rows(model, rule['columns'], rule.get('name'), rule.get('where')) | trim) -%}
{%- endfor -%}
{%- for key in unique -%}
    {%- if key is mapping -%}
        {%- do branches.append(keys_hold__repeated_rows(model, key['columns'], key.get('name'), key.get('where')) | trim) -%}
    {%- else -%}
        {%- set columns = [key] if key is string else key -%}
        {%- do branches.append(keys_hold__repeated_rows(model, columns) | trim) -%}
    {%- endif -%}
{%- endfor -%}
{%- if not branches -%}
    {{ exceptions.raise_compiler_error("keys_hold on " ~ model ~ ": give `not_null` columns or `unique` keys") }}
{%- endif %}

{{ branches | join('\n\nunion all\n\n') }}

{% endtest %}


{#- The rows with a null in one of `columns` (of those `where` selects), each named by its rule:
    `name`, or else `not_null(...)` listing the row's null columns. -#}
{% macro keys_hold__null_rows(model, columns, name=none, where=none) %}
select
    {% if name -%}
    '{{ name }}' as broken_rule,
    {%- else -%}
    'not_null(' || concat_ws(', ', {% for column in columns %}case when {{ column }} is null then '{{ column }}' end{{ ', ' if not loop.last }}{% endfor %}) || ')' as broken_rule,
    {%- endif %}
    *
from {{ model }}
where
    {% if where %}({{ where }}) and {% endif %}({{ columns | join(' is null or ') }} is null)
{%- endmacro %}


{#- Every row (of those `where` selects) whose value of `columns` another such row repeats, named
    `name` or `unique(<columns>)`. One column: nulls are no value (dbt's `unique`); several: a null
    equals a null (a GROUP BY's answer, dbt_utils' `unique_combination_of_columns`). -#}
{% macro keys_hold__repeated_rows(model, columns, name=none, where=none) %}
{%- set conditions = (['(' ~ where ~ ')'] if where else []) + ([columns[0] ~ ' is not null'] if columns | length == 1 else []) %}
select
    '{{ name or "unique(" ~ columns | join(", ") ~ ")" }}' as broken_rule,
    tested.*
from (select * from {{ model }}{% if where %} where ({{ where }}){% endif %}) as tested
inner join (
    select {{ columns | join(', ') }}
    from {{ model }}
    {%- if conditions %}
    where {{ conditions | join(' and ') }}
    {%- endif %}
    group by {{ columns | join(', ') }}
    having count(*) > 1
) as repeated
    on
    {%- for column in columns %}
        {{ 'and ' if not loop.first }}tested.{{ column }} is not distinct from repeated.{{ column }}
    {%- endfor %}
{%- endmacro %}
