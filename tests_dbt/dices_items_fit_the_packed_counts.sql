-- `agreement` packs a DICES item's counts of each value into `agreement_count_bits()` bits
-- (macros/agreement.sql): an item with more records than that holds would be counted wrong.
with

records_350 as (

    select * from {{ ref('int_agreement__dices_350_records') }}

),

records_990 as (

    select * from {{ ref('int_agreement__dices_990_records') }}

),

records as (

    select
        dataset_config,
        item_number
    from records_350
    union all
    select
        dataset_config,
        item_number
    from records_990

)

select
    dataset_config,
    item_number,
    count(*) as n_records
from records
group by dataset_config, item_number
having count(*) > {{ 2 ** agreement_count_bits() - 1 }}
