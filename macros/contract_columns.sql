{#-
    The select list of a mart shaped by its YAML contract: every column the contract declares, in
    its order, cast to its declared type. The mart's SQL never repeats its column list: a new mart
    column is one entry in the mart's YAML and a source model that emits it. Reads `model`, so it
    works in the mart's own SQL. While dbt parses, no columns are known yet and the select list is
    `*` (parsing runs no SQL).
-#}
{% macro contract_columns(indent=8) -%}
    {%- set columns = model.columns.values() | list if model is mapping and model.columns else [] %}
    {%- if not columns and execute %}
        {{ exceptions.raise_compiler_error(model.name ~ ": contract_columns() needs the model's columns in its YAML") }}
    {%- endif %}
    {%- set casts = [] %}
    {%- for column in columns %}
        {#- `quote: true` in the YAML keeps a mixed-case name (the DICES question headers) -#}
        {%- set name = adapter.quote(column.name) if column.quote else column.name %}
        {%- do casts.append('cast(' ~ name ~ ' as ' ~ column.data_type ~ ') as ' ~ name) %}
    {%- endfor %}
    {{- casts | join(',\n' ~ ' ' * indent) if casts else '*' }}
{%- endmacro %}
