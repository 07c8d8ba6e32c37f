-- Every judgement the agreement and judge models compare, one row per (rater, unit, judgement),
-- keyed by small integers: the `int_<source>__judgements` models that `source_models('judgements')`
-- lists, in one long shape. The spine's shared input: what the seeds say of the question (a value
-- its labels count as missing is no value; a question they do not list is left out here and fails
-- `judgements_fit_their_questions`), the rater's exclusion (`int_agreement__raters`), and the
-- one-value-per-rater rule: `is_first` marks each rater's first judgement of a unit, the earliest
-- with a value (by round in natural order, then row: macros/judgement_order.sql), the later ones
-- being repeats. Every reader filters these flags; none restates the rules. Questions and units
-- are numbered in the order of their keys.
-- Left join on the raters: a judgement whose rater no source declares keeps a null rater_id, which
-- its test reports, rather than dropping out unseen.
with

judgements as (

    {{ union_source_models('judgements') }}

),

judgement_questions as (

    select * from {{ ref('int_agreement__judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

of_known_questions as (

    select
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.unit_key,
        judgements.dialogue_key,
        judgements.movie_id,
        judgements.rater_key,
        judgement_questions.several_raters_per_unit,
        case when not judgement_labels.counts_as_missing then judgements.value_code end as value_code,
        { 'round': judgements.judgement_round, 'row': judgements.judgement_row } as judgement_order,
        judgements.answer_time_ms,
        raters.rater_id,
        -- a rater no source declares (its test reports it) counts in no figure, as an excluded one
        coalesce(raters.is_excluded, true) as is_excluded
    from judgements
    inner join judgement_questions
        on
            judgements.source = judgement_questions.source
            and judgements.rating_kind = judgement_questions.rating_kind
            and judgements.question = judgement_questions.question
    left join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and judgements.value_code = judgement_labels.value_code
    left join raters on judgements.rater_key = raters.rater_key

),

keyed as (

    select
        cast(dense_rank() over (order by source, scope, rating_kind, question) as integer) as question_id,
        cast(dense_rank() over (order by source, scope, rating_kind, question, unit_key) as integer) as unit_id,
        *
    from of_known_questions

),

final as (

    select
        question_id,
        unit_id,
        rater_id,
        source,
        scope,
        rating_kind,
        question,
        unit_key,
        dialogue_key,
        movie_id,
        rater_key,
        value_code,
        judgement_order,
        answer_time_ms,
        several_raters_per_unit,
        is_excluded,
        row_number() over unit_rater = 1 as is_first,
        first_value(value_code) over unit_rater as first_value_code,
        count(value_code) over unit_rater as n_values,
        count(*) over unit_rater - count(value_code) over unit_rater as n_missing
    from keyed
    window unit_rater as (
        partition by unit_id, rater_id
        -- the judgements with a value first, earliest first
        order by value_code is null, {{ judgement_order('judgement_order.round', 'judgement_order.row') }}
        rows between unbounded preceding and unbounded following
    )

)

select * from final
