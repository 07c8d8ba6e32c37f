-- One row per (unit, rater who judged it more than once): how often the rater gave each value
-- code there (`count_1` …, as in `int_agreement__unit_counts`), how many values and missing
-- judgements that makes, and the sum of their numeric values. Raters with one judgement on a
-- unit need none of this: their judgement says it all. DUO repeats come from
-- `int_agreement__values`, ReDial ones from `int_agreement__redial_form_units`; DICES ones from
-- the records of raters with several records for an item, grouped per (item, rater) in the
-- releases' wide shape before being unpivoted, so that their 4.5 million answers (at scale 10)
-- are never a row each.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}
    where n_rater_judgements > 1

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

redial_form_units as (

    select * from {{ ref('int_agreement__redial_form_units') }}
    where is_judged_twice_by_one_rater

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where source = 'dices'

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release)
-- noqa: disable=LT02
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}
    where n_rater_judgements > 1

),
{%- endfor %}

-- per (item, rater) and question column: the packed counts of the rater's values there
-- (`agreement_packed_judgement`; null when all their answers there are missing)
dices_repeat_cells as (
{%- for release in dices_releases() %}

    select
        dataset_config,
        item_id,
        rater_number,
        n_rater_judgements,
        question,
        cast(own_counts as bigint) as own_counts
    from (
        select
            dataset_config,
            item_id,
            rater_number,
            n_rater_judgements,
            sum({{ agreement_packed_judgement("columns('^Q')") }})
        from dices_{{ release }}_records
        group by dataset_config, item_id, rater_number, n_rater_judgements
    )
    unpivot include nulls (own_counts for question in (columns('^Q')))
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

dices_repeats as (

    select
        {{ agreement_unit_id(
            'questions.question_id',
            dices_dialogue_key('dices_repeat_cells.dataset_config', 'dices_repeat_cells.item_id'),
            'null'
        ) }} as unit_id,
        dices_repeat_cells.rater_number,
        questions.question_id,
        {{ for_each_value_code(
            'coalesce(' ~ agreement_unpacked_count('dices_repeat_cells.own_counts', '@') ~ ', 0) as count_@',
            ',\n        '
        ) }},
        dices_repeat_cells.n_rater_judgements,
        -- DICES answers have no number
        cast(null as double) as value_sum
    from dices_repeat_cells
    inner join questions
        on
            dices_repeat_cells.dataset_config = questions.scope
            and dices_repeat_cells.question = questions.question

),

rated_repeats as (

    select
        agreement_values.unit_id,
        agreement_values.rater_number,
        agreement_values.question_id,
        {{ agreement_counts_per_value_code('agreement_values.value_code') }},
        cast(count(*) as integer) as n_rater_judgements,
        sum(value_labels.value_numeric) as value_sum
    from agreement_values
    left join value_labels
        on
            agreement_values.question_id = value_labels.question_id
            and agreement_values.value_code = value_labels.value_code
    group by agreement_values.unit_id, agreement_values.rater_number, agreement_values.question_id

),

-- a worker who filled both forms of a conversation, each listing the movie
redial_repeats as (

    select
        unit_id,
        seeker_rater_number as rater_number,
        question_id,
        {{ agreement_form_pair_counts_per_value_code() }},
        2 as n_rater_judgements,
        -- form answers are labels: no sum
        cast(null as double) as value_sum
    from redial_form_units

),

repeats as (

    select * from dices_repeats
    union all
    select * from rated_repeats
    union all
    select * from redial_repeats

),

final as (

    select
        unit_id,
        rater_number,
        question_id,
        {{ for_each_value_code('count_@', ',\n        ') }},
        {{ for_each_value_code('count_@') }} as n_values,
        n_rater_judgements - ({{ for_each_value_code('count_@') }}) as n_missing,
        value_sum
    from repeats

)

select * from final
