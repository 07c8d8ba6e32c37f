"""The agreement statistics of the warehouse, apart from the `dwh` command: each figure written once
(`maths`), its Monte Carlo (`resampling`), the per-question figures of `agreement`
(`group_figures`), the replications' xRR (`replications`), the judges' figures on the same
functions (`judge_references`, `judges`, `judge_comparison`), the replacement test (`replacement`)
and the vars they follow (`settings`).
The dbt Python models import this package; it imports nothing from `dwh` or `ingest`."""
