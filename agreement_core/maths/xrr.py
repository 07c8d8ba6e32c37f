"""xRR (cross-replication reliability, Wong, Paritosh & Aroyo 2021) of two sets of values, and the
sums over units it is made of (`CrossSums`): per unit (`CrossTerms`), under any unit weights, or of
every X set with every Y set at once as matrix products (`cross_sums_of_sets`)."""

from dataclasses import dataclass

import numpy as np

from agreement_core.maths.distances import Metric, summed_distances
from agreement_core.maths.unit_sums import unit_sum, unit_weights_or_ones

Array = np.ndarray


@dataclass
class CrossReliability:
    """xRR between two sets of values on the units both gave values to, with its two disagreements."""

    n_units: Array
    observed_disagreement: Array
    expected_disagreement: Array
    xrr: Array


def cross_reliability(
    counts_x: Array, counts_y: Array, metric: Metric, unit_weights: Array | None = None
) -> CrossReliability:
    """xRR (Wong, Paritosh & Aroyo 2021) of X with Y: 1 − d_o / d_e. d_o averages each shared unit's
    mean (x, y) distance weighted by its |X_u| + |Y_u| values; d_e pairs all of X's values with all
    of Y's on the shared units. NaN without shared units or with d_e = 0."""
    return CrossTerms.of(counts_x, counts_y, metric).sums(unit_weights).figures()


@dataclass
class CrossSums:
    """The sums over units that xRR is made of: the shared units, their values, X's and Y's label
    totals on them (`(labels, ...)`), their summed disagreement (each unit's mean (x, y) distance ×
    its values), and δ given those totals. Unit by unit (`CrossTerms.per_unit`, the unit axis last)
    they are each unit's terms. Where δ is fixed (every level but ordinal) each sum is linear in the
    units' weights: sums over two sets of units add and subtract as the sets do."""

    n_units: Array
    values: Array
    totals_x: Array
    totals_y: Array
    disagreement: Array
    metric: Metric

    def over_units(self, unit_weights: Array) -> "CrossSums":
        """Per-unit terms summed over the unit axis (last) under `unit_weights` `(..., units)`. A term
        that is 0 on every unit (say, one two sets of units share) sums to 0 with no product."""

        def summed(terms: Array) -> Array:
            if terms.any():
                return unit_sum(unit_weights, terms)
            return np.zeros(np.broadcast_shapes(unit_weights.shape, terms.shape)[:-1])

        return CrossSums(*(summed(getattr(self, name)) for name in _SUMMED), metric=self.metric)

    def _combined(self, other: "CrossSums", sign: int) -> "CrossSums":
        if self.metric.level == "ordinal":
            raise ValueError("ordinal δ depends on the totals: its sums do not add")
        return CrossSums(*(getattr(self, name) + sign * getattr(other, name) for name in _SUMMED), metric=self.metric)

    def __add__(self, other: "CrossSums") -> "CrossSums":
        return self._combined(other, 1)

    def __sub__(self, other: "CrossSums") -> "CrossSums":
        return self._combined(other, -1)

    def figures(self) -> CrossReliability:
        """xRR from the sums: d_o their disagreement per value, d_e from the totals."""
        metric = self.metric
        with np.errstate(divide="ignore", invalid="ignore"):
            observed = self.disagreement / self.values
            pairs = metric.n_values(self.totals_x) * metric.n_values(self.totals_y)
            expected = summed_distances(self.totals_x, metric, self.totals_y) / pairs
            xrr = np.where(expected > 0, 1 - observed / expected, np.nan)
        no_units = self.n_units == 0
        return CrossReliability(
            n_units=self.n_units,
            observed_disagreement=np.where(no_units, np.nan, observed),
            expected_disagreement=np.where(no_units, np.nan, expected),
            xrr=np.where(no_units, np.nan, xrr),
        )


# the fields of CrossSums that are sums over units, in its order
_SUMMED = ("n_units", "values", "totals_x", "totals_y", "disagreement")


