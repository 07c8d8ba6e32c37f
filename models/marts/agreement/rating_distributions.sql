-- One row per unit (what several raters judged) that holds at least one value: how its values
-- are spread and how much its raters disagree.
with

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

unit_value_counts as (

    select * from {{ ref('int_agreement__unit_value_counts') }}

),

repeat_raters as (

    select * from {{ ref('int_agreement__repeat_raters') }}

),

repeat_raters_per_unit as (

    select
        unit_id,
        count(*) filter (where n_values > 0) as n_raters
    from repeat_raters
    group by unit_id

),

labelled_counts as (

    select
        unit_value_counts.unit_id,
        unit_value_counts.n_values,
        unit_value_counts.n_unit_values,
        value_labels.value_text,
        value_labels.value_numeric,
        unit_value_counts.n_values / unit_value_counts.n_unit_values as share,
        unit_value_counts.plurality_count,
        unit_value_counts.n_single_judgement_raters,
        unit_value_counts.n_missing_judgements
    from unit_value_counts
    inner join value_labels
        on
            unit_value_counts.question_id = value_labels.question_id
            and unit_value_counts.value_code = value_labels.value_code

),

per_unit as (

    select
        unit_id,
        sum(n_values) as n_ratings,
        count(*) as n_distinct_values,
        -- sorting the entries (structs sort by their first field) costs less than an ordered aggregate
        map_from_entries(list_sort(list({ 'key': value_text, 'value': cast(n_values as bigint) }))) as value_counts,
        min(value_text) filter (where n_values = plurality_count) as plurality_value,
        max(plurality_count) / sum(n_values) as plurality_share,
        -sum(share * ln(share)) as entropy,
        sum(n_values * value_numeric) as value_sum,
        sum(n_values * value_numeric * value_numeric) as value_square_sum,
        -- a rater who judged the unit once is counted in unit_value_counts, one who judged it
        -- again is a row of repeat_raters
        any_value(n_single_judgement_raters) as n_single_judgement_raters,
        any_value(n_missing_judgements) as n_missing
    from labelled_counts
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
        cast(per_unit.n_ratings as bigint) as n_ratings,
        cast(per_unit.n_single_judgement_raters + coalesce(repeat_raters_per_unit.n_raters, 0) as bigint) as n_raters,
        cast(per_unit.n_missing as bigint) as n_missing,
        per_unit.n_distinct_values,
        per_unit.value_counts,
        per_unit.plurality_value,
        per_unit.plurality_share,
        per_unit.entropy,
        cast(questions.n_labels as bigint) as n_labels,
        ln(questions.n_labels) - per_unit.entropy as negentropy,
        case
            when questions.level_of_measurement = 'interval'
                then per_unit.value_sum / per_unit.n_ratings
        end as mean_value,
        case
            when questions.level_of_measurement = 'interval' and per_unit.n_ratings > 1
                then sqrt(
                    (per_unit.n_ratings * per_unit.value_square_sum - per_unit.value_sum * per_unit.value_sum)
                    / (per_unit.n_ratings * (per_unit.n_ratings - 1))
                )
        end as sd_value
    from per_unit
    inner join units on per_unit.unit_id = units.unit_id
    inner join questions on units.question_id = questions.question_id
    left join repeat_raters_per_unit on per_unit.unit_id = repeat_raters_per_unit.unit_id

)

select * from final
