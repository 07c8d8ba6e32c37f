-- A view: the per-source turn tables are already written once (2.4 million rows at scale 10);
-- a table here would copy them, text and all, on every build.
{{ config(materialized='view') }}

with

unioned as (

    {{ union_source_models('turns') }}

),

final as (

    select
        {{ contract_columns() }}
    from unioned

)

select * from final
