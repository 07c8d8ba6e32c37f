-- What the datasets declare about their landed records, for reconciliation: each judgements row
-- (a missing value too) becomes a rating, keyed as `int_dataset__ratings` keys it; each row of
-- raters.csv a rater; each row of the units file a dialogue.
{{ config(materialized='view') }}

with

judgements as (

    select * from {{ ref('stg_dataset__judgements') }}

),

raters as (

    select * from {{ ref('stg_dataset__raters') }}

),

units as (

    select * from {{ ref('stg_dataset__units') }}

),

files as (

    select * from {{ ref('stg_dataset__files') }}

),

final as (

    select
        source,
        file_path,
        line_number as record_number,
        'ratings' as expected_mart,
        dialogue_key || ':' || source_rater_id || ':' || question || ':' || round_rank as expected_key
    from judgements
    union all
    select
        raters.source,
        files.file_path,
        raters.line_number as record_number,
        'raters' as expected_mart,
        raters.rater_key as expected_key
    from raters
    inner join files on raters.source = files.source and files.file_kind = 'raters'
    union all
    select
        source,
        file_path,
        line_number as record_number,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from units

)

select * from final
