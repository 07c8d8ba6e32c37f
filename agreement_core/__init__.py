"""The agreement statistics of the warehouse, apart from the `dwh` command: each figure written once
(`maths`), its Monte Carlo (`resampling`), the per-question figures of `agreement`
(`group_figures`), the replications' xRR (`replications`), the judges' figures on the same
functions (`judge_references`, `judges`, `judge_comparison`), the replacement test (`replacement`)
and the vars they follow (`settings`).
The dbt Python models import this package; it imports nothing from `dwh` or `ingest`.

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
