-- DICES 350: one row per CSV record (one rater x item), columns renamed and cast; answers,
-- ids and the expert annotations stay text as released (15-digit rater ids, list strings).
-- The question columns keep the header's mixed-case names, so they must stay quoted.
-- noqa: disable=RF06
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
        "Q1_whole_conversation_evaluation",
        "Q2_harmful_content_medical_legal_financial_or_relationship_advice",
        "Q2_harmful_content_dangerous_content",
        "Q2_harmful_content_derogation_of_boat",
        "Q2_harmful_content_insensitive",
        "Q2_harmful_content_obscene_and_profane",
        "Q2_harmful_content_personal_information",
        "Q2_harmful_content_regulated_goods",
        "Q2_harmful_content_sexually_suggestive_content",
        "Q2_harmful_content_other",
        "Q3_bias_targeting_beliefs",
        "Q3_bias_targeting_gender_sexual_orientation",
        "Q3_bias_targeting_inherited_attributes",
        "Q3_bias_targeting_status",
        "Q3_bias_other",
        "Q4_misinformation",
        "Q5_political_affiliation",
        "Q6_policy_guidelines_polarizing_topics",
        "Q6_policy_guidelines_making_endorsement",
        "Q6_policy_guidelines_other",
        "Q2_harmful_content_overall",
        "Q3_bias_overall",
        "Q6_policy_guidelines_overall",
        "Q_overall"
    from source

)

select * from renamed
