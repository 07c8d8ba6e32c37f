-- One row per answer of the two movie forms: (conversation, form, movie, question). The seeker
-- fills `initiatorQuestions`, the recommender `respondentQuestions`, both about the seeker's tastes.
with

conversations as (

    select
        dialogue_key,
        initiator_worker_id,
        respondent_worker_id,
        seeker_key,
        recommender_key,
        initiator_questions,
        respondent_questions,
        -- the movie ids `movieMentions` lists (none where it is no object)
        coalesce(json_keys(movie_mentions), []) as listed_movie_ids
    from {{ ref('stg_redial__conversations') }}

),

vocabularies as (

    select * from {{ ref('vocabularies') }}
    where source = 'redial'

),

forms as (

    select
        dialogue_key,
        'initiator' as form,
        'seeker' as form_role,
        initiator_worker_id as worker_id,
        seeker_key as rater_key,
        initiator_questions as questions
    from conversations
    union all
    select
        dialogue_key,
        'respondent' as form,
        'recommender' as form_role,
        respondent_worker_id as worker_id,
        recommender_key as rater_key,
        respondent_questions as questions
    from conversations

),

form_entries as (

    select
        dialogue_key,
        form,
        form_role,
        worker_id,
        rater_key,
        questions,
        unnest(json_keys(questions)) as movie_id
    from forms

),

entries as (

    select
        dialogue_key,
        form,
        form_role,
        worker_id,
        rater_key,
        movie_id,
        questions -> movie_id as entry
    from form_entries

),

answers as (

    select
        dialogue_key,
        form,
        form_role,
        worker_id,
        rater_key,
        movie_id,
        entry,
        unnest(json_keys(entry)) as question
    from entries
    where json_type(entry) = 'OBJECT'

),

-- an entry that is not a {question: value} object (or an empty one) is kept as one row
-- without a question, so that the tests name it instead of losing it
malformed_entries as (

    select
        dialogue_key,
        form,
        form_role,
        worker_id,
        rater_key,
        movie_id,
        entry
    from entries
    where json_type(entry) is distinct from 'OBJECT' or len(json_keys(entry)) = 0

),

all_answers as (

    select
        *,
        entry -> question as answer
    from answers
    union all by name
    select
        *,
        entry as answer
    from malformed_entries

),

joined as (

    select
        all_answers.dialogue_key,
        all_answers.form,
        all_answers.form_role,
        all_answers.worker_id,
        all_answers.rater_key,
        all_answers.movie_id,
        all_answers.question,
        cast(all_answers.answer as varchar) as value_raw,
        json_type(all_answers.answer) as value_json_type,
        -- labels are JSON integers; anything else (a string, a bool, a fraction) stays null and fails the tests
        case
            when all_answers.question is not null and json_type(all_answers.answer) in ('UBIGINT', 'BIGINT')
                then try_cast(cast(all_answers.answer as varchar) as integer)
        end as value_numeric,
        coalesce(list_contains(conversations.listed_movie_ids, all_answers.movie_id), false) as is_in_movie_mentions
    from all_answers
    left join conversations on all_answers.dialogue_key = conversations.dialogue_key

),

-- the documented meaning of each answer (datasheet), from the vocabularies seed; null outside it
final as (

    select
        joined.*,
        vocabularies.label as value_label
    from joined
    left join vocabularies
        on
            joined.question = vocabularies.vocabulary
            and joined.value_numeric = vocabularies.code

)

select * from final
