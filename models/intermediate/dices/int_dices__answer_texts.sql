-- One row per distinct answer text written in any question column of either release, exactly
-- as released (in or out of the vocabulary), numbered by `answer_ref`: the small integer every
-- answer carries instead of its text. A handful of rows (the labels of the vocabularies).
with

ratings as (

    select columns('^Q') from {{ ref('stg_dices__ratings') }}

),

texts as (

    select distinct unnest([*columns('^Q')]) as answer from ratings

),

final as (

    select
        cast(row_number() over (order by answer) as usmallint) as answer_ref,
        answer
    from texts
    where answer is not null

)

select * from final
