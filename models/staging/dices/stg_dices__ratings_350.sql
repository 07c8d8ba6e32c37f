-- DICES 350: one row per CSV record (one rater x item), columns renamed and cast; answers,
-- ids and the expert annotations stay text as released (15-digit rater ids, list strings).
with

source as (

    select * from {{ source('dices', 'ratings_350') }}

),

renamed as (

    select
        -- the keys of the record, its item and its rater, made once here
        {{ dices_row_ref("'350'", 'row_number') }} as row_ref,
        {{ dices_record_key("'350'", 'id') }} as record_key,
        {{ dices_dialogue_key("'350'", 'item_id') }} as dialogue_key,
        {{ dices_rater_key('rater_id') }} as rater_key,
        '350' as dataset_config,
        load_id,
        file_path,
        row_number,
        id as source_row_id,
        rater_id,
        rater_gender as gender,
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
        -- the question columns, as the header names them (seed dices_questions lists them)
        columns('^Q')
    from source

)

select * from renamed
