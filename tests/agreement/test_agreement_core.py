"""`agreement_core` on its own: a package apart from the `dwh` command, its vars checked with one
line each, its ratio level equal to the `krippendorff` package, the per-group counts of the
permutation test equal to counting each group's values one by one, and the sequential permutation
test (`resampling.sequential_test`) equal to counting shuffle by shuffle."""

import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest
from krippendorff import alpha as package_alpha

from agreement_core import maths, resampling
from agreement_core.parallel import ordered_map
from agreement_core.settings import MonteCarloSettings, SettingsError
from common.errors import DwhError
from dwh.building.build_vars import checked_agreement_settings

DEFAULTS = {
    "agreement_seed": 20240601,
    "agreement_bootstrap": 1000,
    "agreement_permutations": 1000,
    "agreement_monte_carlo": True,
    "agreement_monte_carlo_questions": ["*"],
}


def test_the_package_imports_nothing_of_the_command() -> None:
    code = (
        "import sys, agreement_core.group_figures, agreement_core.replications, agreement_core.settings;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dwh', 'ingest')))"
    )
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert imported.strip() == "[]"


@pytest.mark.parametrize(
    ("var", "value", "message"),
    [
        ("agreement_seed", -1, "var agreement_seed: -1 is not a whole number of at least 0"),
        ("agreement_seed", "abc", "var agreement_seed: 'abc' is not a whole number of at least 0"),
        ("agreement_seed", True, "var agreement_seed: True is not a whole number of at least 0"),
        ("agreement_bootstrap", 0, "var agreement_bootstrap: 0 is not a whole number of at least 1"),
        ("agreement_permutations", 2.5, "var agreement_permutations: 2.5 is not a whole number of at least 1"),
        ("agreement_monte_carlo", "maybe", "var agreement_monte_carlo: 'maybe' is not true or false"),
        ("agreement_monte_carlo_questions", [], "var agreement_monte_carlo_questions: give a non-empty list"),
    ],
)
def test_a_var_the_figures_cannot_use_is_named(var: str, value: object, message: str) -> None:
    with pytest.raises(SettingsError, match="^" + message.replace("(", r"\(").replace("[", r"\[")):
        MonteCarloSettings.from_vars({**DEFAULTS, var: value})


def test_vars_as_dbt_hands_them_to_a_python_model() -> None:
    """A Python model's config holds the vars as text; a list given on the command line is text too."""
    settings = MonteCarloSettings.from_vars(
        {
            **DEFAULTS,
            "agreement_seed": "7",
            "agreement_monte_carlo": "False",
            "agreement_monte_carlo_questions": "['duo/*/*']",
        }
    )
    assert (settings.seed, settings.enabled, settings.questions) == (7, False, ("duo/*/*",))
    assert not settings.wants("duo", "en:ed", "empathy")  # the Monte Carlo is off


def test_a_pattern_that_matches_no_question_is_refused_before_the_build() -> None:
    questions = [("dices", "Q_overall"), ("duo", "empathy")]
    settings = MonteCarloSettings.from_vars(
        {**DEFAULTS, "agreement_monte_carlo_questions": ["dices/*/Q_Overall", "duo/*", "*/350/*"]}
    )
    assert settings.unmatched(questions) == ["dices/*/Q_Overall"]
    with pytest.raises(DwhError, match="'dices/\\*/Q_Overall' matches no question of seeds/judgement_questions.csv"):
        checked_agreement_settings(["--vars", "{agreement_monte_carlo_questions: ['dices/*/Q_Overall']}"])
    with pytest.raises(DwhError, match="^--vars: .* is not YAML"):
        checked_agreement_settings(["--vars={agreement_seed: [}"])
    checked_agreement_settings(["--vars", "{agreement_monte_carlo_questions: ['dices/*/Q_overall']}"])


