-- A view: the DICES part alone is ~3 million rows, already written once to int_dices__answers;
-- a table here would copy them again on every build for no gain in DuckDB.
{{ config(materialized='view') }}

with

unioned as (

    {{ union_source_models('ratings') }}

),

final as (

    select
        {{ contract_columns() }}
    from unioned

)

select * from final
