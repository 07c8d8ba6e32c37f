-- Every worker of a conversation, seeker or recommender: both fill a movie form. Worker ids are
-- one namespace across the two splits (the test split has its own workers).
with

conversations as (

    select * from {{ ref('stg_redial__conversations') }}

),

form_answers as (

    select * from {{ ref('int_redial__form_answers') }}

),

roles as (

    select
        initiator_worker_id as worker_id,
        seeker_key as rater_key,
        'seeker' as role_in_dialogue
    from conversations
    union all
    select
        respondent_worker_id as worker_id,
        recommender_key as rater_key,
        'recommender' as role_in_dialogue
    from conversations

),

workers as (

    select
        worker_id,
        rater_key,
        count(*) filter (where role_in_dialogue = 'seeker') as n_dialogues_as_seeker,
        count(*) filter (where role_in_dialogue = 'recommender') as n_dialogues_as_recommender
    from roles
    where worker_id is not null
    group by worker_id, rater_key

),

answer_counts as (

    select
        worker_id,
        count(*) as n_form_answers
    from form_answers
    group by worker_id

),

final as (

    select
        workers.rater_key,
        'redial' as source,
        'redial_worker' as rater_role,
        workers.worker_id as source_rater_id,
        workers.n_dialogues_as_seeker,
        workers.n_dialogues_as_recommender,
        coalesce(answer_counts.n_form_answers, 0) as n_form_answers
    from workers
    left join answer_counts on workers.worker_id = answer_counts.worker_id

)

select * from final
