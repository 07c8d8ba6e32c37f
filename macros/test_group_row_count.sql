{#-
    Each group of `group_by` (rows restricted with dbt's `config: where:`) must have exactly
    `expected` rows, or `expected_distinct` distinct values of `distinct_column`. Fails on each
    group that does not, listing the values it has.
-#}
{% test group_row_count(model, group_by, expected, distinct_column=none, list_column=none) %}

{%- set counted = 'count(distinct ' ~ distinct_column ~ ')' if distinct_column else 'count(*)' -%}
select
    {{ group_by | join(', ') }},
    {{ counted }} as n_found,
    {{ expected }} as n_expected
    {%- if list_column %},
    list({{ list_column }} order by {{ list_column }}) as found_values
    {%- endif %}
from {{ model }}
group by {{ group_by | join(', ') }}
having {{ counted }} <> {{ expected }}

{% endtest %}
