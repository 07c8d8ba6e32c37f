"""The agreement statistics of the warehouse, apart from the `dwh` command: each figure written once
(`maths`: δ, α, xRR and its sums, GAI, correlations, one module each), its Monte Carlo
(`resampling`), a question as every figure reads it (`questions`), the per-question figures of
`agreement` (`group_figures`), the replications' xRR (`replications`), the judges' figures on the
same functions (`judge_figures`: references, agreement, comparison, the replacement test), the
memo that computes each slot once (`memo`), the threads the models run on (`parallel`) and the
vars they follow (`settings`).
The dbt Python models import this package; it imports nothing from `common`, `dwh` or `ingest`.

`agreement_core.alpha(reliability_data, level_of_measurement)` is the marts' α for a reader's own
raters × units matrix (`reliability_data`), as the `krippendorff` package takes it."""

__all__ = ["alpha"]


def __getattr__(name: str) -> object:
    # imported when first asked for: `dwh` imports agreement_core.settings at start-up, and maths'
    # numpy and scipy would cost every command about half a second
    if name == "alpha":
        from agreement_core.reliability_data import alpha

        return alpha
    raise AttributeError(f"module 'agreement_core' has no attribute {name!r}")
