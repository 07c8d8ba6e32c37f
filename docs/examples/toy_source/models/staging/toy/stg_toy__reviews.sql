with

source as (

    select * from {{ source('toy', 'toy_reviews') }}

),

renamed as (

    select
        'toy:' || id as dialogue_key,
        load_id,
        file_path,
        row_number,
        id as dialogue_id,
        review_round,
        columns('^reviewer_')
    from source

)

select * from renamed
