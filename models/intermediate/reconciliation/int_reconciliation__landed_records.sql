-- One row per record sitting in a raw landing table, with the mart row it should become: what
-- each source declares about its own records (its `int_<source>__landed_records`).
with

declared as (

    {{ union_source_models('landed_records') }}

),

final as (

    select * from declared

)

select * from final
