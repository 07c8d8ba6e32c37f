-- Every source the warehouse holds: the built-in releases (`seeds/warehouse_sources.csv`) and
-- every loaded dataset (its dataset.yml). What `dialogues.source` must name. A view.
{{ config(materialized='view') }}

with

built_in_sources as (

    select * from {{ ref('warehouse_sources') }}

),

datasets as (

    select * from {{ ref('stg_dataset__manifests') }}

),

final as (

    select
        source,
        dataset,
        description,
        license,
        false as is_dataset
    from built_in_sources
    union all
    select
        source,
        title as dataset,
        description,
        license,
        true as is_dataset
    from datasets

)

select * from final
