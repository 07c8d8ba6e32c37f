-- The agreement marts read the judgements before their keys are built: DUO from
-- `int_agreement__values`, ReDial from the movie mentions' form answers
-- (`int_agreement__redial_form_units`), DICES from the releases' records
-- (`int_agreement__dices_*_records`, one column per question). Per source, kind and question
-- they must hold exactly the judgements `ratings` holds, and the same number of missing ones.
-- Fails naming the question whose counts differ. The DICES rows of `ratings` are
-- `int_dices__ratings`: one row per integer-coded answer of `int_dices__answers` (inner joins
-- that `dices_answers_belong_to_a_record` keeps whole), its label null where the answer is. They
-- are counted there, without joining 31 million answers (at scale 10) to their records and texts.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in ('objective', 'movie_form')

),

dices_answers as (

    select * from {{ ref('int_dices__answers') }}

),

dices_questions as (

    select * from {{ ref('int_dices__questions') }}

),

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

),

redial_form_units as (

    select * from {{ ref('int_agreement__redial_form_units') }}

),

-- noqa: disable=LT02
{%- for release in dices_releases() %}

dices_{{ release }}_records as (

    select * from {{ ref('int_agreement__dices_' ~ release ~ '_records') }}

),
{%- endfor %}
-- noqa: enable=LT02

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

rated_counts as (

    select
        source,
        rating_kind,
        question,
        count(*) as n_judgements,
        count(*) filter (where {{ agreement_value_is_missing('rating_kind', 'question', 'value_numeric') }})
            as n_missing
    from ratings
    group by source, rating_kind, question

),

dices_answer_counts as (

    select
        question_ref,
        count(*) as n_judgements,
        count(*) filter (where answer_ref is null) as n_missing
    from dices_answers
    group by question_ref

),

dices_rating_counts as (

    select
        'dices' as source,
        'safety' as rating_kind,
        dices_questions.question,
        sum(dices_answer_counts.n_judgements) as n_judgements,
        sum(dices_answer_counts.n_missing) as n_missing
    from dices_answer_counts
    inner join dices_questions on dices_answer_counts.question_ref = dices_questions.question_ref
    group by dices_questions.question

),

rating_counts as (

    select * from rated_counts
    union all
    select * from dices_rating_counts

),

rated_value_counts as (

    select
        questions.source,
        questions.rating_kind,
        questions.question,
        count(*) as n_judgements,
        count(*) filter (where agreement_values.value_code is null) as n_missing
    from agreement_values
    inner join questions on agreement_values.question_id = questions.question_id
    group by questions.source, questions.rating_kind, questions.question

),

-- each unit holds the judgement of each form that lists its movie
redial_value_counts as (

    select
        questions.source,
        questions.rating_kind,
        questions.question,
        sum(
            cast(redial_form_units.is_judged_by_seeker as integer)
            + cast(redial_form_units.is_judged_by_recommender as integer)
        ) as n_judgements,
        sum(
            cast(redial_form_units.is_judged_by_seeker and redial_form_units.seeker_value_code is null as integer)
            + cast(
                redial_form_units.is_judged_by_recommender and redial_form_units.recommender_value_code is null
                as integer
            )
        ) as n_missing
    from redial_form_units
    inner join questions on redial_form_units.question_id = questions.question_id
    group by questions.source, questions.rating_kind, questions.question

),

-- per release and question column: the records (each answers every question column) and the
-- missing answers among them, counted on the records in their wide shape, then unpivoted
-- noqa: disable=LT02
dices_release_value_counts as (
{%- for release in dices_releases() %}

    select
        question,
        n_judgements,
        n_missing
    from (
        select
            count(*) as n_judgements,
            sum(case when columns('^Q') = 0 then 1 else 0 end)
        from dices_{{ release }}_records
    )
    unpivot (n_missing for question in (columns('^Q')))
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

-- a question column of both releases is one question of `ratings`
dices_value_counts as (

    select
        'dices' as source,
        'safety' as rating_kind,
        question,
        sum(n_judgements) as n_judgements,
        sum(n_missing) as n_missing
    from dices_release_value_counts
    group by question

),

value_counts as (

    select * from rated_value_counts
    union all
    select * from redial_value_counts
    union all
    select * from dices_value_counts

),

final as (

    select
        coalesce(rating_counts.source, value_counts.source) as source,
        coalesce(rating_counts.rating_kind, value_counts.rating_kind) as rating_kind,
        coalesce(rating_counts.question, value_counts.question) as question,
        rating_counts.n_judgements as n_in_ratings,
        value_counts.n_judgements as n_in_agreement_values,
        rating_counts.n_missing as n_missing_in_ratings,
        value_counts.n_missing as n_missing_in_agreement_values
    from rating_counts
    full outer join value_counts
        on
            rating_counts.source = value_counts.source
            and rating_counts.rating_kind = value_counts.rating_kind
            and rating_counts.question = value_counts.question
    where
        rating_counts.n_judgements is distinct from value_counts.n_judgements
        or rating_counts.n_missing is distinct from value_counts.n_missing

)

select * from final
