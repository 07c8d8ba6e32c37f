with

dialogues as (

    select * from {{ ref('stg_duo__dialogues') }}

),

turns as (

    select * from {{ ref('int_duo__turns') }}

),

dialogue_users as (

    -- the user who talked in a dialogue is the one who rated it (subjective evaluation)
    select
        dialogue_key,
        min(user_id) as user_id,
        min(speaker_key) filter (where speaker_role = 'user') as user_key,
        count(distinct user_id) as n_distinct_users,
        count(*) as n_turns
    from turns
    group by dialogue_key

),

final as (

    select
        dialogues.dialogue_key,
        'duo' as source,
        dialogues.dialogue_id as source_dialogue_id,
        dialogues.language,
        dialogues.path_setting as setting,
        dialogues.setting as file_setting,
        coalesce(dialogue_users.n_turns, 0) as n_turns,
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
        dialogue_users.user_id,
        dialogue_users.user_key,
        coalesce(dialogue_users.n_distinct_users, 0) as n_distinct_users,
        dialogues.file_path as source_file,
        dialogues.dialogue_id_json_type
    from dialogues
    left join dialogue_users
        on dialogues.dialogue_key = dialogue_users.dialogue_key

)

select * from final
