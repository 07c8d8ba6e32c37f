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
    The scope a dialogue's agreement figures are computed within: the DICES release, the DUO
    language and setting, the ReDial split. `dialogues` is the alias of a `dialogues` relation.
-#}
{% macro agreement_scope(dialogues) -%}
    case {{ dialogues }}.source
        when 'dices' then {{ dialogues }}.dataset_config
        when 'duo' then {{ dialogues }}.language || ':' || {{ dialogues }}.setting
        when 'redial' then {{ dialogues }}.split
    end
{%- endmacro %}

{#-
    The value codes `agreement` keeps one count column for: 1 … the largest number of values a
    question holds (DICES Q1 has 4 sentences, DUO scores 1–5). Counting into fixed columns lets
    one pass over the judgements give each group's counts per unit. A question with more values
    fails `agreement_value_codes_fit_the_count_columns` on `int_agreement__value_labels` before
    `agreement` builds; raise the variable `agreement_max_value_codes` for such a dataset.
-#}
{% macro agreement_value_codes() -%}
    {{ return(range(1, (var('agreement_max_value_codes', 5) | int) + 1)) }}
{%- endmacro %}

{#-
    `expression` written once per value code, `@` standing for the code, joined by `separator`:
    for_each_value_code('count_@ * count_@') gives `count_1 * count_1 + count_2 * count_2 + …`.
-#}
{% macro for_each_value_code(expression, separator=' + ') -%}
    {%- for code in agreement_value_codes() -%}
        {{ expression | replace('@', code | string) }}{{ separator if not loop.last }}
    {%- endfor -%}
{%- endmacro %}

{#-
    `agreement` counts DICES values per (rater group, item) for all question columns at once, one
    sum per column: each question's counts are packed into one double, `agreement_count_bits()`
    bits per value code. A double holds whole numbers exactly up to 2^53, so with 5 value codes
    that is 10 bits: counts up to 1,023, where a DICES item has 60-123 records
    (`dices_items_fit_the_packed_counts` fails the build on an item with more). Summing doubles
    is what makes it fast: DuckDB sums integers into 128-bit states, 2-4 times slower here.
-#}
{% macro agreement_count_bits() -%}
    {{ return(53 // (var('agreement_max_value_codes', 5) | int)) }}
{%- endmacro %}

{#- One judgement of value `code` (0 = missing: null) as a packed count: 1 in the code's bits. -#}
{% macro agreement_packed_judgement(code) -%}
    case
        when {{ code }} > 0 then cast(cast(1 as bigint) << ({{ agreement_count_bits() }} * ({{ code }} - 1)) as double)
    end
{%- endmacro %}

{#- The count of value `code` in a packed count (a whole number as bigint). -#}
{% macro agreement_unpacked_count(packed, code) -%}
    cast(({{ packed }} >> ({{ agreement_count_bits() }} * ({{ code }} - 1))) & {{ 2 ** agreement_count_bits() - 1 }} as integer)
{%- endmacro %}

{#-
    The count of value `code` on a unit of `int_agreement__unit_counts` (columns `count_1`, …,
    under `relation`): null when `code` is null.
-#}
{% macro agreement_count_of(code, relation) -%}
    case {{ code }}{% for value_code in agreement_value_codes() %} when {{ value_code }} then {{ relation }}.count_{{ value_code }}{% endfor %} end
{%- endmacro %}

{#-
    In a select over judgements grouped by unit (or by unit and rater): how many of the group's
    judgements hold each value code, `count_1`, … (integers, 0 for a code not given), from the
    judgements' column `code`.
-#}
{% macro agreement_counts_per_value_code(code) -%}
    {{ for_each_value_code('cast(count(*) filter (where ' ~ code ~ ' = @) as integer) as count_@', ',\n        ') }}
{%- endmacro %}

{#-
    In a select over `int_agreement__redial_form_units`: how many of the unit's two form
    judgements (the seeker's, the recommender's) hold each value code, `count_1`, … (0 for a code
    not given; a form without the movie, or its "did not say", has no code).
-#}
{% macro agreement_form_pair_counts_per_value_code() -%}
    {{ for_each_value_code(
        'cast(seeker_value_code is not distinct from @ as integer)'
        ~ ' + cast(recommender_value_code is not distinct from @ as integer) as count_@',
        ',\n        '
    ) }}
{%- endmacro %}

{#-
    The highest count among a unit's values other than `code` (0 when it has no other value), from
    the `count_1`, … columns of `int_agreement__unit_counts` under `relation`.
-#}
{% macro agreement_highest_count_except(code, relation) -%}
    greatest({{ for_each_value_code('case when ' ~ code ~ ' = @ then 0 else ' ~ relation ~ '.count_@ end', ', ') }})
{%- endmacro %}

{#-
    A unit's id: a 64-bit hash of its question's number, dialogue key and movie id (null but for
    ReDial). Hashing spares numbering 2 million units by sorting their text keys, and lets every
    model compute a judgement's unit from the judgement's own keys, without a table of units to
    join back to; the test `unique` on `int_agreement__unit_counts.unit_id` fails the build on the
    (about 1 in 10^7 at 2 million units) chance that two units share one.
-#}
{% macro agreement_unit_id(question_id, dialogue_key, movie_id) -%}
    hash({{ question_id }}, {{ dialogue_key }}, cast({{ movie_id }} as varchar))
{%- endmacro %}

{#-
    In a select over `int_agreement__value_labels` grouped by question: the question's number for
    each value code, `number_1`, … (0 for a code it does not use; DICES answers have no number).
-#}
{% macro agreement_numbers_by_code() -%}
    {{ for_each_value_code('coalesce(max(value_numeric) filter (where value_code = @), 0) as number_@', ',\n        ') }}
{%- endmacro %}

{#-
    The value code that a packed count (`agreement_packed_judgement`) holds more often than every
    other code: its unique plurality. 0 when no code is ahead of all others (a tie, or no value).
-#}
{% macro agreement_unique_plurality(packed) -%}
    {%- set codes = agreement_value_codes() -%}
    case
    {%- for code in codes %}
        {%- set others = [] %}
        {%- for other in codes if other != code %}{% do others.append(agreement_unpacked_count(packed, other)) %}{% endfor %}
        when {{ agreement_unpacked_count(packed, code) }} > {{ 'greatest(' ~ others | join(', ') ~ ')' if others else '0' }} then {{ code }}
    {%- endfor %}
        else 0
    end
{%- endmacro %}
