-- DICES-350 `Q_overall`: GRASP's published group figures next to the warehouse's own, with why
-- they cannot be equal. Shown, not tested: the difference is expected.
with

published as (

    select * from {{ ref('grasp_published_figures') }}

),

agreement as (

    select * from {{ ref('agreement') }}
    where source = 'dices' and scope = '350' and question = 'Q_overall'

),

mart_rows as (

    select
        published.group_dimension,
        published.group_value,
        published.grasp_group,
        agreement.n_raters,
        published.grasp_n_raters,
        agreement.alpha,
        agreement.alpha_ci_low,
        agreement.alpha_ci_high,
        published.irr as grasp_irr,
        agreement.alpha - published.irr as alpha_difference,
        agreement.xrr,
        published.xrr as grasp_xrr,
        agreement.xrr - published.xrr as xrr_difference,
        agreement.gai,
        published.gai as grasp_gai,
        agreement.gai - published.gai as gai_difference,
        agreement.gai_p,
        agreement.gai_q,
        agreement.mean_negentropy,
        published.negentropy as grasp_negentropy,
        agreement.mean_plurality_share,
        published.plurality_size as grasp_plurality_size,
        nullif(published.irr_significance, '') as grasp_irr_significance,
        nullif(published.xrr_significance, '') as grasp_xrr_significance,
        nullif(published.gai_significance, '') as grasp_gai_significance,
        'GRASP kept 104 of the 123 raters after a quality filter the release does not identify, '
        || 'so its groups hold other raters than the warehouse''s (all '
        || cast(coalesce(agreement.n_raters, 0) as varchar)
        || ' here); its label per conversation (any Unsafe, else any Unsure, else Safe) is the meaning '
        || 'of Q_overall, which the warehouse uses as released.' as why_not_equal
    from published
    inner join agreement
        on
            published.group_dimension = agreement.group_dimension
            and published.group_value = agreement.group_value

),

final as (

    select
        {{ contract_columns() }}
    from mart_rows

)

select * from final
