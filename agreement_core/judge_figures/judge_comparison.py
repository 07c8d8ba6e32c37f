"""Is judge A better than judge B? The rows of `judge_comparison`: for every two judges of a
question and every reference, each judge's xRR over the units both judged, their difference with
a paired bootstrap interval (the same resampled units for both, `PairedBootstrap`) and a paired
permutation test (each unit's two values swapped with probability ½). xRR, the draws and the
p-value are the functions the human figures use."""

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from agreement_core import maths, memo, resampling
from agreement_core.judge_figures.judge_references import JudgedQuestion, JudgeQuestion, inputs_of
from agreement_core.judge_figures.judges import MIN_JUDGE_UNITS, estimable, varies_on_judged_units
from agreement_core.questions import SLOT
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
    "min_attainable_p": "float64",
    memo.FINGERPRINT: "string",
    memo.COMPUTED_AT: "datetime64[us]",
    memo.ROWS_DIGEST: "string",
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


def resampled_units(task: JudgeQuestion) -> np.ndarray:
    """Which units a pair's bootstrap resamples: those both judges judged and some reference gave a
    value to (the others count in no xRR)."""
    judged = task.judge_counts.sum(axis=0) > 0  # (judges, units)
    return judged.all(axis=0) & (task.stacked().sum(axis=(0, 1)) > 0)


def human_unit_ranks(task: JudgeQuestion, units: np.ndarray) -> np.ndarray:
    """The ranks of the given units among the question's units with a reference value: the same for
    every task of the question, whichever judges' units its axis holds, and for any warehouse ids."""
    has_reference = task.stacked().sum(axis=(0, 1)) > 0
    return (np.cumsum(has_reference) - 1)[units]


@dataclass
class _JudgesOnUnits:
    """The judges of a question's pairs that judged one set of units, each judge's values and the
    references on those units, condensed as the resamples read them (`maths.Metric.condensed`)."""

    name: tuple[str, ...]  # the question's
    ranks: np.ndarray  # the units' `human_unit_ranks`
    references: np.ndarray  # (labels, references, units)
    metric: maths.Metric
    judges: dict[str, np.ndarray] = field(default_factory=dict)  # judge -> (labels, units)

    def xrr_draws(self, settings: MonteCarloSettings) -> dict[str, np.ndarray]:
        """Each judge's xRR with every reference on each of B resamples of the units: `(draws,
        references)`, computed on the units' patterns of the judge's and the references' values."""
        rng = resampling.generator(
            settings.seed, *self.name, hashlib.sha256(self.ranks.tobytes()).hexdigest(), "paired bootstrap"
        )
        figures = {
            judge: resampling.xrr_draws(
                resampling.UnitPatterns.of(np.concatenate([counts[:, None], self.references], axis=1), self.metric)
            )
            for judge, counts in self.judges.items()
        }
        return resampling.bootstrap(figures, rng, settings.n_bootstrap, shared_units=self.ranks.size)


