{#-
    DICES parsing rules, as macros so that the models using them carry dbt unit tests
    (models/intermediate/dices/int_dices__turns.yml, int_dices__items.yml) for every quirk of
    the releases (docs/RELEASES.md).
-#}

{#-
    The turns of a `context`, in order, as a list of struct(speaker_raw, text).

    350: turns on their own lines (real newlines, `\r\n` tolerated), prefixed `USER:` / `LLM:`.
    990: the two characters backslash-n between turns, prefixed `A:` / `B:`, with a trailing `\n`.
    A turn starts where a line (350) or `\n`-separated piece (990) starts with a known prefix,
    optionally after spaces; anything else continues the previous turn, separator kept as
    released, so a colon inside a turn ("LLM: Note: …") or a multi-line turn stays one turn.
    The prefix and the spaces after it are removed (speaker_raw keeps the prefix without its
    colon); separators and spaces at the end of a turn, such as 990's trailing `\n`, are dropped, and
    pieces holding nothing but separators and spaces make no turn. Text before the first prefix
    becomes a turn with a null speaker_raw, which the models' tests report.
-#}
{% macro dices_context_turns(context, dataset_config) -%}
    case {{ dataset_config }}
        {# Jinja reads escapes in its string literals: these reach the SQL as \r?\n and \\n #}
        when '350' then {{ dices__split_turns(context, '\\r?\\n', 'USER|LLM') }}
        when '990' then {{ dices__split_turns(context, '\\\\n', 'A|B') }}
    end
{%- endmacro %}

{#-
    Mark every separator that is followed by a speaker prefix with the unit separator chr(31),
    split there, and read the prefix and text of each piece. `separator` and `speakers` are RE2
    fragments.
-#}
{% macro dices__split_turns(context, separator, speakers) -%}
    list_transform(
        list_filter(
            string_split(
                regexp_replace(
                    coalesce({{ context }}, ''),
                    '(?:{{ separator }})([ \t]*(?:{{ speakers }}):)',
                    chr(31) || '\1',
                    'g'
                ),
                chr(31)
            ),
            piece -> not regexp_matches(piece, '^(?:\s|{{ separator }})*$')
        ),
        piece -> {
            'speaker_raw': nullif(regexp_extract(piece, '^[ \t]*({{ speakers }}):', 1), ''),
            'text': regexp_replace(
                regexp_replace(piece, '^[ \t]*(?:{{ speakers }}):[ \t]*', ''),
                '(?:{{ separator }}|\s)*$',
                ''
            )
        }
    )
{%- endmacro %}

{#- USER (350) and A (990) are the human; LLM (350) and B (990) the dialog model. -#}
{% macro dices_speaker_role(speaker_raw) -%}
    case
        when {{ speaker_raw }} in ('USER', 'A') then 'user'
        when {{ speaker_raw }} in ('LLM', 'B') then 'system'
    end
{%- endmacro %}

{#-
    `harm_type` as a list: split on commas, each topic trimmed and capitalised the way the TFDS
    loader standardises them (Python's str.capitalize: first letter upper, the rest lower, so
    "religious" and "RELIGIOUS" both read "Religious"). Empty pieces are dropped; an empty or
    missing field is an empty list.
-#}
{% macro dices_harm_types(harm_type) -%}
    coalesce(
        list_transform(
            list_filter(string_split({{ harm_type }}, ','), topic -> trim(topic) <> ''),
            topic -> upper(left(trim(topic), 1)) || lower(substr(trim(topic), 2))
        ),
        cast([] as varchar[])
    )
{%- endmacro %}

{#-
    `safety_gold_reason` is a Python list written as a string ("[]", "['Q2_harmful_content_overall',
    'Q3_bias_overall']"), and some are malformed ("['Q2_…', 'Q3_…'" without its closing bracket,
    "[Q2_…,Q3_…]" without quotes). The TFDS loader repairs them all the same way: strip
    brackets, quotes and spaces, then split on commas. So does this, keeping no empty names:
    "[]" and an empty field are an empty list.
-#}
{% macro dices_safety_gold_reasons(safety_gold_reason) -%}
    coalesce(
        list_filter(
            string_split(regexp_replace({{ safety_gold_reason }}, '[\[\]"''\s]', '', 'g'), ','),
            reason -> reason <> ''
        ),
        cast([] as varchar[])
    )
{%- endmacro %}

{#-
    One row per (record, question column) of both releases, empty answers included: each record
    unpivots only its own release's question columns (the `dices_questions` seed's rows of its
    `dataset_config`; the other release's columns are null in its row of `stg_dices__ratings`),
    keeping the other columns `ratings` selected, with the answer as released in `answer` and the
    column's name in `question`. The one place the wide records become long (`int_dices__answers`
    for the ratings, `int_dices__judgements` for the agreement figures).
-#}
{% macro dices_unpivot_answers(ratings) -%}
    select unpivoted.*
    from {{ ratings }}
    unpivot include nulls (answer for question in (columns('^Q'))) as unpivoted
    inner join {{ ref('dices_questions') }} as release_questions
        on
            unpivoted.dataset_config = release_questions.dataset_config
            and unpivoted.question = release_questions.question
{%- endmacro %}
