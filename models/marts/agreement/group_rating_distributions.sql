-- One row per (unit, rater group) for the demographic groups: the group's soft label on the unit
-- over every label of the question, its plurality value, and how far its label distribution is
-- from that of the raters outside it (Jensen–Shannon divergence, natural log).
-- A view: at DICES's size the groups' soft labels are tens of millions of small maps, more than a
-- table is worth; a query that picks items, questions or groups computes only theirs.
{{ config(materialized='view') }}

with

group_units as (

    select * from {{ ref('int_agreement__group_units') }}

),

group_unit_counts as (

    select * from {{ ref('int_agreement__group_unit_counts') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

demographic_groups as (

    select distinct
        group_id,
        group_dimension,
        group_value
    from {{ ref('int_agreement__rater_groups') }}
    where group_dimension <> 'all'

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}
    where not counts_as_missing

),

-- every label of the unit's question: the group's and the outsiders' share of their values
label_shares as (

    select
        units.dialogue_key,
        questions.rating_kind,
        questions.question,
        units.movie_id,
        questions.source,
        questions.scope,
        demographic_groups.group_dimension,
        demographic_groups.group_value,
        group_units.n_in_group as n_values,
        judgement_labels.value_code,
        judgement_labels.value_text,
        coalesce(group_unit_counts.n_in_group, 0) as n_in_group,
        coalesce(group_unit_counts.n_in_group, 0) / group_units.n_in_group as group_share,
        coalesce(group_unit_counts.n_outside_group, 0) / nullif(group_units.n_outside_group, 0) as rest_share
    from group_units
    inner join demographic_groups on group_units.group_id = demographic_groups.group_id
    inner join units on group_units.unit_id = units.unit_id
    inner join questions on group_units.question_id = questions.question_id
    inner join judgement_labels on questions.label_set = judgement_labels.label_set
    left join group_unit_counts
        on
            group_units.group_id = group_unit_counts.group_id
            and group_units.unit_id = group_unit_counts.unit_id
            and judgement_labels.value_code = group_unit_counts.value_code

),

-- Jensen–Shannon: half the Kullback–Leibler divergence of each side from their mean; a label
-- a side did not give adds nothing to its half
divergence_terms as (

    select
        *,
        case when group_share > 0 then group_share * ln(group_share / ((group_share + rest_share) / 2)) else 0 end
        + case when rest_share > 0 then rest_share * ln(rest_share / ((group_share + rest_share) / 2)) else 0 end
            as divergence_term
    from label_shares

),

-- each (unit, group)'s labels in one list, in the label set's order. A window, not a group-by, as
-- in `rating_distributions`: DuckDB spills a window's partitions to disk but holds every group's
-- list in memory. Partitioned by the view's key columns, so that a filter on any of them is
-- applied before the window.
group_unit_labels as (

    select
        dialogue_key,
        rating_kind,
        question,
        movie_id,
        source,
        scope,
        group_dimension,
        group_value,
        n_values,
        list_sort(
            list({
                'value_code': value_code,
                'value_text': value_text,
                'n_in_group': n_in_group,
                'share': group_share,
                'rest_share': rest_share,
                'divergence_term': divergence_term
            }) over group_unit_rows
        ) as labels
    from divergence_terms
    window
        group_unit_rows as (
            partition by dialogue_key, rating_kind, question, movie_id, source, scope, group_dimension, group_value
        )
    qualify row_number() over group_unit_rows = 1

),

mart_rows as (

    select
        * exclude (labels),
        map(
            list_transform(labels, label -> label.value_text), list_transform(labels, label -> label.n_in_group)
        ) as value_counts,
        map(list_transform(labels, label -> label.value_text), list_transform(labels, label -> label.share))
            as value_shares,
        -- the most frequent value; ties go to the smallest value text
        list_min(
            list_transform(
                list_filter(labels, label -> label.n_in_group = list_max(list_transform(labels, l -> l.n_in_group))),
                label -> label.value_text
            )
        ) as plurality_value,
        -- summed over the sorted list, not by the window: the same order, so the same last digit, every
        -- time the view is read; null where no rater outside the group gave a value on the unit
        case
            when len(list_filter(labels, label -> label.rest_share is not null)) > 0
                then list_sum(list_transform(labels, label -> label.divergence_term)) / 2
        end as divergence_from_rest
    from group_unit_labels

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
