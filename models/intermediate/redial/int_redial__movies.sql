-- One row per ReDial movie id, for the `movies` mart: every id of the movie list
-- (movies_with_mentions.csv) when it was loaded, and every id the conversations mention; the name
-- each is known by, parsed into title and year; the list's nbMentions next to the observed counts.
with

movie_list as (

    select * from {{ ref('stg_redial__movies') }}

),

listed_movies as (

    select * from {{ ref('int_redial__listed_movies') }}

),

movie_mentions as (

    select * from {{ ref('int_redial__movie_mentions') }}

),

listed_names as (

    select
        movie_id,
        movie_title_raw,
        count(*) as n_uses
    from listed_movies
    where movie_title_raw is not null
    group by movie_id, movie_title_raw

),

-- the name the conversations use most often for an id (ties: the alphabetically first)
usual_names as (

    select
        movie_id,
        movie_title_raw as usual_name,
        count(*) over (partition by movie_id) as n_distinct_names
    from listed_names
    qualify row_number() over (partition by movie_id order by n_uses desc, movie_title_raw asc) = 1

),

mention_counts as (

    select
        movie_id,
        count(*) as n_dialogues,
        count(*) filter (where is_in_movie_mentions) as n_dialogues_listing,
        count(*) filter (where n_text_mentions > 0) as n_dialogues_tagging,
        sum(n_text_mentions) as n_text_mentions
    from movie_mentions
    group by movie_id

),

movie_ids as (

    select movie_id from movie_list
    union
    select movie_id from mention_counts

),

named as (

    select
        movie_ids.movie_id,
        coalesce(movie_list.movie_name_raw, usual_names.usual_name) as movie_name_raw,
        case
            when movie_list.movie_name_raw is not null then 'movie_list'
            when usual_names.usual_name is not null then 'movie_mentions'
        end as name_source,
        movie_list.movie_id is not null as is_in_movie_list,
        movie_list.movie_name_raw as movie_list_name,
        usual_names.usual_name as movie_mentions_name,
        coalesce(usual_names.n_distinct_names, 0) as n_distinct_movie_mentions_names,
        coalesce(mention_counts.n_dialogues, 0) as n_dialogues,
        coalesce(mention_counts.n_dialogues_listing, 0) as n_dialogues_listing,
        coalesce(mention_counts.n_dialogues_tagging, 0) as n_dialogues_tagging,
        coalesce(mention_counts.n_text_mentions, 0) as n_text_mentions,
        movie_list.nb_mentions as published_nb_mentions
    from movie_ids
    left join movie_list on movie_ids.movie_id = movie_list.movie_id
    left join usual_names on movie_ids.movie_id = usual_names.movie_id
    left join mention_counts on movie_ids.movie_id = mention_counts.movie_id

),

final as (

    select
        movie_id,
        {{ redial_movie_title('movie_name_raw') }} as movie_title,
        {{ redial_release_year('movie_name_raw') }} as release_year,
        movie_name_raw,
        name_source,
        is_in_movie_list,
        movie_list_name,
        movie_mentions_name,
        n_distinct_movie_mentions_names,
        n_dialogues,
        n_dialogues_listing,
        n_dialogues_tagging,
        n_text_mentions,
        published_nb_mentions,
        n_dialogues_listing - published_nb_mentions as nb_mentions_difference,
        n_dialogues_listing = published_nb_mentions as nb_mentions_matches
    from named

)

select * from final
