-- The alternative annotator test rater by rater: one row per tested rater of each (judge, source,
-- scope, question, reference) of `judge_replacement`: who matched the other raters better on the
-- rater's units, the judge or the rater, and whether the judge wins against the rater.
-- Definitions: docs/INTERFACE.md, "Replacement".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

rater_figures as (

    select * from {{ ref('int_judges__replacement') }}
    where rater_key != ''

),

mart_rows as (

    select
        rater_figures.judge,
        questions.source,
        questions.scope,
        questions.question,
        rater_figures.reference_dimension,
        rater_figures.reference_value,
        rater_figures.rater_key,
        questions.level_of_measurement,
        rater_figures.epsilon,
        rater_figures.n_units,
        rater_figures.judge_advantage,
        rater_figures.rater_advantage,
        rater_figures.p_value,
        rater_figures.judge_wins
    from rater_figures
    inner join questions
        on
            rater_figures.source = questions.source
            and rater_figures.scope = questions.scope
            and rater_figures.rating_kind = questions.rating_kind
            and rater_figures.question = questions.question

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
