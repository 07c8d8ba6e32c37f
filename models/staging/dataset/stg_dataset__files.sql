-- One row per file of a dataset's folder that the dataset's latest load read, with its counts, in
-- the shape of `stg_ingest__files` (load_reconciliation reads both).
with

source as (

    select * from {{ source('dataset', 'dataset_files') }}

),

final as (

    select
        load_id,
        dataset as source,
        file_path,
        file_kind,
        sha256,
        size_bytes,
        records_read,
        records_landed,
        records_rejected
    from source

)

select * from final
