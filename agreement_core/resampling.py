"""The Monte Carlo around the agreement figures of `agreement_core.maths`: the percentile bootstrap
over units, GRASP's permutation test of group labels, Benjamini–Hochberg. Every draw and
permutation is computed by the same functions as the row's own figure. Every bootstrap (α's,
xRR's of the replications and the judges, the judges' paired intervals) runs through `bootstrap`, on
the figures' own draws (`alpha_draws`, `xrr_draws`); every permutation test
(GRASP's here, the judges' alignment and paired tests) runs through `sequential_test`: a figure
stops drawing shuffles once its p is known to be above 0.05 (`stopping_count`), every decision at
0.05 staying that of all P shuffles.

Reproducible on any machine: random numbers come from numpy's PCG64 seeded from the seed and the
figure's name (not from the order models or threads run in); counts are integers held exactly in
float64, so their sums do not depend on the order they are added in (a batch of draws' sums of
disagreements, a matrix product, may differ in their last bits between CPUs: `maths.draws_sum`).
"""

import hashlib
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np
from scipy import sparse

from agreement_core import maths

Array = np.ndarray
# a null figure equal to the observed one within float noise counts as "at least as extreme"
TIE_TOLERANCE = 1e-12
# how many numbers one batch of draws or permutations may hold at once: memory stays flat as data grows
BATCH_ELEMENTS = 4_000_000
# the level whose decisions (p ≤ α, Benjamini–Hochberg q < α) a sequential permutation test keeps
# exactly as the test of all P shuffles makes them (`stopping_count`)
SIGNIFICANCE = Fraction(1, 20)


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
    of_unit: Array  # each unit's pattern number

    @classmethod
    def of(cls, counts: Array, metric: maths.Metric) -> "UnitPatterns":
        counts, metric = metric.condensed(counts)
        patterns, of_unit, n_units = distinct_columns(counts.reshape(-1, counts.shape[-1]))
        return cls(patterns.reshape(*counts.shape[:-1], -1), n_units, metric, of_unit)

    def weights(self, picked_units: Array) -> Array:
        """`(draws, patterns)`: how many of each draw's picked units (`(draws, picks)` unit numbers,
        `unit_resamples`) have each pattern."""
        n_draws, n_patterns = picked_units.shape[0], self.n_units.size
        numbered = self.of_unit[picked_units] + n_patterns * np.arange(n_draws)[:, None]
        return np.bincount(numbered.ravel(), minlength=n_draws * n_patterns).reshape(n_draws, n_patterns).astype(float)


def distinct_columns(table: Array) -> tuple[Array, Array, Array]:
    """`np.unique(table, axis=1, return_inverse=True, return_counts=True)`, in the same order (the
    first row sorts first), by one lexicographic sort of the columns: np.unique sorts them as records,
    about ten times slower, and a judges' pair makes its patterns many times."""
    order = np.lexsort(table[::-1])
    in_order = table[:, order]
    starts = np.ones(in_order.shape[1], dtype=bool)
    starts[1:] = (in_order[:, 1:] != in_order[:, :-1]).any(axis=0)
    of_unit = np.empty(order.size, dtype=np.int64)
    of_unit[order] = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    return in_order[:, first], of_unit, np.diff(np.append(first, order.size))


@dataclass(frozen=True)
class Resampled:
    """A figure to bootstrap: the units' patterns it reads, and its value on a batch of resamples
    (`figure(weights)`, weights `(draws, patterns)`: how often each resample picked each pattern)."""

    patterns: UnitPatterns
    figure: Callable[[Array], Array]


def alpha_draws(patterns: UnitPatterns) -> Resampled:
    """α of each set of counts in `patterns` (`(labels, sets, patterns)`): `(draws, sets)`."""

    def alpha_of(weights: Array) -> Array:
        return maths.krippendorff_alpha(patterns.counts[:, None], patterns.metric, weights[:, None, :]).alpha

    return Resampled(patterns, alpha_of)


def xrr_draws(patterns: UnitPatterns) -> Resampled:
    """xRR of the first set of counts in `patterns` (`(labels, 1 + R, patterns)`: a judge, one side of
    a replication) with each of the others (references): `(draws, 1, R)`."""

    def xrr_of(weights: Array) -> Array:
        x, y = patterns.counts[:, None, :1], patterns.counts[:, None, 1:]
        return maths.cross_reliability(x, y, patterns.metric, weights[:, None, :]).xrr

    return Resampled(patterns, xrr_of)


