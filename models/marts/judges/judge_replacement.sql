-- Can the judge stand in for a perspective's raters? The alternative annotator test's verdict:
-- one row per (judge, source, scope, question, reference) with several raters per unit.
-- Definitions: docs/INTERFACE.md, "Replacement"; how to read them: docs/AGREEMENT.md, "Can the
-- judge replace the raters?".
with

questions as (

    select * from {{ ref('int_agreement__questions') }}

),

replacement_figures as (

    select * from {{ ref('int_judges__replacement') }}
    where rater_key = ''

),

mart_rows as (

    select
        replacement_figures.judge,
        questions.source,
        questions.scope,
        questions.question,
        replacement_figures.reference_dimension,
        replacement_figures.reference_value,
        questions.level_of_measurement,
        replacement_figures.epsilon,
        replacement_figures.n_units,
        replacement_figures.n_raters,
        replacement_figures.n_raters_tested,
        replacement_figures.winning_rate,
        replacement_figures.advantage_probability,
        replacement_figures.replaces
    from replacement_figures
    inner join questions
        on
            replacement_figures.source = questions.source
            and replacement_figures.scope = questions.scope
            and replacement_figures.rating_kind = questions.rating_kind
            and replacement_figures.question = questions.question

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
