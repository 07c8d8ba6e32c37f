{#-
    What orders a rater's judgements of a unit, earliest first: the round, then the row in the
    release (a struct; nulls sort last). Rounds compare as `raw.round_order` says, the DuckDB macro
    ingest/sql/raw_common.sql defines for ingest and dbt alike: numbers by value, then other texts
    in natural order (`Phase2` before `Phase10`). The one place the order is written: the first
    judgement and the replications' values use it.
-#}
{% macro judgement_order(round_column, row_column) -%}
{ 'round': raw.round_order({{ round_column }}), 'row': {{ row_column }} }
{%- endmacro %}
