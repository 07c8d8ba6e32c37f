-- The DUO card's statistics, computed from the marts, per language and setting.
with

dialogues as (

    select * from {{ ref('dialogues') }}
    where source = 'duo'

),

turns as (

    select * from {{ ref('turns') }}
    where source = 'duo'

),

ratings as (

    select * from {{ ref('ratings') }}
    where source = 'duo'

),

turns_with_folder as (

    select
        turns.*,
        dialogues.language,
        dialogues.setting,
        -- whitespace tokens: the card's tokenizer is not named, so this one is named instead
        len(string_split_regex(trim(turns.text), '\s+')) as n_whitespace_tokens
    from turns
    inner join dialogues on turns.dialogue_key = dialogues.dialogue_key

),

dialogue_counts as (

    select
        language,
        setting,
        cast(count(*) as double) as n_dialogues,
        cast(count(*) filter (where has_objective_evaluation) as double) as n_dialogues_with_objective_evaluation,
        cast(count(distinct emotion) as double) as n_unique_emotions,
        cast(count(distinct topic) as double) as n_unique_topics,
        cast(min(n_turns) as double) as dialogue_length_min,
        cast(max(n_turns) as double) as dialogue_length_max,
        avg(n_turns) as avg_utterances_per_dialogue
    from dialogues
    group by language, setting

),

turn_counts as (

    select
        language,
        setting,
        cast(count(*) as double) as n_utterances,
        cast(count(distinct speaker_key) filter (where speaker_role = 'user') as double) as n_participants
    from turns_with_folder
    group by language, setting

),

token_counts as (

    select
        language,
        setting,
        'n_tokens' as statistic,
        cast(sum(n_whitespace_tokens) as double) as observed_value,
        'whitespace' as tokenizer
    from turns_with_folder
    group by language, setting

),

counts_long as (

    unpivot (
        select
            dialogue_counts.*,
            turn_counts.n_utterances,
            turn_counts.n_participants
        from dialogue_counts
        left join turn_counts
            on dialogue_counts.language = turn_counts.language and dialogue_counts.setting = turn_counts.setting
    )
    on columns(* exclude (language, setting))
    into name statistic value observed_value

),

-- objective figures are over dialogues: the published per-dialogue means, as the card reports them
evaluation_values as (

    select
        dialogues.language,
        dialogues.setting,
        ratings.rating_kind,
        ratings.question,
        case when ratings.rating_kind = 'objective' then ratings.published_mean else ratings.value_numeric end
            as dialogue_value
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key
    where ratings.rating_kind = 'subjective' or ratings.annotator_slot = 1

),

evaluation_summaries as (

    select
        language,
        setting,
        rating_kind || '_' || question || '_mean' as statistic,
        avg(dialogue_value) as observed_value
    from evaluation_values
    group by all
    union all
    select
        language,
        setting,
        rating_kind || '_' || question || '_sd' as statistic,
        stddev_samp(dialogue_value) as observed_value
    from evaluation_values
    group by all

),

all_statistics as (

    select
        language,
        setting,
        statistic,
        observed_value
    from counts_long
    where
        not (statistic = 'n_unique_emotions' and setting <> 'ed')
        and not (statistic = 'n_unique_topics' and setting <> 'wow')
    union all by name
    select
        language,
        setting,
        statistic,
        observed_value
    from evaluation_summaries
    union all by name
    select
        language,
        setting,
        statistic,
        observed_value,
        tokenizer
    from token_counts

),

mart_rows as (

    select
        'duo' as dataset,
        language,
        setting,
        cast(null as varchar) as dataset_config,
        statistic,
        -- rounded: parallel float sums differ in the last bits between runs, and reloads must be identical
        round(observed_value, 10) as observed_value,
        tokenizer
    from all_statistics

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
