"""What the Monte Carlo figures of the agreement marts promise (docs/INTERFACE.md, "Uncertainty"),
and the deterministic figures beside them against independent numpy / scipy code.

Monte Carlo figures cannot equal another program's to 1e-9, so these tests check what they promise:
the same seed gives the same figures; another seed gives figures within their Monte Carlo error; with
no group effect the permutation p-values are uniform, with a planted one they are small; the
bootstrap interval covers the population's α about 95% of the time. Most run `agreement_core`
directly on generated numpy arrays (fast); the last ones read one built sample warehouse.
"""

from collections.abc import Iterator

import duckdb
import numpy as np
import pandas as pd
import pytest
import scipy.stats
from krippendorff import alpha as package_alpha

from agreement_core import maths, resampling
from agreement_core.group_figures import QuestionValues, as_result, question_rows, questions_of
from agreement_core.settings import MonteCarloSettings
from tests import agreement_reference as reference
from tests.helpers import BuiltWarehouse

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


def permutation_test(values: np.ndarray, groups: np.ndarray, seed: int, n_permutations: int = 200):
    """GRASP's test of the groups (one number per rater) of a raters × units matrix of label numbers."""
    raters, units = np.nonzero(values >= 0)
    labels = values[raters, units]
    rater_values = resampling.RaterValues(labels, raters, units, groups, n_labels=3, n_units=values.shape[1])
    all_counts = maths.one_hot_counts(units, labels, values.shape[1], 3)
    observed = maths.group_figures(rater_values.group_counts(groups[None, :])[:, 0], all_counts, NOMINAL_3)
    rng = resampling.generator(seed, "test")
    return resampling.group_permutation_test(observed, rater_values, all_counts, NOMINAL_3, rng, n_permutations)


def test_the_same_seed_gives_identical_figures_and_another_seed_figures_within_their_error() -> None:
    rng = np.random.default_rng(11)
    values = ratings_without_group_effect(rng, 40, 80)
    groups = np.repeat(np.arange(4), 10)
    first, again, other = (permutation_test(values, groups, seed, 400) for seed in (1, 1, 2))
    for name in ("alpha_p", "xrr_p", "gai_p"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
        # p = 2 p₁ with p₁ the one-sided share of P permutations: a standard error of 2 √(p₁ (1 − p₁) / P)
        p, p_other = getattr(first, name), getattr(other, name)
        error = np.sqrt(np.maximum(p * (2 - p), 0.01) / 400)
        assert (np.abs(p - p_other) <= 5 * error * np.sqrt(2)).all(), (name, p, p_other)

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


def test_without_a_group_effect_the_p_values_are_uniform() -> None:
    """250 generated rating sets of 3 groups of 10 raters, labels independent of group. One group's
    p-value per set: the groups of one set share their data, and the KS test needs independent draws."""
    rng = np.random.default_rng(2024)
    p_values = []
    for rating_set in range(250):
        values = ratings_without_group_effect(rng, 30, 40)
        groups = rng.permutation(np.repeat(np.arange(3), 10))
        p_values.append(permutation_test(values, groups, rating_set, 199).gai_p[0])
    p_values = np.array(p_values)
    assert not np.isnan(p_values).any()
    assert ((p_values > 0) & (p_values <= 1)).all()
    assert scipy.stats.kstest(p_values, "uniform").pvalue > 0.01
    # 5% expected; 250 groups: a binomial SD of 1.4 points, so 1% to 10% is about ±3 SD
    assert 0.01 <= (p_values < 0.05).mean() <= 0.10


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


MONTE_CARLO_COLUMNS = ["question_id", "group_id", "alpha_ci_low", "alpha_ci_high", "alpha_p", "xrr_p", "gai_p", "gai_q"]


def rerun_monte_carlo(con: duckdb.DuckDBPyConnection, seed: int) -> pd.DataFrame:
    """`int_agreement__group_figures`' computation of DICES 350's Q_overall again, on the built
    warehouse's own tables: its Monte Carlo columns."""
    questions = questions_of(
        frame(con, "select * from intermediate.int_agreement__questions"),
        frame(con, "select * from reference.judgement_labels"),
    )
    (question,) = [q for q in questions.values() if q.name == ("dices", "350", "safety", "Q_overall")]
    values = frame(
        con,
        f"""select v.* from intermediate.int_agreement__values v join intermediate.int_agreement__units u
            using (unit_id) where u.question_id = {question.question_id}""",
    )
    groups = frame(con, "select group_id, group_dimension, rater_id from intermediate.int_agreement__rater_groups")
    settings = MonteCarloSettings(True, seed, 1000, 1000, ("*",))
    figures = as_result([question_rows(QuestionValues.of(question, values), groups, settings)])
    return figures[MONTE_CARLO_COLUMNS].sort_values(["question_id", "group_id"]).reset_index(drop=True)


def test_the_same_seed_rebuilds_the_marts_figures_and_another_seed_stays_within_their_error(
    sample_warehouse: duckdb.DuckDBPyConnection,
) -> None:
    built = frame(
        sample_warehouse,
        f"""select {", ".join(f"m.{c}" for c in MONTE_CARLO_COLUMNS)} from intermediate.int_agreement__group_figures m
           join intermediate.int_agreement__questions q using (question_id)
           where q.source = 'dices' and q.scope = '350' and q.question = 'Q_overall'
           order by question_id, group_id""",
    ).reset_index(drop=True)
    again = rerun_monte_carlo(sample_warehouse, 20240601)
    pd.testing.assert_frame_equal(built, again, check_exact=True)
    other = rerun_monte_carlo(sample_warehouse, 7)
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
        error = np.sqrt(np.maximum(p * (2 - p), 0.01) / 1000)
        assert (np.abs(p - p_other)[present] <= 5 * np.sqrt(2) * error[present]).all(), column


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
        """select unit_key || ':' || rater_key as unit, value_code as value,
                  judgement_order.round as judgement_round, judgement_order.row as judgement_row
           from intermediate.int_agreement__judgements
           where source = 'dices' and scope = '990' and question = 'Q_overall' and value_code is not null""",
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
        assert abs(row.pearson_p - pearson.pvalue) <= TOLERANCE, row
        assert abs(row.spearman_p - spearman.pvalue) <= TOLERANCE, row


def test_correlation_p_value_edges_equal_scipy() -> None:
    rng = np.random.default_rng(4)
    for n in (3, 4, 10, 200):
        x = rng.normal(size=n)
        for y in (x + rng.normal(size=n), -x, rng.normal(size=n)):
            r = np.corrcoef(x, y)[0, 1]
            assert abs(maths.correlation_p_value(r, n) - scipy.stats.pearsonr(x, y).pvalue) <= TOLERANCE
    assert np.isnan(maths.correlation_p_value(0.5, 2)) and np.isnan(maths.correlation_p_value(np.nan, 10))
