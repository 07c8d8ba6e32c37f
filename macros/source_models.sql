{#-
    The models every source contributes to one shared relation, per kind of rows: the marts
    `dialogues`, `turns`, `raters` and `ratings`, and the feeds the build reads beside them
    (`landed_records` for reconciliation, `judgements` and `replications` for the agreement marts,
    `judge_references` and `judge_reference_raters` for the judges' marts). Named with ref() so that dbt's lineage and a grep for
    a model's name both find who feeds whom. The `int_dataset__` models are every dataset loaded
    with `dwh ingest --dataset` (docs/DATASETS.md), all through the same models. A new source with
    a structure of its own adds its models to these lists, and no shared model's SQL changes
    (docs/ADDING_A_SOURCE.md). Only the asked kind's branch runs, so a
    model depends on its own list and on no other.
-#}
{% macro source_models(kind) -%}
    {%- if kind == 'dialogues' -%}
        {{ return([
            ref('int_duo__dialogues'),
            ref('int_redial__dialogues'),
            ref('int_dices__dialogues'),
            ref('int_dataset__dialogues'),
        ]) }}
    {%- elif kind == 'turns' -%}
        {{ return([
            ref('int_duo__turns'),
            ref('int_redial__turns'),
            ref('int_dices__turns'),
            ref('int_dataset__turns'),
        ]) }}
    {%- elif kind == 'raters' -%}
        {{ return([
            ref('int_duo__raters'),
            ref('int_redial__raters'),
            ref('int_dices__raters'),
            ref('int_dataset__raters'),
        ]) }}
    {%- elif kind == 'ratings' -%}
        {{ return([
            ref('int_duo__ratings'),
            ref('int_redial__ratings'),
            ref('int_dices__ratings'),
            ref('int_dataset__ratings'),
        ]) }}
    {%- elif kind == 'rater_attributes' -%}
        {#- the raters' attributes, long (the `rater_attributes` mart and the rater groups); a
            dataset's rows are its raters.csv's, banded at landing, those without a value among them -#}
        {{ return([
            ref('int_dices__rater_attributes'),
            ref('stg_dataset__rater_attributes'),
        ]) }}
    {%- elif kind == 'landed_records' -%}
        {#- what each source declares about the records it landed (reconciliation) -#}
        {{ return([
            ref('int_duo__landed_records'),
            ref('int_redial__landed_records'),
            ref('int_dices__landed_records'),
            ref('int_dataset__landed_records'),
        ]) }}
    {%- elif kind == 'judgements' -%}
        {#- every judgement the agreement models compare, in one long shape (int_agreement__judgements) -#}
        {{ return([
            ref('int_duo__judgements'),
            ref('int_redial__judgements'),
            ref('int_dices__judgements'),
            ref('int_dataset__judgements'),
        ]) }}
    {%- elif kind == 'replications' -%}
        {#- two sets of judgements of the same units that replication_agreement compares (int_agreement__replication_values) -#}
        {{ return([
            ref('int_duo__replications'),
            ref('int_dices__replications'),
        ]) }}
    {%- elif kind == 'judge_references' -%}
        {#- the references a judge is compared with that are not a kind of rater (int_judges__reference_values) -#}
        {{ return([
            ref('int_redial__judge_references'),
            ref('int_dices__judge_references'),
        ]) }}
    {%- elif kind == 'judge_reference_raters' -%}
        {#- the raters a source names as a reference of their own, by rater (int_judges__reference_values) -#}
        {{ return([
            ref('int_dataset__judge_reference_raters'),
        ]) }}
    {%- else -%}
        {{ exceptions.raise_compiler_error("source_models: no list of source models for '" ~ kind ~ "'") }}
    {%- endif -%}
{%- endmacro %}

{#-
    The rows every source contributes to a shared relation of one kind (a mart such as `ratings`, or
    a feed such as `judgements`): the models `source_models(kind)` above lists,
    unioned by column name (a source emits only the columns it has; the others are null). A mart
    casts the result to its contract with `contract_columns()`.
-#}
{% macro union_source_models(kind) -%}
    {%- for model in source_models(kind) %}
    select * from {{ model }}
    {%- if not loop.last %}
    union all by name
    {%- endif %}
    {%- endfor %}
{%- endmacro %}
