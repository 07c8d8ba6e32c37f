{#- Schemas are named exactly raw / staging / intermediate / marts / reference (seeds), not dbt's <target>_<custom>. -#}
{% macro generate_schema_name(custom_schema_name, node) -%}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
