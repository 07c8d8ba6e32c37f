-- How each score of a dialogue goes with every other, per scope, for the questions scored on an
-- interval scale (DUO's metrics, by its users and by its annotators): Pearson's r and Spearman's
-- ρ with their two-sided p-values (`int_agreement__score_correlations`).
with

correlations as (

    select * from {{ ref('int_agreement__score_correlations') }}

),

final as (

    select
        {{ contract_columns() }}
    from correlations

)

select * from final
