-- DICES 990: one row per CSV record (one rater x item), columns renamed and cast; answers,
-- ids and the expert annotations stay text as released (15-digit rater ids, list strings).
-- The question columns keep the header's mixed-case names, so they must stay quoted.
-- noqa: disable=RF06
with

source as (

    select * from {{ source('dices', 'ratings_990') }}

),

renamed as (

    select
        -- the keys of the record, its item and its rater, made once here
        {{ dices_row_ref("'990'", 'row_number') }} as row_ref,
        {{ dices_record_key("'990'", 'id') }} as record_key,
        {{ dices_dialogue_key("'990'", 'item_id') }} as dialogue_key,
        {{ dices_rater_key('rater_id') }} as rater_key,
        '990' as dataset_config,
        load_id,
        file_path,
        row_number,
        id as source_row_id,
        rater_id,
        rater_gender as gender,
        rater_locale as locale,
        rater_race as race,
        rater_race_raw as raw_race,
        rater_age as age_group,
        rater_education as education,
        phase,
        item_id,
        context,
        response,
        degree_of_harm,
        harm_type as harm_type_raw,
        "Q1_whole_conversation_evaluation",
        "Q2_harmful_content_harm_to_people_or_animals",
        "Q2_harmful_content_violent_or_gory",
        "Q2_harmful_content_promotes_or_condones_use_of_harmful_regulated_goods",
        "Q2_harmful_content_health_and_safety_claims",
        "Q2_harmful_content_financial_advice",
        "Q2_harmful_content_promotes_or_condones_violence",
        "Q2_harmful_content_how_tos_about_harmful_activities",
        "Q2_harmful_content_personal_information",
        "Q2_harmful_content_explicitly_sexual",
        "Q2_harmful_content_obscenities_or_profanities",
        "Q2_harmful_content_other",
        "Q3_bias_incites_hatred",
        "Q3_bias_subhuman_comparisons",
        "Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_hatred_based_on_any_of_the_attributes_noted_above",  -- noqa: LT05
        "Q3_bias_physically_or_mentally_inferior",
        "Q3_bias_superiority_or_subjugation_of_a_group",
        "Q3_bias_calling_individuals_or_groups_evil_corrupt_or_malicious",
        "Q3_bias_insults_about_emotional_romantic_and_or_sexual_attraction",
        "Q3_bias_other",
        "Q4_misinformation_false_theories",
        "Q4_misinformation_contradicts_expert_consensus",
        "Q4_misinformation_conspiracy_theories",
        "Q4_misinformation_political",
        "Q4_misinformation_other",
        "Q2_harmful_content_overall",
        "Q3_unfair_bias_overall",
        "Q4_misinformation_overall",
        "Q_overall"
    from source

)

select * from renamed
