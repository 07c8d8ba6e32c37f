"""What the Monte Carlo figures of the agreement marts promise (docs/INTERFACE.md, "Uncertainty"),
and the deterministic figures beside them against independent numpy / scipy code.

Monte Carlo figures cannot equal another program's to 1e-9, so these tests check what they promise:
the same seed gives the same figures; another seed gives figures within their Monte Carlo error; with
no group effect the permutation p-values are uniform, with a planted one they are small; the
sequential permutation test keeps every decision at 0.05 of the test of all P shuffles and stops
early; the bootstrap interval covers the population's α about 95% of the time. Most run `agreement_core`
directly on generated numpy arrays (fast); the last ones read one built sample warehouse.
"""

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from krippendorff import alpha as package_alpha

from agreement_core import maths, resampling
from tests import agreement_reference as reference
from tests import monte_carlo_rerun
from tests.figure_checks import assert_calibrated, assert_keeps_decisions
from tests.helpers import PROJECT_ROOT, BuiltWarehouse

NOMINAL_3 = maths.label_distances(np.arange(3), "nominal")
TOLERANCE = 1e-9


def one_hot(values: np.ndarray, n_labels: int) -> np.ndarray:
    """`(labels, raters, units)` one-hot counts of a raters × units matrix of label numbers (−1: no value)."""
    counts = np.zeros((n_labels, *values.shape))
    raters, units = np.nonzero(values >= 0)
    counts[values[raters, units], raters, units] = 1.0
    return counts


def ratings_without_group_effect(rng: np.random.Generator, n_raters: int, n_units: int) -> np.ndarray:
    """Raters × units label numbers: each unit has its own leaning (so raters agree beyond chance),
    the same for every rater; some values missing."""
    leanings = rng.dirichlet([0.6, 0.6, 0.6], size=n_units)
    draws = rng.random((n_raters, n_units))
    values = (draws[..., None] > np.cumsum(leanings, axis=1)[None]).sum(axis=2)
    values[rng.random((n_raters, n_units)) < 0.2] = -1
    return values


# --------------------------------------------------------------------------- the formulas, exact


@pytest.mark.parametrize("level", ["nominal", "interval"])
def test_alpha_and_xrr_equal_the_independent_code(level: str) -> None:
    rng = np.random.default_rng(7)
    codes = np.arange(1, 6)
    metric = maths.label_distances(codes, level)
    compared = 0
    for _ in range(40):
        n_raters, n_units = rng.integers(2, 9), rng.integers(1, 12)
        values = rng.integers(0, rng.integers(1, 6), size=(n_raters, n_units))
        values[rng.random(values.shape) < 0.3] = -1
        counts = one_hot(values, 5)
        data = np.where(values >= 0, values + 1.0, np.nan)
        ours = maths.krippendorff_alpha(counts.sum(axis=1), metric).alpha
        pairable = any(len(unit) >= 2 for unit in unit_values(values))
        expected = reference.package_alpha(data, reference_question(list(codes), level)) if pairable else None
        if expected is None:
            assert np.isnan(ours)
        else:
            compared += 1
            assert abs(ours - expected) <= TOLERANCE
            assert abs(ours - package_alpha(reliability_data=data, level_of_measurement=level)) <= TOLERANCE
        half = n_raters // 2
        x, y = counts[:, :half].sum(axis=1), counts[:, half:].sum(axis=1)
        ours_xrr = maths.cross_reliability(x, y, metric)
        expected_xrr = reference.cross_replication_reliability(
            unit_values(values[:half]), unit_values(values[half:]), reference_question(list(codes), level)
        )
        assert ours_xrr.n_units == expected_xrr.n_units
        if expected_xrr.xrr is None:
            assert np.isnan(ours_xrr.xrr)
        else:
            assert abs(ours_xrr.xrr - expected_xrr.xrr) <= TOLERANCE
            assert abs(ours_xrr.observed_disagreement - expected_xrr.observed_disagreement) <= TOLERANCE
    assert compared >= 20


