with

unioned as (

    {{ union_source_models('rater_attributes') }}

),

final as (

    select
        {{ contract_columns() }}
    from unioned

)

select * from final
