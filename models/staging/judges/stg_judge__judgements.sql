-- One row per judge's judgement of a unit, renamed for the models: the value's text as the judge
-- gave it (the build codes it by the question's labels of the day: `int_judges__judgements`), with
-- the file and line it came from.
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
        value_text,
        source_file,
        line_number
    from source

)

select * from final
