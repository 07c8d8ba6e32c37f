-- Each published figure next to the observed one, for every dataset that is loaded; a mismatch
-- the documentation explains (seed known_statistic_differences) is `explained`, with its reason.
with

published as (

    select * from {{ ref('published_statistics') }}

),

observed as (

    select * from {{ ref('duo_observed_statistics') }}
    union all
    select * from {{ ref('redial_observed_statistics') }}
    union all
    select * from {{ ref('dices_observed_statistics') }}

),

known_differences as (

    select * from {{ ref('known_statistic_differences') }}

),

loaded_datasets as (

    select distinct dataset from observed

),

compared as (

    select
        coalesce(published.dataset, observed.dataset) as dataset,
        coalesce(published.language, observed.language) as language,
        coalesce(published.setting, observed.setting) as setting,
        coalesce(published.dataset_config, observed.dataset_config) as dataset_config,
        coalesce(published.statistic, observed.statistic) as statistic,
        published.published_value,
        observed.observed_value,
        observed.observed_value - published.published_value as difference,
        published.tolerance,
        coalesce(published.relation, 'equal') as relation,
        published.tokenizer as published_tokenizer,
        observed.tokenizer as observed_tokenizer,
        published.published_in
    from published
    full outer join observed
        on
            published.dataset = observed.dataset
            and published.language is not distinct from observed.language
            and published.setting is not distinct from observed.setting
            and published.dataset_config is not distinct from observed.dataset_config
            and published.statistic = observed.statistic

),

judged as (

    select
        *,
        case relation
            when 'at_least' then observed_value >= published_value - tolerance - 1e-9
            when 'at_most' then observed_value <= published_value + tolerance + 1e-9
            else abs(difference) <= tolerance + 1e-9
        end as holds
    from compared

),

classified as (

    select
        dataset,
        language,
        setting,
        dataset_config,
        statistic,
        published_value,
        observed_value,
        difference,
        tolerance,
        relation,
        published_tokenizer,
        observed_tokenizer,
        published_in,
        case
            when published_value is null then 'not published'
            when coalesce(published_tokenizer, '') <> coalesce(observed_tokenizer, '') then 'not comparable'
            when observed_value is null then 'not observed'
            when holds then 'match'
            else 'mismatch'
        end as comparison,
        case
            when published_value is null then null
            when coalesce(published_tokenizer, '') <> coalesce(observed_tokenizer, '') then null
            else coalesce(holds, false)
        end as is_match
    from judged
    where dataset in (select loaded_datasets.dataset from loaded_datasets)

),

-- an explanation covers a mismatch only while the release shows the figure it was written for
explained as (

    select
        classified.*,
        known_differences.reason as difference_reason,
        known_differences.source as difference_source
    from classified
    left join known_differences
        on
            classified.comparison = 'mismatch'
            and classified.dataset = known_differences.dataset
            and classified.language is not distinct from known_differences.language
            and classified.setting is not distinct from known_differences.setting
            and classified.dataset_config is not distinct from known_differences.dataset_config
            and classified.statistic = known_differences.statistic
            and abs(classified.observed_value - known_differences.expected_observed_value)
            <= known_differences.expected_tolerance + 1e-9

),

mart_rows as (

    -- an explained mismatch reads `explained`; every other column as classified
    select
        * replace (
            case when difference_reason is not null then 'explained' else comparison end as comparison
        )
    from explained

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
