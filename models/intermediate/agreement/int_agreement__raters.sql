-- Every rater, numbered (the agreement models count small integers, not rater keys): the raters
-- the sources declare, with their role (whom a judge is compared with) and whether the exclusions
-- seed leaves them out of the agreement figures; and every judge loaded with `dwh ingest
-- --judges`, a rater of kind `judge` (`is_judge`) whom every human figure leaves out. Judges are
-- numbered after the humans, so that loading one renumbers no human rater. Its groups come from
-- its attributes, long (`int_agreement__rater_groups`).
with

raters as (

    {{ union_source_models('raters') }}

),

judge_judgements as (

    select * from {{ ref('stg_judge__judgements') }}

),

excluded_raters as (

    select * from {{ ref('excluded_raters') }}

),

judges as (

    select distinct
        'judge:' || judge as rater_key,
        'judge' as rater_role,
        judge
    from judge_judgements

),

every_rater as (

    select
        rater_key,
        source,
        rater_role,
        annotator_slot,
        cast(null as varchar) as judge,
        false as is_judge
    from raters
    union all
    select
        rater_key,
        null as source,
        rater_role,
        null as annotator_slot,
        judge,
        true as is_judge
    from judges

),

final as (

    select
        cast(row_number() over (order by every_rater.is_judge, every_rater.rater_key) as integer) as rater_id,
        every_rater.rater_key,
        every_rater.source,
        every_rater.rater_role,
        every_rater.annotator_slot,
        every_rater.judge,
        every_rater.is_judge,
        not every_rater.is_judge and excluded_raters.rater_key is not null as is_excluded,
        excluded_raters.reason as exclusion_reason
    from every_rater
    left join excluded_raters
        on
            not every_rater.is_judge
            and trim(every_rater.rater_key) = trim(excluded_raters.rater_key)

)

select * from final
