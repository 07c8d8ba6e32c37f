-- One row per unit with at least one value: its keys, how often each value code was given there
-- (one column per code, 0 for a code not given, missing judgements left out), the unit's number
-- of values and its plurality count, and, for the distributions, its missing judgements and its
-- raters of one judgement. One row per unit, not per (unit, value): the distributions, the rater
-- agreement and `agreement` read a unit's counts side by side, without grouping them again.
-- DICES answers are counted per item in `int_agreement__dices_<config>_item_counts` (one column
-- per question), ReDial form answers read beside each other per unit
-- (`int_agreement__redial_form_units`), DUO objective scores from their judgements. A unit's id is a hash of its keys
-- (`agreement_unit_id`): the judgements and the repeat raters compute the same id from theirs.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

redial_form_units as (

    select * from {{ ref('int_agreement__redial_form_units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release,
-- nor read DuckDB's column renaming `as 'all:\0'`: one column per question column, prefixed)
-- noqa: disable=LT02,RF05
{%- for release in dices_releases() %}

dices_{{ release }}_item_counts as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_item_counts') }}

),

-- per item and question column: the packed counts of its values (`agreement_packed_judgement`),
-- the same for raters with one record for the item, and the number of missing answers
dices_{{ release }}_item_sums as (

    select
        dataset_config,
        item_id,
        columns('^Q') as 'all:\0',
        columns('^single:'),
        columns('^missing:')
    from dices_{{ release }}_item_counts

),
{%- for measure in ['all', 'single', 'missing'] %}

dices_{{ release }}_{{ measure }}_cells as (

    select
        dataset_config,
        item_id,
        replace(question, '{{ measure }}:', '') as question,
        {{ measure }}_count
    from (select dataset_config, item_id, columns('^{{ measure }}:') from dices_{{ release }}_item_sums)
    unpivot include nulls ({{ measure }}_count for question in (columns('^{{ measure }}:')))

),
{%- endfor %}
{%- endfor %}

dices_item_cells as (
{%- for release in dices_releases() %}

    select
        all_cells.dataset_config,
        all_cells.item_id,
        all_cells.question,
        cast(all_cells.all_count as bigint) as all_counts,
        cast(single_cells.single_count as bigint) as single_counts,
        cast(missing_cells.missing_count as integer) as n_missing
    from dices_{{ release }}_all_cells as all_cells
    inner join dices_{{ release }}_single_cells as single_cells
        on all_cells.item_id = single_cells.item_id and all_cells.question = single_cells.question
    inner join dices_{{ release }}_missing_cells as missing_cells
        on all_cells.item_id = missing_cells.item_id and all_cells.question = missing_cells.question
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02,RF05

dices_unit_cells as (

    select
        questions.question_id,
        {{ dices_dialogue_key('dices_item_cells.dataset_config', 'dices_item_cells.item_id') }} as dialogue_key,
        dices_item_cells.all_counts,
        dices_item_cells.single_counts,
        dices_item_cells.n_missing
    from dices_item_cells
    inner join questions
        on
            questions.source = 'dices'
            and dices_item_cells.dataset_config = questions.scope
            and dices_item_cells.question = questions.question

),

-- per value code: the count of all answers and of those of raters with one record for the item
dices_counted as (

    select
        {{ agreement_unit_id('question_id', 'dialogue_key', 'null') }} as unit_id,
        question_id,
        dialogue_key,
        cast(null as varchar) as movie_id,
        {{ for_each_value_code(
            agreement_unpacked_count('all_counts', '@') ~ ' as count_@', ',\n        '
        ) }},
        {{ for_each_value_code('coalesce(' ~ agreement_unpacked_count('single_counts', '@') ~ ', 0)') }}
            as n_single_judgement_raters,
        n_missing as n_missing_judgements
    from dices_unit_cells

),

-- DUO objective scores
rated_counted as (

    select
        agreement_values.unit_id,
        agreement_values.question_id,
        agreement_values.dialogue_key,
        agreement_values.movie_id,
        {{ agreement_counts_per_value_code('agreement_values.value_code') }},
        cast(
            count(*) filter (where agreement_values.value_code is not null and agreement_values.n_rater_judgements = 1)
            as integer
        ) as n_single_judgement_raters,
        cast(count(*) filter (where agreement_values.value_code is null) as integer) as n_missing_judgements
    from agreement_values
    -- (grouped by the unit's keys too: two units whose ids collided stay two rows, and fail the
    -- test `unique` on unit_id)
    group by
        agreement_values.unit_id,
        agreement_values.question_id,
        agreement_values.dialogue_key,
        agreement_values.movie_id

),

-- ReDial form answers: the unit's two judgements. A worker who filled both forms judged it twice
-- (a row of `int_agreement__repeat_raters`), not once.
redial_counted as (

    select
        unit_id,
        question_id,
        dialogue_key,
        movie_id,
        {{ agreement_form_pair_counts_per_value_code() }},
        case
            when is_judged_twice_by_one_rater then 0
            else cast(seeker_value_code is not null as integer) + cast(recommender_value_code is not null as integer)
        end as n_single_judgement_raters,
        cast(is_judged_by_seeker and seeker_value_code is null as integer)
        + cast(is_judged_by_recommender and recommender_value_code is null as integer) as n_missing_judgements
    from redial_form_units

),

counted as (

    select * from dices_counted
    union all
    select * from rated_counted
    union all
    select * from redial_counted

),

final as (

    select
        unit_id,
        question_id,
        dialogue_key,
        movie_id,
        {{ for_each_value_code('count_@', ',\n        ') }},
        {{ for_each_value_code('count_@') }} as n_unit_values,
        greatest({{ for_each_value_code('count_@', ', ') }}) as plurality_count,
        n_single_judgement_raters,
        n_missing_judgements
    from counted
    -- a unit of missing judgements only has no distribution
    where {{ for_each_value_code('count_@') }} > 0

)

select * from final
