-- What ReDial declares about its landed records, for reconciliation: each JSONL line is one
-- dialogue, each row of the movie list one movie.
{{ config(materialized='view') }}

with

conversations as (

    select * from {{ ref('stg_redial__conversations') }}

),

movie_list as (

    select * from {{ ref('stg_redial__movies') }}

),

final as (

    select
        'redial' as source,
        file_path,
        line_number as record_number,
        'dialogues' as expected_mart,
        dialogue_key as expected_key
    from conversations
    union all
    select
        'redial' as source,
        file_path,
        row_number as record_number,
        'movies' as expected_mart,
        movie_id as expected_key
    from movie_list

)

select * from final
