-- Every label set the agreement models know: the built-in sources' (`seeds/judgement_labels.csv`)
-- and every loaded dataset's (`int_dataset__judgement_labels`), in one shape; codes are numbers
-- (a dataset's interval question may give 2.5). A view.
{{ config(materialized='view') }}

with

seeded_labels as (

    select * from {{ ref('judgement_labels') }}

),

dataset_labels as (

    select * from {{ ref('int_dataset__judgement_labels') }}

),

final as (

    select
        label_set,
        cast(value_code as double) as value_code,
        value_text,
        counts_as_missing,
        is_unsure,
        meaning
    from seeded_labels
    union all
    select
        label_set,
        value_code,
        value_text,
        counts_as_missing,
        is_unsure,
        meaning
    from dataset_labels

)

select * from final
