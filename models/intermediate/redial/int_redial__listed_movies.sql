-- One row per (conversation, movie id) of `movieMentions`, the name parsed into title and year.
with

conversations as (

    select
        dialogue_key,
        movie_mentions
    from {{ ref('stg_redial__conversations') }}

),

listed as (

    select
        dialogue_key,
        movie_mentions,
        unnest(json_keys(movie_mentions)) as movie_id,
        generate_subscripts(json_keys(movie_mentions), 1) as listed_position
    from conversations

),

final as (

    select
        dialogue_key,
        movie_id,
        listed_position,
        movie_mentions ->> movie_id as movie_title_raw,
        {{ redial_movie_title('movie_mentions ->> movie_id') }} as movie_title,
        {{ redial_release_year('movie_mentions ->> movie_id') }} as release_year
    from listed

)

select * from final
