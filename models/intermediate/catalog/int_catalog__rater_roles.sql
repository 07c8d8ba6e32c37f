-- Every rater role: the built-in releases' (`seeds/rater_roles.csv`) and each loaded dataset's
-- one, `<dataset>_rater`. What `raters.rater_role` must name. A view.
{{ config(materialized='view') }}

with

built_in_roles as (

    select * from {{ ref('rater_roles') }}

),

datasets as (

    select * from {{ ref('stg_dataset__manifests') }}

),

final as (

    select
        source,
        rater_role,
        description
    from built_in_roles
    union all
    select
        source,
        source || '_rater' as rater_role,
        'A rater of the dataset ' || title || ' (its raters.csv says more)' as description
    from datasets

)

select * from final
