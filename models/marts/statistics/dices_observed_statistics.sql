-- The DICES cards' statistics, computed per release from the loaded rows: items, raters, rows
-- and the fewest / most distinct raters an item has. No rows when DICES is not loaded.
with

items as (

    select * from {{ ref('int_dices__items') }}

),

answer_rows as (

    select * from {{ ref('int_dices__rows') }}

),

item_counts as (

    select
        dataset_config,
        cast(count(*) as double) as n_items,
        cast(sum(n_rows) as double) as n_rows,
        cast(min(n_distinct_raters) as double) as min_raters_per_item,
        cast(max(n_distinct_raters) as double) as max_raters_per_item
    from items
    group by dataset_config

),

rater_counts as (

    select
        dataset_config,
        cast(count(distinct rater_id) as double) as n_raters
    from answer_rows
    group by dataset_config

),

counts_long as (

    unpivot (
        select
            item_counts.dataset_config,
            item_counts.n_items,
            rater_counts.n_raters,
            item_counts.n_rows,
            item_counts.min_raters_per_item,
            item_counts.max_raters_per_item
        from item_counts
        left join rater_counts on item_counts.dataset_config = rater_counts.dataset_config
    )
    on columns(* exclude (dataset_config))
    into name statistic value observed_value

),

final as (

    select
        'dices' as dataset,
        'en' as language,
        'adversarial_safety' as setting,
        dataset_config,
        statistic,
        -- rounded: parallel float sums differ in the last bits between runs, and reloads must be identical
        round(observed_value, 10) as observed_value,
        cast(null as varchar) as tokenizer
    from counts_long

)

select * from final
