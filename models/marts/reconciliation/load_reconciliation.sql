-- Per source and file of the latest loads: read = landed + rejected, and landed = in the marts +
-- listed in unreached_records.
with

-- the releases' files and the datasets' (a dataset's folder is its own load's)
files as (

    select
        load_id,
        source,
        file_path,
        records_read,
        records_landed,
        records_rejected
    from {{ ref('stg_ingest__files') }}
    union all
    select
        load_id,
        source,
        file_path,
        records_read,
        records_landed,
        records_rejected
    from {{ ref('stg_dataset__files') }}

),

landed as (

    select * from {{ ref('int_reconciliation__landed_records') }}

),

unreached as (

    select * from {{ ref('unreached_records') }}

),

landed_per_file as (

    select
        source,
        file_path,
        count(*) as records_in_raw
    from landed
    group by source, file_path

),

unreached_per_file as (

    select
        source,
        file_path,
        count(*) as records_not_in_marts
    from unreached
    group by source, file_path

),

mart_rows as (

    select
        files.load_id,
        files.source,
        files.file_path,
        files.records_read,
        files.records_landed,
        files.records_rejected,
        coalesce(landed_per_file.records_in_raw, 0) as records_in_raw,
        coalesce(landed_per_file.records_in_raw, 0) - coalesce(unreached_per_file.records_not_in_marts, 0)
            as records_in_marts,
        coalesce(unreached_per_file.records_not_in_marts, 0) as records_not_in_marts,
        files.records_read = files.records_landed + files.records_rejected
        and files.records_landed = coalesce(landed_per_file.records_in_raw, 0) as is_accounted_for
    from files
    left join landed_per_file
        on files.source = landed_per_file.source and files.file_path = landed_per_file.file_path
    left join unreached_per_file
        on files.source = unreached_per_file.source and files.file_path = unreached_per_file.file_path

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