def test_benjamini_hochberg_equals_scipy() -> None:
    rng = np.random.default_rng(3)
    p_values = np.concatenate([rng.random(30) ** 3, [np.nan, 1.0, 1.0]])
    q_values = resampling.benjamini_hochberg(p_values)
    present = ~np.isnan(p_values)
    assert np.isnan(q_values[~present]).all()
    assert np.allclose(q_values[present], scipy.stats.false_discovery_control(p_values[present]), atol=1e-12)
    assert (q_values[present] >= p_values[present]).all()


# ------------------------------------------------------------------------------ reproducibility


def permutation_test(
    values: np.ndarray, groups: np.ndarray, seed: int, n_permutations: int = 200, stop_at: int | None = None
) -> resampling.PermutationTest:
    """GRASP's test of the groups (one number per rater) of a raters × units matrix of label numbers:
    sequential as the marts compute it, or with `stop_at` above P the test of all P shuffles."""
    raters, units = np.nonzero(values >= 0)
    labels = values[raters, units]
    rater_values = resampling.RaterValues(labels, raters, units, groups, n_labels=3, n_units=values.shape[1])
    all_counts = maths.one_hot_counts(units, labels, values.shape[1], 3)
    observed = maths.group_figures(rater_values.group_counts(groups[None, :])[:, 0], all_counts, NOMINAL_3)
    rng = resampling.generator(seed, "test")
    return resampling.group_permutation_test(
        observed, rater_values, all_counts, NOMINAL_3, rng, n_permutations, stop_at=stop_at
    )


def within_monte_carlo_error(p: np.ndarray, p_other: np.ndarray, n_permutations: int) -> np.ndarray:
    """Whether two seeds' p of the same figures differ by less than 5 standard errors of a difference.
    Of all P shuffles: p = 2 p₁ with p₁ the one-sided share, a standard error of 2 √(p₁ (1 − p₁) / P).
    Above 0.05 the sequential test's p is 2 (1 + h) / (1 + n), n the shuffles it took to find h in
    its smaller tail: negative binomial, so log n (and log p) has a standard error of about 1 / √h."""
    exact = np.sqrt(np.maximum(p * (2 - p), 0.01) / n_permutations)
    log_error = 1 / np.sqrt(resampling.stopping_count(n_permutations))
    return (np.abs(p - p_other) <= 5 * np.sqrt(2) * exact) | (
        np.abs(np.log(p) - np.log(p_other)) <= 5 * np.sqrt(2) * log_error
    )


