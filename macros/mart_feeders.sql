{#-
    The models that feed each shared mart, named with ref() so that dbt's lineage and a grep for
    a model's name both find who feeds whom. A new dataset adds its models to these lists, and no
    mart's SQL changes (docs/ADDING_A_SOURCE.md). Only the branch of the asked mart runs, so a mart
    depends on its own feeders and on no other mart's.
-#}
{% macro mart_feeders(mart) -%}
    {%- if mart == 'dialogues' -%}
        {{ return([
            ref('int_duo__dialogues'),
            ref('int_redial__dialogues'),
            ref('int_dices__dialogues'),
        ]) }}
    {%- elif mart == 'turns' -%}
        {{ return([
            ref('int_duo__turns'),
            ref('int_redial__turns'),
            ref('int_dices__turns'),
        ]) }}
    {%- elif mart == 'raters' -%}
        {{ return([
            ref('int_duo__raters'),
            ref('int_redial__raters'),
            ref('int_dices__raters'),
        ]) }}
    {%- elif mart == 'ratings' -%}
        {{ return([
            ref('int_duo__ratings'),
            ref('int_redial__ratings'),
            ref('int_dices__ratings'),
        ]) }}
    {%- elif mart == 'landed_records' -%}
        {#- what each source declares about the records it landed (reconciliation) -#}
        {{ return([
            ref('int_duo__landed_records'),
            ref('int_redial__landed_records'),
            ref('int_dices__landed_records'),
        ]) }}
    {%- elif mart == 'judgements' -%}
        {#- every judgement the agreement models compare, in one long shape (int_agreement__judgements) -#}
        {{ return([
            ref('int_duo__judgements'),
            ref('int_redial__judgements'),
            ref('int_dices__judgements'),
        ]) }}
    {%- elif mart == 'replications' -%}
        {#- two sets of judgements of the same units that replication_agreement compares (int_agreement__replication_values) -#}
        {{ return([
            ref('int_duo__replications'),
            ref('int_dices__replications'),
        ]) }}
    {%- elif mart == 'judge_references' -%}
        {#- the references a judge is compared with that are not a kind of rater (int_judges__reference_values) -#}
        {{ return([
            ref('int_redial__judge_references'),
            ref('int_dices__judge_references'),
        ]) }}
    {%- else -%}
        {{ exceptions.raise_compiler_error("mart_feeders: no list of feeding models for '" ~ mart ~ "'") }}
    {%- endif -%}
{%- endmacro %}
