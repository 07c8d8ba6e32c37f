with

unioned as (

    {{ union_source_models('dialogues') }}

),

final as (

    select
        {{ contract_columns() }}
    from unioned

)

select * from final