def bootstrap(
    figures: dict[object, Resampled], rng: np.random.Generator, n_draws: int, *, shared_units: int | None = None
) -> dict[object, Array]:
    """The one bootstrap of the warehouse: each figure on `n_draws` resamples of the units with
    replacement, in batches (memory stays flat), `(draws, ...)` per figure.

    Alone (the default), each figure draws its own resamples from `rng`, one figure after the other:
    a resample of N units picks each pattern a multinomial(N, share of units with the pattern) number
    of times, drawn per pattern, so the cost grows with the distinct patterns, not the units. With
    `shared_units` (a paired bootstrap), every figure reads the same resamples of that many units,
    drawn unit by unit (`unit_resamples`), each counting the picks of its own patterns
    (`UnitPatterns.weights`): the difference of two figures' draws is then the draws of their difference."""
    if shared_units is None:
        return {key: _own_draws(resampled, rng, n_draws) for key, resampled in figures.items()}
    largest = max(resampled.patterns.counts.size for resampled in figures.values())
    batch = batch_size(max(largest, shared_units))
    draws: dict[object, list[Array]] = {key: [] for key in figures}
    for start in range(0, n_draws, batch):
        picked = unit_resamples(rng, shared_units, min(batch, n_draws - start))
        for key, resampled in figures.items():
            draws[key].append(resampled.figure(resampled.patterns.weights(picked)))
    return {key: np.concatenate(of_figure) for key, of_figure in draws.items()}


def _own_draws(resampled: Resampled, rng: np.random.Generator, n_draws: int) -> Array:
    patterns = resampled.patterns
    total = int(patterns.n_units.sum())
    shares = patterns.n_units / total
    batch = batch_size(patterns.counts.size)
    return np.concatenate(
        [
            resampled.figure(rng.multinomial(total, shares, size=min(batch, n_draws - start)))
            for start in range(0, n_draws, batch)
        ]
    )


def unit_resamples(rng: np.random.Generator, n_units: int, n_draws: int) -> Array:
    """`(draws, n_units)`: the unit numbers each of `n_draws` resamples of n units with replacement
    picks. Drawn per unit, so that figures whose units fall into different patterns share them
    (each counts its patterns' picks: `UnitPatterns.weights`)."""
    return rng.integers(0, n_units, size=(n_draws, n_units))


def bootstrap_alpha_interval(
    group_counts: Array, metric: maths.Metric, rng: np.random.Generator, n_draws: int
) -> tuple[Array, Array]:
    """95% percentile interval of each group's α (`group_counts` `(labels, groups, units)`),
    resampling the units with replacement. No units: no interval (NaN)."""
    if group_counts.shape[-1] == 0:
        no_interval = np.full(group_counts.shape[1:-1], np.nan)
        return no_interval, no_interval.copy()
    draws = bootstrap({"alpha": alpha_draws(UnitPatterns.of(group_counts, metric))}, rng, n_draws)
    return percentile_interval(draws["alpha"])


def bootstrap_xrr_interval(
    counts_x: Array, counts_y: Array, metric: maths.Metric, rng: np.random.Generator, n_draws: int
) -> tuple[float, float]:
    """95% percentile interval of the xRR of X with Y (`(labels, units)` each), resampling the units."""
    patterns = UnitPatterns.of(np.stack([counts_x, counts_y], axis=1), metric)
    low, high = percentile_interval(bootstrap({"xrr": xrr_draws(patterns)}, rng, n_draws)["xrr"])
    return float(low.item()), float(high.item())


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

    def group_counts(self, labels_by_rater: Array, groups: Array | None = None) -> Array:
        """`(labels, permutations, groups, units)`: each group's counts under each row of
        `labels_by_rater` `(permutations, raters)`: each rater's group membership in every permutation,
        as one product with the values by rater (`maths.counts_of_rater_sets`). Only the given group
        numbers, in their order (default every group): a group's counts are its own raters' values,
        so a sequential test computes the groups it has not decided yet and no other."""
        groups = np.arange(self.n_groups) if groups is None else np.asarray(groups)
        position = np.full(self.n_groups, -1)
        position[groups] = np.arange(groups.size)
        column = position[labels_by_rater]  # (permutations, raters): the rater's group among `groups`, or −1
        permutation, rater = np.nonzero(column >= 0)
        n_permutations, n_raters = labels_by_rater.shape
        membership = np.zeros((n_raters, n_permutations, groups.size))
        membership[rater, permutation, column[permutation, rater]] = 1
        counts = maths.counts_of_rater_sets(self.values_by_rater, membership.reshape(n_raters, -1), self.n_labels)
        return counts.reshape(self.n_labels, n_permutations, groups.size, self.n_units)