def test_the_same_seed_gives_identical_figures_and_another_seed_figures_within_their_error() -> None:
    rng = np.random.default_rng(11)
    values = ratings_without_group_effect(rng, 40, 80)
    groups = np.repeat(np.arange(4), 10)
    first, again, other = (permutation_test(values, groups, seed, 400) for seed in (1, 1, 2))
    for name in ("alpha_p", "xrr_p", "gai_p"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
        p, p_other = getattr(first, name), getattr(other, name)
        assert within_monte_carlo_error(p, p_other, 400).all(), (name, p, p_other)
    assert np.array_equal(first.n_shuffles, again.n_shuffles)

    group_counts = one_hot(values, 3)
    by_group = np.stack([group_counts[:, groups == g].sum(axis=1) for g in range(4)], axis=1)
    intervals = [
        resampling.bootstrap_alpha_interval(by_group, NOMINAL_3, resampling.generator(seed, "draws"), 1000)
        for seed in (5, 5, 6)
    ]
    assert all(np.array_equal(a, b) for a, b in zip(intervals[0], intervals[1]))
    width = intervals[0][1] - intervals[0][0]
    # the 2.5th percentile of 1000 draws varies by about 0.02 of the interval's width (normal draws)
    for bound in (0, 1):
        assert (np.abs(intervals[0][bound] - intervals[2][bound]) <= 0.15 * width).all()


# ----------------------------------------------------------------------------- permutation test


def test_without_a_group_effect_the_p_values_are_uniform_and_the_sequential_ones_no_smaller() -> None:
    """250 generated rating sets of 3 groups of 10 raters, labels independent of group. One group's
    p-value per set: the groups of one set share their data, and the KS test needs independent draws.
    The test of all P shuffles gives uniform p-values. The sequential test (the marts') gives the same
    p ≤ 0.05, and above it estimates that are never too small: P(p ≤ α) ≤ α within Monte Carlo error
    for every α."""
    rng = np.random.default_rng(2024)
    full, sequential = [], []
    for rating_set in range(250):
        values = ratings_without_group_effect(rng, 30, 40)
        groups = rng.permutation(np.repeat(np.arange(3), 10))
        full.append(permutation_test(values, groups, rating_set, 199, stop_at=200).gai_p[0])
        sequential.append(permutation_test(values, groups, rating_set, 199).gai_p[0])
    assert_calibrated(np.array(full), np.array(sequential))


def rating_sets(rng: np.random.Generator, n_sets: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Rating sets of 6 groups of 10 raters on 60 units, each group sharing a view of its own on a
    share of its values (0 for most groups, up to 0.4): from no effect through p near 0.05 to p ≈ 0."""
    groups = np.repeat(np.arange(6), 10)
    for _ in range(n_sets):
        values = ratings_without_group_effect(rng, 60, 60)
        for group in range(6):
            own_view = ratings_without_group_effect(rng, 1, 60)[0]
            planted = rng.random((10, 60)) < rng.choice([0, 0, 0, 0.15, 0.25, 0.4])
            members = values[groups == group]
            values[groups == group] = np.where(planted & (own_view >= 0), own_view[None, :], members)
        yield values, groups


def test_the_sequential_test_keeps_every_decision_of_the_test_of_all_p_shuffles() -> None:
    """Every p ≤ 0.05 of all P = 1000 shuffles is the sequential test's, exactly; every other
    sequential p is above 0.05; a figure never stopped has the p of all P; Benjamini–Hochberg's
    q < 0.05 over a set's groups are the same groups with the same q (`resampling.stopping_count`)."""
    rng = np.random.default_rng(31)
    near, significant, stopped, discoveries = 0, 0, 0, 0
    for seed, (values, groups) in enumerate(rating_sets(rng, 30)):
        full = permutation_test(values, groups, seed, 1000, stop_at=1001)
        sequential = permutation_test(values, groups, seed, 1000)
        never_stopped = sequential.n_shuffles == 1000
        for number, name in enumerate(("alpha_p", "xrr_p", "gai_p")):
            p_full, p = getattr(full, name), getattr(sequential, name)
            assert_keeps_decisions(p_full, p)
            assert np.array_equal(p[never_stopped[number]], p_full[never_stopped[number]])
            near += ((p_full > 0.05) & (p_full <= 0.15)).sum()
            significant += (p_full <= 0.05).sum()
        stopped += (~never_stopped).sum()
        q_full, q = resampling.benjamini_hochberg(full.gai_p), resampling.benjamini_hochberg(sequential.gai_p)
        assert_keeps_decisions(full.gai_p, sequential.gai_p, q_full, q)
        discoveries += (q < 0.05).sum()
    # the sets hold what makes the promise bite: significant figures, figures just above 0.05, stops
    assert significant >= 40 and near >= 10 and stopped >= 200 and discoveries >= 10


def test_the_sequential_test_is_the_same_whatever_its_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of one or two shuffles (BATCH_ELEMENTS small) give the p-values and stops of the usual
    ones: each figure stops at an exact shuffle, wherever the batches end."""
    values, groups = next(rating_sets(np.random.default_rng(8), 1))
    usual = permutation_test(values, groups, 3, 1000)
    monkeypatch.setattr(resampling, "BATCH_ELEMENTS", 20_000)
    small = permutation_test(values, groups, 3, 1000)
    for name in ("alpha_p", "xrr_p", "gai_p", "n_shuffles"):
        assert np.array_equal(getattr(usual, name), getattr(small, name)), name


def test_without_a_group_effect_the_sequential_test_stops_early() -> None:
    """With no group effect most figures are decided long before P = 1000 shuffles: each figure's p
    counts about a fifth of them (half of them a tenth), and a group, computed until its three
    figures are decided and in whole batches, about half of them."""
    rng = np.random.default_rng(5)
    shares, computed = [], []
    for rating_set in range(40):
        values = ratings_without_group_effect(rng, 30, 40)
        groups = rng.permutation(np.repeat(np.arange(3), 10))
        test = permutation_test(values, groups, rating_set, 1000)
        shares.append(test.n_shuffles.ravel() / 1000)
        computed.append(test.n_computed / 1000)
    assert np.mean(shares) <= 0.3 and np.median(shares) <= 0.15, (np.mean(shares), np.median(shares))
    assert np.mean(computed) <= 0.55, np.mean(computed)


def test_a_planted_group_effect_is_found() -> None:
    """One group of 10 raters shares its own view of each unit, drawn apart from everyone else's."""
    rng = np.random.default_rng(99)
    values = ratings_without_group_effect(rng, 40, 60)
    own_view = ratings_without_group_effect(rng, 1, 60)[0]
    planted = rng.random((10, 60)) < 0.8
    values[:10] = np.where(planted & (own_view >= 0), own_view[None, :], values[:10])
    groups = np.repeat(np.arange(4), 10)
    result = permutation_test(values, groups, 1, 999)
    assert result.gai_p[0] < 0.01 and result.alpha_p[0] < 0.01
    assert (result.gai_p[1:] > 0.01).all()


# ---------------------------------------------------------------------------------- bootstrap


def test_the_bootstrap_interval_covers_the_populations_alpha_about_95_percent_of_the_time() -> None:
    """200 samples of 150 units from a population of 20 000 units rated by 6 raters each.

    Accepted band 0.89-0.99: 200 samples give a binomial SD of 1.5 points around 0.95, so ±3 SD is
    0.905-0.995, widened below by 1.5 points for the percentile bootstrap's known slight
    undercoverage at 150 units (it ignores the skew of α's sampling distribution)."""
    rng = np.random.default_rng(5)
    population = one_hot(ratings_without_group_effect(rng, 6, 20_000), 3).sum(axis=1)
    population_alpha = float(maths.krippendorff_alpha(population, NOMINAL_3).alpha)
    covered = 0
    for sample in range(200):
        units = rng.integers(0, population.shape[1], 150)
        low, high = resampling.bootstrap_alpha_interval(
            population[:, None, units], NOMINAL_3, resampling.generator(sample, "coverage"), 400
        )
        assert low[0] <= high[0]
        covered += low[0] <= population_alpha <= high[0]
    assert 0.89 <= covered / 200 <= 0.99, covered


# ------------------------------------------------------------- one built sample warehouse (scale 1)


@pytest.fixture(scope="module")
def sample_warehouse(sample_build: BuiltWarehouse) -> Iterator[duckdb.DuckDBPyConnection]:
    """The session's scale-1 sample of all three datasets, built once (conftest.py)."""
    with duckdb.connect(str(sample_build.db_path), read_only=True) as con:
        yield con


def frame(con: duckdb.DuckDBPyConnection, sql: str) -> pd.DataFrame:
    return con.execute(sql).df()


def test_by_default_every_alpha_has_its_interval_and_every_gai_its_p_and_q(small_sample_build: BuiltWarehouse) -> None:
    """The default var `agreement_monte_carlo_questions` is every question of every source."""
    with duckdb.connect(str(small_sample_build.db_path), read_only=True) as con:
        agreement = frame(con, "select * from marts.agreement")
    counted = agreement[agreement["alpha"].notna() & (agreement["n_units"] >= 10)]
    assert set(counted["source"]) == {"duo", "redial", "dices"} and counted["alpha_ci_low"].notna().all()
    assert counted["question"].nunique() > 10  # DICES's Q2 and Q3 questions too, not only Q_overall
    group_gai = agreement[agreement["gai"].notna() & (agreement["group_dimension"] != "all")]
    assert len(group_gai) and group_gai[["gai_p", "gai_q"]].notna().all().all()


def test_the_marts_monte_carlo_columns_keep_their_promises(sample_warehouse: duckdb.DuckDBPyConnection) -> None:
    agreement = frame(sample_warehouse, "select * from marts.agreement")
    with_interval = agreement[agreement["alpha_ci_low"].notna()]
    # the questions the var names (tests/conftest.py's SAMPLE_MONTE_CARLO_QUESTIONS) get the figures, no other
    assert set(with_interval["source"]) == {"duo", "redial", "dices"}
    assert set(with_interval.loc[with_interval["source"] == "dices", "question"]) == {"Q_overall"}
    assert (with_interval["alpha_ci_low"] <= with_interval["alpha_ci_high"]).all()
    assert with_interval["alpha"].notna().all()
    tested = agreement[agreement["gai_p"].notna()]
    assert len(tested) >= 40 and (tested["group_dimension"] != "all").all()
    for column in ("alpha_p", "xrr_p", "gai_p", "gai_q"):
        present = agreement[column].dropna()
        assert ((present > 0) & (present <= 1)).all(), column
    assert (tested["gai_q"] >= tested["gai_p"] - 1e-15).all()
    assert agreement.loc[agreement["group_dimension"] == "all", ["alpha_p", "xrr_p", "gai_p"]].isna().all().all()


def rerun_monte_carlo(db_path: Path, seed: int, tmp_path: Path, blas_threads: int) -> pd.DataFrame:
    """The build's Monte Carlo of DICES 350's Q_overall computed again, in a process whose BLAS runs
    `blas_threads` threads (tests/monte_carlo_rerun.py)."""
    out = tmp_path / f"rerun-{seed}-{blas_threads}.parquet"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": str(blas_threads), "OMP_NUM_THREADS": str(blas_threads)}
    subprocess.run(
        [sys.executable, "-m", "tests.monte_carlo_rerun", str(db_path), str(seed), str(out)],
        check=True,
        env=env,
        cwd=PROJECT_ROOT,
    )
    return pd.read_parquet(out).astype({"group_dimension": object, "group_value": object})


def assert_same_figures_and_decisions(built: pd.DataFrame, again: pd.DataFrame) -> None:
    """The contract's promise for one seed: equal to 1e-12 (the last bits may follow the BLAS's
    order of summing), and every decision at 0.05 the same."""
    pd.testing.assert_frame_equal(built, again, check_exact=False, rtol=1e-12, atol=1e-12)
    for column in ("alpha_p", "xrr_p", "gai_p"):
        assert ((built[column] <= 0.05) == (again[column] <= 0.05)).all(), column
    assert ((built["gai_q"] < 0.05) == (again["gai_q"] < 0.05)).all()


def test_the_same_seed_rebuilds_the_marts_figures_and_another_seed_stays_within_their_error(
    sample_build: BuiltWarehouse, sample_warehouse: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    built = monte_carlo_rerun.built_figures(sample_warehouse)
    # the build's BLAS runs one thread (dwh build); the same seed with one and with two gives the same figures
    for blas_threads in (1, 2):
        again = rerun_monte_carlo(sample_build.db_path, 20240601, tmp_path, blas_threads)
        assert_same_figures_and_decisions(built, again)
    other = rerun_monte_carlo(sample_build.db_path, 7, tmp_path, 1)
    assert built["alpha_ci_low"].notna().sum() >= 20
    assert (built["alpha_ci_low"].isna() == other["alpha_ci_low"].isna()).all()
    with_interval = built["alpha_ci_low"].notna()
    width = (built["alpha_ci_high"] - built["alpha_ci_low"])[with_interval]
    for bound in ("alpha_ci_low", "alpha_ci_high"):
        # a percentile of 1000 draws moves by about 0.02 of the interval's width between seeds
        assert ((built[bound] - other[bound]).abs()[with_interval] <= 0.15 * width).all(), bound
    for column in ("alpha_p", "xrr_p", "gai_p"):
        p, p_other = built[column].to_numpy(), other[column].to_numpy()
        present = ~np.isnan(p)
        assert within_monte_carlo_error(p[present], p_other[present], 1000).all(), column


def test_figures_a_last_bit_apart_are_the_same_figures_but_another_draw_is_not() -> None:
    """The comparison above is no wider than the promise: it takes the BLAS's last bits, never a moved
    figure or a changed decision."""
    built = pd.DataFrame(
        {
            "group_dimension": ["gender"],
            "group_value": ["Man"],
            "alpha_ci_low": [0.09111296194458877],
            "alpha_ci_high": [0.2],
            "alpha_p": [0.04],
            "xrr_p": [0.5],
            "gai_p": [0.05],
            "gai_q": [0.049],
        }
    )
    last_bits = built.assign(alpha_ci_low=0.091112961944589)
    assert_same_figures_and_decisions(built, last_bits)
    for moved in (built.assign(alpha_ci_low=0.0911130), built.assign(gai_p=0.0500001)):
        with pytest.raises(AssertionError):
            assert_same_figures_and_decisions(built, moved)


# ------------------------------------------------------------------- deterministic figures, exact


def replication_row(con: duckdb.DuckDBPyConnection, source: str, scope: str, question: str, a: str) -> dict:
    rows = frame(
        con,
        f"""select * from marts.replication_agreement where source = '{source}' and scope = '{scope}'
            and question = '{question}' and replication_a = '{a}'""",
    )
    assert len(rows) == 1
    return rows.iloc[0].to_dict()


def reference_question(labels: list, level: str) -> reference.Question:
    """The reference's question over these labels: interval scores are their own codes, labels 1…K."""
    codes = tuple(int(label) for label in labels) if level == "interval" else tuple(range(1, len(labels) + 1))
    return reference.Question(level, True, codes, tuple(str(label) for label in labels), frozenset())


def unit_values(values: np.ndarray) -> list[list[int]]:
    """A raters × units matrix of value indexes (-1: no value) as each unit's codes (index + 1)."""
    return [[int(v) + 1 for v in column if v >= 0] for column in values.T]


def assert_replication_equals(row: dict, a: pd.DataFrame, b: pd.DataFrame, labels: list, level: str) -> None:
    units = sorted(set(a["unit"]) & set(b["unit"]))
    question = reference_question(labels, level)
    code = dict(zip(labels, question.codes))

    def values_by_unit(judged: pd.DataFrame) -> list[list[int]]:
        grouped = judged.groupby("unit")["value"].apply(list)
        return [[code[value] for value in grouped.get(unit, [])] for unit in units]

    expected = reference.cross_replication_reliability(values_by_unit(a), values_by_unit(b), question)
    assert row["n_units"] == expected.n_units == len(units)
    assert abs(row["xrr"] - expected.xrr) <= TOLERANCE
    assert abs(row["observed_disagreement"] - expected.observed_disagreement) <= TOLERANCE
    assert abs(row["expected_disagreement"] - expected.expected_disagreement) <= TOLERANCE
    assert row["xrr_ci_low"] <= row["xrr"] <= row["xrr_ci_high"]


def test_duo_users_against_annotators_equal_independent_code(sample_warehouse: duckdb.DuckDBPyConnection) -> None:
    ratings = frame(
        sample_warehouse,
        """select r.dialogue_key as unit, r.rating_kind, r.value_numeric as value
           from marts.ratings r join marts.dialogues d using (dialogue_key)
           where r.source = 'duo' and d.language = 'en' and d.setting = 'ed' and r.question = 'preference'
             and r.value_numeric is not null""",
    )
    scores = [1.0, 2.0, 3.0, 4.0, 5.0]
    row = replication_row(sample_warehouse, "duo", "en:ed", "preference", "user")
    assert row["replication_b"] == "annotators" and row["level_of_measurement"] == "interval"
    user, annotators = (ratings[ratings["rating_kind"] == kind] for kind in ("subjective", "objective"))
    assert_replication_equals(row, user, annotators, scores, "interval")


def test_dices_crowd_against_experts_equals_independent_code(sample_warehouse: duckdb.DuckDBPyConnection) -> None:
    crowd = frame(
        sample_warehouse,
        """select dialogue_key as unit, value_label as value from marts.ratings
           where source = 'dices' and question = 'Q_overall' and dialogue_key like 'dices350:%'
             and value_label is not null""",
    )
    experts = frame(
        sample_warehouse,
        "select dialogue_key as unit, safety_gold as value from marts.dialogues "
        "where dataset_config = '350' and safety_gold is not null",
    )
    labels = ["Yes", "No", "Unsure"]
    row = replication_row(sample_warehouse, "dices", "350", "Q_overall", "crowd")
    assert row["replication_b"] == "expert" and row["n_units"] == 350
    assert_replication_equals(row, crowd, experts, labels, "nominal")


def test_dices_repeats_against_first_judgements_equal_independent_code(
    sample_warehouse: duckdb.DuckDBPyConnection,
) -> None:
    judgements = frame(
        sample_warehouse,
        """select unit_key || ':' || rater_key as unit, value_code as value, judgement_round, judgement_row
           from intermediate.int_dices__judgements
           where scope = '990' and question = 'Q_overall' and value_code is not null""",
    ).sort_values(["unit", "judgement_round", "judgement_row"])
    is_first = ~judgements.duplicated("unit")
    repeated = judgements[judgements["unit"].duplicated(keep=False)]
    row = replication_row(sample_warehouse, "dices", "990", "Q_overall", "first")
    assert row["replication_b"] == "repeat" and row["n_units"] > 1000
    first, repeats = repeated[is_first[repeated.index]], repeated[~is_first[repeated.index]]
    assert_replication_equals(row, first, repeats, [1, 2, 3], "nominal")


def test_correlation_p_values_equal_scipy(sample_warehouse: duckdb.DuckDBPyConnection) -> None:
    scores = frame(
        sample_warehouse,
        """select d.language || ':' || d.setting as scope, r.dialogue_key, r.question, r.rating_kind,
                  avg(r.value_numeric) as score
           from marts.ratings r join marts.dialogues d using (dialogue_key)
           where r.source = 'duo' and r.value_numeric is not null group by all""",
    )
    wide = scores.pivot_table(index=["scope", "dialogue_key"], columns=["question", "rating_kind"], values="score")
    correlations = frame(sample_warehouse, "select * from marts.score_correlations where pearson_r is not null")
    assert len(correlations) > 100
    for row in correlations.itertuples():
        pair = wide.loc[row.scope][[(row.question_a, row.rating_kind_a), (row.question_b, row.rating_kind_b)]].dropna()
        assert len(pair) == row.n_dialogues
        pearson = scipy.stats.pearsonr(pair.iloc[:, 0], pair.iloc[:, 1])
        spearman = scipy.stats.spearmanr(pair.iloc[:, 0], pair.iloc[:, 1])
        assert abs(row.pearson_r - pearson.statistic) <= TOLERANCE and abs(row.pearson_p - pearson.pvalue) <= TOLERANCE
        assert abs(row.spearman_rho - spearman.statistic) <= TOLERANCE, row
        assert abs(row.spearman_p - spearman.pvalue) <= TOLERANCE, row


def test_correlation_p_value_edges_equal_scipy() -> None:
    rng = np.random.default_rng(4)
    for n in (3, 4, 10, 200):
        x = rng.normal(size=n)
        for y in (x + rng.normal(size=n), -x, rng.normal(size=n)):
            r = np.corrcoef(x, y)[0, 1]
            assert abs(maths.correlation_p_value(r, n) - scipy.stats.pearsonr(x, y).pvalue) <= TOLERANCE
    assert np.isnan(maths.correlation_p_value(0.5, 2)) and np.isnan(maths.correlation_p_value(np.nan, 10))


@settings(max_examples=200, deadline=None)
@given(
    pairs=st.lists(st.tuples(st.integers(1, 5), st.integers(1, 5)), min_size=3, max_size=60),
)
def test_the_one_spearman_and_pearson_equal_scipys_with_ties_and_constant_sides(pairs: list[tuple[int, int]]) -> None:
    """`maths.correlations`, the one implementation the scores' correlations and the judges' ρ use (from 3
    pairs: below, every p is NaN, where scipy gives Pearson's p 1; `test_correlation_p_value_edges_equal_scipy`)."""
    x, y = (np.array(side, dtype=float) for side in zip(*pairs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns on a constant side (its figure is NaN, as ours)
        pearson, spearman = scipy.stats.pearsonr(x, y), scipy.stats.spearmanr(x, y)

    figures = maths.correlations(x, y)

    assert figures["pearson_r"] == pytest.approx(pearson.statistic, abs=TOLERANCE, nan_ok=True)
    assert figures["spearman_rho"] == pytest.approx(spearman.statistic, abs=TOLERANCE, nan_ok=True)
    assert figures["pearson_p"] == pytest.approx(pearson.pvalue, abs=TOLERANCE, nan_ok=True)
    assert figures["spearman_p"] == pytest.approx(spearman.pvalue, abs=TOLERANCE, nan_ok=True)
