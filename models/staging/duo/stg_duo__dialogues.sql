with

source as (

    select * from {{ source('duo', 'dialogue_files') }}

),

parsed as (

    select
        *,
        cast(raw.without_byte_order_mark(raw_json) as json) as document
    from source

),

renamed as (

    select
        {{ duo_dialogue_key('language', "(document ->> '$.dialogue_id')") }} as dialogue_key,
        load_id,
        file_path,
        sha256,
        language,
        setting as path_setting,
        document ->> '$.dialogue_id' as dialogue_id,
        json_type(document, '$.dialogue_id') as dialogue_id_json_type,
        document ->> '$.setting' as setting,
        document ->> '$.model' as system_model,
        document ->> '$.prompt' as style_prompt_raw,
        document ->> '$.emotion' as emotion,
        document ->> '$.episode' as episode,
        document ->> '$.topic' as topic,
        -- absent and JSON null both mean "no third-party evaluation"
        case
            when json_type(document, '$.objective_evaluation') = 'OBJECT'
                then document -> '$.objective_evaluation'
        end as objective_evaluation,
        case
            when json_type(document, '$.subjective_evaluation') = 'OBJECT'
                then document -> '$.subjective_evaluation'
        end as subjective_evaluation,
        document -> '$.dialogue' as messages,
        -- who talked: the distinct `user_id`s the Human messages carry (one, for a sound file)
        case
            when json_type(document, '$.dialogue') = 'ARRAY'
                then list_sort(list_distinct(list_transform(
                    list_filter(cast(document -> '$.dialogue' as json[]), message -> (message ->> 'speaker') = 'Human'),
                    message -> (message ->> 'user_id')
                )))
        end as user_ids
    from parsed

),

final as (

    select
        *,
        -- the user who talked rated the dialogue (subjective evaluation)
        user_ids[1] as user_id
    from renamed

)

select * from final
