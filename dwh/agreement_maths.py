"""Krippendorff's α, xRR and GAI from value counts, vectorised with numpy, and the Monte Carlo
figures built on them: the percentile bootstrap over units, GRASP's permutation test of group
labels, Benjamini–Hochberg. The dbt Python models import this module, so every formula is
written once (definitions: WAREHOUSE_CONTRACT.md, "Agreement and disagreement marts").

Counts are arrays `(labels, ..., units)`: how many values of each label a set of raters gave on
each unit; the axes between are groups, permutations or bootstrap draws (labels first and units
last: numpy is fast over long contiguous axes and slow over a short last one). `distances` is δ, the
`(labels, labels)` distance between two labels (0/1 nominal, squared difference interval).
`unit_weights` `(..., units)` say how often each unit counts: 1 for the figure itself, the
number of times a bootstrap draw picked it otherwise. Figures that cannot be computed are NaN.

Reproducible on any machine: random numbers come from numpy's PCG64 seeded from the seed and
the figure's name (not from the order models or threads run in); sums of counts are integers
held exactly in float64; nothing goes through BLAS except products of integer counts.
"""

import hashlib
from dataclasses import dataclass

import numpy as np

Array = np.ndarray
# below this, xRR is 0 and GAI = α ÷ xRR is float noise (as the agreement mart has it)
XRR_ZERO = 1e-12
# a null figure equal to the observed one within float noise counts as "at least as extreme"
TIE_TOLERANCE = 1e-12


def generator(seed: int, *names: object) -> np.random.Generator:
    """numpy's PCG64 seeded from `seed` and the names of what it draws for (scope, question, …):
    the same numbers on any machine and in any order of computation."""
    digest = hashlib.sha256("\x1f".join(str(name) for name in names).encode()).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, *words])))


def _quadratic(counts_a: Array, distances: Array, counts_b: Array) -> Array:
    """Σ_c Σ_k a_c δ_ck b_k over the label axis (0): the summed distance of every (a, b) pair of values.
    A loop over the few labels of whole slabs: numpy is slow over a short last axis."""
    total = np.zeros(np.broadcast_shapes(counts_a.shape[1:], counts_b.shape[1:]))
    for label_a, label_b in zip(*np.nonzero(distances)):
        total += distances[label_a, label_b] * counts_a[label_a] * counts_b[label_b]
    return total


def _weights(unit_weights: Array | None, n_units: int) -> Array:
    return np.ones(n_units) if unit_weights is None else np.asarray(unit_weights, dtype=float)


