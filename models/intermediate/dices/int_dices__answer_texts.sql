-- One row per distinct answer text written in any question column of either release, exactly
-- as released (in or out of the vocabulary), numbered by `answer_ref`: the small integer every
-- answer carries instead of its text. A handful of rows (the labels of the vocabularies).
with

ratings_350 as (

    select columns('^Q') from {{ ref('stg_dices__ratings_350') }}

),

ratings_990 as (

    select columns('^Q') from {{ ref('stg_dices__ratings_990') }}

),

texts as (

    select unnest([*columns('^Q')]) as answer from ratings_350
    union
    select unnest([*columns('^Q')]) as answer from ratings_990

),

final as (

    select
        cast(row_number() over (order by answer) as usmallint) as answer_ref,
        answer
    from texts
    where answer is not null

)

select * from final
