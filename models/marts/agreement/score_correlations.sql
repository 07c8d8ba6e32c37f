-- How each score of a dialogue goes with every other, per scope, for the questions scored on an
-- interval scale (DUO's metrics, by its users and by its annotators): Pearson's r and Spearman's
-- ρ (`int_agreement__score_correlations`) with their two-sided p-values
-- (`int_agreement__correlation_p_values`).
with

correlations as (

    select * from {{ ref('int_agreement__score_correlations') }}

),

p_values as (

    select * from {{ ref('int_agreement__correlation_p_values') }}

),

mart_rows as (

    select
        correlations.source,
        correlations.scope,
        correlations.question_a,
        correlations.rating_kind_a,
        correlations.question_b,
        correlations.rating_kind_b,
        correlations.n_dialogues,
        correlations.pearson_r,
        p_values.pearson_p,
        correlations.spearman_rho,
        p_values.spearman_p
    from correlations
    left join p_values
        on
            correlations.source = p_values.source
            and correlations.scope = p_values.scope
            and correlations.question_a = p_values.question_a
            and correlations.rating_kind_a = p_values.rating_kind_a
            and correlations.question_b = p_values.question_b
            and correlations.rating_kind_b = p_values.rating_kind_b

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
