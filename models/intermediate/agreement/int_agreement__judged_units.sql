-- One row per unit of every question with judgements, numbered: the key the agreement models
-- after `int_agreement__keyed_judgements` join and group on, a small integer in place of the
-- (source, scope, rating kind, question, unit key) text.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

distinct_units as (

    select distinct
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        dialogue_key,
        movie_id
    from judgements

),

final as (

    select
        cast(row_number() over (order by questions.question_id, distinct_units.unit_key) as integer) as unit_id,
        questions.question_id,
        distinct_units.unit_key,
        distinct_units.dialogue_key,
        distinct_units.movie_id
    from distinct_units
    inner join questions
        on
            distinct_units.source = questions.source
            and distinct_units.scope = questions.scope
            and distinct_units.rating_kind = questions.rating_kind
            and distinct_units.question = questions.question

)

select * from final
