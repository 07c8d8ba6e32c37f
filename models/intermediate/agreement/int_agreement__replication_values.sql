-- The values `replication_agreement` compares, one row per value: two sets of judgements of the
-- same units (replication a and b). The sources declare theirs (`int_<source>__replications`,
-- listed in `source_models('replications')`), one value per rater and unit (the first); any
-- source's repeats come from the judgements feed (`int_agreement__repeats`): a rater's later
-- judgements of a unit (`repeat`) against the first (`first`), the unit being the (unit,
-- rater). Missing values and excluded raters are left out, as in every agreement figure.
with

declared as (

    {{ union_source_models('replications') }}

),

repeats as (

    select * from {{ ref('int_agreement__repeats') }}

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

judgement_questions as (

    select * from {{ ref('int_agreement__judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('int_agreement__judgement_labels') }}

),

declared_values as (

    select
        declared.source,
        declared.scope,
        declared.rating_kind,
        declared.question,
        declared.unit_key,
        declared.rater_key,
        declared.replication_a,
        declared.replication_b,
        declared.replication,
        arg_min(declared.value_code, {{ judgement_order('declared.judgement_round', 'declared.judgement_row') }})
            as value_code
    from declared
    inner join judgement_questions
        on
            declared.source = judgement_questions.source
            and declared.rating_kind = judgement_questions.rating_kind
            and declared.question = judgement_questions.question
    inner join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and declared.value_code = judgement_labels.value_code
    where not judgement_labels.counts_as_missing
    group by all

),

repeat_values as (

    select
        questions.source,
        questions.scope,
        questions.rating_kind,
        questions.question,
        repeats.unit_key || ':' || repeats.rater_key as unit_key,
        repeats.rater_key,
        'first' as replication_a,
        'repeat' as replication_b,
        case when repeats.is_first then 'first' else 'repeat' end as replication,
        repeats.value_code
    from repeats
    inner join questions on repeats.question_id = questions.question_id

),

replication_values as (

    select * from declared_values
    union all by name
    select * from repeat_values

),

final as (

    select
        replication_values.source,
        replication_values.scope,
        replication_values.question,
        replication_values.replication_a,
        replication_values.replication_b,
        questions.level_of_measurement,
        -- the question whose δ (its level of measurement) compares the values
        questions.question_id,
        replication_values.unit_key,
        replication_values.replication = replication_values.replication_a as is_replication_a,
        replication_values.value_code
    from replication_values
    inner join questions
        on
            replication_values.source = questions.source
            and replication_values.scope = questions.scope
            and replication_values.rating_kind = questions.rating_kind
            and replication_values.question = questions.question
    left join raters on replication_values.rater_key = raters.rater_key
    where not coalesce(raters.is_excluded, false)

)

select * from final
