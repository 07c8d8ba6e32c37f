-- The ReDial documentation's statistics, computed from the marts. No rows when ReDial is not loaded.
with

dialogues as (

    select * from {{ ref('dialogues') }}
    where source = 'redial'

),

dialogue_counts as (

    select
        language,
        setting,
        cast(count(*) as double) as n_dialogues,
        cast(count(*) filter (where split = 'train') as double) as n_dialogues_train,
        cast(count(*) filter (where split = 'test') as double) as n_dialogues_test,
        -- movies listed in movieMentions or tagged in the text; the card asked for at least four
        cast(min(n_movies_mentioned) as double) as min_movies_per_dialogue
    from dialogues
    group by language, setting

),

counts_long as (

    unpivot dialogue_counts
    on columns(* exclude (language, setting))
    into name statistic value observed_value

),

mart_rows as (

    select
        'redial' as dataset,
        language,
        setting,
        cast(null as varchar) as dataset_config,
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
