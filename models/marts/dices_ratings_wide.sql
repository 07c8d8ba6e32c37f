-- The DICES ratings in the CSV's shape, for BI users: one row per (release, CSV id) with the rater,
-- the item, the demographics and every question column of both releases under its header name
-- (a column of the other release is null). A view over `int_dices__rows` and, for the text and
-- the answers, the two staging models: nothing is copied.
{{ config(materialized='view') }}

-- The question columns keep the header's mixed-case names, so they must stay quoted.
-- noqa: disable=RF06
with

answer_rows as (

    select * from {{ ref('int_dices__rows') }}

),

texts_350 as (

    select
        '350' as dataset_config,
        row_number,
        context,
        response,
        columns('^Q')
    from {{ ref('stg_dices__ratings_350') }}

),

texts_990 as (

    select
        '990' as dataset_config,
        row_number,
        context,
        response,
        columns('^Q')
    from {{ ref('stg_dices__ratings_990') }}

),

record_texts as (

    select * from texts_350
    union all by name
    select * from texts_990

),

joined as (

    select
        answer_rows.*,
        record_texts.* exclude (dataset_config, row_number)  -- noqa: RF02
    from answer_rows
    inner join record_texts
        on
            answer_rows.dataset_config = record_texts.dataset_config
            and answer_rows.row_number = record_texts.row_number

),

