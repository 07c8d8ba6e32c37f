"""The figures of the `replication_agreement` mart: xRR between two sets of judgements of the same
units, with its 95% percentile bootstrap interval over those units. Run by the dbt Python model
`int_agreement__replication_figures`; xRR is `agreement_core.maths`', as for the rater groups."""

from collections.abc import Iterator

import duckdb
import numpy as np
import pandas as pd

from agreement_core import maths, resampling
from agreement_core.questions import Question

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
    values: pd.DataFrame, name: list[str], question: Question, seed: int, n_bootstrap: int | None
) -> dict:
    """xRR of one comparison, with its bootstrap interval (none when n_bootstrap is None)."""
    counts_a, counts_b = comparison_counts(values, question.codes)
    figures = maths.cross_reliability(counts_a, counts_b, question.metric)
    low = high = np.nan
    if n_bootstrap and counts_a.shape[1] > 0 and not np.isnan(figures.xrr):
        rng = resampling.generator(seed, *name, "replication")
        low, high = resampling.bootstrap_xrr_interval(counts_a, counts_b, question.metric, rng, n_bootstrap)
    return {
        "n_units": int(figures.n_units),
        "observed_disagreement": float(figures.observed_disagreement),
        "expected_disagreement": float(figures.expected_disagreement),
        "xrr": float(figures.xrr),
        "xrr_ci_low": low,
        "xrr_ci_high": high,
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
    comparisons: Iterator[tuple[tuple, pd.DataFrame]],
    questions: dict[int, Question],
    seed: int,
    n_bootstrap: int | None,
) -> pd.DataFrame:
    """One row per comparison (`comparisons_of`): its key (source, scope, question, replication_a,
    replication_b, level_of_measurement) and its values (question_id, unit_key, is_replication_a,
    value_code); δ is that of the comparison's first question (`questions` by id)."""
    rows = []
    for key, of_comparison in comparisons:
        name = dict(zip([*COMPARISON, "level_of_measurement"], key, strict=True))
        question = questions[int(of_comparison["question_id"].min())]
        figures = comparison_row(of_comparison, [name[column] for column in COMPARISON], question, seed, n_bootstrap)
        rows.append({**name, **figures})
    return pd.DataFrame(rows, columns=list(COLUMNS)).astype(COLUMNS)
