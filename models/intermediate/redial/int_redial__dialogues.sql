with

conversations as (

    select * from {{ ref('stg_redial__conversations') }}

),

turns as (

    select * from {{ ref('int_redial__turns') }}

),

movie_mentions as (

    select * from {{ ref('int_redial__movie_mentions') }}

),

first_speakers as (

    select
        dialogue_key,
        arg_min(speaker_role, turn_index) as first_speaker_role
    from turns
    group by dialogue_key

),

movie_counts as (

    select
        dialogue_key,
        -- "mentioned": listed in movieMentions or tagged in the text (a form-only id is not)
        count(*) filter (where is_in_movie_mentions or n_text_mentions > 0) as n_movies_mentioned,
        count(*) filter (where is_in_movie_mentions) as n_movies_listed,
        count(*) filter (where not is_in_movie_mentions and n_text_mentions > 0) as n_movies_unresolved,
        sum(n_text_mentions) as n_text_mentions
    from movie_mentions
    group by dialogue_key

),

final as (

    select
        conversations.dialogue_key,
        'redial' as source,
        conversations.conversation_id as source_dialogue_id,
        'en' as language,
        'movie_recommendation' as setting,
        conversations.split,
        conversations.file_path as source_file,
        conversations.initiator_worker_id as seeker_worker_id,
        conversations.respondent_worker_id as recommender_worker_id,
        coalesce(movie_counts.n_movies_mentioned, 0) as n_movies_mentioned,
        conversations.line_number as source_line_number,
        conversations.conversation_id_json_type,
        first_speakers.first_speaker_role,
        coalesce(movie_counts.n_movies_listed, 0) as n_movies_listed,
        coalesce(movie_counts.n_movies_unresolved, 0) as n_movies_unresolved,
        coalesce(movie_counts.n_text_mentions, 0) as n_text_mentions
    from conversations
    left join first_speakers
        on conversations.dialogue_key = first_speakers.dialogue_key
    left join movie_counts
        on conversations.dialogue_key = movie_counts.dialogue_key

)

select * from final