def tails(observed: Array, null: Array) -> tuple[Array, Array, Array]:
    """Per permutation (axis 0 of `null`): whether its figure exists, and whether it is at least /
    at most the observed one (within TIE_TOLERANCE)."""
    valid = ~np.isnan(null)
    return valid, valid & (null >= observed - TIE_TOLERANCE), valid & (null <= observed + TIE_TOLERANCE)


def two_sided_p(observed: Array, at_least: Array, at_most: Array, n_valid: Array) -> Array:
    """Two-sided p = min(1, 2 · min(p_low, p_high)), p_high = (1 + at_least) / (1 + n_valid) and
    p_low = (1 + at_most) / (1 + n_valid), from the counts of the permutations whose figure exists.
    NaN where observed is."""
    p_high = (1 + at_least) / (1 + n_valid)
    p_low = (1 + at_most) / (1 + n_valid)
    return np.where(np.isnan(observed), np.nan, np.minimum(1.0, 2 * np.minimum(p_low, p_high)))


def permutation_p_values(observed: Array, null: Array) -> Array:
    """The two-sided p (`two_sided_p`) over every permutation of `null` (axis 0): P counts the
    permutations whose figure exists. NaN where observed is."""
    valid, at_least, at_most = tails(observed, null)
    return two_sided_p(observed, at_least.sum(axis=0), at_most.sum(axis=0), valid.sum(axis=0))


def stopping_count(n_permutations: int, level: Fraction = SIGNIFICANCE) -> int:
    """h of the sequential Monte Carlo p-value (Besag & Clifford 1991): a figure's test stops at the
    first shuffle where its smaller tail count, min(#{null ≥ observed}, #{null ≤ observed}), reaches
    h, and its p is `two_sided_p` over the n shuffles drawn until then, 2 (1 + h) / (1 + n_valid).

    h = ⌊α (1 + P) / 2⌋ (at least 1; 25 for P = 1000) keeps every decision at α of the test of all P:
    - a figure never stopped has the full test's p, exactly: the same shuffles, the same counts;
    - a stopped figure's p is ≥ 2 (1 + h) / (1 + P) > α, since 1 + h > α (1 + P) / 2; and its full
      p is above α too (its tail counts only grow after the stop). A full p ≤ α needs a smaller
      tail count c ≤ α (1 + P) / 2 − 1 < h: such a figure is never stopped;
    - so both runs have the same figures with p ≤ α, with the same p, and every other p above α;
    - Benjamini–Hochberg over a family (the NaN left out in both runs alike): q < α needs some rank
      k at or after the figure's with p_(k) · m / k < α, so p_(k) < α. Those p are the same in both
      runs and rank below every other p, so they have the same ranks, and each q < α is the same
      figure's with the same value: every q < α decision is unchanged.
    No smaller h keeps them all (a full p ≤ α can have c = h − 1), and a smaller h does flip
    decisions: `benchmarks/replay_sequential.py` on the sample's 4596 GRASP figures (P = 1000) saw
    h = 10 and 20 change 37 and 14 of the p ≤ 0.05 decisions, h = 25 none, saving 71% of the work."""
    return max(1, int(level * (1 + n_permutations) / 2))


