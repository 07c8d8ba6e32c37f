-- Every `@<movieId>` tag in a ReDial message whose id the conversation's movieMentions does not
-- list (a documented release quirk): reported here and counted by `dwh summary`, never dropped.
with

mentions_in_text as (

    select * from {{ ref('int_redial__mentions_in_text') }}

),

movie_list as (

    select * from {{ ref('stg_redial__movies') }}

),

mart_rows as (

    select
        cast(mentions_in_text.dialogue_key as varchar) as dialogue_key,
        cast(mentions_in_text.turn_index as integer) as turn_index,
        cast(mentions_in_text.mention_position as integer) as mention_position,
        cast(mentions_in_text.movie_id as varchar) as movie_id,
        cast(mentions_in_text.speaker_role as varchar) as speaker_role,
        cast(movie_list.movie_id is not null as boolean) as is_in_movie_list,
        cast(movie_list.movie_name_raw as varchar) as movie_list_name
    from mentions_in_text
    left join movie_list on mentions_in_text.movie_id = movie_list.movie_id
    where not mentions_in_text.is_in_movie_mentions

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
