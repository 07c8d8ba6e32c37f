-- Both DICES releases in one shape: one row per CSV record (one rater x item), with its keys and
-- `row_ref`, the integer the answers refer to. Columns one release lacks are null (990: answer
-- times, safety_gold, safety_gold_reason; 350: locale). Narrow on purpose: the conversation text
-- (read per item by `int_dices__items`) and the question columns (unpivoted into integer codes by
-- `int_dices__answers`) stay in staging, so this table is written without them.
with

ratings_350 as (

    select * from {{ ref('stg_dices__ratings_350') }}

),

ratings_990 as (

    select * from {{ ref('stg_dices__ratings_990') }}

),

unioned as (

    select
        '350' as dataset_config,
        columns(column_name -> column_name not in ('context', 'response') and not starts_with(column_name, 'Q'))
    from ratings_350
    union all by name
    select
        '990' as dataset_config,
        columns(column_name -> column_name not in ('context', 'response') and not starts_with(column_name, 'Q'))
    from ratings_990

),

final as (

    select
        {{ dices_row_ref('dataset_config', 'row_number') }} as row_ref,
        {{ dices_dialogue_key('dataset_config', 'item_id') }} as dialogue_key,
        {{ dices_rater_key('rater_id') }} as rater_key,
        *
    from unioned

)

select * from final