@pytest.mark.parametrize("level", ["ordinal", "ratio"])
def test_ordinal_and_ratio_alpha_equal_the_package(level: str) -> None:
    """The two levels the warehouse's own questions do not use (nominal and interval: test_agreement_uncertainty.py)."""
    rng = np.random.default_rng(4)
    codes = np.array([1.0, 2.0, 4.0, 8.0])
    metric = maths.label_distances(codes, level)
    for _ in range(20):
        values = rng.integers(0, 4, size=(5, 12))
        values[rng.random(values.shape) < 0.25] = -1
        raters, units = np.nonzero(values >= 0)
        counts = maths.one_hot_counts(units, values[raters, units], 12, 4)
        data = np.where(values >= 0, codes[np.maximum(values, 0)], np.nan)
        ours = maths.krippendorff_alpha(counts, metric).alpha
        assert abs(ours - package_alpha(reliability_data=data, level_of_measurement=level)) <= 1e-9
        # the same figure for every group of a stack and every bootstrap weight of one
        stacked = maths.krippendorff_alpha(
            np.stack([counts, counts], axis=1)[:, None], metric, np.ones((3, 1, 12))
        ).alpha
        assert np.allclose(stacked, ours, atol=1e-12, equal_nan=True)


def test_folded_interval_counts_give_the_figures_of_every_label() -> None:
    """Interval counts folded into (n, Σ code, Σ code²) per unit (`Metric.condensed`, what the
    resamples read) give the α and xRR of the full label axis, for any unit weights."""
    rng = np.random.default_rng(12)
    codes = np.round(rng.uniform(1, 5, size=40), 2)  # a judge's own scores: many labels
    metric = maths.label_distances(codes, "interval")
    for _ in range(10):
        counts_x = rng.poisson(0.08, size=(40, 30)).astype(float)
        counts_y = rng.poisson(0.1, size=(40, 30)).astype(float)
        weights = rng.multinomial(30, np.full(30, 1 / 30), size=4).astype(float)
        folded_x, folded = metric.condensed(counts_x)
        folded_y, _ = metric.condensed(counts_y)
        assert folded_x.shape == (3, 30) and folded.moments and folded.condensed(folded_x)[0] is folded_x
        for unit_weights, draws in ((None, slice(None)), (weights, np.newaxis)):  # the figure, then 4 draws
            x, y, fx, fy = counts_x[:, draws], counts_y[:, draws], folded_x[:, draws], folded_y[:, draws]
            full_alpha = maths.krippendorff_alpha(x, metric, unit_weights).alpha
            assert np.allclose(maths.krippendorff_alpha(fx, folded, unit_weights).alpha, full_alpha, atol=1e-9)
            full_xrr = maths.cross_reliability(x, y, metric, unit_weights).xrr
            folded_xrr = maths.cross_reliability(fx, fy, folded, unit_weights).xrr
            assert np.allclose(folded_xrr, full_xrr, atol=1e-9, equal_nan=True)
    nominal = maths.label_distances(codes, "nominal")
    assert nominal.condensed(counts_x) == (counts_x, nominal)  # only interval δ folds


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_a_batch_of_draws_gives_each_draws_figures_as_computed_alone(level: str) -> None:
    """The draws' weighted sums over units (one matrix product for a batch, `maths.draws_sum`) give
    every draw the α and xRR of its own weights summed unit by unit, groups and references across:
    the sums of counts exactly, the figures to float rounding."""
    rng = np.random.default_rng(21)
    metric = maths.label_distances(np.arange(1.0, 5.0), level)
    counts_x = rng.poisson(0.7, size=(4, 3, 40)).astype(float)  # (labels, groups, units)
    counts_y = rng.poisson(1.5, size=(4, 1, 40)).astype(float)
    weights = rng.multinomial(40, np.full(40, 1 / 40), size=6).astype(float)  # (draws, units)
    alpha = maths.krippendorff_alpha(counts_x[:, None], metric, weights[:, None, :])
    cross = maths.cross_reliability(counts_x[:, None], counts_y[:, None], metric, weights[:, None, :])
    for draw, draw_weights in enumerate(weights):
        alone = maths.krippendorff_alpha(counts_x, metric, draw_weights)
        assert np.array_equal(alpha.n_values[draw], alone.n_values)
        assert np.allclose(alpha.alpha[draw], alone.alpha, rtol=1e-12, atol=1e-12, equal_nan=True)
        alone_cross = maths.cross_reliability(counts_x, counts_y, metric, draw_weights)
        assert np.array_equal(cross.n_units[draw], alone_cross.n_units)
        assert np.allclose(cross.xrr[draw], alone_cross.xrr, rtol=1e-12, atol=1e-12, equal_nan=True)


