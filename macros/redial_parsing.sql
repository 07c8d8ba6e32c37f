{#-
    ReDial parsing rules, as macros so that the models using them carry dbt unit tests
    (models/intermediate/redial/*.yml) for every quirk of the release.
-#}

{#- ReDial key formats (docs/INTERFACE.md, "Keys"). -#}
{% macro redial_dialogue_key(conversation_id) -%}
    'redial:' || {{ conversation_id }}
{%- endmacro %}

{% macro redial_worker_key(worker_id) -%}
    'redial:worker:' || {{ worker_id }}
{%- endmacro %}

{#-
    movieMentions / initiatorQuestions / respondentQuestions are maps keyed by movie id, but the
    release writes an empty map as `[]`: read an empty list as an empty object. Anything else
    (a non-empty list, a scalar) is passed through for the staging tests to report.
-#}
{% macro redial_empty_list_as_object(json_value) -%}
    case
        when json_type({{ json_value }}) = 'ARRAY' and json_array_length({{ json_value }}) = 0
            then cast('{}' as json)
        else {{ json_value }}
    end
{%- endmacro %}

{#-
    Movie ids tagged in a message text as `@<digits>`, in order of appearance, repeats kept
    (varchar[]; empty list when there are none).
-#}
{% macro redial_mentioned_movie_ids(text) -%}
    regexp_extract_all(coalesce({{ text }}, ''), '@([0-9]+)', 1)
{%- endmacro %}

{#-
    Titles carry the release year as a trailing `(dddd)`, sometimes after two spaces
    ("A Scanner Darkly  (2006)"); parentheses earlier in the name are part of the title
    ("The Visitor (Les Visiteurs) (1993)"). Only a trailing four-digit year in parentheses is a
    year; without one the title is the name as written, trimmed, and the year is null.
-#}
{% macro redial_movie_title(movie_name) -%}
    case
        when
            regexp_matches({{ movie_name }}, '\([0-9]{4}\)\s*$')
            and trim(regexp_extract({{ movie_name }}, '^(.*?)\s*\([0-9]{4}\)\s*$', 1)) <> ''
            then trim(regexp_extract({{ movie_name }}, '^(.*?)\s*\([0-9]{4}\)\s*$', 1))
        else trim({{ movie_name }})
    end
{%- endmacro %}

{% macro redial_release_year(movie_name) -%}
    try_cast(regexp_extract({{ movie_name }}, '\(([0-9]{4})\)\s*$', 1) as integer)
{%- endmacro %}
