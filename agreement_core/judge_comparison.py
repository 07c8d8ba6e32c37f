"""Is judge A better than judge B? The rows of `judge_comparison`: for every two judges of a
question and every reference, each judge's xRR over the units both judged, their difference with
a paired bootstrap interval (the same resampled units for both) and a paired permutation test
(each unit's two values swapped with probability ½). xRR, the draws and the p-value are the
functions the human figures use."""

from itertools import combinations

import numpy as np
import pandas as pd

from agreement_core import maths, memo, resampling
from agreement_core.group_figures import SLOT
from agreement_core.judge_references import JudgedQuestion, JudgeQuestion, inputs_of
from agreement_core.judges import MIN_JUDGE_UNITS, estimable, varies_on_judged_units
from agreement_core.settings import MonteCarloSettings

# two judges' rows of a question are stored, reused and replaced together (`agreement_core.memo`)
PAIR_SLOT = ["judge_a", "judge_b", *SLOT]
COLUMNS = {
    # "string", not object: an empty frame's columns would reach DuckDB as INTEGER
    **dict.fromkeys(PAIR_SLOT, "string"),
    "reference_dimension": "string",
    "reference_value": "string",
    "n_units": "int64",
    "xrr_a": "float64",
    "xrr_b": "float64",
    "xrr_difference": "float64",
    "xrr_difference_ci_low": "float64",
    "xrr_difference_ci_high": "float64",
    "difference_p": "float64",
    memo.FINGERPRINT: "string",
    memo.COMPUTED_AT: "datetime64[us]",
}


def paired_xrr(
    counts_a: np.ndarray, counts_b: np.ndarray, references: np.ndarray, metric: maths.Metric, weights: np.ndarray
) -> tuple[maths.CrossReliability, maths.CrossReliability]:
    """xRR of A and of B with every reference over the weighted units; `counts_a`, `counts_b`
    `(labels, ..., 1, units)`, `references` `(labels, references, units)`."""
    return (
        maths.cross_reliability(counts_a, references, metric, weights),
        maths.cross_reliability(counts_b, references, metric, weights),
    )


def difference_interval(
    counts_a: np.ndarray, counts_b: np.ndarray, references: np.ndarray, metric: maths.Metric, rng, n_draws: int
) -> tuple[np.ndarray, np.ndarray]:
    """95% percentile interval of xrr_a − xrr_b per reference, both on the same resampled units."""
    patterns = resampling.UnitPatterns.of(
        np.concatenate([counts_a[:, None], counts_b[:, None], references], axis=1), metric
    )

    def differences(weights: np.ndarray) -> np.ndarray:
        a, b, refs = patterns.counts[:, None, :1], patterns.counts[:, None, 1:2], patterns.counts[:, None, 2:]
        with_a, with_b = paired_xrr(a, b, refs, patterns.metric, weights[:, None, :])
        return with_a.xrr - with_b.xrr

    return resampling.percentile_interval(resampling.bootstrap_draws(differences, patterns, rng, n_draws))


def difference_test(
    counts_a: np.ndarray,
    counts_b: np.ndarray,
    references: np.ndarray,
    metric: maths.Metric,
    observed: np.ndarray,
    rng: np.random.Generator,
    n_permutations: int,
    *,
    stop_at: int | None = None,
) -> resampling.SequentialTest:
    """Two-sided p of xrr_a − xrr_b per reference: each unit's two values swapped with probability ½.
    Units with the same values (both judges', the references') are interchangeable: a permutation is
    how many of each such pattern's units it swaps, Binomial(units, ½), and each pattern counts
    swapped and unswapped with those weights (the same test, drawn per pattern, not per unit).
    Sequential (`resampling.sequential_test`, `stop_at` as there): the swaps are drawn batch after
    batch in the order the test of all P draws them, and a reference decided is computed no more."""
    patterns = resampling.UnitPatterns.of(
        np.concatenate([counts_a[:, None], counts_b[:, None], references], axis=1), metric
    )
    a, b, refs = patterns.counts[:, 0], patterns.counts[:, 1], patterns.counts[:, 2:]
    as_given_then_swapped_a = np.concatenate([a, b], axis=-1)[:, None, None]  # (L, 1, 1, 2 patterns)
    as_given_then_swapped_b = np.concatenate([b, a], axis=-1)[:, None, None]
    both_refs = np.concatenate([refs, refs], axis=-1)[:, None]  # (L, 1, R, 2 patterns)

    def null_of(shuffles: slice, chosen: np.ndarray) -> np.ndarray:
        swapped = rng.binomial(patterns.n_units, 0.5, size=(shuffles.stop - shuffles.start, patterns.n_units.size))
        weights = np.concatenate([patterns.n_units - swapped, swapped], axis=-1)[:, None, :]  # (P, 1, 2 patterns)
        with_a, with_b = paired_xrr(
            as_given_then_swapped_a, as_given_then_swapped_b, both_refs[:, :, chosen], patterns.metric, weights
        )
        return with_a.xrr - with_b.xrr  # (P, chosen)

    def elements_per_shuffle(n_references: int) -> int:
        return 2 * both_refs[:, :, :1].size * n_references

    return resampling.sequential_test(observed, null_of, n_permutations, elements_per_shuffle, stop_at)


