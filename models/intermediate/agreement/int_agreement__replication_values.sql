-- The values `replication_agreement` compares, one row per value: two sets of judgements of the
-- same units (replication a and b). The sources declare theirs (`int_<source>__replications`,
-- listed in `mart_feeders('replications')`), one value per rater and unit (the first); any
-- source's repeats come from the judgements feed: a rater's later judgements of a unit (`repeat`)
-- against the first (`first`), the unit being the (unit, rater). Missing values and excluded
-- raters are left out, as in every agreement figure.
with

declared as (

    {{ union_source_models('replications') }}

),

judgements as (

    select * from {{ ref('int_agreement__judgements') }}
    where value_code is not null

),

first_judgements as (

    select * from {{ ref('int_agreement__first_judgements') }}
    where n_values >= 2

),

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

raters as (

    select * from {{ ref('int_agreement__raters') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}

),

judgement_labels as (

    select * from {{ ref('judgement_labels') }}

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
        arg_min(declared.value_code, { 'round': declared.judgement_round, 'row': declared.judgement_row })
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
        judgements.source,
        judgements.scope,
        judgements.rating_kind,
        judgements.question,
        judgements.unit_key || ':' || judgements.rater_key as unit_key,
        judgements.rater_key,
        'first' as replication_a,
        'repeat' as replication_b,
        case
            when judgements.judgement_order = first_judgements.first_judgement_order then 'first' else 'repeat'
        end as replication,
        judgements.value_code
    from judgements
    inner join first_judgements
        on
            judgements.source = first_judgements.source
            and judgements.scope = first_judgements.scope
            and judgements.rating_kind = first_judgements.rating_kind
            and judgements.question = first_judgements.question
            and judgements.unit_key = first_judgements.unit_key
            and judgements.rater_key = first_judgements.rater_key

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
        -- the question whose δ (`int_agreement__value_distances`) compares the values
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
