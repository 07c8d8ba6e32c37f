-- One rating per movie-form answer, by the worker who filled the form.
-- A table, though only the `ratings` mart reads it: as a view, every query on ReDial ratings
-- built the rating ids again (the ReDial form agreement query at scale 10: 0.83 s, 0.4-0.5 s
-- from this table; BENCHMARKS.md), to save ~2.7 s of build.
with

form_answers as (

    select * from {{ ref('int_redial__form_answers') }}
    -- an entry without questions is no answer; the form-answer tests report it
    where question is not null

),

final as (

    select
        dialogue_key || ':' || form || ':' || movie_id || ':' || question as rating_id,
        dialogue_key,
        rater_key,
        'movie_form' as rating_kind,
        question,
        movie_id,
        cast(value_numeric as double) as value_numeric,
        value_label,
        value_raw,
        'redial' as source,
        form,
        form_role
    from form_answers

)

select * from final
