{#-
    The rows every source contributes to a shared mart: the models `mart_feeders()` lists for it
    (macros/mart_feeders.sql), unioned by column name (a source emits only the columns it has; the
    others are null). The mart casts the result to its contract with `contract_columns()`.
-#}
{% macro union_source_models(mart) -%}
    {%- for feeder in mart_feeders(mart) %}
    select * from {{ feeder }}
    {%- if not loop.last %}
    union all by name
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
