-- The DICES ratings in the CSV's shape, for BI users: one row per (release, CSV id) with the rater,
-- the item, the demographics and every question column of both releases under its header name
-- (a column of the other release is null). A view over `int_dices__rows` and, for the text and
-- the answers, the staging model: nothing is copied.
{{ config(materialized='view') }}

with

-- under the names the CSV gives them
answer_rows as (

    select
        * rename (
            file_path as source_file,
            harm_type_raw as harm_type,
            safety_gold_reason_raw as safety_gold_reason
        )
    from {{ ref('int_dices__rows') }}

),

record_texts as (

    select
        dataset_config,
        row_number,
        context,
        response,
        columns('^Q')
    from {{ ref('stg_dices__ratings') }}

),

joined as (

    select
        answer_rows.*,
        record_texts.* exclude (dataset_config, row_number)  -- noqa: RF02
    from answer_rows
    inner join record_texts
        on
            answer_rows.dataset_config = record_texts.dataset_config
            and answer_rows.row_number = record_texts.row_number

),

final as (

    select
        {{ contract_columns() }}
    from joined

)

select * from final
