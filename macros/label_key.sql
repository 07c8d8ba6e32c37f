{#-
    The key a value's text matches a label by: trimmed, and a number by its value (`1.0` is the
    label `1`, as a dataset's own rows match). The build codes a judge's value by it from the labels
    of the day (`int_judges__judgements`); the judges' ingest checks a value with the same rule
    (`judge_value_key` in ingest/sql/judges/reference.sql).
-#}
{% macro label_key(text) -%}
coalesce(cast(try_cast(trim({{ text }}) as double) as varchar), trim({{ text }}))
{%- endmacro %}
