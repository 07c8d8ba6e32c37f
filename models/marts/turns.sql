-- A view: the per-source turn tables are already written once (2.4 million rows at scale 10);
-- a table here would copy them, text and all, on every build.
{{ config(materialized='view') }}

with

unioned as (

    {{ union_source_models('turns') }}

),

final as (

    select
        cast(dialogue_key as varchar) as dialogue_key,
        cast(turn_index as integer) as turn_index,
        cast(speaker_role as varchar) as speaker_role,
        cast(speaker_key as varchar) as speaker_key,
        cast(text as varchar) as text,
        cast(source as varchar) as source,
        cast(source_message_id as varchar) as source_message_id,
        cast(speaker_raw as varchar) as speaker_raw,
        cast(is_final_response as boolean) as is_final_response,
        cast(time_offset_seconds as integer) as time_offset_seconds,
        cast(mentioned_movie_ids as varchar[]) as mentioned_movie_ids
    from unioned

)

select * from final