def pair_rows(task: JudgeQuestion, a: int, b: int, settings: MonteCarloSettings) -> pd.DataFrame:
    """The rows of judges number a and b, one per reference with units both judged."""
    both = (task.judge_counts[:, a].sum(axis=0) > 0) & (task.judge_counts[:, b].sum(axis=0) > 0)
    references = task.stacked()[:, :, both]
    counts_a, counts_b = task.judge_counts[:, a, both], task.judge_counts[:, b, both]
    with_a, with_b = paired_xrr(counts_a[:, None], counts_b[:, None], references, task.metric, np.ones(both.sum()))
    varies = varies_on_judged_units(counts_a[:, None], references)[0]  # a's units are b's: both judged them
    xrr_a, xrr_b = estimable(with_a, varies), estimable(with_b, varies)
    difference = xrr_a - xrr_b
    rows = pd.DataFrame(
        {
            "judge_a": task.judges[a],
            "judge_b": task.judges[b],
            "reference_dimension": [r.dimension for r in task.references],
            "reference_value": [r.value for r in task.references],
            "n_units": with_a.n_units.astype(int),
            "xrr_a": xrr_a,
            "xrr_b": xrr_b,
            "xrr_difference": difference,
        }
    )
    question = task.question
    if settings.wants(question.source, question.scope, question.question) and both.any():
        name = (*question.name, task.judges[a], task.judges[b])
        low, high = difference_interval(
            counts_a,
            counts_b,
            references,
            task.metric,
            resampling.generator(settings.seed, *name, "paired bootstrap"),
            settings.n_bootstrap,
        )
        test = difference_test(
            counts_a,
            counts_b,
            references,
            task.metric,
            difference,
            resampling.generator(settings.seed, *name, "paired permutation"),
            settings.n_permutations,
        )
        no_difference = np.isnan(difference) | (with_a.n_units < MIN_JUDGE_UNITS)
        rows = rows.assign(
            xrr_difference_ci_low=np.where(no_difference, np.nan, low),
            xrr_difference_ci_high=np.where(no_difference, np.nan, high),
            difference_p=test.p_values,
        )
    return rows[rows["n_units"] > 0].assign(**dict(zip(SLOT, question.name)))


def judged_question_rows(
    judged: JudgedQuestion, settings: MonteCarloSettings, stored: memo.Memo | None = None
) -> list[pd.DataFrame]:
    """Every two judges' rows of the question, each pair's from its own task (the rows `stored`
    holds where they were computed from the same inputs): a pair's figures depend on no other judge."""
    rows = []
    for pair in combinations(judged.judges, 2):
        task = judged.task(pair)
        slot = (*pair, *task.question.name)
        rows.append(
            memo.rows_of(
                stored,
                slot,
                lambda task=task: inputs_of(task, settings),
                lambda task=task: pair_rows(task, 0, 1, settings),
            )
        )
    return rows


def question_rows(task: JudgeQuestion, settings: MonteCarloSettings) -> list[pd.DataFrame]:
    """Every ordered pair of the question's judges (judge_a < judge_b, as `task.judges` is sorted)."""
    return [pair_rows(task, a, b, settings) for a, b in combinations(range(len(task.judges)), 2)]


def as_result(rows: list[pd.DataFrame]) -> pd.DataFrame:
    if not rows:
        return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})
    return pd.concat(rows, ignore_index=True).reindex(columns=list(COLUMNS)).astype(COLUMNS)
