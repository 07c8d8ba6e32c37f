{#-
    `ref()` and `source()` without the database (catalog) part: a view stores the SQL it was
    created with, and a catalog name in it is the warehouse file's name at build time. Two-part
    names (`"marts"."ratings"`) are bound in the view's own catalog, so the views keep working in
    a renamed copy of the file and through `ATTACH … AS any_alias`.
    The project's profile attaches the file as `warehouse` whatever its name, so a file named
    after a schema (`raw.duckdb`) or a DuckDB catalog (`main.duckdb`) builds too. A profile of
    one's own that opens such a file directly would make two-part names ambiguous in DuckDB
    (catalog `raw` or schema `raw`): there the names keep their catalog.
-#}
{% macro warehouse_relation(relation) -%}
    {#- unit tests hand over their fixtures' CTE names, not relations -#}
    {%- if relation.include is not defined or target.database in ('raw', 'staging', 'intermediate', 'marts', 'reference', 'main') -%}
        {{- return(relation) -}}
    {%- endif -%}
    {{- return(relation.include(database=false)) -}}
{%- endmacro %}

{% macro ref() -%}
    {{- return(warehouse_relation(builtins.ref(*varargs, **kwargs))) -}}
{%- endmacro %}

{% macro source() -%}
    {{- return(warehouse_relation(builtins.source(*varargs, **kwargs))) -}}
{%- endmacro %}
