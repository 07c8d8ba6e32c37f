with

dialogues as (

    select * from {{ ref('stg_toy__dialogues') }}

),

review_records as (

    select * from {{ ref('stg_toy__reviews') }}

),

user_ratings as (

    select
        dialogue_key || ':rating' as rating_id,
        dialogue_key,
        'toy:user:' || user_id as rater_key,
        user_id as source_rater_id,
        'subjective' as rating_kind,
        rating_raw as value_raw,
        cast(null as varchar) as review_round,
        line_number as record_number
    from dialogues

),

first_round as (

    select
        dialogue_key,
        line_number,
        unnest(json_keys(reviews)) as reviewer,
        reviews
    from dialogues

),

later_rounds as (

    unpivot review_records
    on columns('^reviewer_')
    into name reviewer_column value score

),

reviews as (

    select
        dialogue_key,
        reviewer,
        reviews ->> reviewer as score,
        '1' as review_round,
        line_number as record_number
    from first_round
    union all
    select
        dialogue_key,
        replace(reviewer_column, 'reviewer_', '') as reviewer,
        score,
        review_round,
        row_number as record_number
    from later_rounds

),

review_ratings as (

    select
        dialogue_key || ':review:' || reviewer || ':round:' || review_round as rating_id,
        dialogue_key,
        'toy:reviewer:' || reviewer as rater_key,
        reviewer as source_rater_id,
        'objective' as rating_kind,
        score as value_raw,
        review_round,
        record_number
    from reviews

),

all_ratings as (

    select * from user_ratings
    union all
    select * from review_ratings

),

final as (

    select
        rating_id,
        dialogue_key,
        rater_key,
        source_rater_id,
        rating_kind,
        'overall' as question,
        try_cast(value_raw as double) as value_numeric,
        value_raw,
        review_round,
        record_number,
        'toy' as source
    from all_ratings

)

select * from final
