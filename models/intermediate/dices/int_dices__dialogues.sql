-- One row per DICES item in the shape of the `dialogues` mart, expert annotations parsed.
with

items as (

    select * from {{ ref('int_dices__items') }}

),

final as (

    select
        items.dialogue_key,
        'dices' as source,
        items.item_id as source_dialogue_id,
        'en' as language,
        'adversarial_safety' as setting,
        items.dataset_config,
        items.source_file,
        items.degree_of_harm,
        items.harm_types,
        items.harm_type_raw,
        items.safety_gold,
        items.safety_gold_reasons,
        items.safety_gold_reason_raw,
        items.n_rows,
        items.n_distinct_raters
    from items

)

select * from final