@dataclass
class SequentialTest:
    """A sequential permutation test (`sequential_test`): p-values in the observed figures' shape,
    the shuffles each p counts (its stopping shuffle, P if it never stopped, 0 where the observed
    figure is NaN), and per item (the figures' last axis: a group, a reference) the shuffles whose
    null figures were computed: whole batches, so at least the largest n_shuffles of its figures.
    `min_p` the smallest p the test can give (`smallest_p`), `exact` whether it enumerated every
    distinct assignment instead of drawing (`exact_test`)."""

    p_values: Array
    n_shuffles: Array
    n_computed: Array
    min_p: float = float("nan")
    exact: bool = False


@dataclass
class _Tally:
    """A sequential test's running counts per figure: the shuffles whose figure exists, those at
    least / at most the observed, and the shuffles counted; `decided` once a figure stopped."""

    n_valid: Array
    at_least: Array
    at_most: Array
    n_shuffles: Array
    decided: Array

    @classmethod
    def start(cls, observed: Array) -> "_Tally":
        zeros = np.zeros(observed.shape, dtype=np.int64)
        return cls(zeros, zeros.copy(), zeros.copy(), zeros.copy(), np.isnan(observed))

    def add(self, observed: Array, null: Array, items: Array, first: int, stop_at: int) -> None:
        """Count the batch `null` `(shuffles, ..., len(items))`, shuffles first..first+len(null)−1,
        of the given items: each open figure stops at the exact first shuffle where its smaller tail
        count reaches `stop_at` (cumulative counts along the batch), else counts the whole batch.
        Whatever the batches, the same shuffles give the same stops."""
        valid, high, low = tails(observed[..., items], null)
        n_valid = self.n_valid[..., items] + np.cumsum(valid, axis=0)
        at_least = self.at_least[..., items] + np.cumsum(high, axis=0)
        at_most = self.at_most[..., items] + np.cumsum(low, axis=0)
        reached = np.minimum(at_least, at_most) >= stop_at
        still_open = ~self.decided[..., items]
        stops = still_open & reached.any(axis=0)
        last = np.where(stops, reached.argmax(axis=0), len(null) - 1)  # the shuffle counted last

        def counted(running: Array, before: Array) -> Array:
            return np.where(still_open, np.take_along_axis(running, last[None], axis=0)[0], before[..., items])

        self.n_valid[..., items] = counted(n_valid, self.n_valid)
        self.at_least[..., items] = counted(at_least, self.at_least)
        self.at_most[..., items] = counted(at_most, self.at_most)
        self.n_shuffles[..., items] = np.where(still_open, first + last + 1, self.n_shuffles[..., items])
        self.decided[..., items] |= stops

    def open_items(self) -> Array:
        """The items (last axis) with a figure not decided yet."""
        return np.flatnonzero(~self.decided.reshape(-1, self.decided.shape[-1]).all(axis=0))


def sequential_test(
    observed: Array,
    null_of: Callable[[slice, Array], Array],
    n_permutations: int,
    elements_per_shuffle: Callable[[int], int],
    stop_at: int | None = None,
) -> SequentialTest:
    """The two-sided permutation test of every observed figure, `observed` `(..., items)`, stopping
    each figure's test once its p is known to be above `SIGNIFICANCE` (`stopping_count`; `stop_at`
    another h, above P: never stop, the test of all P shuffles). `null_of(shuffles, items)` gives the
    null figures `(len(shuffles), ..., len(items))` of a range of shuffles for some items; it is
    called with consecutive ranges from shuffle 0, each once, so it may draw its shuffles as it goes.
    A batch computes only the items with a figure still open. The first holds 2h shuffles, the
    fewest a figure without ties can stop after, and each next one twice as many (so a figure never
    stopped costs a few batches), each within BATCH_ELEMENTS (`elements_per_shuffle(items)`). On the
    sample's questions (P = 1000), first batches of 25, 50 or 100, doubling or not, computed the same
    shuffles and took the same time within 10%."""
    stop_at = stopping_count(n_permutations) if stop_at is None else stop_at
    tally = _Tally.start(observed)
    n_computed = np.zeros(observed.shape[-1], dtype=np.int64)
    start, size = 0, 2 * stop_at
    while start < n_permutations and (items := tally.open_items()).size:
        stop = min(n_permutations, start + batch_size(elements_per_shuffle(items.size), most=size))
        tally.add(observed, null_of(slice(start, stop), items), items, start, stop_at)
        n_computed[items] += stop - start
        start, size = stop, 2 * size
    p_values = two_sided_p(observed, tally.at_least, tally.at_most, tally.n_valid)
    return SequentialTest(
        p_values=p_values,
        n_shuffles=tally.n_shuffles,
        n_computed=n_computed,
        min_p=smallest_p(n_permutations, exact=False),
    )