@dataclass
class PairedBootstrap:
    """The paired bootstrap of a question's pairs of judges, drawn for all of them at once. The units
    two judges both judged (`resampled_units`) are resampled with replacement B times, from the seed,
    the question and those units alone: pairs that judged the same units get the same resamples, and
    a pair's draws depend on no other judge. Each judge's xRR is computed once per resample of a set
    of units, not once per pair (twenty judges make 190 pairs); a pair's draws are the difference of
    its two judges'."""

    xrr: dict[tuple[bytes, str], np.ndarray]  # (units' ranks, judge) -> (draws, references)

    @classmethod
    def of(cls, tasks: Iterable[JudgeQuestion], settings: MonteCarloSettings) -> "PairedBootstrap":
        """The draws of the pairs of judges of the given tasks (one question's)."""
        on_units: dict[bytes, _JudgesOnUnits] = {}
        for task in tasks:
            units = resampled_units(task)
            if not units.any():
                continue
            ranks = human_unit_ranks(task, units)
            counts, metric = task.metric.condensed(np.concatenate([task.judge_counts, task.stacked()], axis=1))
            counts = counts[..., units]
            n_judges = len(task.judges)
            judges = on_units.setdefault(
                ranks.tobytes(), _JudgesOnUnits(task.question.name, ranks, counts[:, n_judges:], metric)
            ).judges
            for number, judge in enumerate(task.judges):
                judges.setdefault(judge, counts[:, number])
        return cls(
            {
                (key, judge): draws
                for key, judges in on_units.items()
                for judge, draws in judges.xrr_draws(settings).items()
            }
        )

    def interval(self, task: JudgeQuestion) -> tuple[np.ndarray, np.ndarray]:
        """95% percentile interval of xrr_a − xrr_b per reference for the task's two judges; NaN where
        no unit both judged has a reference value (nothing to resample)."""
        units = resampled_units(task)
        if not units.any():
            no_interval = np.full(len(task.references), np.nan)
            return no_interval, no_interval.copy()
        key = human_unit_ranks(task, units).tobytes()
        with_a, with_b = (self.xrr[(key, judge)] for judge in task.judges)
        return resampling.percentile_interval(with_a - with_b)


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
    batch in the order the test of all P draws them, and the test stops once every reference is decided.
    Where the units' 2^units ways to swap are fewer than P (9 units: 512), each is tested once, none
    drawn, and the p is exact (`resampling.distinct_swaps`, `resampling.exact_test`)."""
    patterns = resampling.UnitPatterns.of(
        np.concatenate([counts_a[:, None], counts_b[:, None], references], axis=1), metric
    )
    null = (_swaps_null if patterns.metric.level == "ordinal" else _reweighted_null)(patterns)

    def elements_per_shuffle(n_references: int) -> int:
        # a shuffle's swaps and weights, and its sums of both judges' terms for every reference
        return 3 * patterns.n_units.size + 4 * patterns.counts[:, 2:, 0].size

    every_swap = resampling.distinct_swaps(patterns.of_unit, patterns.n_units.size, n_permutations)
    if every_swap is not None:

        def null_of_every_swap(shuffles: slice, chosen: np.ndarray) -> np.ndarray:
            return null(every_swap[shuffles])[:, chosen]

        return resampling.exact_test(observed, null_of_every_swap, len(every_swap), elements_per_shuffle)

    def null_of(shuffles: slice, chosen: np.ndarray) -> np.ndarray:
        swapped = rng.binomial(patterns.n_units, 0.5, size=(shuffles.stop - shuffles.start, patterns.n_units.size))
        return null(swapped)[:, chosen]

    return resampling.sequential_test(observed, null_of, n_permutations, elements_per_shuffle, stop_at)


# xrr_a − xrr_b `(shuffles, references)` of the swaps `(shuffles, patterns)`: how many of each
# pattern's units each shuffle swaps
PairedNull = Callable[[np.ndarray], np.ndarray]


def _reweighted_null(patterns: resampling.UnitPatterns) -> PairedNull:
    """Where δ is fixed, xRR's sums are linear in the units' weights (`maths.CrossSums`): swapping s
    units of a pattern moves s times the pattern's change (its terms with b's value − with a's) from
    A's sums to B's. Each pattern's terms are computed once; a batch of swaps is one weighted sum of
    the changes. `patterns` of the columns a, b and the references."""
    a, b, references = patterns.counts[:, None, :1], patterns.counts[:, None, 1:2], patterns.counts[:, None, 2:]
    with_a = maths.CrossTerms.of(a, references, patterns.metric).per_unit()
    with_b = maths.CrossTerms.of(b, references, patterns.metric).per_unit()
    change = with_b - with_a
    as_given_a, as_given_b = with_a.over_units(patterns.n_units), with_b.over_units(patterns.n_units)

    def null(swapped: np.ndarray) -> np.ndarray:
        moved = change.over_units(swapped[:, None, :])  # (shuffles, references)
        return (as_given_a + moved).figures().xrr - (as_given_b - moved).figures().xrr

    return null


def _swaps_null(patterns: resampling.UnitPatterns) -> PairedNull:
    """Ordinal δ depends on each shuffle's totals: each judge's xRR summed over the patterns' two
    halves, as given (weight units − s) and swapped (weight s)."""
    a, b, references = patterns.counts[:, :1], patterns.counts[:, 1:2], patterns.counts[:, 2:]
    both_halves = np.concatenate([references, references], axis=-1)[:, None]
    with_a = maths.CrossTerms.of(np.concatenate([a, b], axis=-1)[:, None], both_halves, patterns.metric)
    with_b = maths.CrossTerms.of(np.concatenate([b, a], axis=-1)[:, None], both_halves, patterns.metric)

    def null(swapped: np.ndarray) -> np.ndarray:
        weights = np.concatenate([patterns.n_units - swapped, swapped], axis=-1)[:, None, :]  # (P, 1, 2 patterns)
        return with_a.sums(weights).figures().xrr - with_b.sums(weights).figures().xrr

    return null


def pair_rows(
    task: JudgeQuestion, settings: MonteCarloSettings, bootstrap: PairedBootstrap | None = None
) -> pd.DataFrame:
    """The rows of the task's two judges, one per reference with units both judged; their paired
    bootstrap from `bootstrap` (drawn for this task alone without it)."""
    a, b = 0, 1
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
        low, high = (bootstrap or PairedBootstrap.of([task], settings)).interval(task)
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
            min_attainable_p=test.min_p,
        )
    return rows[rows["n_units"] > 0].assign(**dict(zip(SLOT, question.name)))


def judged_question_rows(
    judged: JudgedQuestion, settings: MonteCarloSettings, stored: memo.Memo | None = None
) -> list[pd.DataFrame]:
    """Every two judges' rows of the question, each pair's from its own task (the rows `stored`
    holds where they were computed from the same inputs): a pair's figures depend on no other judge.
    The pairs computed share their paired bootstrap (`PairedBootstrap`)."""
    tasks = {(*pair, *judged.question.name): judged.task(pair) for pair in combinations(judged.judges, 2)}
    inputs = {slot: lambda task=task: inputs_of(task, settings) for slot, task in tasks.items()}
    fingerprints, stale = memo.stale_slots(stored, inputs)
    question = judged.question
    wanted = settings.wants(question.source, question.scope, question.question)
    bootstrap = PairedBootstrap.of([tasks[slot] for slot in stale], settings) if wanted else None
    return [
        memo.marked(stored, slot, fingerprints.get(slot), lambda task=task: pair_rows(task, settings, bootstrap))
        for slot, task in tasks.items()
    ]


def question_rows(task: JudgeQuestion, settings: MonteCarloSettings) -> list[pd.DataFrame]:
    """Every ordered pair of the task's judges (judge_a < judge_b, as `task.judges` is sorted)."""
    pairs = [task.of_judges([a, b]) for a, b in combinations(range(len(task.judges)), 2)]
    bootstrap = PairedBootstrap.of(pairs, settings)
    return [pair_rows(pair, settings, bootstrap) for pair in pairs]


def as_result(rows: list[pd.DataFrame]) -> pd.DataFrame:
    if not rows:
        return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})
    return pd.concat(rows, ignore_index=True).reindex(columns=list(COLUMNS)).astype(COLUMNS)
