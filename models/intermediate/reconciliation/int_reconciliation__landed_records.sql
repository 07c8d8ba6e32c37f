-- One row per record sitting in a raw landing table, with the mart row it should become.
with

duo_files as (

    select * from {{ ref('stg_duo__dialogues') }}

),

redial_conversations as (

    select * from {{ ref('stg_redial__conversations') }}

),

redial_movies as (

    select * from {{ ref('stg_redial__movies') }}

),

dices_350 as (

    select * from {{ ref('stg_dices__ratings_350') }}

),

dices_990 as (

    select * from {{ ref('stg_dices__ratings_990') }}

),

landed as (

    select
        'duo' as source,
        file_path,
        cast(null as bigint) as record_number,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from duo_files
    union all
    select
        'redial' as source,
        file_path,
        line_number as record_number,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from redial_conversations
    union all
    select
        'redial' as source,
        file_path,
        row_number as record_number,
        'movies' as expected_mart,
        movie_id as expected_key
    from redial_movies
    union all
    select
        'dices' as source,
        file_path,
        row_number as record_number,
        'ratings' as expected_mart,
        record_key as expected_key
    from dices_350
    union all
    select
        'dices' as source,
        file_path,
        row_number as record_number,
        'ratings' as expected_mart,
        record_key as expected_key
    from dices_990

)

select * from landed
