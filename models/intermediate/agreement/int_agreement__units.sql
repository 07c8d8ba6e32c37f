-- One row per unit: what several raters judged. DUO objective scores and DICES answers per
-- (dialogue, question), ReDial forms per (dialogue, movie, question). DUO subjective scores have
-- one rater each and are no units. DICES units are the items times their release's questions
-- (every CSV row answers each of them, nulls included): ~37 thousand units, found without
-- reading the ~3 million answers.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in {{ agreement_unit_rating_kinds() }}

),

dices_rows as (

    select * from {{ ref('int_dices__rows') }}

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('dices_vocabularies') }}

),

dices_vocabulary_sizes as (

    select
        vocabulary,
        count(*) as n_labels
    from dices_vocabularies
    group by vocabulary

),

dices_label_counts as (

    select
        dices_questions.dataset_config,
        dices_questions.question,
        dices_vocabulary_sizes.n_labels
    from dices_questions
    inner join dices_vocabulary_sizes
        on dices_questions.answer_vocabulary = dices_vocabulary_sizes.vocabulary

),

dices_items as (

    select distinct
        dataset_config,
        item_id
    from dices_rows

),

dices_units as (

    select
        {{ dices_dialogue_key('dices_items.dataset_config', 'dices_items.item_id') }} as dialogue_key,
        dices_questions.question,
        cast(null as varchar) as movie_id
    from dices_items
    inner join dices_questions on dices_items.dataset_config = dices_questions.dataset_config

),

rated_units as (

    select distinct
        dialogue_key,
        question,
        movie_id
    from ratings

),

units as (

    select * from dices_units
    union all
    select * from rated_units

),

described as (

    select
        units.dialogue_key,
        units.question,
        units.movie_id,
        dialogues.source,
        dialogues.source_dialogue_id,
        dialogues.dataset_config,
        case dialogues.source
            when 'dices' then dialogues.dataset_config
            when 'duo' then dialogues.language || ':' || dialogues.setting
            when 'redial' then dialogues.split
        end as scope,
        case dialogues.source
            when 'dices' then 'safety'
            when 'duo' then 'objective'
            when 'redial' then 'movie_form'
        end as rating_kind,
        case dialogues.source when 'duo' then 'interval' else 'nominal' end as level_of_measurement,
        case dialogues.source
            when 'dices' then dices_label_counts.n_labels
            when 'duo' then 5
            when 'redial' then 2
        end as n_labels
    from units
    inner join dialogues on units.dialogue_key = dialogues.dialogue_key
    left join dices_label_counts
        on
            dialogues.dataset_config = dices_label_counts.dataset_config
            and units.question = dices_label_counts.question

),

final as (

    select
        cast(row_number() over (order by dialogue_key, question, movie_id) as integer) as unit_id,
        cast(dense_rank() over (order by source, scope, rating_kind, question) as integer) as question_id,
        source,
        scope,
        rating_kind,
        question,
        dialogue_key,
        movie_id,
        source_dialogue_id,
        dataset_config,
        level_of_measurement,
        n_labels
    from described

)

select * from final
