-- One row per (rater, source, scope, rating kind, question): the rater's values and how many of
-- them agree with the plurality of the other raters on the same unit. All of the rater's own
-- values on a unit are left out of the others' plurality; a value agrees when its count among
-- the others is the others' highest count (ties count as agreement). Nearly every rater judges
-- a unit once: their plurality comes from the unit's counts, row by row, without any self-join
-- or per-(unit, rater) grouping. Raters who judged a unit more than once are worked out from
-- `int_agreement__repeat_raters`, value by value when their values differ. DICES raters' single
-- judgements are read from the releases' records, each beside its item's counts.
with

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

repeat_raters as (

    select * from {{ ref('int_agreement__repeat_raters') }}

),

unit_counts as (

    select * from {{ ref('int_agreement__unit_counts') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release)
-- noqa: disable=LT02
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),

-- per record and question column: the item's packed counts of all its answers
-- (`agreement_packed_judgement`, 0 when all are missing) times 8, plus the record's own code (0
-- for missing, at most 7: `agreement_value_codes_fit_the_count_columns`)
dices_{{ release }}_judgements_beside_item_counts as (

    select
        dataset_config,
        rater_number,
        n_rater_judgements,
        cast(
            coalesce(sum({{ agreement_packed_judgement("columns('^Q')") }}) over (partition by item_number), 0)
            as bigint
        ) * 8 + columns('^Q')
    from dices_{{ release }}_records

),

dices_{{ release }}_single_cells as (

    select
        dataset_config,
        rater_number,
        question,
        judgement_beside_item_counts & 7 as value_code,
        judgement_beside_item_counts >> 3 as item_counts
    from (
        select
            dataset_config,
            rater_number,
            columns('^Q')
        from dices_{{ release }}_judgements_beside_item_counts
        where n_rater_judgements = 1
    )
    unpivot (judgement_beside_item_counts for question in (columns('^Q')))

),
{%- endfor %}