def exact_test(
    observed: Array,
    null_of: Callable[[slice, Array], Array],
    n_assignments: int,
    elements_per_shuffle: Callable[[int], int],
) -> SequentialTest:
    """The permutation test over every distinct assignment, each once, the observed one among them
    (`distinct_assignments`): never stopped, p = 2 · min(#{≥ observed}, #{≤ observed}) / #{assignments
    whose figure exists}, at most 1. `observed` and `null_of` as `sequential_test`'s, `null_of` given
    consecutive ranges of the assignments."""
    items = np.arange(observed.shape[-1])
    tally = _Tally.start(observed)
    size = batch_size(elements_per_shuffle(items.size))
    for start in range(0, n_assignments, size):
        stop = min(n_assignments, start + size)
        tally.add(observed, null_of(slice(start, stop), items), items, start, n_assignments + 1)
    # the observed assignment is one of those counted, in both tails: two_sided_p adds it once more
    with np.errstate(invalid="ignore", divide="ignore"):  # 0 / 0 where the observed figure is NaN: kept NaN
        p_values = two_sided_p(observed, tally.at_least - 1, tally.at_most - 1, tally.n_valid - 1)
    return SequentialTest(
        p_values=p_values,
        n_shuffles=tally.n_shuffles,
        n_computed=np.full(items.size, n_assignments),
        min_p=smallest_p(n_assignments, exact=True),
        exact=True,
    )


def group_label_test(
    observed: Array,
    null_of_labels: Callable[[Array, Array], Array],
    rater_groups: Array,
    rng: np.random.Generator,
    n_permutations: int,
    elements_per_shuffle: Callable[[int], int],
    stop_at: int | None = None,
) -> SequentialTest:
    """A test that shuffles group labels among raters, every group keeping its size (GRASP's test,
    the judges' alignment test): `null_of_labels(labels_by_rater, items)` gives the null figures of
    the rows of `labels_by_rater` `(shuffles, raters)`. Where the distinct assignments of the labels
    are fewer than P (`distinct_assignments`: 3 + 3 raters have 20), each is tested once, none drawn,
    and the p is exact (`exact_test`); else the P shuffles are drawn at once from `rng` and tested
    sequentially (`sequential_test`, `stop_at` as there)."""
    enumerated = distinct_assignments(rater_groups, n_permutations)
    if enumerated is not None:

        def null_of_enumerated(shuffles: slice, items: Array) -> Array:
            return null_of_labels(enumerated[shuffles], items)

        return exact_test(observed, null_of_enumerated, len(enumerated), elements_per_shuffle)
    shuffled = rng.permuted(np.tile(rater_groups, (n_permutations, 1)), axis=1)

    def null_of(shuffles: slice, items: Array) -> Array:
        return null_of_labels(shuffled[shuffles], items)

    return sequential_test(observed, null_of, n_permutations, elements_per_shuffle, stop_at)


@dataclass
class PermutationTest:
    """Each group's p of α, xRR and GAI (`(groups,)` each); `n_shuffles` `(3, groups)` the shuffles
    each of them counts (α, xRR, GAI), `n_computed` `(groups,)` the shuffles computed for each group
    (`SequentialTest`); `min_p` the smallest p the test can give (`smallest_p`), `exact` whether it
    enumerated every distinct assignment (`distinct_assignments`)."""

    alpha_p: Array
    xrr_p: Array
    gai_p: Array
    n_shuffles: Array
    n_computed: Array
    min_p: float = float("nan")
    exact: bool = False


def n_distinct_assignments(rater_groups: Array) -> int:
    """How many distinct ways the group labels can be dealt to the raters, every group keeping its
    size: the multinomial n! / (n_1! ⋯ n_k!) (3 + 3 raters: 20)."""
    count = math.factorial(rater_groups.size)
    for size in np.bincount(rater_groups):
        count //= math.factorial(int(size))
    return count