@pytest.mark.parametrize("level", ["nominal", "interval", "ratio"])
def test_xrr_sums_over_two_sets_of_units_add_as_the_sets_do(level: str) -> None:
    """Where δ is fixed, xRR's sums are linear in the units' weights (`maths.CrossSums`): the sums of
    the units' terms under two sets of weights add to the sums under both, and give the figures of
    `cross_reliability` under those weights. Ordinal δ depends on the totals: its sums refuse to add."""
    rng = np.random.default_rng(5)
    metric = maths.label_distances(np.arange(1.0, 5.0), level)
    counts_x = rng.poisson(0.6, size=(4, 1, 1, 30)).astype(float)  # (labels, draws, references, units)
    counts_y = rng.poisson(1.2, size=(4, 1, 3, 30)).astype(float)
    first, second = (rng.integers(0, 3, size=(5, 1, 30)).astype(float) for _ in range(2))  # (draws, 1, units)
    terms = maths.CrossTerms.of(counts_x, counts_y, metric).per_unit()
    both = terms.over_units(first) + terms.over_units(second)
    direct = maths.cross_reliability(counts_x, counts_y, metric, first + second)
    assert np.array_equal(both.n_units, direct.n_units)
    assert np.allclose(both.figures().xrr, direct.xrr, rtol=1e-12, atol=1e-12, equal_nan=True)
    assert np.allclose((both - terms.over_units(second)).figures().xrr, terms.over_units(first).figures().xrr)
    ordinal = maths.CrossTerms.of(counts_x, counts_y, maths.label_distances(np.arange(1.0, 5.0), "ordinal"))
    with pytest.raises(ValueError, match="ordinal"):
        ordinal.per_unit()
    with pytest.raises(ValueError, match="ordinal"):
        ordinal.sums(first) + ordinal.sums(second)


@pytest.mark.parametrize("level", ["nominal", "interval", "ratio"])
def test_xrr_of_every_two_sets_as_matrix_products_is_xrr_set_by_set(level: str) -> None:
    """`maths.cross_sums_of_sets` (each unit's terms as products of an X-side and a Y-side factor,
    summed as matrix products) gives every pair of sets the xRR `cross_reliability` gives it, folded
    interval counts too; ordinal δ depends on the totals and is refused."""
    rng = np.random.default_rng(17)
    metric = maths.label_distances(np.array([1.0, 2.0, 4.0, 5.0]), level)
    x = rng.poisson(0.4, size=(4, 3, 50)).astype(float)  # (labels, X sets, units): some units without a value
    y = rng.poisson(1.0, size=(4, 6, 50)).astype(float)
    direct = maths.cross_reliability(x[:, :, None], y[:, None], metric)  # (X sets, Y sets)
    for counts_x, counts_y, of_level in (
        (x, y, metric),
        (metric.condensed(x)[0], metric.condensed(y)[0], metric.condensed(x)[1]),
    ):
        by_products = maths.cross_sums_of_sets(counts_x, counts_y, of_level)
        assert np.array_equal(by_products.n_units, direct.n_units)
        assert np.allclose(by_products.figures().xrr, direct.xrr, rtol=1e-12, atol=1e-12, equal_nan=True)
    with pytest.raises(ValueError, match="ordinal"):
        maths.cross_sums_of_sets(x, y, maths.label_distances(np.arange(1.0, 5.0), "ordinal"))


