-- Both DICES releases in one shape: one row per CSV record (one rater x item), with its keys and
-- `row_ref`, the integer the answers refer to. Columns one release lacks are null (990: answer
-- times, safety_gold, safety_gold_reason; 350: locale). Narrow on purpose: the conversation text
-- (read per item by `int_dices__items`) and the question columns (unpivoted into integer codes by
-- `int_dices__answers`) stay in staging, so this table is written without them.
{%- set is_row_column =
    "column_name not in ('context', 'response', 'record_key') and not starts_with(column_name, 'Q')" %}

with

ratings as (

    select * from {{ ref('stg_dices__ratings') }}

),

final as (

    select columns(column_name -> {{ is_row_column }})
    from ratings

)

select * from final
