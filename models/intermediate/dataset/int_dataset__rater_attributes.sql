-- The datasets' rater attributes, one row per (rater, attribute) with a value: a numeric
-- attribute the dataset bins is given as its band (`25-34`), every other as given. is_dimension:
-- its values are rater groups of the agreement figures.
with

attributes as (

    select * from {{ ref('stg_dataset__rater_attributes') }}
    where value_raw is not null

),

bins as (

    select * from {{ ref('stg_dataset__bins') }}

),

binned_attributes as (

    select distinct
        source,
        attribute
    from bins

),

banded as (

    select
        attributes.rater_key,
        attributes.source,
        attributes.attribute,
        coalesce(bins.band, attributes.value_raw) as value,
        attributes.is_dimension
    from attributes
    left join bins
        on
            attributes.source = bins.source
            and attributes.attribute = bins.attribute
            and (bins.lower is null or try_cast(attributes.value_raw as double) >= bins.lower)
            and (bins.upper is null or try_cast(attributes.value_raw as double) < bins.upper)
            -- only finite numbers are banded: `nan` (a missing number as pandas writes it) is none
            and isfinite(try_cast(attributes.value_raw as double))

),

final as (

    select
        banded.rater_key,
        banded.source,
        banded.attribute,
        banded.value,
        banded.is_dimension,
        binned_attributes.attribute is not null as is_banded
    from banded
    left join binned_attributes
        on
            banded.source = binned_attributes.source
            and banded.attribute = binned_attributes.attribute

)

select * from final
