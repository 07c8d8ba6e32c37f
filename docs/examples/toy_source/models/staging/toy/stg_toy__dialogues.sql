with

source as (

    select * from {{ source('toy', 'toy_dialogues') }}

),

renamed as (

    select
        'toy:' || (cast(raw_line as json) ->> '$.id') as dialogue_key,
        load_id,
        file_path,
        line_number,
        cast(raw_line as json) ->> '$.id' as dialogue_id,
        cast(raw_line as json) ->> '$.user' as user_id,
        cast(raw_line as json) -> '$.turns' as turns,
        cast(raw_line as json) ->> '$.rating' as rating_raw,
        cast(raw_line as json) -> '$.reviews' as reviews
    from source

)

select * from renamed
