{#- DICES key formats (docs/INTERFACE.md, "Keys"). Ids stay text as released (15-digit rater ids). -#}
{% macro dices_dialogue_key(dataset_config, item_id) -%}
    'dices' || {{ dataset_config }} || ':' || {{ item_id }}
{%- endmacro %}

{#- One CSV record of a release, as reconciliation names it: `dices350:<id>`. -#}
{% macro dices_record_key(dataset_config, source_row_id) -%}
    'dices' || {{ dataset_config }} || ':' || {{ source_row_id }}
{%- endmacro %}

{% macro dices_rater_key(rater_id) -%}
    'dices:rater:' || {{ rater_id }}
{%- endmacro %}

{#- One rating per (CSV row, question column): `dices350:<id>:<question>`. -#}
{% macro dices_rating_id(dataset_config, source_row_id, question) -%}
    'dices' || {{ dataset_config }} || ':' || {{ source_row_id }} || ':' || {{ question }}
{%- endmacro %}

{#- The integer that names one CSV record of either release in the warehouse's own tables (the
    answers refer to it instead of repeating the record's text keys on every answer): the
    record's index in its file (a release is one file per load), with the release in the lowest bit. -#}
{% macro dices_row_ref(dataset_config, row_number) -%}
    (cast({{ row_number }} as bigint) * 2 + case {{ dataset_config }} when '350' then 0 else 1 end)
{%- endmacro %}
