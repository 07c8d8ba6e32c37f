with

unioned as (

    {{ union_source_models('raters') }}

),

final as (

    select
        {{ contract_columns() }}
    from unioned

)

select * from final