def krippendorff_alpha(counts: Array, distances: Array, unit_weights: Array | None = None) -> Array:
    """α = 1 − D_o / D_e over the pairable units (≥ 2 values); NaN with < 2 pairable values or D_e = 0."""
    counts = np.asarray(counts, dtype=float)
    weights = _weights(unit_weights, counts.shape[-1])
    n_unit = counts.sum(axis=0)
    pairable = n_unit >= 2
    within = _quadratic(counts, distances, counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_pairing = np.where(pairable, within / np.where(pairable, n_unit - 1, 1), 0.0)
        counted = weights * pairable
        n_values = (counted * n_unit).sum(axis=-1)
        observed = (counted * per_pairing).sum(axis=-1) / n_values
        label_totals = (counted * counts).sum(axis=-1)
        expected = _quadratic(label_totals, distances, label_totals) / (n_values * (n_values - 1))
        alpha = 1 - observed / expected
    return np.where((n_values >= 2) & (expected > 0), alpha, np.nan)


@dataclass
class CrossReliability:
    """xRR between two sets of values on the units both gave values to, with its two disagreements."""

    n_units: Array
    observed_disagreement: Array
    expected_disagreement: Array
    xrr: Array


def cross_reliability(
    counts_x: Array, counts_y: Array, distances: Array, unit_weights: Array | None = None
) -> CrossReliability:
    """xRR (Wong, Paritosh & Aroyo 2021) of X with Y: 1 − d_o / d_e. d_o averages each shared unit's
    mean (x, y) distance weighted by its |X_u| + |Y_u| values; d_e pairs all of X's values with all
    of Y's on the shared units. NaN without shared units or with d_e = 0."""
    counts_x = np.asarray(counts_x, dtype=float)
    counts_y = np.asarray(counts_y, dtype=float)
    weights = _weights(unit_weights, counts_x.shape[-1])
    n_x, n_y = counts_x.sum(axis=0), counts_y.sum(axis=0)
    shared = (n_x >= 1) & (n_y >= 1)
    counted = weights * shared
    cross = _quadratic(counts_x, distances, counts_y)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_cross = np.where(shared, cross / np.where(shared, n_x * n_y, 1), 0.0)
        n_shared_values = (counted * (n_x + n_y)).sum(axis=-1)
        observed = (counted * mean_cross * (n_x + n_y)).sum(axis=-1) / n_shared_values
        totals_x = (counted * counts_x).sum(axis=-1)
        totals_y = (counted * counts_y).sum(axis=-1)
        expected = _quadratic(totals_x, distances, totals_y) / (totals_x.sum(axis=0) * totals_y.sum(axis=0))
        xrr = np.where(expected > 0, 1 - observed / expected, np.nan)
    n_units = counted.sum(axis=-1)
    no_units = n_units == 0
    return CrossReliability(
        n_units=n_units,
        observed_disagreement=np.where(no_units, np.nan, observed),
        expected_disagreement=np.where(no_units, np.nan, expected),
        xrr=np.where(no_units, np.nan, xrr),
    )


def group_association_index(alpha: Array, xrr: Array) -> Array:
    """GAI = α ÷ xRR; NaN where either is NaN or xRR is 0 within float noise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(xrr) >= XRR_ZERO, alpha / xrr, np.nan)


@dataclass
class GroupFigures:
    alpha: Array
    xrr: Array
    gai: Array


def group_figures(
    group_counts: Array, all_counts: Array, distances: Array, unit_weights: Array | None = None
) -> GroupFigures:
    """α of each group's own values, its xRR with every rater outside it (all values − the group's)
    and GAI. `group_counts` `(labels, ..., groups, units)`, `all_counts` `(labels, units)`."""
    alpha = krippendorff_alpha(group_counts, distances, unit_weights)
    outside = all_counts.reshape(all_counts.shape[0], *[1] * (group_counts.ndim - 2), -1) - group_counts
    xrr = cross_reliability(group_counts, outside, distances, unit_weights).xrr
    return GroupFigures(alpha=alpha, xrr=xrr, gai=group_association_index(alpha, xrr))


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
    pattern once (`counts` `(labels, …, patterns)`) with how many units have it."""

    counts: Array
    n_units: Array

    @classmethod
    def of(cls, counts: Array) -> "UnitPatterns":
        flat = counts.reshape(-1, counts.shape[-1])
        patterns, n_units = np.unique(flat, axis=1, return_counts=True)
        return cls(counts=patterns.reshape(*counts.shape[:-1], -1), n_units=n_units)


def bootstrap_draws(statistic, patterns: UnitPatterns, rng: np.random.Generator, n_draws: int, batch: int = 50):
    """`statistic(pattern_weights)` for `n_draws` resamples of the units with replacement, in batches.
    A resample of N units picks each pattern a multinomial(N, share of units with the pattern)
    number of times: drawn per pattern, so the cost grows with the distinct patterns, not the units."""
    total = int(patterns.n_units.sum())
    shares = patterns.n_units / total
    return np.concatenate(
        [
            statistic(rng.multinomial(total, shares, size=min(batch, n_draws - start)))
            for start in range(0, n_draws, batch)
        ]
    )


def bootstrap_alpha_interval(
    group_counts: Array, distances: Array, rng: np.random.Generator, n_draws: int
) -> tuple[Array, Array]:
    """95% percentile interval of each group's α (`group_counts` `(labels, groups, units)`),
    resampling the units with replacement. No units: no interval (NaN)."""
    if group_counts.shape[-1] == 0:
        no_interval = np.full(group_counts.shape[1:-1], np.nan)
        return no_interval, no_interval.copy()
    patterns = UnitPatterns.of(group_counts)

    def alpha_of_draws(weights: Array) -> Array:
        return krippendorff_alpha(patterns.counts[:, None], distances, weights[:, None, :])

    return percentile_interval(bootstrap_draws(alpha_of_draws, patterns, rng, n_draws))


