-- One row per unit (what several raters judged) that holds at least one value: how its raters'
-- values are spread, over every label of the question's label set. Entropy and plurality share
-- are those of the group `all` on the unit (`int_agreement__group_units`), so that they are
-- computed in one place for units and groups alike.
with

units as (

    select * from {{ ref('int_agreement__unit_counts') }}
    where n_values > 0

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

group_units as (

    select * from {{ ref('int_agreement__group_units') }}

),

everyone as (

    select distinct group_id from {{ ref('int_agreement__rater_groups') }}
    where group_dimension = 'all'

),

everyone_on_units as (

    select group_units.*
    from group_units
    inner join everyone on group_units.group_id = everyone.group_id

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}
    where not counts_as_missing

),

-- every label of the unit's question, with how many raters gave it there (0 where none did)
unit_labels as (

    select
        units.unit_id,
        judgement_labels.value_code,
        judgement_labels.value_text,
        coalesce(unit_value_counts.n_values, 0) as n_values
    from units
    inner join questions on units.question_id = questions.question_id
    inner join judgement_labels on questions.label_set = judgement_labels.label_set
    left join unit_value_counts
        on
            units.unit_id = unit_value_counts.unit_id
            and judgement_labels.value_code = unit_value_counts.value_code

),

-- each unit's labels in one list, in the label set's order (list_sort orders the structs by their
-- first field, the code). Gathered by a window, not a group-by: DuckDB spills a window's
-- partitions to disk but holds every group's list in memory, and there are millions of units.
-- No order by in the window: it would sort each unit's frame on its own, fifty times slower.
unit_label_lists as (

    select
        unit_id,
        list_sort(
            list({ 'value_code': value_code, 'value_text': value_text, 'n_values': n_values }) over unit_rows
        ) as labels
    from unit_labels
    window unit_rows as (partition by unit_id)
    qualify row_number() over unit_rows = 1

),

label_counts as (

    select
        unit_id,
        labels,
        map(
            list_transform(labels, label -> label.value_text),
            list_transform(labels, label -> label.n_values)
        ) as value_counts,
        len(list_filter(labels, label -> label.n_values > 0)) as n_distinct_values,
        list_max(list_transform(labels, label -> label.n_values)) as n_plurality
    from unit_label_lists

),

mart_rows as (

    select
        units.dialogue_key,
        questions.rating_kind,
        questions.question,
        units.movie_id,
        questions.source,
        questions.scope,
        questions.level_of_measurement,
        units.n_values as n_ratings,
        units.n_values as n_raters,
        units.n_repeats,
        units.n_missing,
        label_counts.n_distinct_values,
        label_counts.value_counts,
        map_from_entries(
            list_transform(map_entries(label_counts.value_counts), entry -> {
                'key': entry.key, 'value': entry.value / units.n_values
            })
        ) as value_shares,
        -- the most frequent value; ties go to the smallest value text
        list_min(
            list_transform(
                list_filter(label_counts.labels, label -> label.n_values = label_counts.n_plurality),
                label -> label.value_text
            )
        ) as plurality_value,
        everyone_on_units.plurality_share,
        everyone_on_units.entropy,
        questions.n_labels,
        ln(questions.n_labels) - everyone_on_units.entropy as negentropy,
        case when questions.level_of_measurement = 'interval' then units.mean_value end as mean_value,
        case when questions.level_of_measurement = 'interval' then units.sd_value end as sd_value
    from units
    inner join questions on units.question_id = questions.question_id
    inner join label_counts on units.unit_id = label_counts.unit_id
    inner join everyone_on_units on units.unit_id = everyone_on_units.unit_id

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
