"""`replication_agreement`'s figures, one row per comparison of two replications: xRR with its
bootstrap interval over units (`agreement_core.replications`, xRR as for the rater groups). The
interval follows the vars of `int_agreement__group_figures` (seed, draws, and none with
`agreement_monte_carlo: false`); dbt hands a Python model the config keys its code names."""

from agreement_core import settings
from agreement_core.group_figures import questions_of
from agreement_core.replications import comparisons_of, replication_figures


def model(dbt, session):
    n_bootstrap = settings.n_draws("agreement_bootstrap", dbt.config.get("agreement_bootstrap"))
    monte_carlo = settings.enabled(dbt.config.get("agreement_monte_carlo"))
    return replication_figures(
        comparisons=comparisons_of(dbt.ref("int_agreement__replication_values")),
        questions=questions_of(dbt.ref("int_agreement__questions").df(), dbt.ref("judgement_labels").df()),
        seed=settings.seed(dbt.config.get("agreement_seed")),
        n_bootstrap=n_bootstrap if monte_carlo else None,
    )
