-- Every rater numbered: the agreement models count small integers, not rater keys.
with

raters as (

    select * from {{ ref('raters') }}

),

final as (

    select
        cast(row_number() over (order by rater_key) as integer) as rater_number,
        rater_key,
        source,
        source_rater_id
    from raters

)

select * from final
