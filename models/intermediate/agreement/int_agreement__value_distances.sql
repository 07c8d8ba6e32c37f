-- δ, the distance between two values of a question, for every ordered pair of its labels that
-- are values: Krippendorff's metric for the question's level of measurement. Nominal: 0 for
-- the same label, 1 for different ones; interval: the squared difference of the two scores.
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}
    where not counts_as_missing

),

final as (

    select
        questions.question_id,
        label_a.value_code as value_a,
        label_b.value_code as value_b,
        case questions.level_of_measurement
            when 'interval' then power(label_a.value_code - label_b.value_code, 2)
            when 'nominal' then cast(label_a.value_code <> label_b.value_code as integer)
        end as distance
    from questions
    inner join judgement_labels as label_a on questions.label_set = label_a.label_set
    inner join judgement_labels as label_b on questions.label_set = label_b.label_set

)

select * from final
