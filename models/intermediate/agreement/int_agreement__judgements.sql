-- Every judgement the agreement and judge models compare, one row per (rater, unit, judgement),
-- in small integers: the `int_<source>__judgements` models that `source_models('judgements')`
-- lists, keyed by their question and unit (`int_agreement__units`) and rater
-- (`int_agreement__raters`). The spine's shared input, with the rules every figure follows
-- written once, as flags its readers filter: a value the question's labels count as missing is
-- no value; `is_excluded` for a rater the exclusions seed leaves out; `is_first` for a rater's
-- first judgement of a unit, the earliest with a value (by round in natural order, then row:
-- macros/judgement_order.sql), the later ones being repeats; `is_agreement_value` for the values
-- every agreement figure counts (`agreement_core` reads them). A question the seeds do not list is
-- left out here and fails `judgements_fit_their_questions`. Left join on the raters: a judgement
-- whose rater no source declares keeps a null rater_id, which its test reports, and counts in no
-- figure. Integers only, but for the order and the time: the window and every reader stay light.
with

judgements as (

    {{ union_source_models('judgements') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

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

keyed as (

    select
        units.question_id,
        units.unit_id,
        raters.rater_id,
        case when not judgement_labels.counts_as_missing then judgements.value_code end as value_code,
        { 'round': judgements.judgement_round, 'row': judgements.judgement_row } as judgement_order,
        judgements.answer_time_ms,
        units.several_raters_per_unit,
        coalesce(raters.is_excluded, true) as is_excluded
    from judgements
    inner join units
        on
            judgements.source = units.source
            and judgements.scope = units.scope
            and judgements.rating_kind = units.rating_kind
            and judgements.question = units.question
            and judgements.unit_key = units.unit_key
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

final as (

    select
        question_id,
        unit_id,
        rater_id,
        value_code,
        judgement_order,
        answer_time_ms,
        several_raters_per_unit,
        is_excluded,
        row_number() over unit_rater = 1 as is_first,
        -- the values every agreement figure counts: one per rater and unit, of the questions several
        -- raters judge, the raters not excluded
        row_number() over unit_rater = 1 and value_code is not null and several_raters_per_unit and not is_excluded
            as is_agreement_value,
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
