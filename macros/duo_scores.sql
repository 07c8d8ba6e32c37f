{#- A DUO score is a JSON number (the card: integers 1-5). Both kinds of score, subjective and
    objective, follow this one rule: a number written as a string ("4"), a null or a list is not
    a score. -#}

{% macro duo_score_number(json_value) -%}
    case
        when json_type({{ json_value }}) in ('UBIGINT', 'BIGINT', 'DOUBLE')
            then cast(cast({{ json_value }} as varchar) as double)
    end
{%- endmacro %}

{#- DuckDB gives a JSON null inside a list (unnest, list lambdas) as SQL NULL: in both places
    these macros read a value that the file wrote, so NULL means the file wrote null. -#}
{% macro duo_score_problem(json_value) -%}
    case
        when {{ json_value }} is null then 'not a number: a JSON null'
        when json_type({{ json_value }}) not in ('UBIGINT', 'BIGINT', 'DOUBLE')
            then 'not a number: a JSON ' || lower(replace(json_type({{ json_value }}), 'VARCHAR', 'string'))
    end
{%- endmacro %}

{#- The three columns of a score (int_duo__scores, both kinds): the JSON text as written, the number, and why it is none. -#}
{% macro duo_score_columns(json_value) -%}
    coalesce(cast({{ json_value }} as varchar), 'null') as score_raw,
        {{ duo_score_number(json_value) }} as score,
        {{ duo_score_problem(json_value) }} as score_problem
{%- endmacro %}
