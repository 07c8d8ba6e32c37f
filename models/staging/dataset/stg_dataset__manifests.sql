-- One row per loaded dataset: what it is and where it comes from, from its dataset.yml.
with

source as (

    select * from {{ source('dataset', 'dataset_manifests') }}

),

final as (

    select
        dataset as source,
        title,
        license,
        citation,
        url,
        description,
        dimensions,
        folder,
        manifest_text
    from source

)

select * from final
