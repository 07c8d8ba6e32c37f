-- What DUO declares about its landed records, for reconciliation: each file is one dialogue (a
-- file has no record number; reconciliation's union leaves it null).
{{ config(materialized='view') }}

with

dialogue_files as (

    select * from {{ ref('stg_duo__dialogues') }}

),

final as (

    select
        'duo' as source,
        file_path,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from dialogue_files

)

select * from final
