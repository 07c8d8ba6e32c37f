-- One row per judgement of a unit, as small integers: the unit, its question, the rater, the
-- value's code within the question (null when the judgement is missing: a null answer, or
-- ReDial's "did not say") and how many judgements the rater gave on that unit. Repeats by one
-- rater stay separate rows; knowing them here spares every agreement model a group-by of all
-- (unit, rater) pairs. Every DUO objective score and ReDial form answer; of the DICES answers
-- only those of a rater with several records for one item (a handful): the agreement models
-- count all other DICES answers from the releases' records in their wide shape
-- (`int_agreement__dices_<config>_records`), 26 times fewer rows. The test
-- `agreement_values_reconcile_with_ratings` proves that nothing is lost on the way.
with

rated_judgements as (

    select * from {{ ref('int_agreement__rated_judgements') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release)
-- noqa: disable=LT02
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}
    where n_rater_judgements > 1

),
{%- endfor %}
-- noqa: enable=LT02

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where source = 'dices'

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

-- the judgements of raters with several records for an item, one row per (record, question)
-- noqa: disable=LT02
dices_repeat_judgements as (
{%- for release in dices_releases() %}

    select
        dataset_config,
        item_id,
        rater_number,
        n_rater_judgements,
        question,
        value_code
    from dices_{{ release }}_records
    unpivot (value_code for question in (columns('^Q')))
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

dices_values as (

    select
        {{ agreement_unit_id(
            'questions.question_id',
            dices_dialogue_key('dices_repeat_judgements.dataset_config', 'dices_repeat_judgements.item_id'),
            'null'
        ) }} as unit_id,
        questions.question_id,
        dices_repeat_judgements.rater_number,
        -- code 0 is a missing answer
        cast(nullif(dices_repeat_judgements.value_code, 0) as integer) as value_code,
        dices_repeat_judgements.n_rater_judgements
    from dices_repeat_judgements
    inner join questions
        on
            dices_repeat_judgements.dataset_config = questions.scope
            and dices_repeat_judgements.question = questions.question

),

-- each DUO and ReDial judgement with the id of its unit
rated_unit_judgements as (

    select
        {{ agreement_unit_id('question_id', 'dialogue_key', 'movie_id') }} as unit_id,
        question_id,
        rater_key,
        rating_kind,
        question,
        value_numeric
    from rated_judgements

),

rated_values as (

    select
        rated_unit_judgements.unit_id,
        rated_unit_judgements.question_id,
        raters.rater_number,
        case
            when
                not {{ agreement_value_is_missing(
                    'rated_unit_judgements.rating_kind',
                    'rated_unit_judgements.question',
                    'rated_unit_judgements.value_numeric'
                ) }}
                then value_labels.value_code
        end as value_code,
        cast(count(*) over (partition by rated_unit_judgements.unit_id, raters.rater_number) as integer)
            as n_rater_judgements
    from rated_unit_judgements
    inner join raters on rated_unit_judgements.rater_key = raters.rater_key
    left join value_labels
        on
            rated_unit_judgements.question_id = value_labels.question_id
            and rated_unit_judgements.value_numeric = value_labels.value_numeric

),

final as (

    select * from dices_values
    union all
    select * from rated_values

)

select * from final
