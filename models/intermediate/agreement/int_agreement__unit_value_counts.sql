-- How often each value was given on each unit (missing judgements left out), with the unit's
-- number of values, its plurality count, and what the rater agreement needs to find the
-- plurality of the other raters without a self-join: the highest count among the unit's other
-- values. The unit's missing judgements and its raters of one judgement are counted in the
-- same pass, for the distributions. DICES answers are counted per item from the releases'
-- records (one row per record, one column per question), the others from their judgements.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release,
-- nor read DuckDB's column renaming `as 'all:\0'`: one column per question column, prefixed)
-- noqa: disable=LT02,RF05
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),

-- per item and question column: the packed counts of its values (`agreement_packed_judgement`),
-- the same for raters with one record for the item, and the number of missing answers
dices_{{ release }}_item_sums as (

    select
        dataset_config,
        item_id,
        sum({{ agreement_packed_judgement("columns('^Q')") }}) as 'all:\0',
        sum(case when n_rater_judgements = 1 then {{ agreement_packed_judgement("columns('^Q')") }} end)
            as 'single:\0',
        sum(case when columns('^Q') = 0 then 1 else 0 end) as 'missing:\0'
    from dices_{{ release }}_records
    group by dataset_config, item_id

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
        units.unit_id,
        units.question_id,
        dices_item_cells.all_counts,
        dices_item_cells.single_counts,
        dices_item_cells.n_missing
    from dices_item_cells
    inner join units
        on
            dices_item_cells.dataset_config = units.dices_dataset_config
            and dices_item_cells.question = units.dices_question
            and dices_item_cells.item_id = units.dices_item_id

),

value_codes as (

    select unnest({{ agreement_value_codes() | list }}) as value_code

),

-- one row per value given on the unit, and one with a null code for its missing answers
dices_counted_with_missing as (

    select
        dices_unit_cells.unit_id,
        dices_unit_cells.question_id,
        value_codes.value_code,
        {{ agreement_unpacked_count('dices_unit_cells.all_counts', 'value_codes.value_code') }} as n_values,
        coalesce(
            {{ agreement_unpacked_count('dices_unit_cells.single_counts', 'value_codes.value_code') }}, 0
        ) as n_single_judgements
    from dices_unit_cells
    cross join value_codes
    where {{ agreement_unpacked_count('dices_unit_cells.all_counts', 'value_codes.value_code') }} > 0
    union all
    select
        unit_id,
        question_id,
        null as value_code,
        n_missing as n_values,
        null as n_single_judgements
    from dices_unit_cells
    where n_missing > 0

),

-- DUO objective scores, ReDial form answers (the DICES answers among the values are only the
-- repeat judgements, counted above with the others); the null value code counts the missing
rated_counted_with_missing as (

    select
        agreement_values.unit_id,
        agreement_values.question_id,
        agreement_values.value_code,
        cast(count(*) as integer) as n_values,
        cast(count(*) filter (where agreement_values.n_rater_judgements = 1) as integer) as n_single_judgements
    from agreement_values
    semi join questions
        on
            agreement_values.question_id = questions.question_id
            and questions.source <> 'dices'
    group by agreement_values.unit_id, agreement_values.question_id, agreement_values.value_code

),

counted_with_missing as (

    select * from dices_counted_with_missing
    union all
    select * from rated_counted_with_missing

),

counted as (

    select
        *,
        max(n_values) over (partition by unit_id) as top_count
    from counted_with_missing
    where value_code is not null

),

missing as (

    select
        unit_id,
        n_values as n_missing_judgements
    from counted_with_missing
    where value_code is null

),

unit_tops as (

    select
        unit_id,
        top_count,
        cast(sum(n_values) as integer) as n_unit_values,
        cast(sum(n_single_judgements) as integer) as n_single_judgement_raters,
        count(*) filter (where n_values = top_count) as n_values_at_top_count,
        max(n_values) filter (where n_values < top_count) as second_count
    from counted
    group by unit_id, top_count

),

final as (

    select
        counted.unit_id,
        counted.question_id,
        counted.value_code,
        counted.n_values,
        unit_tops.n_unit_values,
        unit_tops.top_count as plurality_count,
        case
            when counted.n_values = unit_tops.top_count and unit_tops.n_values_at_top_count = 1
                then coalesce(unit_tops.second_count, 0)
            else unit_tops.top_count
        end as max_count_of_other_values,
        unit_tops.n_single_judgement_raters,
        coalesce(missing.n_missing_judgements, 0) as n_missing_judgements
    from counted
    inner join unit_tops on counted.unit_id = unit_tops.unit_id
    left join missing on counted.unit_id = missing.unit_id

)

select * from final
