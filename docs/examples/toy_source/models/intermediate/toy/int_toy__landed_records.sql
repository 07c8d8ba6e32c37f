-- What the toy source declares about its landed records: each line is one dialogue, and each
-- review record is of a dialogue there (a review of a dialogue the release lacks is unreached).
with

dialogues as (

    select * from {{ ref('stg_toy__dialogues') }}

),

review_records as (

    select * from {{ ref('stg_toy__reviews') }}

),

records as (

    select
        file_path,
        line_number as record_number,
        dialogue_key
    from dialogues
    union all
    select
        file_path,
        row_number as record_number,
        dialogue_key
    from review_records

),

final as (

    select
        'toy' as source,
        file_path,
        record_number,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from records

)

select * from final
