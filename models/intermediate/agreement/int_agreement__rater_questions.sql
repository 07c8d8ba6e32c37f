-- One row per (rater, source, scope, rating kind, question): the rater's values and how many of
-- them agree with the plurality of the other raters on the same unit. All of the rater's own
-- values on a unit are left out of the others' plurality; a value agrees when its count among
-- the others is the others' highest count (ties count as agreement). Nearly every rater judges
-- a unit once: their plurality comes from the unit's counts, row by row, without any self-join
-- or per-(unit, rater) grouping. Raters who judged a unit more than once are worked out from
-- their counts per value in `int_agreement__repeat_raters`. DICES raters' single
-- judgements are read from the releases' records, one column per question, each beside its
-- item's unique plurality and summed per rater without unpivoting the records; ReDial workers'
-- from the units' two form judgements, each the other's only other value.
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

redial_form_units as (

    select * from {{ ref('int_agreement__redial_form_units') }}
    where not is_judged_twice_by_one_rater

),

unit_counts as (

    select * from {{ ref('int_agreement__unit_counts') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release,
-- nor read DuckDB's column renaming `as '\0'`: one column per question column)
-- noqa: disable=LT02,RF05
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),

dices_{{ release }}_item_counts as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_item_counts') }}

),

-- per item and question column: its unique plurality (`agreement_unique_plurality`: the value
-- code given more often than any other, 0 when none is) plus 8 when the item has more than one
-- value there. A rater who judged the item once agrees with the others' plurality exactly when
-- their value is the item's unique plurality: with their own value left out, it still has the
-- highest count (or shares it). Worked out per item, not per record.
dices_{{ release }}_item_pluralities as (

    select
        item_number,
        {{ agreement_unique_plurality("columns('^Q')") }}
        + 8 * cast({{ for_each_value_code(agreement_unpacked_count("columns('^Q')", '@')) }} > 1 as integer)
    from dices_{{ release }}_item_counts

),

-- each record of a rater who judged its item once, each question column holding the record's
-- value code (0 for missing) plus 8 times its item's plurality column: the item rows are put
-- beside the records and handed to them by a window, one column at a time
dices_{{ release }}_records_and_pluralities as (

    select
        item_number,
        dataset_config,
        rater_number,
        false as is_item_plurality,
        columns('^Q')
    from dices_{{ release }}_records
    where n_rater_judgements = 1
    union all by name
    select
        item_number,
        true as is_item_plurality,
        columns('^Q')
    from dices_{{ release }}_item_pluralities

),

dices_{{ release }}_judgements_beside_pluralities as (

    select
        dataset_config,
        rater_number,
        is_item_plurality,
        columns('^Q')
        + 8 * max(case when is_item_plurality then columns('^Q') end) over (partition by item_number)
    from dices_{{ release }}_records_and_pluralities

),

-- per rater and question column (8 = the value code's bits, 64 = more than one value there): how
-- many of the rater's values there are, how many of them met another value, and how many of
-- those are the unique plurality, as one struct per column
dices_{{ release }}_single_sums as (

    select
        dataset_config,
        rater_number,
        count(*) as n_units,
        struct_pack(
            n_values := count(nullif(columns('^Q') & 7, 0)),
            n_compared := count(case when columns('^Q') & 7 > 0 and columns('^Q') >= 64 then 1 end),
            n_agreeing := count(
                case
                    when
                        columns('^Q') & 7 > 0 and columns('^Q') >= 64 and columns('^Q') & 7 = (columns('^Q') >> 3) & 7
                        then 1
                end
            )
        ) as '\0'
    from dices_{{ release }}_judgements_beside_pluralities
    where not is_item_plurality
    group by dataset_config, rater_number

),

-- one row per (rater, question column)
dices_{{ release }}_single_scored as (

    select
        dataset_config,
        rater_number,
        n_units,
        question,
        sums.n_values,
        sums.n_compared,
        sums.n_agreeing
    from dices_{{ release }}_single_sums
    unpivot (sums for question in (columns('^Q')))

),
{%- endfor %}

dices_single_scored_by_name as (
{%- for release in dices_releases() %}

    select
        dataset_config,
        question,
        rater_number,
        n_units,
        n_values,
        n_units - n_values as n_missing,
        n_compared,
        n_agreeing
    from dices_{{ release }}_single_scored
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02,RF05

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

-- one judgement by the rater on the unit: the others are everyone else there (DUO: the DICES
-- judgements among the values are only repeat ones)
rated_single_judgements as (

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

-- each form's judgement on a ReDial unit: the other form's is the only other judgement there
redial_form_judgements as (

    select
        seeker_rater_number as rater_number,
        question_id,
        seeker_value_code as value_code,
        recommender_value_code as other_value_code
    from redial_form_units
    where is_judged_by_seeker
    union all
    select
        recommender_rater_number as rater_number,
        question_id,
        recommender_value_code as value_code,
        seeker_value_code as other_value_code
    from redial_form_units
    where is_judged_by_recommender

),

redial_single_judgements as (

    select
        rater_number,
        question_id,
        value_code,
        -- form answers are labels: no number to sum
        cast(null as double) as value_numeric,
        case when value_code is not null then cast(other_value_code is not null as integer) end as n_other_values,
        cast(value_code = other_value_code as integer) as n_others_same_value,
        cast(other_value_code is not null as integer) as others_plurality_count
    from redial_form_judgements

),

single_judgements as (

    select * from rated_single_judgements
    union all
    select * from redial_single_judgements

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

-- a rater who judged the unit more than once, beside the others' counts there (everyone's
-- counts less the rater's own)
repeated_units as (

    select
        repeat_raters.rater_number,
        repeat_raters.question_id,
        {{ for_each_value_code('repeat_raters.count_@', ',\n        ') }},
        repeat_raters.n_values,
        repeat_raters.n_missing,
        repeat_raters.value_sum,
        -- (a unit of missing judgements only has no counts)
        {{ for_each_value_code(
            'coalesce(unit_counts.count_@, 0) - repeat_raters.count_@ as others_count_@', ',\n        '
        ) }}
    from repeat_raters
    left join unit_counts on repeat_raters.unit_id = unit_counts.unit_id

),

-- each of the rater's values agrees when the others' count of it is their highest count; all
-- are compared with nothing when the others gave no value
repeated_units_scored as (

    select
        rater_number,
        question_id,
        n_values,
        n_missing,
        value_sum,
        case when {{ for_each_value_code('others_count_@') }} > 0 then n_values else 0 end as n_compared,
        case
            when {{ for_each_value_code('others_count_@') }} > 0
                then {{ for_each_value_code(
                    'case when others_count_@ = greatest(' ~ for_each_value_code('others_count_@', ', ')
                    ~ ') then count_@ else 0 end'
                ) }}
            else 0
        end as n_agreeing
    from repeated_units

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
