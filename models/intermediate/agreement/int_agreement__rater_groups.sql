-- The rater groups the agreement figures compare, one row per (rater, group): `all` for every
-- rater, and one group per value of each demographic dimension of `raters` (and the race ×
-- gender cross) that the rater has. A rater whose value of a dimension is unknown is in no group
-- of that dimension; sources without demographics have only `all`.
with

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

memberships as (

    select
        raters.rater_id,
        dimension.group_dimension,
        dimension.group_value
    from raters
    cross join
        lateral (
            values
            ('all', 'all'),
            ('gender', raters.gender),
            ('race', raters.race),
            ('age_group', raters.age_group),
            ('education', raters.education),
            ('locale', raters.locale),
            ('race_gender', raters.race || ' / ' || raters.gender)
        ) as dimension (group_dimension, group_value)
    where dimension.group_value is not null

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
