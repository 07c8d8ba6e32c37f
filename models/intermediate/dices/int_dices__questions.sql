-- One row per question column of each release as staging reads it (found by unpivoting a single
-- record, so without reading the answers), numbered by `question_ref` (the small integer every
-- answer carries instead of the column name) and joined to the `dices_questions` seed for its
-- group and aggregate flag and to `judgement_questions` for its label set. A column the seeds
-- lack keeps null attributes and fails `dices_question_columns_are_in_the_seeds`.
with

ratings_350 as (

    -- any one record will do: only its column names are read
    select columns('^Q') from {{ ref('stg_dices__ratings_350') }}
    limit 1  -- noqa: AM09

),

ratings_990 as (

    select columns('^Q') from {{ ref('stg_dices__ratings_990') }}
    limit 1  -- noqa: AM09

),

seeded_questions as (

    select * from {{ ref('dices_questions') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}
    where source = 'dices'

),

columns_found as (

    select
        '350' as dataset_config,
        question
    from ratings_350
    unpivot include nulls (answer for question in (columns('^Q')))
    union all
    select
        '990' as dataset_config,
        question
    from ratings_990
    unpivot include nulls (answer for question in (columns('^Q')))

),

final as (

    select
        cast(
            row_number() over (
                order by columns_found.dataset_config, seeded_questions.column_position, columns_found.question
            ) as utinyint
        ) as question_ref,
        columns_found.dataset_config,
        columns_found.question,
        seeded_questions.column_position,
        seeded_questions.question_category,
        seeded_questions.is_aggregate as is_aggregate_question,
        judgement_questions.label_set
    from columns_found
    left join seeded_questions
        on
            columns_found.dataset_config = seeded_questions.dataset_config
            and columns_found.question = seeded_questions.question
    left join judgement_questions on columns_found.question = judgement_questions.question

)

select * from final