def test_distinct_columns_are_numpys_unique_columns_in_its_order() -> None:
    """The units' patterns (`resampling.distinct_columns`, what every resample reads) are those of
    np.unique over the columns, in the same order, with the same unit numbers and counts."""
    rng = np.random.default_rng(4)
    for shape in [(3, 0), (1, 7), (6, 300), (12, 2000)]:
        table = rng.integers(0, 3, size=shape).astype(float)
        table[:, rng.random(shape[1]) < 0.3] = 0.0
        patterns, of_unit, n_units = resampling.distinct_columns(table)
        unique, inverse, counts = np.unique(table, axis=1, return_inverse=True, return_counts=True)
        assert np.array_equal(patterns, unique) and np.array_equal(of_unit, inverse.ravel())
        assert np.array_equal(n_units, counts)


def test_the_permutation_counts_equal_each_groups_values_counted_one_by_one() -> None:
    rng = np.random.default_rng(8)
    n_raters, n_units = 9, 7
    values = rng.integers(-1, 3, size=(n_raters, n_units))
    raters, units = np.nonzero(values >= 0)
    groups = np.array([0, 0, 1, 1, 1, 2, 2, 2, 2])
    rater_values = resampling.RaterValues(values[raters, units], raters, units, groups, n_labels=3, n_units=n_units)
    shuffled = np.stack([rng.permutation(groups) for _ in range(5)])
    counted = rater_values.group_counts(shuffled)
    for permutation, labels in enumerate(shuffled):
        for group in range(3):
            members = values[labels == group]
            expected = np.stack([(members == label).sum(axis=0) for label in range(3)])
            assert np.array_equal(counted[:, permutation, group], expected)
    # some of the groups, in the order asked: what a sequential test computes for the groups still open
    assert np.array_equal(rater_values.group_counts(shuffled, np.array([2, 0])), counted[:, :, [2, 0]])


def test_the_stopping_count_keeps_every_decision_at_0_05() -> None:
    """`stopping_count`'s derivation, in exact fractions for every P up to 5000: a stopped p is above
    0.05, every full p ≤ 0.05 has a smaller tail count below h (so it is never stopped), and no
    smaller h would keep them all (h saves as much as the promise allows)."""
    level = Fraction(1, 20)
    assert resampling.SIGNIFICANCE == level and resampling.stopping_count(1000) == 25
    for n_permutations in range(1, 5001):
        h = resampling.stopping_count(n_permutations)
        assert Fraction(2 * (1 + h), 1 + n_permutations) > level  # the least p a stopped figure can have
        # the tail counts whose full p is ≤ 0.05 are 0, 1, … up to the largest: counted up to it
        largest = -1
        while largest < n_permutations and Fraction(2 * (2 + largest), 1 + n_permutations) <= level:
            largest += 1
        assert h == max(largest + 1, 1)


def sequential_by_hand(observed: float, null: np.ndarray, stop_at: int) -> tuple[float, int]:
    """The p and the shuffles counted, one shuffle at a time: stop at the first whose smaller tail
    count reaches `stop_at`, else count all; p = min(1, 2 · min(p_low, p_high)) of those counted."""
    if np.isnan(observed):
        return np.nan, 0
    n = n_valid = at_least = at_most = 0
    for value in null:
        n += 1
        if not np.isnan(value):
            n_valid += 1
            at_least += value >= observed - resampling.TIE_TOLERANCE
            at_most += value <= observed + resampling.TIE_TOLERANCE
        if min(at_least, at_most) >= stop_at:
            break
    return min(1.0, 2 * min((1 + at_most) / (1 + n_valid), (1 + at_least) / (1 + n_valid))), n


class Recorder:
    """A null given in advance, handed out as a sequential test asks for it; what it was asked for."""

    def __init__(self, null: np.ndarray) -> None:
        self.null = null
        self.asked: list[tuple[slice, np.ndarray]] = []

    def __call__(self, shuffles: slice, items: np.ndarray) -> np.ndarray:
        self.asked.append((shuffles, items))
        return self.null[shuffles][..., items]


