-- DUO users (namespaced per language: en user 0000 and ja user 0000 are different people)
-- and the anonymous third-party annotators, three slots per evaluated dialogue.
with

turns as (

    select * from {{ ref('int_duo__turns') }}

),

objective_scores as (

    select * from {{ ref('int_duo__scores') }}
    where rating_kind = 'objective'

),

users as (

    select distinct
        speaker_key as rater_key,
        'duo_user' as rater_role,
        user_id as source_rater_id,
        language
    from turns
    where speaker_raw = 'Human' and user_id is not null

),

annotators as (

    select distinct
        {{ duo_annotator_key('dialogue_key', 'annotator_slot') }} as rater_key,
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
