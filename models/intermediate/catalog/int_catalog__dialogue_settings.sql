-- Every dialogue setting: the built-in releases' (`seeds/dialogue_settings.csv`) and each loaded
-- dataset's one, named after the dataset. What `dialogues.setting` must name. A view.
{{ config(materialized='view') }}

with

built_in_settings as (

    select * from {{ ref('dialogue_settings') }}

),

datasets as (

    select * from {{ ref('stg_dataset__manifests') }}

),

final as (

    select
        source,
        setting,
        description
    from built_in_settings
    union all
    select
        source,
        source as setting,
        title as description
    from datasets

)

select * from final
