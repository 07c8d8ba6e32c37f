"""`replication_agreement`'s figures, one row per comparison of two replications: xRR with its
bootstrap interval over units (`dwh.agreement_replications`). The interval follows the vars of
`int_agreement__monte_carlo` (seed, draws, and none with `agreement_monte_carlo: false`)."""

from dwh.agreement_replications import comparisons_of, replication_figures


def model(dbt, session):
    monte_carlo = str(dbt.config.get("agreement_monte_carlo")).lower() == "true"
    n_bootstrap = int(dbt.config.get("agreement_bootstrap"))
    return replication_figures(
        comparisons=comparisons_of(dbt.ref("int_agreement__replication_values")),
        distances=dbt.ref("int_agreement__value_distances").df(),
        seed=int(dbt.config.get("agreement_seed")),
        n_bootstrap=n_bootstrap if monte_carlo else None,
    )
