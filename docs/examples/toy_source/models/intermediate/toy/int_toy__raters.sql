with

dialogues as (

    select * from {{ ref('stg_toy__dialogues') }}

),

users as (

    select distinct
        'toy:user:' || user_id as rater_key,
        'toy_user' as rater_role,
        user_id as source_rater_id
    from dialogues

),

reviews as (

    select * from {{ ref('int_toy__ratings') }}
    where rating_kind = 'objective'

),

reviewer_ids as (

    select distinct source_rater_id as reviewer
    from reviews

),

reviewers as (

    select
        'toy:reviewer:' || reviewer as rater_key,
        'toy_reviewer' as rater_role,
        reviewer as source_rater_id
    from reviewer_ids

),

all_raters as (

    select * from users
    union all
    select * from reviewers

),

final as (

    select
        rater_key,
        'toy' as source,
        rater_role,
        source_rater_id
    from all_raters

)

select * from final
