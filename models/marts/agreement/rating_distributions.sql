-- One row per unit (what several raters judged) that holds at least one value: how its raters'
-- values are spread, over every label of the question's label set. Entropy and plurality share
-- are those of the group `all` on the unit (`int_agreement__group_units`), so that they are
-- computed in one place for units and groups alike.
with

units as (

    select * from {{ ref('int_agreement__units') }}
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

    select * from {{ ref('judgement_labels') }}
    where not counts_as_missing

),

-- every label of the unit's question with its count there, 0 where no rater gave it
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

label_counts as (

    select
        unit_id,
        map(list(value_text order by value_code), list(n_values order by value_code)) as value_counts,
        count(*) filter (where n_values > 0) as n_distinct_values,
        -- the most frequent value; ties go to the smallest value text
        first(value_text order by n_values desc, value_text asc) as plurality_value
    from unit_labels
    group by unit_id

),

final as (

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
        label_counts.plurality_value,
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

)

select * from final
