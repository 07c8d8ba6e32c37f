-- One row per band of a dataset's binned rater attribute: a number x is in the band where
-- (lower is null or x >= lower) and (upper is null or x < upper).
with

source as (

    select * from {{ source('dataset', 'dataset_bins') }}

),

final as (

    select
        dataset as source,
        attribute,
        band_order,
        lower,
        upper,
        band
    from source

)

select * from final
