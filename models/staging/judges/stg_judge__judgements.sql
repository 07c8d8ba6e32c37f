-- One row per judge's judgement of a unit, renamed for the models: the value on the question's
-- scale as a number, with the file and line it came from.
with

source as (

    select * from {{ source('judge', 'judge_judgements') }}

),

final as (

    select
        judge,
        source,
        dialogue_key,
        question,
        movie_id,
        cast(value_number as double) as judge_value,
        source_file,
        line_number
    from source

)

select * from final
