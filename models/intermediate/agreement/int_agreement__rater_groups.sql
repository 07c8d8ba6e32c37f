-- The rater groups the agreement figures compare, one row per (rater, group): `all` for every
-- rater, and one group per value of each of the rater's attributes that is a dimension
-- (`rater_attributes`: DICES's demographics and their race × gender cross, each dataset's
-- dimensions, banded where it bins them). A rater whose value of a dimension is unknown is in no
-- group of that dimension; sources without dimensions have only `all`.
with

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where not is_judge

),

rater_attributes as (

    {{ union_source_models('rater_attributes') }}

),

memberships as (

    select
        rater_id,
        'all' as group_dimension,
        'all' as group_value
    from raters
    union all
    select
        raters.rater_id,
        rater_attributes.attribute as group_dimension,
        rater_attributes.value as group_value
    from rater_attributes
    inner join raters on rater_attributes.rater_key = raters.rater_key
    where rater_attributes.is_dimension and rater_attributes.value is not null

),

final as (

    select
        cast(dense_rank() over (order by group_dimension, group_value) as integer) as group_id,
        group_dimension,
        group_value,
        rater_id
    from memberships

)

select * from final
