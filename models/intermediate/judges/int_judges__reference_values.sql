-- The human values a judge is compared with, one row per (reference, unit, rater): by kind of
-- rater (`seeds/judge_references.csv`) or by the raters a source names (`source_models(
-- 'judge_reference_raters')`: a dataset's `raters` and `expert`), each rater's first judgement as
-- in `agreement`; and the references the sources declare (`source_models('judge_references')`:
-- their own values). A named reference not split into rater groups has no rater_id. Missing
-- values and excluded raters are left out, as in every agreement figure. `ceiling_rater` is who
-- counts as one rater in the human ceiling: the rater, DUO's annotator slot (its annotators are
-- anonymous per dialogue), or the reference itself where it has no raters. Only the questions a
-- judge judged: with no judge loaded, nothing (and nothing to compute).
with

first_judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where is_first and value_code is not null and not is_excluded and not is_judge

),

units as (

    select * from {{ ref('int_agreement__units') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

judge_judgements as (

    select * from {{ ref('int_judges__judgements') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

judge_references as (

    select * from {{ ref('judge_references') }}

),

declared as (

    {{ union_source_models('judge_references') }}

),

reference_raters as (

    {{ union_source_models('judge_reference_raters') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}
    where not counts_as_missing

),

judged_questions as (

    select * from questions
    where question_id in (select judge_judgements.question_id from judge_judgements)

),

by_kind_of_rater as (

    select
        first_judgements.question_id,
        first_judgements.unit_id,
        first_judgements.rater_id,
        coalesce('annotator ' || raters.annotator_slot, raters.rater_key) as ceiling_rater,
        judge_references.reference,
        first_judgements.value_code
    from first_judgements
    inner join judged_questions on first_judgements.question_id = judged_questions.question_id
    inner join raters on first_judgements.rater_id = raters.rater_id
    inner join judge_references
        on
            judged_questions.source = judge_references.source
            and judged_questions.rating_kind = judge_references.rating_kind
            and raters.rater_role = judge_references.rater_role

),

by_named_rater as (

    select
        first_judgements.question_id,
        first_judgements.unit_id,
        if(reference_raters.is_split_by_groups, first_judgements.rater_id, null) as rater_id,
        raters.rater_key as ceiling_rater,
        reference_raters.reference,
        first_judgements.value_code
    from first_judgements
    inner join judged_questions on first_judgements.question_id = judged_questions.question_id
    inner join raters on first_judgements.rater_id = raters.rater_id
    inner join reference_raters on raters.rater_key = reference_raters.rater_key

),

declared_values as (

    select
        judged_questions.question_id,
        units.unit_id,
        raters.rater_id,
        coalesce(declared.rater_key, declared.reference) as ceiling_rater,
        declared.reference,
        declared.value_code
    from declared
    inner join judged_questions
        on
            declared.source = judged_questions.source
            and declared.scope = judged_questions.scope
            and declared.rating_kind = judged_questions.rating_kind
            and declared.question = judged_questions.question
    inner join units
        on
            judged_questions.question_id = units.question_id
            and declared.unit_key = units.unit_key
    inner join judgement_labels
        on
            judged_questions.label_set = judgement_labels.label_set
            and declared.value_code = judgement_labels.value_code
    left join raters on declared.rater_key = raters.rater_key
    where not coalesce(raters.is_excluded, false)

),

final as (

    select * from by_kind_of_rater
    union all
    select * from by_named_rater
    union all
    select * from declared_values

)

select * from final
