-- One row per ReDial message, unnested once from the conversation line in message order, with
-- the speaker's role resolved and the `@<movieId>` tags of the text extracted.
with

conversations as (

    select
        dialogue_key,
        initiator_worker_id,
        respondent_worker_id,
        seeker_key,
        recommender_key,
        messages
    from {{ ref('stg_redial__conversations') }}

),

messages as (

    select
        dialogue_key,
        initiator_worker_id,
        respondent_worker_id,
        seeker_key,
        recommender_key,
        unnest(cast(messages as json[])) as message,
        generate_subscripts(cast(messages as json[]), 1) - 1 as turn_index
    from conversations
    where json_type(messages) = 'ARRAY'

),

parsed as (

    select
        dialogue_key,
        turn_index,
        initiator_worker_id,
        respondent_worker_id,
        seeker_key,
        recommender_key,
        message ->> '$.messageId' as source_message_id,
        message ->> '$.senderWorkerId' as sender_worker_id,
        message ->> '$.text' as text,
        message ->> '$.timeOffset' as time_offset_raw,
        -- derived copies of ReDial add keys to messages (entity, movie, emotion, …): kept, listed
        list_filter(
            json_keys(message),
            message_key -> message_key not in ('messageId', 'senderWorkerId', 'text', 'timeOffset')
        ) as extra_message_keys
    from messages

),

final as (

    select
        dialogue_key,
        'redial' as source,
        turn_index,
        -- either worker may write first: the role comes from who sent the message
        case sender_worker_id
            when initiator_worker_id then 'seeker'
            when respondent_worker_id then 'recommender'
        end as speaker_role,
        case sender_worker_id
            when initiator_worker_id then seeker_key
            when respondent_worker_id then recommender_key
        end as speaker_key,
        text,
        source_message_id,
        sender_worker_id as speaker_raw,
        false as is_final_response,
        try_cast(time_offset_raw as integer) as time_offset_seconds,
        {{ redial_mentioned_movie_ids('text') }} as mentioned_movie_ids,
        sender_worker_id,
        initiator_worker_id as seeker_worker_id,
        respondent_worker_id as recommender_worker_id,
        time_offset_raw,
        extra_message_keys
    from parsed

)

select * from final
