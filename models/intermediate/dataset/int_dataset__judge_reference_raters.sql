-- Whom a judge of a dataset is compared with, by rater: every rater of the dataset is in `raters`
-- (split into the rater groups of `agreement`), and a rater raters.csv names an `expert` is also
-- in `expert` (one reference, not split: the groups are the pool's). A rater's values are their
-- first judgements, as in `agreement` (`int_judges__reference_values`).
with

raters as (

    select * from {{ ref('int_dataset__raters') }}

),

final as (

    select
        source,
        rater_key,
        'raters' as reference,
        true as is_split_by_groups
    from raters
    union all
    select
        source,
        rater_key,
        'expert' as reference,
        false as is_split_by_groups
    from raters
    where rater_kind = 'expert'

)

select * from final
