-- The datasets' label sets in the shape of `seeds/judgement_labels.csv`, which holds the built-in
-- sources' (`int_agreement__judgement_labels` reads both). A nominal or ordinal question's labels
-- are coded by their place in its order (1, 2, …: ordinal distances follow it); an interval or
-- ratio question's labels are the numbers its judgements gave, coded by themselves (its
-- distances are theirs).
with

questions as (

    select * from {{ ref('stg_dataset__questions') }}

),

judgements as (

    select * from {{ ref('stg_dataset__judgements') }}
    where not is_missing and value_number is not null

),

listed_labels as (

    select
        label_set,
        unnest(labels) as value_text,
        unnest(generate_series(1, len(labels))) as label_position
    from questions
    where labels is not null

),

given_numbers as (

    select distinct
        questions.label_set,
        judgements.value_number
    from judgements
    inner join questions
        on
            judgements.source = questions.source
            and judgements.question = questions.question

),

labels as (

    select
        label_set,
        cast(label_position as double) as value_code,
        value_text
    from listed_labels
    union all
    select
        label_set,
        value_number as value_code,
        case
            when value_number = trunc(value_number) and abs(value_number) < 1e15
                then cast(cast(value_number as bigint) as varchar)
            else cast(value_number as varchar)
        end as value_text
    from given_numbers

),

final as (

    select
        label_set,
        value_code,
        value_text,
        false as counts_as_missing,
        false as is_unsure,
        cast(null as varchar) as meaning
    from labels

)

select * from final
