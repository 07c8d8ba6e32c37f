-- Every label set the agreement models know, codes as numbers: the built-in sources'
-- (`seeds/judgement_labels.csv`) and every loaded dataset's. A dataset's nominal or ordinal
-- question's labels are coded by their place in its order (1, 2, …: ordinal distances follow
-- it); an interval or ratio question's labels are the numbers its judgements gave, coded by
-- themselves (its distances are theirs); a label's meaning is the question's `meanings` at its
-- place, where questions.csv gives them. A view.
{{ config(materialized='view') }}

with

seeded_labels as (

    select * from {{ ref('judgement_labels') }}

),

dataset_questions as (

    select * from {{ ref('stg_dataset__questions') }}

),

dataset_judgements as (

    select * from {{ ref('stg_dataset__judgements') }}
    where not is_missing and value_number is not null

),

listed_labels as (

    select
        label_set,
        unnest(labels) as value_text,
        unnest(generate_series(1, len(labels))) as label_position,
        meanings
    from dataset_questions
    where labels is not null

),

given_numbers as (

    select distinct
        dataset_questions.label_set,
        dataset_judgements.value_number
    from dataset_judgements
    inner join dataset_questions
        on
            dataset_judgements.source = dataset_questions.source
            and dataset_judgements.question = dataset_questions.question

),

dataset_labels as (

    select
        label_set,
        cast(label_position as double) as value_code,
        value_text,
        meanings[label_position] as meaning
    from listed_labels
    union all
    select
        label_set,
        value_number as value_code,
        case
            when value_number = trunc(value_number) and abs(value_number) < 1e15
                then cast(cast(value_number as bigint) as varchar)
            else cast(value_number as varchar)
        end as value_text,
        cast(null as varchar) as meaning
    from given_numbers

),

final as (

    select
        label_set,
        cast(value_code as double) as value_code,
        value_text,
        counts_as_missing,
        is_unsure,
        meaning
    from seeded_labels
    union all
    select
        label_set,
        value_code,
        value_text,
        false as counts_as_missing,
        false as is_unsure,
        meaning
    from dataset_labels

)

select * from final
