with

movie_mentions as (

    select * from {{ ref('int_redial__movie_mentions') }}

),

final as (

    select
        {{ contract_columns() }}
    from movie_mentions

)

select * from final
