"""The DICES releases' CSV layouts and label vocabularies, as the released files have them.

Copied from the published files themselves, not from their READMEs, which differ:
990 names its raw race column `rater_race_raw` and its slur / bias-overall questions as below;
350's last Q6 column is `Q6_policy_guidelines_other` (README: `..._other_type`).
Everything here is a plain constant so landing, the sample writer and dbt seeds share one source.
"""

CONFIGS: tuple[str, ...] = ("350", "990")

COLUMNS_350: tuple[str, ...] = (
    "id",
    "rater_id",
    "rater_gender",
    "rater_race",
    "rater_raw_race",
    "rater_age",
    "rater_education",
    "phase",
    "item_id",
    "answer_time_ms",
    "answer_timestamp",
    "context",
    "response",
    "degree_of_harm",
    "harm_type",
    "safety_gold",
    "safety_gold_reason",
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
    "Q_overall",
)

COLUMNS_990: tuple[str, ...] = (
    "id",
    "rater_id",
    "rater_gender",
    "rater_locale",
    "rater_race",
    "rater_race_raw",
    "rater_age",
    "rater_education",
    "phase",
    "item_id",
    "context",
    "response",
    "degree_of_harm",
    "harm_type",
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
    "Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_hatred_based_on_any_of_the_attributes_noted_above",
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
    "Q_overall",
)

COLUMNS: dict[str, tuple[str, ...]] = {"350": COLUMNS_350, "990": COLUMNS_990}

# The byte-exact header line of each released file (LF line end, nothing quoted).
HEADER_LINES: dict[str, str] = {config: ",".join(columns) + "\n" for config, columns in COLUMNS.items()}

# Question columns in header order: Q1 (comprehension), the granular Q2..Q6 questions, the
# per-category overall questions and Q_overall. Every one of them is a rating column.
QUESTIONS_350: tuple[str, ...] = tuple(c for c in COLUMNS_350 if c.startswith("Q"))
QUESTIONS_990: tuple[str, ...] = tuple(c for c in COLUMNS_990 if c.startswith("Q"))
QUESTIONS: dict[str, tuple[str, ...]] = {"350": QUESTIONS_350, "990": QUESTIONS_990}

Q1_COLUMN = "Q1_whole_conversation_evaluation"
OVERALL_COLUMN = "Q_overall"

# Per-category aggregates ("…_overall") other than Q_overall, in header order.
CATEGORY_OVERALL_350: tuple[str, ...] = (
    "Q2_harmful_content_overall",
    "Q3_bias_overall",
    "Q6_policy_guidelines_overall",
)
CATEGORY_OVERALL_990: tuple[str, ...] = (
    "Q2_harmful_content_overall",
    "Q3_unfair_bias_overall",
    "Q4_misinformation_overall",
)

# Granular Yes / No / Unsure questions (not Q1, not an overall), in header order.
GRANULAR_350: tuple[str, ...] = tuple(
    q for q in QUESTIONS_350 if q not in (Q1_COLUMN, OVERALL_COLUMN, *CATEGORY_OVERALL_350)
)
GRANULAR_990: tuple[str, ...] = tuple(
    q for q in QUESTIONS_990 if q not in (Q1_COLUMN, OVERALL_COLUMN, *CATEGORY_OVERALL_990)
)

# Where each release keeps its file, relative to the release root, and its raw landing table.
RELEASE_PATHS: dict[str, str] = {
    "350": "350/diverse_safety_adversarial_dialog_350.csv",
    "990": "990/diverse_safety_adversarial_dialog_990.csv",
}
RAW_TABLES: dict[str, str] = {"350": "raw.dices_350", "990": "raw.dices_990"}

# Published statistics (dataset card). The 990 README says 172 raters in one place.
PUBLISHED_ITEMS: dict[str, int] = {"350": 350, "990": 990}
PUBLISHED_RATERS: dict[str, int] = {"350": 123, "990": 173}
PUBLISHED_ROWS: dict[str, int] = {"350": 43_050, "990": 72_103}
PUBLISHED_RATERS_PER_ITEM_990: tuple[int, int] = (60, 70)

# Label vocabularies (TFDS catalog; REAL_RELEASES.md).
GENDERS: tuple[str, ...] = ("Man", "Woman", "Nonbinary", "Self-describe (below)")
RACES: tuple[str, ...] = (
    "Asian/Asian subcontinent",
    "Black/African American",
    "LatinX, Latino, Hispanic or Spanish Origin",
    "Multiracial",
    "Other",
    "White",
)
AGES: tuple[str, ...] = ("millenial", "gen x+", "gen z")
EDUCATIONS: tuple[str, ...] = ("College degree or higher", "High school or below", "Other")
PHASES: tuple[str, ...] = ("Phase1", "Phase2", "Phase3")
LOCALES: tuple[str, ...] = ("IN", "US")
DEGREES_OF_HARM: tuple[str, ...] = ("Benign", "Debatable", "Extreme", "Moderate")
SAFETY_GOLD: tuple[str, ...] = ("Yes", "No")
ANSWERS: tuple[str, ...] = ("Yes", "No", "Unsure")
Q1_ANSWERS: tuple[str, ...] = (
    "None of the above - it is in English, it makes sense, and I am familiar with the topic",
    "It is nonsensical (repetitive, incomprehensible, gibberish)",
    "I am not familiar with the topic of the conversation",
    "It is in a language other than English",
)
# Harm topics as the TFDS loader names them (it capitalises each comma-separated value; the
# files' capitalisation varies). "Terrorism " carries a trailing space in the catalog itself.
HARM_TYPES: tuple[str, ...] = (
    "Ablist",
    "Abortion",
    "Ageism",
    "Aggressive",
    "Banter",
    "Bigoted",
    "Celebrity",
    "Criminal/carceral",
    "Drugs/alcohol",
    "Entertainment",
    "Environment/climate",
    "Gendered & sexist",
    "Health",
    "Identity",
    "Insurgency",
    "Legal",
    "Lgbtq+ & homophobic",
    "Mental health/self harm",
    "Miscellaneous",
    "Misinformation",
    "National/regional",
    "Personal",
    "Political",
    "Racial",
    "Regulated goods",
    "Religious",
    "Senseless",
    "Sexual",
    "Terrorism ",
    "Violent/gory",
    "Wealth/finance",
)
