-- One row per unit of a dataset, in the `dialogues` mart's shape: the units the units file lists
-- and those judged without a row there. The setting is the dataset's name; a unit without a
-- language is `und` (BCP 47's "undetermined"); its file is the units file, else the first
-- judgements file that names it. Its turns are counted in the `dialogues` mart.
with

units as (

    select * from {{ ref('stg_dataset__units') }}

),

judged_units as (

    select
        source,
        dialogue_key,
        source_unit_id,
        min(file_path) as file_path
    from {{ ref('stg_dataset__judgements') }}
    group by source, dialogue_key, source_unit_id

),

every_unit as (

    select
        coalesce(units.dialogue_key, judged_units.dialogue_key) as dialogue_key,
        coalesce(units.source, judged_units.source) as source,
        coalesce(units.source_unit_id, judged_units.source_unit_id) as source_dialogue_id,
        coalesce(units.language, 'und') as language,
        units.split,
        coalesce(units.file_path, judged_units.file_path) as file_path
    from units
    full outer join judged_units on units.dialogue_key = judged_units.dialogue_key

),

final as (

    select
        every_unit.dialogue_key,
        every_unit.source,
        every_unit.source_dialogue_id,
        every_unit.language,
        every_unit.source as setting,
        every_unit.split,
        every_unit.file_path as source_file
    from every_unit

)

select * from final
