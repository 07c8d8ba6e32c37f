"""The Monte Carlo around the agreement figures of `agreement_core.maths`: the percentile bootstrap
over units, GRASP's permutation test of group labels, Benjamini–Hochberg. Every draw and
permutation is computed by the same functions as the row's own figure.

Reproducible on any machine: random numbers come from numpy's PCG64 seeded from the seed and the
figure's name (not from the order models or threads run in); counts are integers held exactly in
float64, so their sums do not depend on the order they are added in.
"""

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from scipy import sparse

from agreement_core import maths

Array = np.ndarray
# a null figure equal to the observed one within float noise counts as "at least as extreme"
TIE_TOLERANCE = 1e-12
# how many numbers one batch of draws or permutations may hold at once: memory stays flat as data grows
BATCH_ELEMENTS = 4_000_000


def generator(seed: int, *names: object) -> np.random.Generator:
    """numpy's PCG64 seeded from `seed` and the names of what it draws for (scope, question, …):
    the same numbers on any machine and in any order of computation."""
    digest = hashlib.sha256("\x1f".join(str(name) for name in names).encode()).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, *words])))


def batch_size(per_item: int, most: int = 1000) -> int:
    """How many draws or permutations of `per_item` numbers each to compute at once."""
    return int(max(1, min(most, BATCH_ELEMENTS // max(per_item, 1))))


# ----------------------------------------------------------------------------------- bootstrap


def percentile_interval(draws: Array, level: float = 0.95) -> tuple[Array, Array]:
    """The percentile interval of bootstrap draws along axis 0, NaN draws left out (NaN if all are)."""
    tail = (1 - level) / 2 * 100
    valid = ~np.isnan(draws)
    low = np.full(draws.shape[1:], np.nan)
    high = np.full(draws.shape[1:], np.nan)
    columns = valid.any(axis=0)
    if columns.any():
        low[columns], high[columns] = np.nanpercentile(draws[:, columns], [tail, 100 - tail], axis=0)
    return low, high


@dataclass
class UnitPatterns:
    """Units with the same counts in every column are interchangeable in a resample: each distinct
    pattern once (`counts` `(labels, …, patterns)`) with how many units have it, and the metric to
    read them with (interval counts are folded first, `maths.Metric.condensed`)."""

    counts: Array
    n_units: Array
    metric: maths.Metric

    @classmethod
    def of(cls, counts: Array, metric: maths.Metric) -> "UnitPatterns":
        counts, metric = metric.condensed(counts)
        flat = counts.reshape(-1, counts.shape[-1])
        patterns, n_units = np.unique(flat, axis=1, return_counts=True)
        return cls(counts=patterns.reshape(*counts.shape[:-1], -1), n_units=n_units, metric=metric)


def bootstrap_draws(
    statistic: Callable[[Array], Array], patterns: UnitPatterns, rng: np.random.Generator, n_draws: int
) -> Array:
    """`statistic(pattern_weights)` for `n_draws` resamples of the units with replacement, in batches.
    A resample of N units picks each pattern a multinomial(N, share of units with the pattern)
    number of times: drawn per pattern, so the cost grows with the distinct patterns, not the units."""
    total = int(patterns.n_units.sum())
    shares = patterns.n_units / total
    batch = batch_size(patterns.counts.size)
    return np.concatenate(
        [
            statistic(rng.multinomial(total, shares, size=min(batch, n_draws - start)))
            for start in range(0, n_draws, batch)
        ]
    )


def bootstrap_alpha_interval(
    group_counts: Array, metric: maths.Metric, rng: np.random.Generator, n_draws: int
) -> tuple[Array, Array]:
    """95% percentile interval of each group's α (`group_counts` `(labels, groups, units)`),
    resampling the units with replacement. No units: no interval (NaN)."""
    if group_counts.shape[-1] == 0:
        no_interval = np.full(group_counts.shape[1:-1], np.nan)
        return no_interval, no_interval.copy()
    patterns = UnitPatterns.of(group_counts, metric)

    def alpha_of_draws(weights: Array) -> Array:
        return maths.krippendorff_alpha(patterns.counts[:, None], patterns.metric, weights[:, None, :]).alpha

    return percentile_interval(bootstrap_draws(alpha_of_draws, patterns, rng, n_draws))


def bootstrap_xrr_interval(
    counts_x: Array, counts_y: Array, metric: maths.Metric, rng: np.random.Generator, n_draws: int
) -> tuple[float, float]:
    """95% percentile interval of the xRR of X with Y (`(labels, units)` each), resampling the units."""
    patterns = UnitPatterns.of(np.stack([counts_x, counts_y], axis=1), metric)

    def xrr_of_draws(weights: Array) -> Array:
        x, y = patterns.counts[:, None, 0], patterns.counts[:, None, 1]
        return maths.cross_reliability(x, y, patterns.metric, weights).xrr

    low, high = percentile_interval(bootstrap_draws(xrr_of_draws, patterns, rng, n_draws)[:, None])
    return float(low[0]), float(high[0])


# --------------------------------------------------------------------------------- permutations


@dataclass
class RaterValues:
    """The values of the raters who have a group in one dimension: label, rater and unit numbers
    (one entry per value), with `rater_groups` the group number of each rater."""

    label_index: Array
    rater_index: Array
    unit_index: Array
    rater_groups: Array
    n_labels: int
    n_units: int

    @property
    def n_groups(self) -> int:
        return int(self.rater_groups.max()) + 1

    @cached_property
    def values_by_rater(self) -> sparse.csr_array:
        return maths.values_by_rater(
            self.label_index, self.unit_index, self.rater_index, self.n_labels, self.n_units, self.rater_groups.size
        )

    def group_counts(self, labels_by_rater: Array) -> Array:
        """`(labels, permutations, groups, units)`: each group's counts under each row of
        `labels_by_rater` `(permutations, raters)`: each rater's group membership in every permutation,
        as one product with the values by rater (`maths.counts_of_rater_sets`)."""
        n_permutations, n_raters = labels_by_rater.shape
        membership = np.zeros((n_raters, n_permutations, self.n_groups))
        membership[np.arange(n_raters), np.arange(n_permutations)[:, None], labels_by_rater] = 1
        counts = maths.counts_of_rater_sets(self.values_by_rater, membership.reshape(n_raters, -1), self.n_labels)
        return counts.reshape(self.n_labels, n_permutations, self.n_groups, self.n_units)


def permutation_p_values(observed: Array, null: Array) -> Array:
    """Two-sided p = min(1, 2 · min(p_low, p_high)), p_high = (1 + #{null ≥ observed}) / (1 + P)
    and p_low likewise; P counts the permutations whose figure exists. NaN where observed is."""
    valid = ~np.isnan(null)
    n_valid = valid.sum(axis=0)
    at_least = (valid & (null >= observed - TIE_TOLERANCE)).sum(axis=0)
    at_most = (valid & (null <= observed + TIE_TOLERANCE)).sum(axis=0)
    p_high = (1 + at_least) / (1 + n_valid)
    p_low = (1 + at_most) / (1 + n_valid)
    return np.where(np.isnan(observed), np.nan, np.minimum(1.0, 2 * np.minimum(p_low, p_high)))


@dataclass
class PermutationTest:
    alpha_p: Array
    xrr_p: Array
    gai_p: Array


def group_permutation_test(
    observed: maths.GroupFigures,
    values: RaterValues,
    all_counts: Array,
    metric: maths.Metric,
    rng: np.random.Generator,
    n_permutations: int,
) -> PermutationTest:
    """GRASP's test of the observed figures of the groups of one dimension (group numbers as in
    `values.rater_groups`): shuffle the group labels among the raters (every group keeps its size)
    and recompute each group's α, xRR and GAI with `maths.group_figures`. `all_counts`
    `(labels, units)` holds every value, those of raters in no group of the dimension included
    (they are always outsiders)."""
    shuffled = rng.permuted(np.tile(values.rater_groups, (n_permutations, 1)), axis=1)
    batch = batch_size(values.n_labels * values.n_groups * values.n_units + values.unit_index.size)
    nulls = [
        maths.group_figures(values.group_counts(shuffled[start : start + batch]), all_counts, metric)
        for start in range(0, n_permutations, batch)
    ]

    def null_of(name: str) -> Array:
        return np.concatenate([getattr(figures, name) for figures in nulls])

    return PermutationTest(
        alpha_p=permutation_p_values(observed.alpha, null_of("alpha")),
        xrr_p=permutation_p_values(observed.xrr, null_of("xrr")),
        gai_p=permutation_p_values(observed.gai, null_of("gai")),
    )


def benjamini_hochberg(p_values: Array) -> Array:
    """Benjamini–Hochberg q-values of one family of p-values (NaN left out of the family and kept)."""
    p_values = np.asarray(p_values, dtype=float)
    q_values = np.full(p_values.shape, np.nan)
    present = np.flatnonzero(~np.isnan(p_values))
    if present.size == 0:
        return q_values
    order = present[np.argsort(p_values[present], kind="stable")]
    ranked = p_values[order] * present.size / np.arange(1, present.size + 1)
    adjusted = np.minimum(1.0, np.minimum.accumulate(ranked[::-1])[::-1])
    # never below its own p: p·n/rank can round one ulp under p (seen at scale 10: q 0.8311688311688311
    # for p 0.8311688311688312)
    q_values[order] = np.maximum(adjusted, p_values[order])
    return q_values
