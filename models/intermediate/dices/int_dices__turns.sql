-- One row per DICES utterance: the item's context split into turns (parsed once per item, not
-- per CSV row), then the rated `response` as the last system turn.
with

items as (

    select * from {{ ref('int_dices__items') }}

),

parsed as (

    select
        dialogue_key,
        dataset_config,
        response,
        {{ dices_context_turns('context', 'dataset_config') }} as context_turns
    from items

),

context_turns as (

    select
        dialogue_key,
        dataset_config,
        unnest(context_turns) as context_turn,
        generate_subscripts(context_turns, 1) - 1 as turn_index
    from parsed

),

from_context as (

    select
        dialogue_key,
        dataset_config,
        turn_index,
        struct_extract(context_turn, 'speaker_raw') as speaker_raw,
        struct_extract(context_turn, 'text') as text,
        false as is_final_response
    from context_turns

),

final_responses as (

    select
        dialogue_key,
        dataset_config,
        len(context_turns) as turn_index,
        response as text,
        true as is_final_response
    from parsed

),

unioned as (

    select * from from_context
    union all by name
    select * from final_responses

),

final as (

    select
        dialogue_key,
        'dices' as source,
        dataset_config,
        turn_index,
        case
            when is_final_response then 'system'
            else {{ dices_speaker_role('speaker_raw') }}
        end as speaker_role,
        text,
        speaker_raw,
        is_final_response
    from unioned

)

select * from final
