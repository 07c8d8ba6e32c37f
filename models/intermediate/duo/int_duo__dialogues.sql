with

dialogues as (

    select * from {{ ref('stg_duo__dialogues') }}

),

final as (

    select
        dialogues.dialogue_key,
        'duo' as source,
        dialogues.dialogue_id as source_dialogue_id,
        dialogues.language,
        dialogues.path_setting as setting,
        dialogues.setting as file_setting,
        dialogues.system_model,
        case dialogues.style_prompt_raw
            when 'ent' then 'aligned'
            when 'nonent' then 'not_aligned'
            else dialogues.style_prompt_raw
        end as style_prompt,
        dialogues.style_prompt_raw,
        dialogues.emotion,
        dialogues.episode,
        dialogues.topic,
        dialogues.objective_evaluation is not null as has_objective_evaluation,
        dialogues.user_id,
        {{ duo_user_key('dialogues.language', 'dialogues.user_id') }} as user_key,
        coalesce(len(dialogues.user_ids), 0) as n_distinct_users,
        dialogues.file_path as source_file,
        dialogues.dialogue_id_json_type
    from dialogues

)

select * from final
