-- One row per (rater, scope) with judgements: what the rater's answers look like beyond agreement
-- with others, for `rater_quality`. Over the rater's first judgements (one per unit): the items
-- judged and the share of answers that say the rater could not decide (questions whose labels
-- offer that); over every judgement: the median time taken, where the source records it.
with

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where not is_judge

),

first_judgements as (

    select * from judgements
    where is_first and value_code is not null

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}

),

label_sets_with_unsure as (

    select distinct label_set from judgement_labels
    where is_unsure

),

first_answers as (

    select
        questions.source,
        questions.scope,
        raters.rater_key,
        count(distinct units.dialogue_key) as n_items,
        count(*) filter (where judgement_labels.is_unsure) as n_unsure,
        count(*) filter (where label_sets_with_unsure.label_set is not null) as n_answers_that_could_be_unsure
    from first_judgements
    inner join units on first_judgements.unit_id = units.unit_id
    inner join questions on first_judgements.question_id = questions.question_id
    inner join raters on first_judgements.rater_id = raters.rater_id
    inner join judgement_labels
        on
            questions.label_set = judgement_labels.label_set
            and first_judgements.value_code = judgement_labels.value_code
    left join label_sets_with_unsure on questions.label_set = label_sets_with_unsure.label_set
    group by questions.source, questions.scope, raters.rater_key

),

-- a time is the record's, repeated on each of its judgements: one per (rater, item, judgement order)
answered_records as (

    select distinct
        units.source,
        units.scope,
        raters.rater_key,
        units.dialogue_key,
        judgements.judgement_order,
        judgements.answer_time_ms
    from judgements
    inner join units on judgements.unit_id = units.unit_id
    inner join raters on judgements.rater_id = raters.rater_id
    where judgements.answer_time_ms is not null

),

answer_times as (

    select
        source,
        scope,
        rater_key,
        median(answer_time_ms) as median_answer_time_ms
    from answered_records
    group by source, scope, rater_key

),

final as (

    select
        first_answers.source,
        first_answers.scope,
        first_answers.rater_key,
        first_answers.n_items,
        first_answers.n_unsure / nullif(first_answers.n_answers_that_could_be_unsure, 0) as share_unsure,
        answer_times.median_answer_time_ms
    from first_answers
    left join answer_times
        on
            first_answers.source = answer_times.source
            and first_answers.scope = answer_times.scope
            and first_answers.rater_key = answer_times.rater_key

)

select * from final
