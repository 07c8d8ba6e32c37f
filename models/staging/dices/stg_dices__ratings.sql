-- DICES 350 and 990: one row per CSV record (one rater x item) of either release, columns renamed
-- and cast; answers, ids and the expert annotations stay text as released (15-digit rater ids,
-- list strings). The two headers differ (990 has a locale and no answer times nor gold labels, and
-- its own question columns): a column one release lacks is null in its rows, so a release's
-- question columns are its rows of the seed dices_questions, not every `Q` column here.
with

ratings_350 as (

    select
        '350' as dataset_config,
        *
    from {{ source('dices', 'ratings_350') }}

),

ratings_990 as (

    select
        '990' as dataset_config,
        * rename (rater_race_raw as rater_raw_race)
    from {{ source('dices', 'ratings_990') }}

),

unioned as (

    select * from ratings_350
    union all by name
    select * from ratings_990

),

renamed as (

    select
        -- the keys of the record, its item and its rater, made once here
        {{ dices_row_ref('dataset_config', 'row_number') }} as row_ref,
        {{ dices_record_key('dataset_config', 'id') }} as record_key,
        {{ dices_dialogue_key('dataset_config', 'item_id') }} as dialogue_key,
        {{ dices_rater_key('rater_id') }} as rater_key,
        dataset_config,
        load_id,
        file_path,
        row_number,
        id as source_row_id,
        rater_id,
        rater_gender as gender,
        rater_locale as locale,
        rater_race as race,
        rater_raw_race as raw_race,
        rater_age as age_group,
        rater_education as education,
        phase,
        item_id,
        answer_time_ms as answer_time_ms_raw,
        try_cast(answer_time_ms as bigint) as answer_time_ms,
        answer_timestamp as answer_timestamp_raw,
        make_timestamp(try_cast(answer_timestamp as bigint) * 1000000) as answer_timestamp,
        context,
        response,
        degree_of_harm,
        harm_type as harm_type_raw,
        safety_gold,
        safety_gold_reason as safety_gold_reason_raw,
        -- the question columns of both releases, as the headers name them
        columns('^Q')
    from unioned

)

select * from renamed
