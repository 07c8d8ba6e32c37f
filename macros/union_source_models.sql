{#-
    The rows every source contributes to a shared relation of one kind (a mart such as `ratings`, or
    a feed such as `judgements`): the models `source_models(kind)` lists (macros/source_models.sql),
    unioned by column name (a source emits only the columns it has; the others are null). A mart
    casts the result to its contract with `contract_columns()`.
-#}
{% macro union_source_models(kind) -%}
    {%- for model in source_models(kind) %}
    select * from {{ model }}
    {%- if not loop.last %}
    union all by name
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