@dataclass
class CrossTerms:
    """What xRR (`cross_reliability`) reads of each unit: X's and Y's counts, whether both gave the
    unit a value, and, where δ is fixed (every level but ordinal, whose δ depends on the weighted
    totals), its disagreement. Summed under any unit weights (`sums`); a test whose shuffles only
    reweight the same units (the judges' paired test) computes them once (`per_unit`)."""

    counts_x: Array
    counts_y: Array
    metric: Metric
    n_x: Array  # (..., units): how many values X gave each unit
    n_y: Array
    shared: Array  # (..., units): both X and Y gave the unit a value
    disagreement: Array | None  # (..., units): mean (x, y) distance × |X_u| + |Y_u|; None for ordinal

    @classmethod
    def of(cls, counts_x: Array, counts_y: Array, metric: Metric) -> "CrossTerms":
        counts_x = np.asarray(counts_x, dtype=float)
        counts_y = np.asarray(counts_y, dtype=float)
        n_x, n_y = metric.n_values(counts_x), metric.n_values(counts_y)
        terms = cls(counts_x, counts_y, metric, n_x, n_y, (n_x >= 1) & (n_y >= 1), None)
        if metric.level != "ordinal":
            terms.disagreement = terms.unit_disagreement(metric)
        return terms

    def unit_disagreement(self, metric: Metric) -> Array:
        """Each shared unit's mean (x, y) distance under δ `metric`, times its values (0 elsewhere)."""
        cross = summed_distances(self.counts_x, metric, self.counts_y)
        with np.errstate(divide="ignore", invalid="ignore"):
            mean_cross = np.where(self.shared, cross / np.where(self.shared, self.n_x * self.n_y, 1), 0.0)
        return mean_cross * (self.n_x + self.n_y)

    def shared_values(self) -> Array:
        return self.shared * (self.n_x + self.n_y)

    def per_unit(self) -> CrossSums:
        """Each unit's terms of the sums (the unit axis last); δ fixed only."""
        if self.disagreement is None:
            raise ValueError("ordinal δ depends on the totals: its disagreement has no per-unit terms")
        shared = self.shared.astype(float)
        return CrossSums(
            shared, self.shared_values(), shared * self.counts_x, shared * self.counts_y, self.disagreement, self.metric
        )

    def sums(self, unit_weights: Array | None = None) -> CrossSums:
        """The sums over the units weighted by `unit_weights` `(..., units)` (default each once)."""
        weights = unit_weights_or_ones(unit_weights, self.counts_x.shape[-1])
        totals_x = unit_sum(weights, self.shared * self.counts_x)
        totals_y = unit_sum(weights, self.shared * self.counts_y)
        metric = self.metric.given(totals_x + totals_y)  # ordinal: the ranks of X's and Y's values together
        disagreement = self.unit_disagreement(metric) if self.disagreement is None else self.disagreement
        return CrossSums(
            n_units=unit_sum(weights, self.shared.astype(float)),
            values=unit_sum(weights, self.shared_values()),
            totals_x=totals_x,
            totals_y=totals_y,
            disagreement=unit_sum(weights, disagreement),
            metric=metric,
        )


def cross_sums_of_sets(counts_x: Array, counts_y: Array, metric: Metric) -> CrossSums:
    """xRR's sums (`CrossSums`) of every X set with every Y set: `counts_x` `(labels, X sets, units)`,
    `counts_y` `(labels, Y sets, units)`, sums `(X sets, Y sets)` (totals `(labels, X sets, Y sets)`),
    for δ fixed (not ordinal). Each unit's terms are products of an X-side and a Y-side factor, so
    every sum is a matrix product over the units, for all pairs of sets at once: the shared units
    Σ s_x s_y (s: the set gave the unit a value); the values Σ s_x n_x s_y + s_x s_y n_y; the totals
    Σ x s_y and Σ s_x y; and the disagreement, whose unit term x·Δy (n_x + n_y) / (n_x n_y) is
    Σ_c x_c (Δy)_c / n_y + Σ_c (x_c / n_x) (Δy)_c, Δ the δ of two labels (`_pair_distances`).
    The same sums as `CrossTerms`' to float rounding (the order of the additions differs)."""
    if metric.level == "ordinal":
        raise ValueError("ordinal δ depends on the totals: its sums are no products of fixed factors")
    n_labels, n_units = counts_x.shape[0], counts_x.shape[-1]
    n_x, n_y = metric.n_values(counts_x), metric.n_values(counts_y)  # (sets, units)
    given_x, given_y = (n_x >= 1).astype(float), (n_y >= 1).astype(float)
    distances_y = np.einsum("ck,kyu->cyu", _pair_distances(metric), counts_y, optimize=False)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_value_x = np.where(given_x > 0, counts_x / np.where(given_x > 0, n_x, 1), 0.0)
        per_value_y = np.where(given_y > 0, distances_y / np.where(given_y > 0, n_y, 1), 0.0)

    def by_units(left: Array, right: Array) -> Array:
        """Σ over the last axis (and labels, when both have them first) of every left × right set."""
        return _as_sets(left) @ _as_sets(right).T

    n_x_sets, n_y_sets = counts_x.shape[1], counts_y.shape[1]
    totals_x = (counts_x.reshape(-1, n_units) @ given_y.T).reshape(n_labels, n_x_sets, n_y_sets)
    totals_y = (given_x @ counts_y.reshape(-1, n_units).T).reshape(n_x_sets, n_labels, n_y_sets)
    return CrossSums(
        n_units=given_x @ given_y.T,
        values=(given_x * n_x) @ given_y.T + given_x @ (given_y * n_y).T,
        totals_x=totals_x,
        totals_y=totals_y.transpose(1, 0, 2),
        disagreement=by_units(counts_x, per_value_y) + by_units(per_value_x, distances_y),
        metric=metric,
    )


def _as_sets(counts: Array) -> Array:
    """`(labels, sets, units)` as `(sets, labels × units)`."""
    return counts.transpose(1, 0, 2).reshape(counts.shape[1], -1)


def _pair_distances(metric: Metric) -> Array:
    """Δ, the `(labels, labels)` matrix with x·Δy the summed distance of every (x, y) pair of values:
    δ itself, or for folded interval counts (n, Σ c, Σ c²) the identity n_a Σ c_b² + n_b Σ c_a² −
    2 Σ c_a Σ c_b (`summed_distances`)."""
    if metric.moments:
        return np.array([[0.0, 0.0, 1.0], [0.0, -2.0, 0.0], [1.0, 0.0, 0.0]])
    return metric.distances
