-- Every rater the sources declare, numbered (the agreement models count small integers, not
-- rater keys), with its role (whom a judge is compared with) and whether the exclusions seed
-- leaves the rater out of the agreement figures. Its groups come from its attributes, long
-- (`int_agreement__rater_groups`).
with

raters as (

    {{ union_source_models('raters') }}

),

excluded_raters as (

    select * from {{ ref('excluded_raters') }}

),

final as (

    select
        cast(row_number() over (order by raters.rater_key) as integer) as rater_id,
        raters.rater_key,
        raters.source,
        raters.rater_role,
        raters.annotator_slot,
        excluded_raters.rater_key is not null as is_excluded,
        excluded_raters.reason as exclusion_reason
    from raters
    left join excluded_raters on trim(raters.rater_key) = trim(excluded_raters.rater_key)

)

select * from final
