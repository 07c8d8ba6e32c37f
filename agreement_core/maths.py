"""The agreement figures, each written once: Krippendorff's α, xRR (cross-replication
reliability) and GAI from value counts, the label distances δ of each level of measurement, and
Pearson's r and Spearman's ρ with their p-values (`correlations`: the scores' and the judges'). Vectorised with numpy;
the row's figure and every bootstrap draw and permutation of it come from these functions
(definitions: docs/AGREEMENT.md, "Definitions").

Counts are arrays `(labels, ..., units)`: how many values of each label a set of raters gave on
each unit; the axes between are groups, permutations or bootstrap draws (labels first and units
last: numpy is fast over long contiguous axes and slow over a short last one). `metric` is δ,
the distance between two labels (`label_distances`). `unit_weights`
`(..., units)` say how often each unit counts: 1 for the figure itself, the number of times a
bootstrap draw picked it otherwise. Figures that cannot be computed are NaN.

Sums of counts are integers held exactly in float64. The figures themselves are summed unit by unit
(einsum's own loop); a batch of bootstrap draws or swaps is summed as one matrix product (BLAS,
`_draws_sum`), exact for counts and equal to float rounding for disagreements.
"""

from dataclasses import dataclass

import numpy as np
from scipy import sparse, special

Array = np.ndarray
# below this, xRR is 0 and GAI = α ÷ xRR is float noise
XRR_ZERO = 1e-12
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
        of squares (`_quadratic`'s identity), each a weighted sum over the labels: `counts`' label axis
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


def _unit_sum(unit_weights: Array, values: Array) -> Array:
    """Σ_u w_u · values_u over the unit axis (last), broadcasting the axes before it. Draws' weights
    (axes of their own, which `values` do not have) make it a matrix product (`_draws_sum`); else
    it is summed in one pass without a temporary (einsum's own loop)."""
    if _draw_axes(unit_weights, values):
        return _draws_sum(unit_weights, values)
    return np.einsum("...u,...u->...", unit_weights, values, optimize=False)


def _draw_axes(unit_weights: Array, values: Array) -> bool:
    """Whether the weights vary along axes (draws) where the values do not, and never along one
    where they do: Σ_u w_u · values_u is then an outer product over those axes."""
    n_axes = max(unit_weights.ndim, values.ndim) - 1
    weight_sizes = (1,) * (n_axes + 1 - unit_weights.ndim) + unit_weights.shape[:-1]
    value_sizes = (1,) * (n_axes + 1 - values.ndim) + values.shape[:-1]
    if any(w > 1 and v > 1 for w, v in zip(weight_sizes, value_sizes)):
        return False
    return any(w > 1 for w in weight_sizes)


def _draws_sum(unit_weights: Array, values: Array) -> Array:
    """`_unit_sum` as one matrix product `(values, units) @ (units, draws)`, its axes then put where
    broadcasting puts them. BLAS adds in an order of its own: sums of counts stay exact integers,
    sums of per-unit disagreements may differ from a unit-by-unit sum in their last bits."""
    n_axes = max(unit_weights.ndim, values.ndim) - 1
    weights = unit_weights.reshape((1,) * (n_axes + 1 - unit_weights.ndim) + unit_weights.shape)
    values = values.reshape((1,) * (n_axes + 1 - values.ndim) + values.shape)
    weight_axes = [axis for axis in range(n_axes) if weights.shape[axis] > 1]
    value_axes = [axis for axis in range(n_axes) if values.shape[axis] > 1]
    n_units = values.shape[-1]
    product = values.reshape(-1, n_units) @ weights.reshape(-1, n_units).T
    sizes = [values.shape[axis] for axis in value_axes] + [weights.shape[axis] for axis in weight_axes]
    in_order = np.argsort(value_axes + weight_axes)
    return product.reshape(sizes).transpose(in_order).reshape(np.broadcast_shapes(weights.shape, values.shape)[:-1])


def _quadratic(counts_a: Array, metric: Metric, counts_b: Array) -> Array:
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


def _weights(unit_weights: Array | None, n_units: int) -> Array:
    return np.ones(n_units) if unit_weights is None else np.asarray(unit_weights, dtype=float)


@dataclass
class Reliability:
    """Krippendorff's α with what it is made of: the pairable units (≥ 2 values) and their values,
    the observed and the expected disagreement (NaN with fewer than 2 pairable values)."""

    n_units: Array
    n_values: Array
    observed_disagreement: Array
    expected_disagreement: Array
    alpha: Array


def krippendorff_alpha(counts: Array, metric: Metric, unit_weights: Array | None = None) -> Reliability:
    """α = 1 − D_o / D_e over the pairable units (≥ 2 values); α NaN with < 2 pairable values or D_e = 0."""
    counts = np.asarray(counts, dtype=float)
    weights = _weights(unit_weights, counts.shape[-1])
    n_unit = metric.n_values(counts)
    pairable = n_unit >= 2
    n_values = _unit_sum(weights, pairable * n_unit)
    label_totals = _unit_sum(weights, pairable * counts)
    metric = metric.given(label_totals)
    within = _quadratic(counts, metric, counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_pairing = np.where(pairable, within / np.where(pairable, n_unit - 1, 1), 0.0)
        observed = _unit_sum(weights, per_pairing) / n_values
        expected = _quadratic(label_totals, metric, label_totals) / (n_values * (n_values - 1))
        alpha = 1 - observed / expected
    computable = n_values >= 2
    return Reliability(
        n_units=_unit_sum(weights, pairable.astype(float)),
        n_values=n_values,
        observed_disagreement=np.where(computable, observed, np.nan),
        expected_disagreement=np.where(computable, expected, np.nan),
        alpha=np.where(computable & (expected > 0), alpha, np.nan),
    )


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
                return _unit_sum(unit_weights, terms)
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
            expected = _quadratic(self.totals_x, metric, self.totals_y) / pairs
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
        cross = _quadratic(self.counts_x, metric, self.counts_y)
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
        weights = _weights(unit_weights, self.counts_x.shape[-1])
        totals_x = _unit_sum(weights, self.shared * self.counts_x)
        totals_y = _unit_sum(weights, self.shared * self.counts_y)
        metric = self.metric.given(totals_x + totals_y)  # ordinal: the ranks of X's and Y's values together
        disagreement = self.unit_disagreement(metric) if self.disagreement is None else self.disagreement
        return CrossSums(
            n_units=_unit_sum(weights, self.shared.astype(float)),
            values=_unit_sum(weights, self.shared_values()),
            totals_x=totals_x,
            totals_y=totals_y,
            disagreement=_unit_sum(weights, disagreement),
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
    2 Σ c_a Σ c_b (`_quadratic`)."""
    if metric.moments:
        return np.array([[0.0, 0.0, 1.0], [0.0, -2.0, 0.0], [1.0, 0.0, 0.0]])
    return metric.distances


def group_association_index(alpha: Array, xrr: Array) -> Array:
    """GAI = α ÷ xRR; NaN where either is NaN or xRR is 0 within float noise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(xrr) >= XRR_ZERO, alpha / xrr, np.nan)


@dataclass
class GroupFigures:
    """Each group's α among its own values, its xRR with every rater outside it, and GAI."""

    reliability: Reliability
    cross: CrossReliability
    gai: Array

    @property
    def alpha(self) -> Array:
        return self.reliability.alpha

    @property
    def xrr(self) -> Array:
        return self.cross.xrr


def group_figures(
    group_counts: Array, all_counts: Array, metric: Metric, unit_weights: Array | None = None
) -> GroupFigures:
    """α of each group's own values, its xRR with every rater outside it (all values − the group's)
    and GAI. `group_counts` `(labels, ..., groups, units)`, `all_counts` `(labels, units)`."""
    reliability = krippendorff_alpha(group_counts, metric, unit_weights)
    outside = all_counts.reshape(all_counts.shape[0], *[1] * (group_counts.ndim - 2), -1) - group_counts
    cross = cross_reliability(group_counts, outside, metric, unit_weights)
    return GroupFigures(reliability=reliability, cross=cross, gai=group_association_index(reliability.alpha, cross.xrr))


def one_hot_counts(unit_index: Array, label_index: Array, n_units: int, n_labels: int) -> Array:
    """`(labels, units)` counts of values given as (unit number, label number) pairs."""
    flat = np.bincount(np.asarray(label_index) * n_units + np.asarray(unit_index), minlength=n_labels * n_units)
    return flat.reshape(n_labels, n_units).astype(float)


def values_by_rater(
    label_index: Array, unit_index: Array, rater_index: Array, n_labels: int, n_units: int, n_raters: int
) -> sparse.csr_array:
    """`(labels × units, raters)`: 1 where the rater gave the label on the unit (one entry per value)."""
    rows = np.asarray(label_index) * n_units + np.asarray(unit_index)
    return sparse.csr_array((np.ones(rows.size), (rows, rater_index)), shape=(n_labels * n_units, n_raters))


def counts_of_rater_sets(values: sparse.csr_array, membership: Array | sparse.sparray, n_labels: int) -> Array:
    """`(labels, sets, units)`: the counts of the values of each set of raters, as one sparse product
    of the values by rater (`values_by_rater`) and `membership` `(raters, sets)`, 1 where the rater
    is in the set (a group; a group in one permutation). Integers in float64: exact in any order."""
    counts = values @ membership
    counts = counts.toarray() if sparse.issparse(counts) else counts
    by_unit = counts.reshape(n_labels, -1, counts.shape[-1])
    return np.ascontiguousarray(by_unit.transpose(0, 2, 1))  # units last: the figures sum along them


def correlation_p_value(r: Array, n: Array) -> Array:
    """Two-sided p of a correlation r over n pairs from Student's t with n − 2 degrees of freedom, as
    scipy.stats.pearsonr and spearmanr give it: t = r √((n − 2) / (1 − r²)); NaN below 3 pairs.
    The tail is scipy.special's Student t distribution function, which scipy.stats.t.sf itself
    calls: importing scipy.stats costs every build a second, and this is all it would be used for."""
    r = np.asarray(r, dtype=float)
    n = np.asarray(n, dtype=float)
    degrees = n - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.abs(r) * np.sqrt(degrees / ((1 - r) * (1 + r)))
        p_value = 2 * special.stdtr(np.where(degrees >= 1, degrees, 1), -statistic)
    return np.where((degrees >= 1) & ~np.isnan(r), np.minimum(p_value, 1.0), np.nan)


def average_ranks(values: Array) -> Array:
    """Ranks from 1, tied values sharing the mean of their ranks (scipy.stats.rankdata's "average")."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts_a_tie = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    first = np.flatnonzero(starts_a_tie)
    last = np.append(first[1:], values.size)  # a tie holds ranks first + 1 … last
    ranks = np.empty(values.size)
    ranks[order] = ((first + 1 + last) / 2)[np.cumsum(starts_a_tie) - 1]
    return ranks


def pearson_r(x: Array, y: Array) -> float:
    """Pearson's r of paired values; NaN with fewer than 2 pairs or a side that does not vary."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    # each side scaled to unit length before the product, as scipy.stats.pearsonr: a perfect
    # correlation comes out as 1 to the last bit, and its p as 0
    x_unit, y_unit = (side - side.mean() for side in (x, y))
    r = (x_unit / np.linalg.norm(x_unit)) @ (y_unit / np.linalg.norm(y_unit))
    return float(np.clip(r, -1.0, 1.0))


def correlations(x: Array, y: Array) -> dict[str, float]:
    """Pearson's r and Spearman's ρ (r of the average ranks) of paired values, each with its
    two-sided p (`correlation_p_value`), as scipy.stats.pearsonr and spearmanr give them: the one
    implementation of both, for `score_correlations` and the judges' ρ."""
    n = np.asarray(x).size
    r = pearson_r(x, y)
    rho = pearson_r(average_ranks(x), average_ranks(y))
    return {
        "pearson_r": r,
        "pearson_p": float(correlation_p_value(r, n)),
        "spearman_rho": rho,
        "spearman_p": float(correlation_p_value(rho, n)),
    }
