-- `agreement` packs a DICES item's counts of each value into `agreement_count_bits()` bits
-- (macros/agreement.sql): an item with more records than that holds would be counted wrong.
with

-- noqa: disable=LT02
{%- for release in dices_releases() %}

records_{{ release }} as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),
{%- endfor %}

records as (
{%- for release in dices_releases() %}

    select
        dataset_config,
        item_number
    from records_{{ release }}
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

)
-- noqa: enable=LT02

select
    dataset_config,
    item_number,
    count(*) as n_records
from records
group by dataset_config, item_number
having count(*) > {{ 2 ** agreement_count_bits() - 1 }}
