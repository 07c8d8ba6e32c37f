with

dialogues as (

    select * from {{ ref('stg_toy__dialogues') }}

),

messages as (

    select
        dialogue_key,
        user_id,
        unnest(cast(turns as varchar[])) as text,
        generate_subscripts(cast(turns as varchar[]), 1) - 1 as turn_index
    from dialogues

),

final as (

    select
        dialogue_key,
        'toy' as source,
        turn_index,
        case when turn_index % 2 = 0 then 'user' else 'system' end as speaker_role,
        case when turn_index % 2 = 0 then 'toy:user:' || user_id end as speaker_key,
        text,
        false as is_final_response
    from messages

)

select * from final
