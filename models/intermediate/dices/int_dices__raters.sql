-- One row per DICES rater across both releases: a rater id found in 350 and 990 is one person.
-- Demographics are the first non-empty value in file order (350 before 990); every distinct
-- non-null value a rater's rows hold is kept in the *_values lists for the consistency test.
-- The rows are first grouped by rater and demographics (a handful of groups per rater, an
-- aggregate DuckDB spills to disk), so the lists below gather a few values per rater, never
-- every row of a rater: the build's memory stays flat as the releases grow.
{%- set rater_columns =
    "'^(rater_id|rater_key|dataset_config|row_number|gender|race|raw_race|age_group|education|locale)$'" %}

with

-- the rater columns of every record (350 has no locale)
answer_rows as (

    select columns({{ rater_columns }}) from {{ ref('stg_dices__ratings') }}

),

demographic_versions as (

    select
        rater_id,
        dataset_config,
        gender,
        race,
        raw_race,
        age_group,
        education,
        locale,
        min(rater_key) as rater_key,
        min({ 'config': dataset_config, 'row': row_number }) as first_position,
        count(*) as n_rows
    from answer_rows
    group by rater_id, dataset_config, gender, race, raw_race, age_group, education, locale

),

grouped as (

    select
        rater_id,
        min(rater_key) as rater_key,
        arg_min(gender, first_position) as gender,
        arg_min(race, first_position) as race,
        arg_min(raw_race, first_position) as raw_race,
        arg_min(age_group, first_position) as age_group,
        arg_min(education, first_position) as education,
        arg_min(locale, first_position) as locale,
        list_sort(list_distinct(list(gender))) as gender_values,
        list_sort(list_distinct(list(race))) as race_values,
        list_sort(list_distinct(list(raw_race))) as raw_race_values,
        list_sort(list_distinct(list(age_group))) as age_group_values,
        list_sort(list_distinct(list(education))) as education_values,
        list_sort(list_distinct(list(locale))) as locale_values,
        list_sort(list_distinct(list(dataset_config))) as dataset_configs,
        cast(sum(n_rows) as bigint) as n_rows
    from demographic_versions
    group by rater_id

),

final as (

    select
        rater_key,
        'dices' as source,
        'dices_rater' as rater_role,
        rater_id as source_rater_id,
        gender,
        race,
        raw_race,
        age_group,
        education,
        locale,
        dataset_configs,
        n_rows,
        gender_values,
        race_values,
        raw_race_values,
        age_group_values,
        education_values,
        locale_values,
        greatest(
            len(gender_values),
            len(race_values),
            len(raw_race_values),
            len(age_group_values),
            len(education_values),
            len(locale_values)
        ) <= 1 as has_consistent_demographics
    from grouped

)

select * from final
