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
