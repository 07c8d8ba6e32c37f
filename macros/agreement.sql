{#-
    The text of a numeric value in the agreement marts (`value_counts` keys, `plurality_value`):
    a whole number without decimals ('3', '0'), any other number as DuckDB writes it.
-#}
{% macro agreement_number_text(value_numeric) -%}
    case
        when {{ value_numeric }} = trunc({{ value_numeric }})
            then cast(cast({{ value_numeric }} as bigint) as varchar)
        else cast({{ value_numeric }} as varchar)
    end
{%- endmacro %}

{#-
    A value that is no value: ReDial's `seen` / `liked` answer 2 means "did not say" (datasheet),
    so it is missing for every agreement figure, like a null.
-#}
{% macro agreement_value_is_missing(rating_kind, question, value_numeric) -%}
    (
        {{ value_numeric }} is null
        or ({{ rating_kind }} = 'movie_form' and {{ question }} in ('seen', 'liked') and {{ value_numeric }} = 2)
    )
{%- endmacro %}

{#-
    The rating kinds of `ratings` whose judgements form agreement units: DUO objective scores
    (three annotators) and ReDial form answers (two workers). DUO subjective scores have one rater
    each; DICES answers are read from their intermediate model.
-#}
{% macro agreement_unit_rating_kinds() -%}
    ('objective', 'movie_form')
{%- endmacro %}
