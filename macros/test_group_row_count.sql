{#-
    Each group of `group_by` (rows restricted with dbt's `config: where:`) must have exactly
    `expected` rows, or `expected` distinct values of `distinct_column`; with `each_once`, every
    value of that column at most once in its group too (exactly one row per expected value, in one
    scan). Fails on each group that does not, listing the values it has.
-#}
{% test group_row_count(model, group_by, expected, distinct_column=none, list_column=none, each_once=none) %}

{%- set counted = 'count(distinct ' ~ distinct_column ~ ')' if distinct_column else 'count(*)' -%}
select
    {{ group_by | join(', ') }},
    {{ counted }} as n_found,
    {{ expected }} as n_expected
    {%- if each_once %},
    count(*) - count(distinct {{ each_once }}) as n_repeated
    {%- endif %}
    {%- if list_column %},
    list({{ list_column }} order by {{ list_column }}) as found_values
    {%- endif %}
from {{ model }}
group by {{ group_by | join(', ') }}
having {{ counted }} <> {{ expected }}{% if each_once %} or count(*) <> count(distinct {{ each_once }}){% endif %}

{% endtest %}
