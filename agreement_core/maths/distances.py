"""δ, the distance between two labels of a question at its level of measurement (Krippendorff's
metric: `label_distances`, `Metric`), and the summed distance of every pair of two sets of values
(`summed_distances`), which α and xRR are made of.

Counts are arrays `(labels, ..., units)`: how many values of each label a set of raters gave on
each unit; the axes between are groups, permutations or bootstrap draws (agreement_core/maths/__init__.py)."""

from dataclasses import dataclass

import numpy as np

Array = np.ndarray

# Krippendorff's levels of measurement, as the `krippendorff` package names them
LEVELS = ("nominal", "ordinal", "interval", "ratio")


@dataclass(frozen=True)
class Metric:
    """δ of a question: the `(labels, labels)` distance between two of its labels, with the level
    of measurement and the label codes it comes from. Ordinal δ depends on how often each label was
    given (`given`): until then `distances` is None; after, `(labels, labels, ...)` with the axes of
    the totals it came from (groups, draws, …). `moments`: interval counts folded by `condensed`."""

    level: str
    codes: Array
    distances: Array | None
    moments: bool = False

    def given(self, label_totals: Array) -> "Metric":
        """δ for values whose label totals are `label_totals` `(labels, ...)`: ordinal's rank
        distance (Σ_{g=c}^{k} n_g − (n_c + n_k) / 2)² for labels c ≤ k in the codes' order; the
        other levels' δ does not depend on them."""
        if self.level != "ordinal":
            return self
        cumulative = np.cumsum(label_totals, axis=0)
        # Σ_{g=c}^{k} n_g − (n_c + n_k)/2 = N_k − N_c + (n_c − n_k)/2, N the cumulative totals
        spread = (cumulative[None, :] - cumulative[:, None]) + (label_totals[:, None] - label_totals[None, :]) / 2
        return Metric(level=self.level, codes=self.codes, distances=spread**2)

    def condensed(self, counts: Array) -> tuple[Array, "Metric"]:
        """Interval δ reads a set of values only through how many there are, their sum and their sum
        of squares (`summed_distances`'s identity), each a weighted sum over the labels: `counts`' label axis
        folded into those three rows once, so that every draw after it sums 3 rows, not one per label
        (a judge's own scores can bring hundreds). The other levels: `counts` as they are."""
        if self.level != "interval" or self.moments:
            return counts, self
        folded = np.einsum("kl,l...->k...", _interval_powers(self.codes), counts, optimize=False)
        return folded, Metric(level=self.level, codes=self.codes, distances=None, moments=True)

    def n_values(self, counts: Array) -> Array:
        """How many values `counts` hold, per unit (or per whatever the axes after the labels are)."""
        return counts[0] if self.moments else counts.sum(axis=0)


def _interval_powers(codes: Array) -> Array:
    """`(3, labels)`: each label's code to the powers 0, 1 and 2."""
    return np.asarray(codes, dtype=float)[None, :] ** np.arange(3)[:, None]


def label_distances(codes: Array, level: str) -> Metric:
    """δ between every two labels of a question, Krippendorff's metric for its level: nominal 0 for
    the same label and 1 otherwise; interval (c − k)²; ratio ((c − k) / (c + k))²; ordinal from
    the labels' totals (`Metric.given`)."""
    codes = np.asarray(codes, dtype=float)
    first, second = codes[:, None], codes[None, :]
    if level == "nominal":
        distances = (first != second).astype(float)
    elif level == "interval":
        distances = (first - second) ** 2
    elif level == "ratio":
        with np.errstate(divide="ignore", invalid="ignore"):
            distances = np.where(first + second == 0, 0.0, ((first - second) / (first + second)) ** 2)
    elif level == "ordinal":
        distances = None
    else:
        raise ValueError(f"level of measurement {level!r} is not one of {', '.join(LEVELS)}")
    return Metric(level=level, codes=codes, distances=distances)


def _label_sum(counts: Array, weights: Array) -> Array:
    """Σ_c w_c · counts_c over the label axis (0), in one pass (einsum's own loop: no BLAS, so the
    same sums on any machine)."""
    return np.einsum("l,l...->...", weights, counts, optimize=False)


def _interval_moments(counts: Array, metric: Metric) -> tuple[Array, Array, Array]:
    """(Σ_c a_c, Σ_c a_c c, Σ_c a_c c²): read from folded counts (`Metric.condensed`), else summed."""
    if metric.moments:
        return counts[0], counts[1], counts[2]
    n, sums, squares = (_label_sum(counts, powers) for powers in _interval_powers(metric.codes))
    return n, sums, squares


def summed_distances(counts_a: Array, metric: Metric, counts_b: Array) -> Array:
    """Σ_c Σ_k a_c δ_ck b_k over the label axis (0): the summed distance of every (a, b) pair of values.
    Nominal and interval δ by their textbook identities, a few sums over labels rather than a
    product per pair of labels: nominal Σ_{c≠k} a_c b_k = A·B − Σ_c a_c b_c; interval
    Σ a_c b_k (c − k)² = A·Σ_k b_k k² + B·Σ_c a_c c² − 2 (Σ_c a_c c)(Σ_k b_k k), with A = Σ_c a_c
    and B = Σ_k b_k. Other levels: a loop over the pairs of labels, whole slabs at a time."""
    if metric.level == "nominal":
        same_label = np.einsum("l...,l...->...", counts_a, counts_b, optimize=False)
        return counts_a.sum(axis=0) * counts_b.sum(axis=0) - same_label
    if metric.level == "interval":
        n_a, sum_a, squares_a = _interval_moments(counts_a, metric)
        n_b, sum_b, squares_b = _interval_moments(counts_b, metric)
        return n_a * squares_b + n_b * squares_a - 2 * sum_a * sum_b
    total = np.zeros(np.broadcast_shapes(counts_a.shape[1:], counts_b.shape[1:]))
    distances = metric.distances
    # a δ per group or draw (ordinal) applies to every unit of it
    extra_axes = max(counts_a.ndim, counts_b.ndim) - 1 - (distances.ndim - 2)
    for label_a, label_b in zip(*np.nonzero(distances.reshape(*distances.shape[:2], -1).any(axis=-1))):
        weight = distances[label_a, label_b].reshape(distances.shape[2:] + (1,) * extra_axes)
        total = total + weight * counts_a[label_a] * counts_b[label_b]
    return total
