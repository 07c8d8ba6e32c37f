with

dialogues as (

    select * from {{ ref('stg_toy__dialogues') }}

),

final as (

    select
        dialogue_key,
        'toy' as source,
        dialogue_id as source_dialogue_id,
        'en' as language,
        'toy' as setting,
        file_path as source_file
    from dialogues

)

select * from final
