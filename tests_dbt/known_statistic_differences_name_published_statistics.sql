-- Every known difference explains a figure that is published: a row keyed to nothing is a typo.
with

known_differences as (

    select * from {{ ref('known_statistic_differences') }}

),

published as (

    select * from {{ ref('published_statistics') }}

),

unpublished as (

    select
        known_differences.dataset,
        known_differences.language,
        known_differences.setting,
        known_differences.dataset_config,
        known_differences.statistic
    from known_differences
    where not exists (
        select 1
        from published
        where
            published.dataset = known_differences.dataset
            and published.language is not distinct from known_differences.language
            and published.setting is not distinct from known_differences.setting
            and published.dataset_config is not distinct from known_differences.dataset_config
            and published.statistic = known_differences.statistic
    )

)

select * from unpublished
