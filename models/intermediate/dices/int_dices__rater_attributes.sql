-- DICES's rater columns in the long shape of `rater_attributes`, one row per (rater, attribute)
-- with a value: the five demographics the release describes its pool by, each a dimension of the
-- rater groups, with the race × gender cross the DICES paper compares (`race / gender`), and the
-- race as the release wrote it (not a dimension).
with

raters as (

    select * from {{ ref('int_dices__raters') }}

),

attributes as (

    select
        raters.rater_key,
        raters.source,
        attribute.name as attribute,
        attribute.value,
        attribute.is_dimension
    from raters
    cross join
        lateral (
            values
            ('gender', raters.gender, true),
            ('race', raters.race, true),
            ('age_group', raters.age_group, true),
            ('education', raters.education, true),
            ('locale', raters.locale, true),
            ('race_gender', raters.race || ' / ' || raters.gender, true),
            ('raw_race', raters.raw_race, false)
        ) as attribute (name, value, is_dimension)

),

final as (

    select
        rater_key,
        source,
        attribute,
        value,
        is_dimension,
        false as is_banded
    from attributes
    where value is not null

)

select * from final
