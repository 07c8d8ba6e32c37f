-- The agreement marts read the judgements before their keys are built: DUO and ReDial from
-- `int_agreement__values`, DICES from the releases' records (`int_agreement__dices_*_records`,
-- one column per question). Per source, kind and question they must hold exactly the judgements
-- `ratings` holds, and the same number of missing ones. Fails naming the question whose counts
-- differ.
with

ratings as (

    select * from {{ ref('ratings') }}
    where rating_kind in ('objective', 'movie_form', 'safety')

),

agreement_values as (

    select * from {{ ref('int_agreement__values') }}

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

rating_counts as (

    select
        source,
        rating_kind,
        question,
        count(*) as n_judgements,
        count(*) filter (
            where
            (source = 'dices' and value_label is null)
            or (source <> 'dices' and {{ agreement_value_is_missing('rating_kind', 'question', 'value_numeric') }})
        ) as n_missing
    from ratings
    group by source, rating_kind, question

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
    where questions.source <> 'dices'
    group by questions.source, questions.rating_kind, questions.question

),

-- noqa: disable=LT02
dices_judgements as (
{%- for release in dices_releases() %}

    select
        question,
        value_code
    from dices_{{ release }}_records
    unpivot (value_code for question in (columns('^Q')))
    {{- '\n    union all' if not loop.last }}
{%- endfor %}

),
-- noqa: enable=LT02

dices_value_counts as (

    select
        'dices' as source,
        'safety' as rating_kind,
        question,
        count(*) as n_judgements,
        count(*) filter (where value_code = 0) as n_missing
    from dices_judgements
    group by question

),

value_counts as (

    select * from rated_value_counts
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
