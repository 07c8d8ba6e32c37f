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

-- each question's labels, in the label set's order
question_labels as (

    select
        questions.question_id,
        list(judgement_labels.value_code order by judgement_labels.value_code) as label_codes,
        list(judgement_labels.value_text order by judgement_labels.value_code) as label_texts
    from questions
    inner join judgement_labels on questions.label_set = judgement_labels.label_set
    group by questions.question_id

),

-- the values given on each unit, code → count (no entry for a label no one gave)
given_counts as (

    select
        unit_id,
        map_from_entries(list({ 'key': value_code, 'value': n_values })) as counts_by_code,
        count(*) as n_distinct_values,
        max(n_values) as n_plurality
    from unit_value_counts
    group by unit_id

),

-- the most frequent value; ties go to the smallest value text
plurality_values as (

    select
        unit_value_counts.unit_id,
        min(judgement_labels.value_text) as plurality_value
    from unit_value_counts
    inner join given_counts
        on
            unit_value_counts.unit_id = given_counts.unit_id
            and unit_value_counts.n_values = given_counts.n_plurality
    inner join units on unit_value_counts.unit_id = units.unit_id
    inner join questions on units.question_id = questions.question_id
    inner join judgement_labels
        on
            questions.label_set = judgement_labels.label_set
            and unit_value_counts.value_code = judgement_labels.value_code
    group by unit_value_counts.unit_id

),

label_counts as (

    select
        units.unit_id,
        map(
            question_labels.label_texts,
            list_transform(
                question_labels.label_codes, code -> coalesce(map_extract_value(given_counts.counts_by_code, code), 0)
            )
        ) as value_counts,
        given_counts.n_distinct_values,
        plurality_values.plurality_value
    from units
    inner join question_labels on units.question_id = question_labels.question_id
    inner join given_counts on units.unit_id = given_counts.unit_id
    inner join plurality_values on units.unit_id = plurality_values.unit_id

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
