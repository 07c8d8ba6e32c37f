-- One row per (source, scope, rating kind, question, rater group): how much the group's raters
-- agree among themselves (Krippendorff's α), with the raters outside the group (xRR), and the
-- ratio of the two (GAI), from per-unit value counts (no pairs of raters are ever formed).
with

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

unit_counts as (

    select * from {{ ref('int_agreement__unit_counts') }}

),

rater_groups as (

    select * from {{ ref('int_agreement__rater_groups') }}

),

-- (the linter cannot follow the indentation of CTEs written in a loop, one per DICES release)
-- noqa: disable=LT02
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),

dices_{{ release }}_item_counts as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_item_counts') }}

),
{%- endfor %}
-- noqa: enable=LT02

rater_questions as (

    select * from {{ ref('int_agreement__rater_questions') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

groups as (

    select distinct
        group_id,
        group_dimension,
        group_value
    from rater_groups

),

everyone as (

    select distinct group_id from rater_groups
    where group_dimension = 'all'

),

-- every question of a scope, for every group with a rater who rated in that scope
group_questions as (

    select distinct
        rater_groups.group_id,
        questions.question_id
    from rater_questions
    inner join rater_groups on rater_questions.rater_number = rater_groups.rater_number
    inner join questions
        on
            rater_questions.source = questions.source
            and rater_questions.scope = questions.scope

),

raters_per_group as (

    select
        rater_groups.group_id,
        rater_questions.question_id,
        count(*) as n_raters
    from rater_questions
    inner join rater_groups on rater_questions.rater_number = rater_groups.rater_number
    where rater_questions.n_values > 0
    group by rater_groups.group_id, rater_questions.question_id

),

-- each question's numbers by value code (0 for codes it does not use; DICES answers have no
-- number and are only compared nominally)
question_numbers as (

    select
        question_id,
        {{ agreement_numbers_by_code() }}
    from value_labels
    group by question_id

),

-- what the (group, unit) terms need of a question: its numbers and whether they are an interval
question_terms as (

    select
        question_numbers.*,
        questions.level_of_measurement = 'interval' as is_interval
    from question_numbers
    inner join questions on question_numbers.question_id = questions.question_id

),

-- how often each value was given on each DUO and ReDial unit
rated_unit_counts as (

    select
        unit_counts.question_id,
        {{ for_each_value_code('unit_counts.count_@', ',\n        ') }}
    from unit_counts
    inner join questions on unit_counts.question_id = questions.question_id
    where questions.source <> 'dices'

),

-- DUO and ReDial raters form no demographic groups: the `all` group's counts are the units'
rated_group_unit_counts as (

    select
        everyone.group_id,
        rated_unit_counts.question_id,
        {{ for_each_value_code('rated_unit_counts.count_@', ',\n        ') }},
        {{ for_each_value_code('rated_unit_counts.count_@ as unit_count_@', ',\n        ') }}
    from rated_unit_counts
    cross join everyone

),

-- noqa: disable=LT02
{%- for release in dices_releases() %}

-- how often each DICES-{{ release }} demographic group gave each value on each item, for all
-- question columns at once: one pass over the records (not over the 26 times as many
-- judgements), each question's counts packed in one number (`agreement_packed_judgement`)
dices_{{ release }}_packed_judgements as (

    select
        item_number,
        rater_number,
        {{ agreement_packed_judgement("columns('^Q')") }}
    from dices_{{ release }}_records

),

dices_{{ release }}_group_item_counts as (

    select
        rater_groups.group_id,
        judgements.item_number,
        sum(columns('^Q'))
    from dices_{{ release }}_packed_judgements as judgements
    inner join rater_groups on judgements.rater_number = rater_groups.rater_number
    where rater_groups.group_dimension <> 'all'
    group by rater_groups.group_id, judgements.item_number
    union all by name
    -- the `all` group's counts are the item's (0 there is no value, as a sum of none is null above)
    select
        everyone.group_id,
        item_counts.item_number,
        nullif(columns('^Q'), 0)
    from dices_{{ release }}_item_counts as item_counts
    cross join everyone

),

-- beside each group's packed counts on an item, the `all` group's (a pair of numbers per column)
dices_{{ release }}_paired_counts as (

    select
        group_id,
        -- (null where the group gave no value on the item there: such a cell is no cell)
        case
            when columns('^Q') is not null
                then struct_pack(
                    group_counts := columns('^Q'),
                    unit_counts := max(
                        case when group_id = (select everyone.group_id from everyone) then columns('^Q') end
                    ) over (partition by item_number)
                )
        end
    from dices_{{ release }}_group_item_counts

),

-- one row per (group, unit it gave a value to): the question columns unpivoted (a null column
-- gives no row)
dices_{{ release }}_packed_cells as (

    select
        '{{ release }}' as dataset_config,
        group_id,
        question,
        cast(paired_counts.group_counts as bigint) as group_counts,
        cast(paired_counts.unit_counts as bigint) as unit_counts
    from dices_{{ release }}_paired_counts
    unpivot (paired_counts for question in (columns('^Q')))

),
{%- endfor %}

dices_packed_cells as (
{%- for release in dices_releases() %}

    select * from dices_{{ release }}_packed_cells
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

dices_group_unit_counts as (

    select
        dices_packed_cells.group_id,
        questions.question_id,
        {{ for_each_value_code(
            agreement_unpacked_count('dices_packed_cells.group_counts', '@') ~ ' as count_@', ',\n        '
        ) }},
        {{ for_each_value_code(
            agreement_unpacked_count('dices_packed_cells.unit_counts', '@') ~ ' as unit_count_@', ',\n        '
        ) }}
    from dices_packed_cells
    inner join questions
        on
            questions.source = 'dices'
            and dices_packed_cells.dataset_config = questions.scope
            and dices_packed_cells.question = questions.question

),

group_unit_counts as (

    select * from rated_group_unit_counts
    union all
    select * from dices_group_unit_counts

),

-- the group's counts on each unit it gave a value to, beside the unit's counts of all raters
per_group_unit as (

    select
        group_unit_counts.*,
        question_terms.is_interval,
        {{ for_each_value_code('question_terms.number_@', ',\n        ') }},
        {{ for_each_value_code('group_unit_counts.count_@') }} as n_group,
        {{ for_each_value_code('group_unit_counts.unit_count_@') }} as n_unit
    from group_unit_counts
    inner join question_terms on group_unit_counts.question_id = question_terms.question_id

),

-- what each (group, unit) contributes, summed over the value codes
unit_terms as (

    select
        group_id,
        question_id,
        n_group,
        n_unit - n_group as n_others,
        {{ for_each_value_code('count_@', ',\n        ') }},
        {{ for_each_value_code('unit_count_@', ',\n        ') }},
        {{ for_each_value_code('count_@ * count_@') }} as group_same_value_pairs,
        {{ for_each_value_code('count_@ * (unit_count_@ - count_@)') }} as cross_same_value_pairs,
        -- the sums of numbers only mean something for interval questions (DUO)
        case when is_interval then {{ for_each_value_code('count_@ * number_@') }} end as group_value_sum,
        case
            when is_interval then {{ for_each_value_code('count_@ * number_@ * number_@') }}
        end as group_value_square_sum,
        greatest({{ for_each_value_code('count_@', ', ') }}) as group_plurality_count,
        -- ln(1) = 0: a value the group gave once, or not at all, adds nothing (and costs no ln)
        {{ for_each_value_code('case when count_@ > 1 then count_@ * ln(count_@) else 0 end') }} as group_count_log_sum
    from per_group_unit

),

classified_units as (

    select
        unit_terms.*,
        -- 1 or 0, multiplied into the sums below: cheaper than filtered aggregates over millions
        -- of (group, unit) rows. A unit with one value of the group adds no disagreeing pair
        -- (n_group² equals the sum of squares there), and with no others' value no shared pair.
        cast(unit_terms.n_group >= 2 as integer) as is_pairable,
        cast(unit_terms.n_others >= 1 as integer) as is_rated_by_both,
        case
            when unit_terms.group_plurality_count = unit_terms.n_group then 0.0
            else ln(unit_terms.n_group) - unit_terms.group_count_log_sum / unit_terms.n_group
        end as group_entropy
    from unit_terms

),

per_group_question as (

    select
        group_id,
        question_id,
        cast(sum(is_pairable) as bigint) as n_units,
        cast(sum(is_pairable * n_group) as bigint) as n_values,
        sum((n_group * n_group - group_same_value_pairs) / greatest(n_group - 1, 1)) as nominal_disagreeing_pairs,
        sum(2 * (n_group * group_value_square_sum - group_value_sum * group_value_sum) / greatest(n_group - 1, 1))
            as interval_squared_differences,
        sum(is_pairable * group_value_sum) as pairable_value_sum,
        sum(is_pairable * group_value_square_sum) as pairable_value_square_sum,
        -- per value: the square of how often the group gave it on its pairable units
        {{ for_each_value_code('sum(is_pairable * count_@) ** 2') }} as pairable_same_value_pairs,
        cast(sum(is_rated_by_both) as bigint) as n_xrr_units,
        sum(is_rated_by_both * n_group) as n_group_values_on_shared_units,
        -- (the others' values are 0 where none was given)
        sum(n_others) as n_others_values_on_shared_units,
        -- per value: the group's count on the units both rated times the others' count there
        {{ for_each_value_code('sum(is_rated_by_both * count_@) * sum(unit_count_@ - count_@)') }}
            as shared_same_value_pairs,
        sum((n_group + n_others) * (1 - cross_same_value_pairs / (n_group * nullif(n_others, 0))))
            as xrr_weighted_disagreement,
        avg(group_entropy) as mean_entropy,
        avg(group_plurality_count / n_group) as mean_plurality_share
    from classified_units
    group by group_id, question_id

),

disagreements as (

    select
        group_questions.group_id,
        group_questions.question_id,
        coalesce(per_group_question.n_units, 0) as n_units,
        coalesce(per_group_question.n_values, 0) as n_values,
        case
            when questions.level_of_measurement = 'nominal'
                then per_group_question.nominal_disagreeing_pairs / per_group_question.n_values
            else per_group_question.interval_squared_differences / per_group_question.n_values
        end as observed_disagreement,
        case
            when per_group_question.n_values >= 2
                then
                    case
                        when questions.level_of_measurement = 'nominal'
                            then
                                per_group_question.n_values * per_group_question.n_values
                                - per_group_question.pairable_same_value_pairs
                        else
                            2 * (
                                per_group_question.n_values * per_group_question.pairable_value_square_sum
                                - per_group_question.pairable_value_sum * per_group_question.pairable_value_sum
                            )
                    end
                    / (per_group_question.n_values * (per_group_question.n_values - 1))
        end as expected_disagreement,
        per_group_question.n_xrr_units,
        per_group_question.xrr_weighted_disagreement
        / nullif(
            per_group_question.n_group_values_on_shared_units + per_group_question.n_others_values_on_shared_units, 0
        ) as xrr_observed_disagreement,
        (
            per_group_question.n_group_values_on_shared_units * per_group_question.n_others_values_on_shared_units
            - per_group_question.shared_same_value_pairs
        )
        / nullif(
            per_group_question.n_group_values_on_shared_units * per_group_question.n_others_values_on_shared_units, 0
        ) as xrr_expected_disagreement,
        ln(questions.n_labels) - per_group_question.mean_entropy as mean_negentropy,
        per_group_question.mean_plurality_share
    from group_questions
    inner join questions on group_questions.question_id = questions.question_id
    left join per_group_question
        on
            group_questions.group_id = per_group_question.group_id
            and group_questions.question_id = per_group_question.question_id

),

coefficients as (

    select
        disagreements.*,
        1 - disagreements.observed_disagreement / nullif(disagreements.expected_disagreement, 0) as alpha,
        case
            when groups.group_dimension <> 'all' and questions.level_of_measurement = 'nominal'
                then 1 - disagreements.xrr_observed_disagreement / nullif(disagreements.xrr_expected_disagreement, 0)
        end as xrr
    from disagreements
    inner join groups on disagreements.group_id = groups.group_id
    inner join questions on disagreements.question_id = questions.question_id

),

final as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        groups.group_dimension,
        groups.group_value,
        questions.level_of_measurement,
        cast(questions.n_labels as bigint) as n_labels,
        coalesce(raters_per_group.n_raters, 0) as n_raters,
        coefficients.n_units,
        cast(coefficients.n_values as bigint) as n_values,
        case when coefficients.n_values >= 2 then coefficients.observed_disagreement end as observed_disagreement,
        coefficients.expected_disagreement,
        coefficients.alpha,
        coalesce(coefficients.n_xrr_units, 0) as n_xrr_units,
        case when coefficients.n_xrr_units > 0 then coefficients.xrr_observed_disagreement end
            as xrr_observed_disagreement,
        case when coefficients.n_xrr_units > 0 then coefficients.xrr_expected_disagreement end
            as xrr_expected_disagreement,
        coefficients.xrr,
        -- an xRR within rounding of 0 is 0: the ratio would be float noise
        case when abs(coefficients.xrr) >= 1e-12 then coefficients.alpha / coefficients.xrr end as gai,
        coefficients.mean_negentropy,
        coefficients.mean_plurality_share
    from coefficients
    inner join groups on coefficients.group_id = groups.group_id
    inner join questions on coefficients.question_id = questions.question_id
    left join raters_per_group
        on
            coefficients.group_id = raters_per_group.group_id
            and coefficients.question_id = raters_per_group.question_id

)

select * from final
