-- One row per question of a scope (source, scope, rating kind, question): the grain of `agreement`
-- and of the rater agreement, numbered, with what their figures need (level of measurement,
-- vocabulary size). The agreement models carry only the number; the attributes live here.
-- DICES questions are the seeded columns of each release loaded; DUO questions are the ones its
-- objective scores use; ReDial's are the three form questions of each split where a form lists a
-- movie (a form answers all three for every movie it lists, or the build stops before this).
with

ratings as (

    select * from {{ ref('ratings') }}
    -- DUO objective scores; ReDial form answers are read from the movie mentions below
    where rating_kind = 'objective'

),

dialogues as (

    select * from {{ ref('dialogues') }}

),

redial_movie_mentions as (

    select * from {{ ref('int_redial__movie_mentions') }}
    where is_in_seeker_form or is_in_recommender_form

),

dices_questions as (

    select * from {{ ref('dices_questions') }}

),

dices_vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'dices'

),

dices_vocabulary_sizes as (

    select
        vocabulary,
        count(*) as n_labels
    from dices_vocabularies
    group by vocabulary

),

dices_configs as (

    select distinct dataset_config from dialogues
    where source = 'dices'

),

dices_scoped as (

    select
        'dices' as source,
        dices_questions.dataset_config as scope,
        'safety' as rating_kind,
        dices_questions.question,
        'nominal' as level_of_measurement,
        dices_vocabulary_sizes.n_labels
    from dices_questions
    inner join dices_configs on dices_questions.dataset_config = dices_configs.dataset_config
    inner join dices_vocabulary_sizes on dices_questions.answer_vocabulary = dices_vocabulary_sizes.vocabulary

),

duo_questions as (

    select distinct
        dialogues.source,
        {{ agreement_scope('dialogues') }} as scope,
        ratings.rating_kind,
        ratings.question
    from ratings
    inner join dialogues on ratings.dialogue_key = dialogues.dialogue_key

),

redial_scopes as (

    select distinct {{ agreement_scope('dialogues') }} as scope
    from redial_movie_mentions
    inner join dialogues on redial_movie_mentions.dialogue_key = dialogues.dialogue_key

),

redial_questions as (

    select
        'redial' as source,
        scope,
        'movie_form' as rating_kind,
        unnest({{ redial_form_questions() }}) as question
    from redial_scopes

),

rated_questions as (

    select * from duo_questions
    union all
    select * from redial_questions

),

rated_scoped as (

    select
        source,
        scope,
        rating_kind,
        question,
        case source when 'duo' then 'interval' else 'nominal' end as level_of_measurement,
        case source when 'duo' then 5 when 'redial' then 2 end as n_labels
    from rated_questions

),

scoped as (

    select * from dices_scoped
    union all
    select * from rated_scoped

),

final as (

    select
        cast(row_number() over (order by source, scope, rating_kind, question) as integer) as question_id,
        source,
        scope,
        rating_kind,
        question,
        level_of_measurement,
        cast(n_labels as integer) as n_labels
    from scoped

)

select * from final