def distinct_assignments(rater_groups: Array, most: int) -> Array | None:
    """Every distinct assignment of the group labels to the raters `(assignments, raters)` (the
    observed one among them), in a fixed order, when there are at most `most`; else None. With
    fewer distinct assignments than shuffles, shuffles only repeat them: the exact test enumerates."""
    if n_distinct_assignments(rater_groups) > most:
        return None
    sizes = np.bincount(rater_groups)
    rows: list[Array] = []

    def place(free: tuple[int, ...], group: int, row: Array) -> None:
        if group == sizes.size - 1:
            row[list(free)] = group
            rows.append(row.copy())
            return
        for chosen in itertools.combinations(free, int(sizes[group])):
            row[list(chosen)] = group
            place(tuple(position for position in free if position not in chosen), group + 1, row)

    place(tuple(range(rater_groups.size)), 0, np.zeros(rater_groups.size, dtype=rater_groups.dtype))
    return np.array(rows)


def distinct_swaps(of_unit: Array, n_patterns: int, most: int) -> Array | None:
    """Every way to swap or keep each unit's two values (a paired test's assignments: 2^units, the
    observed one, nothing swapped, first) as how many units of each pattern it swaps `(2^units,
    patterns)` (`of_unit` each unit's pattern number, `UnitPatterns.of_unit`), when there are at most
    `most`; else None: 9 units have 512, fewer than P = 1000 shuffles, which would only repeat them."""
    if 2**of_unit.size > most:
        return None
    swapped = (np.arange(2**of_unit.size)[:, None] >> np.arange(of_unit.size)) & 1  # (assignments, units)
    by_pattern = np.zeros((of_unit.size, n_patterns), dtype=np.int64)
    by_pattern[np.arange(of_unit.size), of_unit] = 1
    return swapped @ by_pattern


def smallest_p(n_assignments: int, exact: bool) -> float:
    """The smallest two-sided p a test can give: 2 / N over N distinct assignments enumerated (the
    observed one counts in each tail), 2 / (1 + P) over P shuffles; at most 1. 3 + 3 raters: 0.1,
    so no p of theirs can reach 0.05."""
    return min(1.0, 2 / n_assignments if exact else 2 / (1 + n_assignments))


def group_permutation_test(
    observed: maths.GroupFigures,
    values: RaterValues,
    all_counts: Array,
    metric: maths.Metric,
    rng: np.random.Generator,
    n_permutations: int,
    *,
    stop_at: int | None = None,
) -> PermutationTest:
    """GRASP's test of the observed figures of the groups of one dimension (group numbers as in
    `values.rater_groups`): shuffle the group labels among the raters (every group keeps its size)
    and recompute each group's α, xRR and GAI with `maths.group_figures`, sequentially
    (`sequential_test`; `stop_at` as there). `all_counts` `(labels, units)` holds every value, those
    of raters in no group of the dimension included (they are always outsiders): given it, a group's
    null figures depend only on the raters a shuffle puts in it, so a shuffle's figures are computed
    for the groups still open only. The P shuffles are drawn at once, as the test of all P draws them.

    Where the distinct assignments of the labels are fewer than P (a small pool: 3 + 3 raters have
    20), the test enumerates them instead, each once, none drawn, and gives the exact p: the share of
    assignments at least as extreme, the observed one included, two-sided as `two_sided_p`
    (`group_label_test`)."""

    def null_of(labels_by_rater: Array, groups: Array) -> Array:
        figures = maths.group_figures(values.group_counts(labels_by_rater, groups), all_counts, metric)
        return np.stack([figures.alpha, figures.xrr, figures.gai], axis=1)  # (shuffles, 3, groups)

    def elements_per_shuffle(n_groups: int) -> int:
        return values.n_labels * n_groups * values.n_units + values.unit_index.size

    test = group_label_test(
        np.stack([observed.alpha, observed.xrr, observed.gai]),
        null_of,
        values.rater_groups,
        rng,
        n_permutations,
        elements_per_shuffle,
        stop_at,
    )
    alpha_p, xrr_p, gai_p = test.p_values
    return PermutationTest(
        alpha_p,
        xrr_p,
        gai_p,
        n_shuffles=test.n_shuffles,
        n_computed=test.n_computed,
        min_p=test.min_p,
        exact=test.exact,
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
