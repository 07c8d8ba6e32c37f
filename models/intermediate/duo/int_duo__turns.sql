with

dialogues as (

    select
        dialogue_key,
        language,
        messages
    from {{ ref('stg_duo__dialogues') }}

),

messages as (

    select
        dialogue_key,
        language,
        unnest(cast(messages as json[])) as message,
        generate_subscripts(cast(messages as json[]), 1) - 1 as turn_index
    from dialogues

),

parsed as (

    select
        dialogue_key,
        language,
        turn_index,
        message ->> '$.message_id' as source_message_id,
        message ->> '$.speaker' as speaker_raw,
        message ->> '$.user_id' as user_id,
        message ->> '$.system_id' as system_id,
        message ->> '$.message' as text
    from messages

),

final as (

    select
        dialogue_key,
        'duo' as source,
        language,
        turn_index,
        case speaker_raw
            when 'Human' then 'user'
            when 'Bot' then 'system'
        end as speaker_role,
        case speaker_raw
            when 'Human' then {{ duo_user_key('language', 'user_id') }}
            when 'Bot' then {{ duo_system_key('language', 'system_id') }}
        end as speaker_key,
        text,
        source_message_id,
        speaker_raw,
        user_id,
        system_id,
        false as is_final_response
    from parsed

)

select * from final