dices_single_cells as (
{%- for release in dices_releases() %}

    select * from dices_{{ release }}_single_cells
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

-- the unit's number of values, the count of the rater's own value there and the highest count
-- of any other value
dices_single_judgements as (

    select
        dataset_config,
        rater_number,
        question,
        value_code,
        {{ for_each_value_code(agreement_unpacked_count('item_counts', '@')) }} as n_unit_values,
        {{ agreement_unpacked_count('item_counts', 'greatest(value_code, 1)') }} as own_value_count,
        greatest(
            {{ for_each_value_code(
                'case when value_code = @ then 0 else ' ~ agreement_unpacked_count('item_counts', '@') ~ ' end', ', '
            ) }}
        ) as max_count_of_other_values
    from dices_single_cells

),

dices_single_scored_by_name as (

    select
        dataset_config,
        question,
        rater_number,
        count(*) as n_units,
        count(*) filter (where value_code > 0) as n_values,
        count(*) filter (where value_code = 0) as n_missing,
        count(*) filter (where value_code > 0 and n_unit_values > 1) as n_compared,
        count(*) filter (
            where value_code > 0 and n_unit_values > 1 and own_value_count - 1 >= max_count_of_other_values
        ) as n_agreeing
    from dices_single_judgements
    group by dataset_config, question, rater_number

),

dices_single_scored as (

    select
        dices_single_scored_by_name.rater_number,
        questions.question_id,
        dices_single_scored_by_name.n_units,
        dices_single_scored_by_name.n_values,
        dices_single_scored_by_name.n_missing,
        dices_single_scored_by_name.n_compared,
        dices_single_scored_by_name.n_agreeing
    -- DICES answers have no number: no value_sum
    from dices_single_scored_by_name
    inner join questions
        on
            questions.source = 'dices'
            and dices_single_scored_by_name.dataset_config = questions.scope
            and dices_single_scored_by_name.question = questions.question

),

-- one judgement by the rater on the unit: the others are everyone else there (DUO, ReDial: the
-- DICES judgements among the values are only repeat ones)
single_judgements as (

    select
        agreement_values.rater_number,
        agreement_values.question_id,
        agreement_values.value_code,
        value_labels.value_numeric,
        -- a missing judgement is compared with nothing
        case when agreement_values.value_code is not null then unit_counts.n_unit_values - 1 end as n_other_values,
        {{ agreement_count_of('agreement_values.value_code', 'unit_counts') }} - 1 as n_others_same_value,
        greatest(
            {{ agreement_count_of('agreement_values.value_code', 'unit_counts') }} - 1,
            {{ agreement_highest_count_except('agreement_values.value_code', 'unit_counts') }}
        ) as others_plurality_count
    from agreement_values
    left join unit_counts on agreement_values.unit_id = unit_counts.unit_id
    left join value_labels
        on
            agreement_values.question_id = value_labels.question_id
            and agreement_values.value_code = value_labels.value_code
    where agreement_values.n_rater_judgements = 1

),

single_scored as (

    select
        rater_number,
        question_id,
        count(*) as n_units,
        count(value_code) as n_values,
        count(*) - count(value_code) as n_missing,
        count(*) filter (where n_other_values > 0) as n_compared,
        count(*) filter (where n_other_values > 0 and n_others_same_value = others_plurality_count) as n_agreeing,
        sum(value_numeric) as value_sum
    from single_judgements
    group by rater_number, question_id

),

-- several judgements, all the same value (or all missing)
repeated_same_value as (

    select
        repeat_raters.unit_id,
        repeat_raters.rater_number,
        repeat_raters.question_id,
        repeat_raters.n_values,
        repeat_raters.n_missing,
        repeat_raters.value_sum,
        -- a rater whose judgements are all missing is compared with nothing
        case
            when repeat_raters.lowest_value_code is not null then unit_counts.n_unit_values - repeat_raters.n_values
            else 0
        end as n_other_values,
        {{ agreement_count_of('repeat_raters.lowest_value_code', 'unit_counts') }} - repeat_raters.n_values
            as n_others_same_value,
        greatest(
            {{ agreement_count_of('repeat_raters.lowest_value_code', 'unit_counts') }} - repeat_raters.n_values,
            {{ agreement_highest_count_except('repeat_raters.lowest_value_code', 'unit_counts') }}
        ) as others_plurality_count
    from repeat_raters
    left join unit_counts on repeat_raters.unit_id = unit_counts.unit_id
    where repeat_raters.lowest_value_code is not distinct from repeat_raters.highest_value_code

),

repeated_same_value_scored as (

    select
        unit_id,
        rater_number,
        question_id,
        n_values,
        n_missing,
        value_sum,
        case when n_other_values > 0 then n_values else 0 end as n_compared,
        case
            when n_other_values > 0 and n_others_same_value = others_plurality_count then n_values else 0
        end as n_agreeing
    from repeated_same_value

),

mixed_raters as (

    select * from repeat_raters
    where lowest_value_code <> highest_value_code

),

mixed_own_counts as (

    select
        agreement_values.unit_id,
        agreement_values.rater_number,
        agreement_values.value_code,
        count(*) as n_own
    from agreement_values
    semi join mixed_raters
        on
            agreement_values.unit_id = mixed_raters.unit_id
            and agreement_values.rater_number = mixed_raters.rater_number
    where agreement_values.value_code is not null and agreement_values.n_rater_judgements > 1
    group by agreement_values.unit_id, agreement_values.rater_number, agreement_values.value_code

),

value_codes as (

    select unnest({{ agreement_value_codes() | list }}) as value_code

),

-- the values given on the units of those raters, one row per (unit, value)
unit_values as (

    select
        unit_counts.unit_id,
        value_codes.value_code,
        {{ agreement_count_of('value_codes.value_code', 'unit_counts') }} as n_values
    from unit_counts
    semi join mixed_raters on unit_counts.unit_id = mixed_raters.unit_id
    cross join value_codes
    where {{ agreement_count_of('value_codes.value_code', 'unit_counts') }} > 0

),

-- every value of the unit, with the rater's own count and the others' count
mixed_cells as (

    select
        mixed_raters.unit_id,
        mixed_raters.rater_number,
        coalesce(mixed_own_counts.n_own, 0) as n_own,
        unit_values.n_values - coalesce(mixed_own_counts.n_own, 0) as n_others
    from mixed_raters
    inner join unit_values on mixed_raters.unit_id = unit_values.unit_id
    left join mixed_own_counts
        on
            mixed_raters.unit_id = mixed_own_counts.unit_id
            and mixed_raters.rater_number = mixed_own_counts.rater_number
            and unit_values.value_code = mixed_own_counts.value_code

),

mixed_cells_with_plurality as (

    select
        *,
        max(n_others) over (partition by unit_id, rater_number) as others_plurality_count,
        sum(n_others) over (partition by unit_id, rater_number) as n_other_values
    from mixed_cells

),

mixed_scored as (

    select
        mixed_cells_with_plurality.unit_id,
        mixed_cells_with_plurality.rater_number,
        mixed_raters.question_id,
        mixed_raters.n_values,
        mixed_raters.n_missing,
        mixed_raters.value_sum,
        sum(
            case when mixed_cells_with_plurality.n_other_values > 0 then mixed_cells_with_plurality.n_own else 0 end
        ) as n_compared,
        sum(
            case
                when
                    mixed_cells_with_plurality.n_other_values > 0
                    and mixed_cells_with_plurality.n_others = mixed_cells_with_plurality.others_plurality_count
                    then mixed_cells_with_plurality.n_own
                else 0
            end
        ) as n_agreeing
    from mixed_cells_with_plurality
    inner join mixed_raters
        on
            mixed_cells_with_plurality.unit_id = mixed_raters.unit_id
            and mixed_cells_with_plurality.rater_number = mixed_raters.rater_number
    group by all

),

repeated_units_scored as (

    select * from repeated_same_value_scored
    union all by name
    select * from mixed_scored

),

repeated_scored as (

    select
        rater_number,
        question_id,
        count(*) as n_units,
        sum(n_values) as n_values,
        sum(n_missing) as n_missing,
        sum(n_compared) as n_compared,
        sum(n_agreeing) as n_agreeing,
        sum(value_sum) as value_sum
    from repeated_units_scored
    group by rater_number, question_id

),

scored as (

    select * from single_scored
    union all by name
    select * from dices_single_scored
    union all by name
    select * from repeated_scored

),

final as (

    select
        scored.rater_number,
        questions.question_id,
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        questions.level_of_measurement,
        cast(sum(scored.n_units) as bigint) as n_units,
        cast(sum(scored.n_values) as bigint) as n_values,
        cast(sum(scored.n_missing) as bigint) as n_missing,
        cast(sum(scored.n_compared) as bigint) as n_compared,
        cast(sum(scored.n_agreeing) as bigint) as n_agreeing,
        sum(scored.value_sum) as value_sum
    from scored
    inner join questions on scored.question_id = questions.question_id
    group by all

)

select * from final
