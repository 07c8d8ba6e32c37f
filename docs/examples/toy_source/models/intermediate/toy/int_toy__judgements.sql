with

ratings as (

    select * from {{ ref('int_toy__ratings') }}

),

final as (

    select
        source,
        'toy' as scope,
        rating_kind,
        question,
        dialogue_key as unit_key,
        dialogue_key,
        cast(null as varchar) as movie_id,
        rater_key,
        cast(value_numeric as integer) as value_code,
        review_round as judgement_round,
        record_number as judgement_row
    from ratings

)

select * from final
