-- One row per ReDial movie id, as `int_redial__movies` computes it, shaped by the contract.
with

movies as (

    select * from {{ ref('int_redial__movies') }}

),

final as (

    select
        {{ contract_columns() }}
    from movies

)

select * from final
