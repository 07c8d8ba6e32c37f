-- The DICES cards' statistics, computed per release from the marts, as the DUO and ReDial ones
-- are: items, raters, CSV rows and the fewest / most distinct raters an item has. No rows when
-- DICES is not loaded.
with

dialogues as (

    select * from {{ ref('dialogues') }}
    where source = 'dices'

),

-- Every CSV row answers every question of its release exactly once, nulls included (tested on
-- `int_dices__answers`), so the ratings of one question both releases ask are the rows, one
-- each: 1/24 or 1/29 of the DICES ratings are read instead of all of them.
row_ratings as (

    select * from {{ ref('ratings') }}
    where source = 'dices' and question = 'Q_overall'

),

-- every item with its rows' ratings of that question (none: the item still counts)
item_row_ratings as (

    select
        dialogues.dataset_config,
        dialogues.dialogue_key,
        row_ratings.rating_id,
        row_ratings.rater_key
    from dialogues
    left join row_ratings on dialogues.dialogue_key = row_ratings.dialogue_key

),

items as (

    select
        dataset_config,
        dialogue_key,
        count(rating_id) as n_rows,
        count(distinct rater_key) as n_distinct_raters
    from item_row_ratings
    group by dataset_config, dialogue_key

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
        cast(count(distinct rater_key) as double) as n_raters
    from item_row_ratings
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

mart_rows as (

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

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
