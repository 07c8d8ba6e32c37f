-- One row per unit (what several raters judged) that holds at least one value: how its values
-- are spread and how much its raters disagree.
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

unit_counts as (

    select * from {{ ref('int_agreement__unit_counts') }}

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

-- each question's values in the order of their texts (the order of `value_counts`' keys), and
-- their numbers by code (0 for codes it does not use; DICES answers have none)
question_values as (

    select
        question_id,
        list({ 'code': value_code, 'text': value_text } order by value_text) as values_in_text_order,
        {{ agreement_numbers_by_code() }}
    from value_labels
    group by question_id

),

per_unit as (

    select
        unit_counts.unit_id,
        unit_counts.question_id,
        unit_counts.dialogue_key,
        unit_counts.movie_id,
        unit_counts.n_unit_values as n_ratings,
        cast({{ for_each_value_code('cast(unit_counts.count_@ > 0 as integer)') }} as bigint) as n_distinct_values,
        map_from_entries(
            list_transform(
                list_filter(
                    question_values.values_in_text_order, v -> {{ agreement_count_of('v.code', 'unit_counts') }} > 0
                ),
                v -> { 'key': v.text, 'value': cast({{ agreement_count_of('v.code', 'unit_counts') }} as bigint) }
            )
        ) as value_counts,
        list_filter(
            question_values.values_in_text_order,
            v -> {{ agreement_count_of('v.code', 'unit_counts') }} = unit_counts.plurality_count
        )[1].text as plurality_value,
        unit_counts.plurality_count / unit_counts.n_unit_values as plurality_share,
        -- a value not given adds nothing (and ln(1) = 0)
        -({{ for_each_value_code(
            '(unit_counts.count_@ / unit_counts.n_unit_values) * ln(greatest(unit_counts.count_@, 1) / unit_counts.n_unit_values)'
        ) }}) as entropy,
        {{ for_each_value_code('unit_counts.count_@ * question_values.number_@') }} as value_sum,
        {{ for_each_value_code('unit_counts.count_@ * question_values.number_@ * question_values.number_@') }}
            as value_square_sum,
        -- a rater who judged the unit once is counted in unit_counts, one who judged it again is
        -- a row of repeat_raters
        unit_counts.n_single_judgement_raters,
        unit_counts.n_missing_judgements as n_missing
    from unit_counts
    inner join question_values on unit_counts.question_id = question_values.question_id

),

final as (

    select
        per_unit.dialogue_key,
        questions.rating_kind,
        questions.question,
        per_unit.movie_id,
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
    inner join questions on per_unit.question_id = questions.question_id
    left join repeat_raters_per_unit on per_unit.unit_id = repeat_raters_per_unit.unit_id

)

select * from final
