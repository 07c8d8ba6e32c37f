-- Every file the latest loads recorded has its row in load_reconciliation, so a mart built on
-- zero rows while records were landed (`dbt build --empty`, say) fails here, naming the files.
-- The source is read in full (`.render()`): `--empty` would otherwise empty this side too.
with

loaded_files as (

    select
        source,
        file_path,
        records_landed
    from {{ source('ingest', 'ingest_files').render() }}

),

reconciled_files as (

    select * from {{ ref('load_reconciliation') }}

),

final as (

    select
        loaded_files.source,
        loaded_files.file_path,
        loaded_files.records_landed
    from loaded_files
    anti join reconciled_files
        on
            loaded_files.source = reconciled_files.source
            and loaded_files.file_path = reconciled_files.file_path

)

select * from final
