-- One row per DICES item (config + item_id): the conversation and the expert annotations that
-- every CSV row of the item repeats, taken from its first row, with counts of the versions the
-- rows hold (a consistency test lists items whose rows disagree) and of its raters. Reads the
-- conversation text from staging: `int_dices__rows` is kept narrow without it.
{#- what an item's rows repeat, and what counts them; 990 has no safety_gold columns (null there) -#}
{%- set item_columns = [
    'dialogue_key', 'dataset_config', 'item_id', 'rater_id', 'row_number', 'file_path', 'context', 'response',
    'degree_of_harm', 'harm_type_raw', 'safety_gold', 'safety_gold_reason_raw'
] %}
{%- set item_column_names = "'" ~ item_columns | join("', '") ~ "'" %}

with

answer_rows as (

    select columns(column_name -> list_contains([{{ item_column_names }}], column_name))
    from {{ ref('stg_dices__ratings') }}

),

grouped as (

    select
        dialogue_key,
        dataset_config,
        item_id,
        -- the first row's version, nulls included (a struct is never null)
        arg_min(
            {
                'file_path': file_path,
                'context': context,
                'response': response,
                'degree_of_harm': degree_of_harm,
                'harm_type_raw': harm_type_raw,
                'safety_gold': safety_gold,
                'safety_gold_reason_raw': safety_gold_reason_raw
            },
            row_number
        ) as first_version,
        count(*) as n_rows,
        count(distinct rater_id) as n_distinct_raters,
        count(distinct { 'context': context }) as n_context_versions,
        count(distinct { 'response': response }) as n_response_versions,
        count(
            distinct {
                'degree_of_harm': degree_of_harm,
                'harm_type_raw': harm_type_raw,
                'safety_gold': safety_gold,
                'safety_gold_reason_raw': safety_gold_reason_raw
            }
        ) as n_annotation_versions
    from answer_rows
    group by dialogue_key, dataset_config, item_id

),

first_versions as (

    select
        * exclude (first_version),
        struct_extract(first_version, 'file_path') as file_path,
        struct_extract(first_version, 'context') as context,
        struct_extract(first_version, 'response') as response,
        struct_extract(first_version, 'degree_of_harm') as degree_of_harm,
        struct_extract(first_version, 'harm_type_raw') as harm_type_raw,
        struct_extract(first_version, 'safety_gold') as safety_gold,
        struct_extract(first_version, 'safety_gold_reason_raw') as safety_gold_reason_raw
    from grouped

),

final as (

    select
        dialogue_key,
        dataset_config,
        item_id,
        file_path as source_file,
        context,
        response,
        nullif(degree_of_harm, '') as degree_of_harm,
        {{ dices_harm_types('harm_type_raw') }} as harm_types,
        harm_type_raw,
        nullif(safety_gold, '') as safety_gold,
        case
            when dataset_config = '350'
                then {{ dices_safety_gold_reasons('safety_gold_reason_raw') }}
        end as safety_gold_reasons,
        safety_gold_reason_raw,
        n_rows,
        n_distinct_raters,
        n_context_versions,
        n_response_versions,
        n_annotation_versions
    from first_versions

)

select * from final
