"""The figures of the `replication_agreement` mart: xRR between two sets of judgements of the same
units, with its 95% percentile bootstrap interval over those units. Run by the dbt Python model
`int_agreement__replication_figures`; the formulas are `dwh.agreement_maths`'."""

from collections.abc import Iterator

import duckdb
import numpy as np
import pandas as pd

from dwh import agreement_maths as maths

COMPARISON = ["source", "scope", "question", "replication_a", "replication_b"]
COLUMNS = {
    # "string", not object: an empty frame's columns would reach DuckDB as INTEGER
    **dict.fromkeys(COMPARISON, "string"),
    "level_of_measurement": "string",
    "n_units": "int64",
    "observed_disagreement": "float64",
    "expected_disagreement": "float64",
    "xrr": "float64",
    "xrr_ci_low": "float64",
    "xrr_ci_high": "float64",
}


def comparison_counts(values: pd.DataFrame, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """`(labels, units)` counts of replication a's values and of b's, over the units both gave values to."""
    unit_ids, unit_index = np.unique(values["unit_key"].to_numpy(), return_inverse=True)
    label_index = np.searchsorted(codes, values["value_code"].to_numpy())
    in_a = values["is_replication_a"].to_numpy(dtype=bool)
    counts_a = maths.one_hot_counts(unit_index[in_a], label_index[in_a], len(unit_ids), len(codes))
    counts_b = maths.one_hot_counts(unit_index[~in_a], label_index[~in_a], len(unit_ids), len(codes))
    shared = (counts_a.sum(axis=0) > 0) & (counts_b.sum(axis=0) > 0)
    return counts_a[:, shared], counts_b[:, shared]


def comparison_row(
    values: pd.DataFrame, name: list[str], distances: pd.DataFrame, seed: int, n_bootstrap: int | None
) -> dict:
    """xRR of one comparison, with its bootstrap interval (none when n_bootstrap is None)."""
    codes = np.sort(distances["value_a"].unique())
    delta = np.zeros((len(codes), len(codes)))
    delta[np.searchsorted(codes, distances["value_a"]), np.searchsorted(codes, distances["value_b"])] = distances[
        "distance"
    ]
    counts_a, counts_b = comparison_counts(values, codes)
    figures = maths.cross_reliability(counts_a, counts_b, delta)
    low = high = np.nan
    if n_bootstrap and counts_a.shape[1] > 0 and not np.isnan(figures.xrr):
        patterns = maths.UnitPatterns.of(np.stack([counts_a, counts_b], axis=1))

        def xrr_of_draws(weights: np.ndarray) -> np.ndarray:
            return maths.cross_reliability(patterns.counts[:, None, 0], patterns.counts[:, None, 1], delta, weights).xrr

        draws = maths.bootstrap_draws(xrr_of_draws, patterns, maths.generator(seed, *name, "replication"), n_bootstrap)
        low, high = maths.percentile_interval(draws[:, None])
    return {
        "n_units": int(figures.n_units),
        "observed_disagreement": float(figures.observed_disagreement),
        "expected_disagreement": float(figures.expected_disagreement),
        "xrr": float(figures.xrr),
        "xrr_ci_low": float(np.asarray(low).ravel()[0]),
        "xrr_ci_high": float(np.asarray(high).ravel()[0]),
    }


def comparisons_of(values: duckdb.DuckDBPyRelation) -> Iterator[tuple[tuple, pd.DataFrame]]:
    """Each comparison's key (COMPARISON and level_of_measurement) and its values, one comparison at a
    time: DICES 990's first vs repeat holds millions of values, and their text keys (unit_key)
    reach Python as small integers (their rank), so memory holds one comparison's numbers at most."""
    key_columns = [*COMPARISON, "level_of_measurement"]
    for key in values.select(*key_columns).distinct().order(", ".join(key_columns)).fetchall():
        condition = duckdb.ConstantExpression(True)
        for column, value in zip(key_columns, key, strict=True):
            condition = condition & (duckdb.ColumnExpression(column) == duckdb.ConstantExpression(value))
        of_comparison = values.filter(condition).project(
            "question_id, dense_rank() over (order by unit_key) as unit_key, is_replication_a, value_code"
        )
        yield key, of_comparison.df()


def replication_figures(
    comparisons: Iterator[tuple[tuple, pd.DataFrame]], distances: pd.DataFrame, seed: int, n_bootstrap: int | None
) -> pd.DataFrame:
    """One row per comparison (`comparisons_of`): its key (source, scope, question, replication_a,
    replication_b, level_of_measurement) and its values (question_id, unit_key, is_replication_a,
    value_code); `distances` (question_id, value_a, value_b, distance) gives δ of the comparison's
    first question."""
    rows = []
    for key, of_comparison in comparisons:
        name = dict(zip([*COMPARISON, "level_of_measurement"], key, strict=True))
        question_id = of_comparison["question_id"].min()
        of_question = distances[distances["question_id"] == question_id]
        rows.append(
            {
                **name,
                **comparison_row(
                    of_comparison, [name[column] for column in COMPARISON], of_question, seed, n_bootstrap
                ),
            }
        )
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype(COLUMNS)
