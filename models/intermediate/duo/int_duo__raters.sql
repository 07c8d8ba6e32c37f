-- DUO users (namespaced per language: en user 0000 and ja user 0000 are different people)
-- and the anonymous third-party annotators, three slots per evaluated dialogue.
with

dialogue_users as (

    select
        language,
        unnest(user_ids) as user_id
    from {{ ref('stg_duo__dialogues') }}

),

objective_scores as (

    select * from {{ ref('int_duo__scores') }}
    where rating_kind = 'objective'

),

users as (

    select distinct
        {{ duo_user_key('language', 'user_id') }} as rater_key,
        'duo_user' as rater_role,
        user_id as source_rater_id,
        language
    from dialogue_users

),

annotators as (

    select distinct
        rater_key,
        'duo_annotator' as rater_role,
        language,
        dialogue_key,
        annotator_slot
    from objective_scores

),

unioned as (

    select * from users
    union all by name
    select * from annotators

),

final as (

    select
        *,
        -- DUO publishes no demographics: the raters mart leaves those columns null
        'duo' as source
    from unioned

)

select * from final
