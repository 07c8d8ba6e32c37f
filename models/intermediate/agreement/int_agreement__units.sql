-- One row per unit: what several raters judged. DUO objective scores and DICES answers per
-- (dialogue, question), ReDial forms per (dialogue, movie, question). DUO subjective scores have
-- one rater each and are no units. DICES units are the items times their release's questions
-- (every CSV row answers each of them, nulls included): found without reading the millions of
-- answers. A unit carries its question's number (the question's attributes are in
-- `int_agreement__questions`) and its id, a hash of its keys (`agreement_unit_id`): the values
-- and the unit counts compute the same id from a judgement's keys, without joining back here.
with

rated_judgements as (

    select * from {{ ref('int_agreement__rated_judgements') }}

),

dices_rows as (

    select * from {{ ref('int_dices__rows') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

dices_items as (

    select distinct
        dialogue_key,
        dataset_config
    from dices_rows

),

dices_units as (

    select
        questions.question_id,
        dices_items.dialogue_key
    from dices_items
    inner join questions
        on
            questions.source = 'dices'
            and dices_items.dataset_config = questions.scope

),

rated_units as (

    select distinct
        question_id,
        dialogue_key,
        movie_id
    from rated_judgements

),

units as (

    select * from dices_units
    union all by name
    select * from rated_units

),

final as (

    select
        {{ agreement_unit_id('question_id', 'dialogue_key', 'movie_id') }} as unit_id,
        question_id,
        dialogue_key,
        movie_id
    from units

)

select * from final
