{#-
    What orders a rater's judgements of a unit, earliest first: the round, then the row in the
    release (a struct; nulls sort last). Rounds compare in natural order, numbers as numbers:
    `Phase2` before `Phase10`, `2` before `10`, `01` the same as `1`. The round is split into runs
    of digits and runs of other characters; each run of digits becomes the count of its significant
    digits (four digits) followed by those digits, which sorts as text in the order of the numbers.
    The one place the order is written: the first judgement and the replications' values use it.
-#}
{% macro judgement_order(round_column, row_column) -%}
{
    'round': array_to_string(
        list_transform(
            regexp_extract_all({{ round_column }}, '\d+|\D+'),
            run -> case
                when regexp_full_match(run, '\d+') then lpad(cast(length(ltrim(run, '0')) as varchar), 4, '0') || ltrim(run, '0')
                else run
            end
        ),
        ''
    ),
    'row': {{ row_column }}
}
{%- endmacro %}