def test_a_sequential_test_stops_each_figure_where_counting_one_by_one_stops_it(monkeypatch) -> None:
    """`sequential_test` on nulls given in advance (ties, missing figures, a NaN observed figure):
    each figure stops at the first shuffle whose smaller tail count reaches h, with the two-sided p of
    the shuffles up to it; a figure never stopped has the p of all P; batches of any size give the
    same; an item (the last axis) is computed only while one of its figures is open."""
    rng = np.random.default_rng(21)
    n_permutations = 300
    null = rng.normal(size=(n_permutations, 3, 6)).round(1)  # rounded: ties
    null[rng.random(null.shape) < 0.05] = np.nan
    observed = rng.normal(scale=1.5, size=(3, 6)).round(1)
    observed[:, 0] = [2.9, -3.1, 2.7]  # an item never stopped
    observed[1, 3] = np.nan
    h = resampling.stopping_count(n_permutations)
    expected = np.array(
        [sequential_by_hand(observed[i], null[:, *i], h) for i in np.ndindex(observed.shape)], dtype=object
    )
    for budget in (resampling.BATCH_ELEMENTS, 60, 7):
        monkeypatch.setattr(resampling, "BATCH_ELEMENTS", budget)
        null_of = Recorder(null)
        test = resampling.sequential_test(observed, null_of, n_permutations, lambda n_items: 3 * n_items)
        asked = null_of.asked
        assert np.array_equal(test.p_values.ravel(), expected[:, 0].astype(float), equal_nan=True)
        assert np.array_equal(test.n_shuffles.ravel(), expected[:, 1].astype(int))
        assert (test.n_shuffles[:, 0] == n_permutations).all() and (test.n_shuffles < n_permutations).sum() >= 8
        assert [shuffles.start for shuffles, _ in asked] == [0, *[shuffles.stop for shuffles, _ in asked[:-1]]]
        for shuffles, items in asked:  # asked for open items only
            assert (test.n_shuffles[:, items] > shuffles.start).any(axis=0).all()
        assert (test.n_computed >= test.n_shuffles.max(axis=0)).all()
    assert len(asked) > 10  # the last budget: many small batches


def test_the_build_fingerprint_reads_the_package_source_not_its_bytecode(tmp_path) -> None:
    """dbt's Python models import agreement_core, which writes __pycache__: that is no change to the
    project, or every build after the first would be a full one."""
    from dwh.building.build_plan import project_fingerprint

    package = tmp_path / "agreement_core"
    package.mkdir()
    (package / "maths.py").write_text("X = 1\n")
    before = project_fingerprint(tmp_path)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "maths.cpython-311.pyc").write_bytes(b"\x00bytecode")
    assert project_fingerprint(tmp_path) == before
    (package / "maths.py").write_text("X = 2\n")
    assert project_fingerprint(tmp_path) != before


def test_the_questions_computed_side_by_side_come_back_in_order_a_few_read_ahead() -> None:
    """`ordered_map` gives each item's result in the items' order whatever order the threads finish
    in, reads no more than two items per worker ahead of what it gave back, and raises what failed."""
    read: list[int] = []

    def items() -> Iterator[int]:
        for number in range(24):
            read.append(number)
            yield number

    def later_for_even(number: int) -> int:
        time.sleep(0.02 if number % 2 == 0 else 0.0)  # the odd ones finish first
        return number * number

    given_back: list[int] = []
    for result in ordered_map(later_for_even, items(), workers=3):
        assert len(read) - len(given_back) <= 2 * 3 + 1
        given_back.append(result)
    assert given_back == [number * number for number in range(24)]

    def fails_on_five(number: int) -> int:
        if number == 5:
            raise ValueError("five")
        return number

    with pytest.raises(ValueError, match="five"):
        list(ordered_map(fails_on_five, range(10), workers=2))
