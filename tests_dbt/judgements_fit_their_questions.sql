-- Every judgement a source declares belongs to a question of `seeds/judgement_questions.csv`, and
-- its value is a code of that question's label set (or null). Fails naming the source, question
-- and code, with how many judgements carry it: such a judgement would be left out of the figures.
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

unfit as (

    select
        judgements.source,
        judgements.rating_kind,
        judgements.question,
        judgements.value_code,
        case
            when judgement_questions.question is null then 'question not in seeds/judgement_questions.csv'
            else 'value code not in label set ' || judgement_questions.label_set
        end as problem
    from judgements
    left join judgement_questions
        on
            judgements.source = judgement_questions.source
            and judgements.rating_kind = judgement_questions.rating_kind
            and judgements.question = judgement_questions.question
    left join judgement_labels
        on
            judgement_questions.label_set = judgement_labels.label_set
            and judgements.value_code = judgement_labels.value_code
    where
        judgement_questions.question is null
        or (judgements.value_code is not null and judgement_labels.value_code is null)

),

final as (

    select
        source,
        rating_kind,
        question,
        value_code,
        problem,
        count(*) as n_judgements
    from unfit
    group by source, rating_kind, question, value_code, problem

)

select * from final