# --------------------------------------------------------------------------------- permutations


def permuted_group_counts(labels_by_rater: Array, rater_counts: Array, n_groups: int) -> Array:
    """`(labels, permutations, groups, units)`: each group's counts under each row of group labels.
    `labels_by_rater` `(permutations, raters)`; `rater_counts` `(labels, raters, units)` one-hot."""
    n_permutations, n_raters = labels_by_rater.shape
    n_labels, _, n_units = rater_counts.shape
    membership = np.zeros((n_permutations, n_groups, n_raters))
    membership[np.arange(n_permutations)[:, None], labels_by_rater, np.arange(n_raters)[None, :]] = 1.0
    by_rater = np.moveaxis(rater_counts, 1, 0).reshape(n_raters, n_labels * n_units)
    # 0/1 times 0/1 summed: integers, exact in float64 whatever order BLAS adds them in
    summed = (membership.reshape(-1, n_raters) @ by_rater).reshape(n_permutations, n_groups, n_labels, n_units)
    return np.ascontiguousarray(np.moveaxis(summed, 2, 0))


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
    rater_counts: Array,
    rater_groups: Array,
    other_counts: Array,
    distances: Array,
    rng: np.random.Generator,
    n_permutations: int,
    batch: int = 25,
) -> PermutationTest:
    """GRASP's test: shuffle the group labels among the raters (every group keeps its size) and
    recompute each group's α, xRR and GAI. `rater_counts` `(labels, raters, units)` one-hot of the
    raters who have a group, `rater_groups` their group numbers 0..G−1; `other_counts`
    `(labels, units)`: the values of raters in no group of the dimension (always outsiders)."""
    n_groups = int(rater_groups.max()) + 1
    all_counts = rater_counts.sum(axis=1) + other_counts
    identity = permuted_group_counts(rater_groups[None, :], rater_counts, n_groups)[:, 0]
    observed = group_figures(identity, all_counts, distances)
    shuffled = rng.permuted(np.tile(rater_groups, (n_permutations, 1)), axis=1)
    nulls = [
        group_figures(permuted_group_counts(labels, rater_counts, n_groups), all_counts, distances)
        for labels in np.array_split(shuffled, max(1, n_permutations // batch))
    ]
    null = {name: np.concatenate([getattr(figures, name) for figures in nulls]) for name in ("alpha", "xrr", "gai")}
    return PermutationTest(
        alpha_p=permutation_p_values(observed.alpha, null["alpha"]),
        xrr_p=permutation_p_values(observed.xrr, null["xrr"]),
        gai_p=permutation_p_values(observed.gai, null["gai"]),
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


def one_hot_counts(unit_index: Array, label_index: Array, n_units: int, n_labels: int) -> Array:
    """`(labels, units)` counts of values given as (unit number, label number) pairs."""
    flat = np.bincount(np.asarray(label_index) * n_units + np.asarray(unit_index), minlength=n_labels * n_units)
    return flat.reshape(n_labels, n_units).astype(float)


def correlation_p_value(r: Array, n: Array) -> Array:
    """Two-sided p of a correlation r over n pairs from Student's t with n − 2 degrees of freedom, as
    scipy.stats.pearsonr and spearmanr give it: t = r √((n − 2) / (1 − r²)); NaN below 3 pairs."""
    from scipy.stats import t as student_t

    r = np.asarray(r, dtype=float)
    n = np.asarray(n, dtype=float)
    degrees = n - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.abs(r) * np.sqrt(degrees / ((1 - r) * (1 + r)))
        p_value = 2 * student_t.sf(statistic, np.where(degrees >= 1, degrees, 1))
    return np.where((degrees >= 1) & ~np.isnan(r), np.minimum(p_value, 1.0), np.nan)
