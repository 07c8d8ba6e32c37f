-- Every judgement the agreement and judge models compare, one row per (rater, unit, judgement), in
-- small integers: the `source_models('judgements')` feed and every judge's judgement of a unit the
-- humans judged (a judge's DUO metric meets its users' and its annotators' question), keyed by
-- question and unit (`int_agreement__units`) and rater (`int_agreement__raters`). The rules every
-- figure follows are written here once, as flags: a label counted as missing is no value;
-- `is_judge`, a rater of kind judge, left out of every human figure; `is_excluded` (the exclusions
-- seed; a rater no source declares keeps a null rater_id, which its test reports); `is_first`, a
-- rater's first judgement of a unit, the earliest with a value (macros/judgement_order.sql);
-- `is_agreement_value`, what `agreement_core` reads. A judge's value is coded by the labels of this
-- build; one that is no label has no row (the warning `judge_judgements_reach_a_unit` names it).
with

judgements as (

    {{ union_source_models('judgements') }}

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

judge_judgements as (

    select * from {{ ref('stg_judge__judgements') }}

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
        coalesce(raters.is_excluded, true) as is_excluded,
        false as is_judge
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
    left join raters on judgements.rater_key = raters.rater_key and not raters.is_judge

),

-- a judge's value coded by its question's labels, or read as a number (interval, ratio: 3.5)
judged as (

    select
        units.question_id,
        units.unit_id,
        raters.rater_id,
        if(
            judgement_questions.level_of_measurement in ('interval', 'ratio'),
            try_cast(trim(judge_judgements.value_text) as double),
            judgement_labels.value_code
        ) as value_code,
        { 'round': cast(null as varchar), 'row': judge_judgements.line_number } as judgement_order,
        cast(null as double) as answer_time_ms,
        units.several_raters_per_unit,
        false as is_excluded,
        true as is_judge
    from judge_judgements
    inner join units
        on
            judge_judgements.source = units.source
            and judge_judgements.question = units.question
            and judge_judgements.dialogue_key = units.dialogue_key
            and judge_judgements.movie_id is not distinct from units.movie_id
    inner join judgement_questions
        on
            units.source = judgement_questions.source
            and units.rating_kind = judgement_questions.rating_kind
            and units.question = judgement_questions.question
    inner join raters on judge_judgements.judge = raters.judge
    left join judgement_labels
        on
            judgement_questions.level_of_measurement not in ('interval', 'ratio')
            and not judgement_labels.counts_as_missing
            and judgement_questions.label_set = judgement_labels.label_set
            and raw.value_key(judge_judgements.value_text) = raw.value_key(judgement_labels.value_text)

),

every_judgement as (

    select * from keyed
    union all
    select * from judged
    where value_code is not null

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
        is_judge,
        row_number() over unit_rater = 1 as is_first,
        -- the values every agreement figure counts: one per human rater and unit, of the questions
        -- several raters judge, the raters not excluded
        row_number() over unit_rater = 1
        and value_code is not null
        and several_raters_per_unit
        and not is_excluded
        and not is_judge as is_agreement_value,
        first_value(value_code) over unit_rater as first_value_code,
        count(value_code) over unit_rater as n_values,
        count(*) over unit_rater - count(value_code) over unit_rater as n_missing
    from every_judgement
    window unit_rater as (
        partition by unit_id, rater_id
        -- the judgements with a value first, earliest first
        order by value_code is null, {{ judgement_order('judgement_order.round', 'judgement_order.row') }}
        rows between unbounded preceding and unbounded following
    )

)

select * from final
