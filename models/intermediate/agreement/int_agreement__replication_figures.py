"""`replication_agreement`'s figures, one row per comparison of two replications: xRR with its
bootstrap interval over units (`agreement_core.replications`, xRR as for the rater groups). The
interval follows the vars of `int_agreement__group_figures` (seed, draws, and none with
`agreement_monte_carlo: false`), through `int_agreement__settings`."""

from agreement_core.questions import questions_of
from agreement_core.replications import comparisons_of, replication_figures
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    return replication_figures(
        comparisons=comparisons_of(dbt.ref("int_agreement__replication_values")),
        questions=questions_of(
            dbt.ref("int_agreement__questions").df(), dbt.ref("int_agreement__judgement_labels").df()
        ),
        seed=settings.seed,
        n_bootstrap=settings.n_bootstrap if settings.enabled else None,
    )