final as (

    select
        cast(dataset_config as varchar) as dataset_config,
        cast(source_row_id as varchar) as source_row_id,
        cast(dialogue_key as varchar) as dialogue_key,
        cast(rater_key as varchar) as rater_key,
        cast(item_id as varchar) as item_id,
        cast(rater_id as varchar) as rater_id,
        cast(file_path as varchar) as source_file,
        cast(row_number as bigint) as row_number,
        cast(gender as varchar) as gender,
        cast(race as varchar) as race,
        cast(raw_race as varchar) as raw_race,
        cast(age_group as varchar) as age_group,
        cast(education as varchar) as education,
        cast(locale as varchar) as locale,
        cast(phase as varchar) as phase,
        cast(answer_time_ms as bigint) as answer_time_ms,
        cast(answer_timestamp as timestamp) as answer_timestamp,
        cast(context as varchar) as context,
        cast(response as varchar) as response,
        cast(degree_of_harm as varchar) as degree_of_harm,
        cast(harm_type_raw as varchar) as harm_type,
        cast(safety_gold as varchar) as safety_gold,
        cast(safety_gold_reason_raw as varchar) as safety_gold_reason,
        cast("Q1_whole_conversation_evaluation" as varchar) as "Q1_whole_conversation_evaluation",
        cast("Q2_harmful_content_medical_legal_financial_or_relationship_advice" as varchar) as "Q2_harmful_content_medical_legal_financial_or_relationship_advice",  -- noqa: LT05
        cast("Q2_harmful_content_dangerous_content" as varchar) as "Q2_harmful_content_dangerous_content",
        cast("Q2_harmful_content_derogation_of_boat" as varchar) as "Q2_harmful_content_derogation_of_boat",
        cast("Q2_harmful_content_insensitive" as varchar) as "Q2_harmful_content_insensitive",
        cast("Q2_harmful_content_obscene_and_profane" as varchar) as "Q2_harmful_content_obscene_and_profane",
        cast("Q2_harmful_content_personal_information" as varchar) as "Q2_harmful_content_personal_information",
        cast("Q2_harmful_content_regulated_goods" as varchar) as "Q2_harmful_content_regulated_goods",
        cast("Q2_harmful_content_sexually_suggestive_content" as varchar) as "Q2_harmful_content_sexually_suggestive_content",  -- noqa: LT05
        cast("Q2_harmful_content_other" as varchar) as "Q2_harmful_content_other",
        cast("Q3_bias_targeting_beliefs" as varchar) as "Q3_bias_targeting_beliefs",
        cast("Q3_bias_targeting_gender_sexual_orientation" as varchar) as "Q3_bias_targeting_gender_sexual_orientation",
        cast("Q3_bias_targeting_inherited_attributes" as varchar) as "Q3_bias_targeting_inherited_attributes",
        cast("Q3_bias_targeting_status" as varchar) as "Q3_bias_targeting_status",
        cast("Q3_bias_other" as varchar) as "Q3_bias_other",
        cast("Q4_misinformation" as varchar) as "Q4_misinformation",
        cast("Q5_political_affiliation" as varchar) as "Q5_political_affiliation",
        cast("Q6_policy_guidelines_polarizing_topics" as varchar) as "Q6_policy_guidelines_polarizing_topics",
        cast("Q6_policy_guidelines_making_endorsement" as varchar) as "Q6_policy_guidelines_making_endorsement",
        cast("Q6_policy_guidelines_other" as varchar) as "Q6_policy_guidelines_other",
        cast("Q2_harmful_content_overall" as varchar) as "Q2_harmful_content_overall",
        cast("Q3_bias_overall" as varchar) as "Q3_bias_overall",
        cast("Q6_policy_guidelines_overall" as varchar) as "Q6_policy_guidelines_overall",
        cast("Q_overall" as varchar) as "Q_overall",
        cast("Q2_harmful_content_harm_to_people_or_animals" as varchar) as "Q2_harmful_content_harm_to_people_or_animals",  -- noqa: LT05
        cast("Q2_harmful_content_violent_or_gory" as varchar) as "Q2_harmful_content_violent_or_gory",
        cast("Q2_harmful_content_promotes_or_condones_use_of_harmful_regulated_goods" as varchar) as "Q2_harmful_content_promotes_or_condones_use_of_harmful_regulated_goods",  -- noqa: LT05
        cast("Q2_harmful_content_health_and_safety_claims" as varchar) as "Q2_harmful_content_health_and_safety_claims",
        cast("Q2_harmful_content_financial_advice" as varchar) as "Q2_harmful_content_financial_advice",
        cast("Q2_harmful_content_promotes_or_condones_violence" as varchar) as "Q2_harmful_content_promotes_or_condones_violence",  -- noqa: LT05
        cast("Q2_harmful_content_how_tos_about_harmful_activities" as varchar) as "Q2_harmful_content_how_tos_about_harmful_activities",  -- noqa: LT05
        cast("Q2_harmful_content_explicitly_sexual" as varchar) as "Q2_harmful_content_explicitly_sexual",
        cast("Q2_harmful_content_obscenities_or_profanities" as varchar) as "Q2_harmful_content_obscenities_or_profanities",  -- noqa: LT05
        cast("Q3_bias_incites_hatred" as varchar) as "Q3_bias_incites_hatred",
        cast("Q3_bias_subhuman_comparisons" as varchar) as "Q3_bias_subhuman_comparisons",
        cast("Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_hatred_based_on_any_of_the_attributes_noted_above" as varchar) as "Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_hatred_based_on_any_of_the_attributes_noted_above",  -- noqa: LT05
        cast("Q3_bias_physically_or_mentally_inferior" as varchar) as "Q3_bias_physically_or_mentally_inferior",
        cast("Q3_bias_superiority_or_subjugation_of_a_group" as varchar) as "Q3_bias_superiority_or_subjugation_of_a_group",  -- noqa: LT05
        cast("Q3_bias_calling_individuals_or_groups_evil_corrupt_or_malicious" as varchar) as "Q3_bias_calling_individuals_or_groups_evil_corrupt_or_malicious",  -- noqa: LT05
        cast("Q3_bias_insults_about_emotional_romantic_and_or_sexual_attraction" as varchar) as "Q3_bias_insults_about_emotional_romantic_and_or_sexual_attraction",  -- noqa: LT05
        cast("Q4_misinformation_false_theories" as varchar) as "Q4_misinformation_false_theories",
        cast("Q4_misinformation_contradicts_expert_consensus" as varchar) as "Q4_misinformation_contradicts_expert_consensus",  -- noqa: LT05
        cast("Q4_misinformation_conspiracy_theories" as varchar) as "Q4_misinformation_conspiracy_theories",
        cast("Q4_misinformation_political" as varchar) as "Q4_misinformation_political",
        cast("Q4_misinformation_other" as varchar) as "Q4_misinformation_other",
        cast("Q3_unfair_bias_overall" as varchar) as "Q3_unfair_bias_overall",
        cast("Q4_misinformation_overall" as varchar) as "Q4_misinformation_overall"
    from joined

)

select * from final
