-- One row per (CSV record, question column): each record unpivoted over its own release's
-- question columns (nulls included, so a missing answer stays visible), stored as three integers: the record
-- (`row_ref`, see int_dices__rows), the question (`question_ref`, int_dices__questions) and the
-- answer text (`answer_ref`, int_dices__answer_texts; null where the CSV field is null).
-- ~31 million rows at scale 10: writing them as integers instead of repeated text is most of
-- what makes the build fast; `int_dices__ratings` joins the text back for the `ratings` mart.
with

ratings as (

    select
        dataset_config,
        row_ref,
        columns('^Q')
    from {{ ref('stg_dices__ratings') }}

),

questions as (

    select * from {{ ref('int_dices__questions') }}

),

answer_texts as (

    select * from {{ ref('int_dices__answer_texts') }}

),

unpivoted as (

    {{ dices_unpivot_answers('ratings') }}

),

final as (

    select
        unpivoted.row_ref,
        questions.question_ref,
        answer_texts.answer_ref
    from unpivoted
    inner join questions
        on
            unpivoted.dataset_config = questions.dataset_config
            and unpivoted.question = questions.question
    left join answer_texts on unpivoted.answer = answer_texts.answer

)

select * from final
