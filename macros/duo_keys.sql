{#- DUO key formats (docs/INTERFACE.md, "Keys"). -#}
{% macro duo_dialogue_key(language, dialogue_id) -%}
    'duo:' || {{ language }} || ':' || {{ dialogue_id }}
{%- endmacro %}

{% macro duo_user_key(language, user_id) -%}
    'duo:' || {{ language }} || ':user:' || {{ user_id }}
{%- endmacro %}

{% macro duo_system_key(language, system_id) -%}
    'duo:' || {{ language }} || ':system:' || {{ system_id }}
{%- endmacro %}

{% macro duo_annotator_key(dialogue_key, annotator_slot) -%}
    {{ dialogue_key }} || ':annotator' || {{ annotator_slot }}
{%- endmacro %}

{#- Who gave a DUO score: the user who talked in the dialogue rated it (subjective); the annotators
    are anonymous slots per dialogue (objective). -#}
{% macro duo_rater_key(rating_kind, user_key, dialogue_key, annotator_slot) -%}
    case
        when {{ rating_kind }} = 'subjective' then {{ user_key }}
        else {{ duo_annotator_key(dialogue_key, annotator_slot) }}
    end
{%- endmacro %}
