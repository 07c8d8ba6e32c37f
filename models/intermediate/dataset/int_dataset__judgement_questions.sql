-- The datasets' questions in the shape of `seeds/judgement_questions.csv`, which holds the
-- built-in sources' (`int_agreement__judgement_questions` reads both): every dataset question is
-- a `judgement`, asked of units several raters judge.
with

questions as (

    select * from {{ ref('stg_dataset__questions') }}

),

final as (

    select
        source,
        'judgement' as rating_kind,
        question,
        label_set,
        level_of_measurement,
        true as several_raters_per_unit,
        wording
    from questions

)

select * from final
