-- One row per ReDial unit a movie form answers, a (conversation, movie, question): the seeker's
-- and the recommender's judgement side by side, as small integers. Read from the movie mentions,
-- which already hold both forms' answers per (conversation, movie): the units need no grouping
-- of the 3.3 million form answers (at scale 10) by their text keys. A form that lists the movie
-- answers all three questions with a code of its vocabulary (`redial_form_entry_answers_three_questions`
-- and `redial_form_answers_in_vocabulary` fail the build before this builds otherwise), so the
-- form's flag says whether there is a judgement, and its answer what the judgement is.
with

movie_mentions as (

    select * from {{ ref('int_redial__movie_mentions') }}
    where is_in_seeker_form or is_in_recommender_form

),

dialogues as (

    select * from {{ ref('dialogues') }}
    where source = 'redial'

),

raters as (

    select * from {{ ref('int_agreement__raters') }}
    where source = 'redial'

),

questions as (

    select * from {{ ref('int_agreement__questions') }}
    where source = 'redial'

),

value_labels as (

    select * from {{ ref('int_agreement__value_labels') }}

),

-- each (conversation, movie) a form lists, in the conversation's scope, with its two workers
listed_movies as (

    select
        movie_mentions.dialogue_key,
        movie_mentions.movie_id,
        {{ agreement_scope('dialogues') }} as scope,
        seekers.rater_number as seeker_rater_number,
        recommenders.rater_number as recommender_rater_number,
        movie_mentions.is_in_seeker_form,
        movie_mentions.is_in_recommender_form,
        movie_mentions.seeker_suggested,
        movie_mentions.seeker_seen,
        movie_mentions.seeker_liked,
        movie_mentions.recommender_suggested,
        movie_mentions.recommender_seen,
        movie_mentions.recommender_liked,
        -- one worker who filled both forms, each listing the movie: one rater, two judgements
        (
            seekers.rater_number = recommenders.rater_number
            and movie_mentions.is_in_seeker_form
            and movie_mentions.is_in_recommender_form
        ) as is_judged_twice_by_one_rater
    from movie_mentions
    inner join dialogues on movie_mentions.dialogue_key = dialogues.dialogue_key
    inner join raters as seekers on dialogues.seeker_worker_id = seekers.source_rater_id
    inner join raters as recommenders on dialogues.recommender_worker_id = recommenders.source_rater_id

),

-- one row per question of each listed movie: the two forms' answers to it
-- (the linter cannot follow the indentation of a union written in a loop, one select per question)
-- noqa: disable=LT02
answer_pairs as (
{%- for question in redial_form_questions() %}

    select
        dialogue_key,
        movie_id,
        scope,
        '{{ question }}' as question,
        seeker_rater_number,
        is_in_seeker_form,
        seeker_{{ question }} as seeker_value,
        recommender_rater_number,
        is_in_recommender_form,
        recommender_{{ question }} as recommender_value,
        is_judged_twice_by_one_rater
    from listed_movies
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

final as (

    select
        {{ agreement_unit_id('questions.question_id', 'answer_pairs.dialogue_key', 'answer_pairs.movie_id') }}
            as unit_id,
        questions.question_id,
        answer_pairs.dialogue_key,
        answer_pairs.movie_id,
        answer_pairs.seeker_rater_number,
        answer_pairs.is_in_seeker_form as is_judged_by_seeker,
        -- (the value labels leave out "did not say": its judgement has no value code)
        seeker_values.value_code as seeker_value_code,
        answer_pairs.recommender_rater_number,
        answer_pairs.is_in_recommender_form as is_judged_by_recommender,
        recommender_values.value_code as recommender_value_code,
        answer_pairs.is_judged_twice_by_one_rater
    from answer_pairs
    inner join questions
        on
            answer_pairs.scope = questions.scope
            and answer_pairs.question = questions.question
    left join value_labels as seeker_values
        on
            questions.question_id = seeker_values.question_id
            and answer_pairs.seeker_value = seeker_values.value_numeric
    left join value_labels as recommender_values
        on
            questions.question_id = recommender_values.question_id
            and answer_pairs.recommender_value = recommender_values.value_numeric

)

select * from final
