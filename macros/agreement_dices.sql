{#- The DICES releases, each with its own staging model and question columns: the agreement
    models read one records model per release (`int_agreement__dices_<config>_records`). -#}
{% macro dices_releases() -%}
    {{ return(['350', '990']) }}
{%- endmacro %}

{#-
    One row per DICES CSV record of one release (one rater x item), in the release's own wide
    shape: the item and the rater as numbers, and each of the release's question columns holding
    its answer's value code (`int_agreement__value_labels`; 0 for a missing answer). The release's
    judgements in 26 times fewer rows than in long form: `agreement` counts each rater group's
    values per item from them. One model per release (`int_agreement__dices_<config>_records`),
    as each release has its own question columns. `ratings` is the release's staging model.
-#}
{% macro agreement_dices_records(ratings) -%}
-- an answer outside its vocabulary reads as missing here: built after the answers' tests, so
-- that `dices_answers_in_vocabulary` stops the agreement models instead
-- depends_on: {{ ref('int_dices__answers') }}
with

ratings as (

    select * from {{ ref(ratings) }}

),

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'dices'

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where source = 'dices'

),

-- the answer texts of every question's vocabulary and their codes: one map for all question
-- columns, as no text is a label of two vocabularies with different codes (tested)
answer_codes as (

    select map(list(dices_vocabularies.label), list(cast(dices_vocabularies.code as utinyint))) as code_of_answer
    from dices_vocabularies
    semi join dices_questions on dices_vocabularies.vocabulary = dices_questions.answer_vocabulary

),

coded as (

    select
        ratings.dataset_config,
        ratings.item_id,
        ratings.rater_id,
        coalesce(answer_codes.code_of_answer[columns('^Q')], 0)
    from ratings
    cross join answer_codes

),

final as (

    select
        coded.dataset_config,
        coded.item_id,
        cast(dense_rank() over (order by coded.item_id) as integer) as item_number,
        raters.rater_number,
        cast(count(*) over (partition by coded.item_id, raters.rater_number) as integer) as n_rater_judgements,
        columns('^Q')
    from coded
    inner join raters on coded.rater_id = raters.source_rater_id

)

select * from final
{%- endmacro %}

{#-
    One row per DICES item of one release, in the release's wide shape: per question column, the
    packed counts of the values all its records gave there (`agreement_packed_judgement`; 0 when
    every answer there is missing), the same for the raters with one record for the item
    (`single:` columns), and the missing answers (`missing:` columns). Read by the unit counts,
    the rater agreement (each item's unique plurality) and `agreement` (the `all` group's counts),
    which would otherwise each sum the records per item. `release` is the release's config.
-#}
{% macro agreement_dices_item_counts(release) -%}
-- (the linter cannot read DuckDB's column renaming `as 'single:\0'`: one column per question
-- column, prefixed)
-- noqa: disable=RF05
with

records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),

final as (

    select
        dataset_config,
        item_id,
        item_number,
        coalesce(cast(sum({{ agreement_packed_judgement("columns('^Q')") }}) as bigint), 0),
        coalesce(
            cast(sum(case when n_rater_judgements = 1 then {{ agreement_packed_judgement("columns('^Q')") }} end) as bigint),
            0
        ) as 'single:\0',
        cast(sum(case when columns('^Q') = 0 then 1 else 0 end) as integer) as 'missing:\0'
    from records
    group by dataset_config, item_id, item_number

)

select * from final
{%- endmacro %}
