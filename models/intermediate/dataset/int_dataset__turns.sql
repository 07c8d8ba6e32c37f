-- One row per turn of a dataset's unit, in the `turns` mart's shape, numbered from 0 in the order
-- given: each {speaker_role, text} of the unit's `turns`, or its `text` as one turn (speaker
-- `text`). The speaker's role is the dataset's own word, lower case.
with

units as (

    select * from {{ ref('stg_dataset__units') }}

),

listed_turns as (

    select
        dialogue_key,
        source,
        unnest(range(cast(json_array_length(turns_json) as bigint))) as turn_index,
        turns_json
    from units
    where turns_json is not null

),

given_turns as (

    select
        dialogue_key,
        source,
        turn_index,
        turns_json -> cast(turn_index as integer) ->> 'speaker_role' as speaker_raw,
        turns_json -> cast(turn_index as integer) ->> 'text' as text
    from listed_turns
    union all
    select
        dialogue_key,
        source,
        0 as turn_index,
        'text' as speaker_raw,
        text
    from units
    where turns_json is null and text is not null

),

final as (

    select
        dialogue_key,
        source,
        cast(turn_index as integer) as turn_index,
        coalesce(lower(trim(speaker_raw)), 'unknown') as speaker_role,
        text,
        speaker_raw,
        false as is_final_response
    from given_turns

)

select * from final
