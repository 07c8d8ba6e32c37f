{#-
    The rows every source contributes to a shared mart: the models `var('mart_feeders')` lists for
    it in dbt_project.yml, unioned by column name (a source emits only the columns it has; the
    others are null). The mart casts the result to its contract with `contract_columns()`.
-#}
{% macro union_source_models(mart) -%}
    {%- set feeders = var('mart_feeders')[mart] %}
    {%- for feeder in feeders %}
    select * from {{ ref(feeder) }}
    {%- if not loop.last %}
    union all by name
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
