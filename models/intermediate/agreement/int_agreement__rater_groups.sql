-- The rater groups the agreement mart compares, one row per (rater, group): `all` for every
-- rater, and for DICES each demographic dimension and the race × gender cross, values as in
-- `raters`. A rater whose value of a dimension is unknown is in no group of that dimension.
with

raters as (

    select * from {{ ref('raters') }}

),

agreement_raters as (

    select * from {{ ref('int_agreement__raters') }}

),

everyone as (

    select
        rater_key,
        'all' as group_dimension,
        'all' as group_value
    from raters

),

dices_demographics as (

    select
        raters.rater_key,
        dimension.group_dimension,
        dimension.group_value
    from raters
    cross join
        lateral (
            values
            ('gender', raters.gender),
            ('race', raters.race),
            ('age_group', raters.age_group),
            ('education', raters.education),
            ('locale', raters.locale),
            ('race_gender', raters.race || ' / ' || raters.gender)
        ) as dimension (group_dimension, group_value)
    where raters.source = 'dices' and dimension.group_value is not null

),

memberships as (

    select * from everyone
    union all
    select * from dices_demographics

),

final as (

    select
        agreement_raters.rater_number,
        cast(dense_rank() over (
            order by memberships.group_dimension, memberships.group_value
        ) as integer) as group_id,
        memberships.group_dimension,
        memberships.group_value
    from memberships
    inner join agreement_raters on memberships.rater_key = agreement_raters.rater_key

)

select * from final
