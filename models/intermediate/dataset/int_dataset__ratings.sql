-- One rating per landed judgement row of a dataset, in the `ratings` mart's shape (a value that
-- means "no judgement" included, as DICES's empty answers are): value_numeric the number of an
-- interval or ratio question, value_label the label of a nominal or ordinal one, value_raw the
-- text as given; phase the round as given.
with

judgements as (

    select * from {{ ref('stg_dataset__judgements') }}

),

questions as (

    select * from {{ ref('stg_dataset__questions') }}

),

final as (

    select
        judgements.dialogue_key || ':' || judgements.source_rater_id || ':' || judgements.question
        || ':' || judgements.round_rank as rating_id,
        judgements.dialogue_key,
        judgements.rater_key,
        'judgement' as rating_kind,
        judgements.question,
        judgements.value_number as value_numeric,
        questions.labels[judgements.label_position] as value_label,
        judgements.value_raw,
        judgements.source,
        judgements.file_path || ':' || judgements.line_number as source_row_id,
        cast(judgements.round_rank as varchar) as phase
    from judgements
    inner join questions
        on
            judgements.source = questions.source
            and judgements.question = questions.question

)

select * from final
