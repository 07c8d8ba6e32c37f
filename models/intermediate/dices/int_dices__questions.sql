-- One row per question column of each release loaded (the names found by unpivoting a single
-- record, so without reading the answers; a release's own are its rows of the seed), numbered by
-- `question_ref` (the small integer every answer carries instead of the column name) and joined to
-- the `dices_questions` seed for its group and aggregate flag and to `judgement_questions` for its
-- label set. A column the seeds lack keeps null attributes and fails
-- `dices_question_columns_are_in_the_seeds`.
with

ratings as (

    select * from {{ ref('stg_dices__ratings') }}

),

seeded_questions as (

    select * from {{ ref('dices_questions') }}

),

judgement_questions as (

    select * from {{ ref('judgement_questions') }}
    where source = 'dices'

),

-- the question columns' names, from a single record's columns
question_columns as (

    select question
    from (
        select columns('^Q') from ratings
        limit 1  -- noqa: AM09
    ) as first_record
    unpivot include nulls (answer for question in (columns('^Q')))

),

releases as (

    select distinct dataset_config from ratings

),

-- a release's own columns are its rows of the seed (the other release's are null in its records);
-- a column the seed gives no release is each release's, to be named by the test
columns_found as (

    select
        releases.dataset_config,
        question_columns.question
    from releases
    cross join question_columns
    where
        exists (
            select 1 from seeded_questions
            where
                seeded_questions.dataset_config = releases.dataset_config
                and seeded_questions.question = question_columns.question
        )
        or not exists (
            select 1 from seeded_questions
            where seeded_questions.question = question_columns.question
        )

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
