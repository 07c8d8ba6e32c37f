"""`judge_agreement` and `judge_comparison`'s figures (`agreement_core.judge_figures.judges`,
`agreement_core.judge_figures.judge_comparison`) against independent code: xRR by its published definition
(`tests/agreement_reference.py`), scipy's `spearmanr` and `kendalltau`, plurality and member
agreement and the human ceiling counted value by value, on judgements hypothesis generates; and the
Monte Carlo columns by what they promise (the same seed gives the same figures, p-values uniform
when a judge is independent of the groups, the sequential tests' decisions at 0.05 those of all P
shuffles, the interval's coverage)."""

import itertools
import math
import statistics
from collections import Counter
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement_core import maths, resampling
from agreement_core.judge_figures import judge_comparison, judges
from agreement_core.judge_figures.judge_references import JudgeQuestion, judge_question
from agreement_core.questions import Question
from agreement_core.settings import MonteCarloSettings
from tests import agreement_reference as reference
from tests.figure_checks import assert_calibrated, assert_keeps_decisions, same_figure
from tests.judge_cases import GENDERS, NO_MONTE_CARLO, inputs, planted_case

# --------------------------------------------------------------------------------- generated sets


@st.composite
def judged_questions(draw: st.DrawFn) -> dict:
    """A question, raters in two gender groups with values on some units, an expert reference with
    one value per unit, and judges (a judge of scores may give halves)."""
    level = draw(st.sampled_from(["nominal", "interval"]))
    codes = [1, 2, 3] if level == "nominal" else [1, 2, 3, 4, 5]
    n_raters, n_units = draw(st.integers(2, 7)), draw(st.integers(2, 14))
    genders = [draw(st.sampled_from(GENDERS)) for _ in range(n_raters)]
    rows = [
        {"unit_id": unit, "rater_id": rater, "ceiling_rater": f"r{rater}", "reference": "raters", "value_code": value}
        for rater in range(n_raters)
        for unit in range(n_units)
        if (value := draw(st.sampled_from([*codes, None]))) is not None
    ]
    rows += [
        {"unit_id": unit, "rater_id": -1, "ceiling_rater": "expert", "reference": "expert", "value_code": code}
        for unit in range(n_units)
        if (code := draw(st.sampled_from([*codes[:2], None]))) is not None
    ]
    judge_codes = codes if level == "nominal" else [1, 1.5, 2, 3, 3.5, 4, 5]
    judge_rows = [
        {"judge": judge, "unit_id": unit, "value": value}
        for judge in draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=3, unique=True))
        for unit in range(n_units)
        if (value := draw(st.sampled_from([*judge_codes, None]))) is not None
    ]
    return {"level": level, "codes": codes, "rows": rows, "judge_rows": judge_rows, "genders": genders}


def reference_question(case: dict) -> reference.Question:
    codes = tuple(case["codes"])
    return reference.Question(case["level"], True, codes, tuple(map(str, codes)), frozenset())


def values_of(rows: list[dict], keep) -> dict[int, list]:
    by_unit: dict[int, list] = {}
    for row in rows:
        if keep(row):
            by_unit.setdefault(row["unit_id"], []).append(row["value_code"])
    return by_unit


def reference_members(case: dict, dimension: str, value: str):
    """Which of the generated rows a reference holds."""
    if dimension == "expert":
        return lambda row: row["reference"] == "expert"
    if dimension == "raters":
        return lambda row: row["reference"] == "raters"
    return lambda row: row["reference"] == "raters" and case["genders"][row["rater_id"]] == value


def xrr_of(x: dict[int, list], y: dict[int, list], case: dict) -> reference.CrossReliability:
    units = sorted(set(x) | set(y))
    return reference.cross_replication_reliability(
        [x.get(u, []) for u in units], [y.get(u, []) for u in units], reference_question(case)
    )


def estimable(figure: reference.CrossReliability, judge: dict[int, list], human: dict[int, list]) -> float | None:
    """The xRR the marts show: none below judges.MIN_XRR_UNITS units (one unit's observed and expected
    disagreement are the same pairs) nor against a reference with one value on the judge's units."""
    values = {value for unit in judge if unit in human for value in human[unit]}
    return figure.xrr if figure.n_units >= judges.MIN_XRR_UNITS and len(values) >= 2 else None


def expected_ceiling(case: dict, members, judge_xrr: float | None, judge_units: int) -> tuple:
    chosen = [row for row in case["rows"] if members(row)]
    if max(Counter(row["unit_id"] for row in chosen).values(), default=0) <= 1:
        return None, None, None
    kept = []
    for rater in sorted({row["ceiling_rater"] for row in chosen}):
        own = values_of(chosen, lambda row, rater=rater: row["ceiling_rater"] == rater)
        others = values_of(chosen, lambda row, rater=rater: row["ceiling_rater"] != rater)
        figure = xrr_of(own, {u: others.get(u, []) for u in own}, case)
        if figure.n_units >= judges.MIN_CEILING_UNITS and figure.xrr is not None:
            kept.append(figure.xrr)
    median = statistics.median(kept) if kept else None
    too_few = judge_xrr is None or judge_units < judges.MIN_JUDGE_UNITS or not kept
    percentile = None if too_few else sum(k < judge_xrr for k in kept) / len(kept)
    return median, len(kept), percentile


# ------------------------------------------------------------------------- deterministic figures


@settings(max_examples=80, deadline=None)
@given(judged_questions())
def test_every_deterministic_figure_equals_the_independent_code(case: dict) -> None:
    task = judge_question(*inputs(case))
    rows = judges.as_result([judges.question_rows(task, NO_MONTE_CARLO)])
    for row in rows.to_dict("records"):
        members = reference_members(case, row["reference_dimension"], row["reference_value"])
        judge = {r["unit_id"]: [r["value"]] for r in case["judge_rows"] if r["judge"] == row["judge"]}
        human = values_of(case["rows"], members)
        figure = xrr_of(judge, human, case)
        assert row["n_units"] == figure.n_units
        judge_xrr = estimable(figure, judge, human)
        assert same_figure(judge_xrr, row["xrr"]), (row, figure)
        shared = sorted(set(judge) & set(human))
        if case["level"] == "interval":
            x = [judge[u][0] for u in shared]
            y = [sum(human[u]) / len(human[u]) for u in shared]
            if len(shared) >= 2 and len(set(x)) > 1 and len(set(y)) > 1:
                assert same_figure(scipy.stats.spearmanr(x, y).statistic, row["spearman_rho"])
                assert same_figure(scipy.stats.kendalltau(x, y, variant="b").statistic, row["kendall_tau_b"])
                assert same_figure(scipy.stats.kendalltau(x, y, variant="b").pvalue, row["kendall_p"])
        else:
            plurality = [judge[u][0] in most_frequent(human[u]) for u in shared]
            member = [human[u].count(judge[u][0]) / len(human[u]) for u in shared]
            assert same_figure(sum(plurality) / len(shared) if shared else None, row["plurality_agreement"])
            assert same_figure(sum(member) / len(shared) if shared else None, row["member_agreement"])
        median, n_raters, percentile = expected_ceiling(case, members, judge_xrr, figure.n_units)
        assert same_figure(median, row["human_xrr_median"]) and same_figure(percentile, row["judge_percentile"])
        assert (n_raters is None and row["n_human_raters"] is pd.NA) or n_raters == row["n_human_raters"]
        if row["reference_dimension"] == "gender":
            everyone = values_of(case["rows"], reference_members(case, "raters", "all"))
            in_group = values_of(case["rows"], members)
            rest = {u: everyone[u][:] for u in everyone}
            for u, values in in_group.items():
                for value in values:
                    rest[u].remove(value)
            rest = {u: v for u, v in rest.items() if v}
            with_rest = estimable(xrr_of(judge, rest, case), judge, rest)
            assert same_figure(with_rest, row["xrr_with_rest"])
            readable = with_rest is not None and with_rest >= judges.ALIGNMENT_FLOOR
            alignment = judge_xrr / with_rest if readable and judge_xrr is not None else None
            assert same_figure(alignment, row["alignment"]), (row, with_rest)


def most_frequent(values: list) -> set:
    counts = Counter(values)
    return {value for value, n in counts.items() if n == max(counts.values())}


@settings(max_examples=40, deadline=None)
@given(judged_questions())
def test_two_judges_are_compared_on_the_units_both_judged(case: dict) -> None:
    task = judge_question(*inputs(case))
    rows = judge_comparison.as_result(judge_comparison.question_rows(task, NO_MONTE_CARLO))
    names = sorted({r["judge"] for r in case["judge_rows"]})
    assert set(zip(rows["judge_a"], rows["judge_b"])) <= {(a, b) for i, a in enumerate(names) for b in names[i + 1 :]}
    for row in rows.to_dict("records"):
        a = {r["unit_id"]: [r["value"]] for r in case["judge_rows"] if r["judge"] == row["judge_a"]}
        b = {r["unit_id"]: [r["value"]] for r in case["judge_rows"] if r["judge"] == row["judge_b"]}
        both = set(a) & set(b)
        human = values_of(case["rows"], reference_members(case, row["reference_dimension"], row["reference_value"]))
        human = {u: v for u, v in human.items() if u in both}
        with_a, with_b = xrr_of(a, human, case), xrr_of(b, human, case)
        assert row["n_units"] == with_a.n_units > 0
        assert same_figure(estimable(with_a, a, human), row["xrr_a"]) and same_figure(
            estimable(with_b, b, human), row["xrr_b"]
        )


def test_a_judge_equal_to_the_users_scores_has_xrr_and_rho_one() -> None:
    rng = np.random.default_rng(3)
    scores = rng.integers(1, 6, 60).astype(float)
    question = Question(1, "duo", "en:ed", "subjective", "empathy", np.arange(1.0, 6.0), "interval")
    users = pd.DataFrame(
        {"unit_id": range(60), "rater_id": range(60), "ceiling_rater": [f"u{i}" for i in range(60)]}
    ).assign(reference="user", value_code=scores)
    judge = pd.DataFrame({"judge": "copy", "unit_id": range(60), "value": scores})
    task = judge_question(
        question, users, judge, pd.DataFrame(columns=["group_id", "group_dimension", "group_value", "rater_id"])
    )
    row = judges.question_rows(task, NO_MONTE_CARLO).iloc[0]
    assert row["xrr"] == pytest.approx(1.0) and row["spearman_rho"] == pytest.approx(1.0)
    assert math.isnan(row["human_xrr_median"]) and row["n_human_raters"] is pd.NA  # one value per unit: no ceiling


# ------------------------------------------------------------------------------------ Monte Carlo


def test_the_same_seed_gives_the_same_figures_and_a_sided_judge_is_found() -> None:
    case = planted_case(np.random.default_rng(5), 60, sided=True)
    runs = [
        judges.question_rows(judge_question(*inputs(case)), MonteCarloSettings(True, seed, 300, 300, ("*",)))
        for seed in (1, 1, 2)
    ]
    pd.testing.assert_frame_equal(runs[0], runs[1])
    women, men = (runs[0].set_index("reference_value").loc[group] for group in ("Woman", "Man"))
    # the judge follows the women only: its xRR with the rest (the men) is near chance, so the ratio is
    # no number to read (null), and the test still finds the side it takes
    assert women["xrr_with_rest"] < judges.ALIGNMENT_FLOOR and pd.isna(women["alignment"])
    assert women["xrr"] > women["xrr_with_rest"] and women["alignment_p"] < 0.01 and women["alignment_q"] < 0.05
    assert men["xrr_with_rest"] >= judges.ALIGNMENT_FLOOR and men["alignment"] < 1
    assert women["xrr_ci_low"] <= women["xrr"] <= women["xrr_ci_high"]
    assert not runs[0]["xrr_ci_low"].equals(runs[2]["xrr_ci_low"])  # another seed, other draws


def woman(task: JudgeQuestion) -> int:
    """The number of the reference `gender = Woman`."""
    return [reference.value for reference in task.references].index("Woman")


def test_alignment_p_values_are_uniform_without_a_group_effect() -> None:
    """The permutation test's null: group labels exchangeable among the raters (no group has a view
    of its own), whatever the judge does. All P shuffles give uniform p-values; the sequential test
    (the mart's) the same at 0.05 and never too small above it, and it stops early."""
    rng = np.random.default_rng(2024)
    full, sequential, shares = [], [], []
    for seed in range(150):
        case = planted_case(rng, 30, sided=seed % 2 == 0, women_differ=False)
        task = judge_question(*inputs(case))
        settings = MonteCarloSettings(True, seed, 1, 99, ("*",))
        full.append(judges.alignment_tests(task, settings, stop_at=100).p_values[0, woman(task)])
        tests = judges.alignment_tests(task, settings)
        sequential.append(tests.p_values[0, woman(task)])
        shares.append(tests.n_shuffles[0, woman(task)] / 99)
    assert_calibrated(np.array(full), np.array(sequential))
    assert np.mean(shares) <= 0.4, np.mean(shares)


def small_pool_case(rng: np.random.Generator, n_units: int, genders: list[str]) -> dict:
    """Raters of the given genders on 3 labels, the women with a view of their own, and a judge that
    copies it: an alignment as strong as a pool of this size can show."""
    leaning, women_view = rng.integers(1, 4, n_units), rng.integers(1, 4, n_units)
    rows = [
        {"unit_id": u, "rater_id": rater, "ceiling_rater": f"r{rater}", "reference": "raters", "value_code": int(v)}
        for rater, gender in enumerate(genders)
        for u, v in enumerate(
            np.where(
                rng.random(n_units) < 0.8, women_view if gender == "Woman" else leaning, rng.integers(1, 4, n_units)
            )
        )
    ]
    judge_rows = [{"judge": "j", "unit_id": u, "value": float(v)} for u, v in enumerate(women_view)]
    return {"level": "nominal", "codes": [1, 2, 3], "rows": rows, "judge_rows": judge_rows, "genders": genders}


def test_a_judges_alignment_with_three_and_three_raters_is_tested_exactly_and_cannot_reach_0_05() -> None:
    """3 + 3 raters have 20 distinct assignments to the two groups, fewer than P = 1000 shuffles:
    the alignment test enumerates them as GRASP's test does (one implementation,
    `resampling.group_label_test`), its p is the exact one (checked over all 6! orders of the labels,
    each assignment 36 times) and never below the smallest attainable p, 0.1, given beside it."""
    task = judge_question(*inputs(small_pool_case(np.random.default_rng(6), 40, ["Man"] * 3 + ["Woman"] * 3)))
    settings = MonteCarloSettings(True, 1, 1, 1000, ("*",))

    tests = judges.alignment_tests(task, settings)

    women = woman(task)
    assert tests.min_p[0, women] == pytest.approx(0.1) and tests.p_values[0, women] >= 0.1
    assert tests.n_shuffles[0, women] == 20  # every assignment once, none stopped
    (base, dimension), members = next(iter(task.dimensions.items()))
    rater_values = task.references[women].base.dimension_values(members)
    orders = np.array(list(itertools.permutations(rater_values.rater_groups)))
    base_counts = task.references[women].base.counts()
    null = judges.permuted_alignments(task, rater_values, base_counts, orders)[:, 0]  # (720, groups)
    numbers = judges.dimension_numbers(task)[0]
    observed = judges.alignment_of(
        *judges.alignments_with(
            task.judge_counts, task.stacked([task.references[n] for n in numbers]), base_counts, task.metric
        )
    )[0]
    at_least = (null >= observed - resampling.TIE_TOLERANCE).mean(axis=0)
    at_most = (null <= observed + resampling.TIE_TOLERANCE).mean(axis=0)
    np.testing.assert_allclose(tests.p_values[0, numbers], np.minimum(1, 2 * np.minimum(at_least, at_most)), rtol=1e-12)
    rows = judges.question_rows(task, settings).set_index("reference_value")
    assert rows.at["Woman", "min_attainable_p"] == pytest.approx(0.1) and pd.isna(rows.at["all", "min_attainable_p"])


def test_a_judges_alignment_in_a_large_pool_keeps_its_draws_and_its_smallest_p_is_2_over_1_plus_p() -> None:
    """10 + 10 raters have 184,756 distinct assignments: the test draws P = 1000 shuffles as it did."""
    task = judge_question(*inputs(planted_case(np.random.default_rng(3), 40, sided=True)))
    tests = judges.alignment_tests(task, MonteCarloSettings(True, 1, 1, 1000, ("*",)))
    assert tests.min_p[0, woman(task)] == pytest.approx(2 / 1001)
    assert tests.p_values[0, woman(task)] == pytest.approx(2 / 1001)  # the judge copies the women: no shuffle beats it


def leaning_case(rng: np.random.Generator, n_units: int, share: float) -> dict:
    """`planted_case` with the women's own view and a judge that copies it on about `share` of the
    units (random labels elsewhere): from no alignment through p near 0.05 to p ≈ 0."""
    case = planted_case(rng, n_units, sided=True)
    for row in case["judge_rows"]:
        if rng.random() >= share:
            row["value"] = float(rng.integers(1, 4))
    return case


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_the_sequential_alignment_test_keeps_every_decision_of_all_p_shuffles(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every alignment p ≤ 0.05 of all P = 1000 shuffles is the sequential test's, exactly, every
    other p above 0.05 and the q < 0.05 the same; the same seed gives the same p and stops whatever the
    batches. Nominal sums are matrix products (`judges.alignments_with`); ordinal ones direct."""
    rng = np.random.default_rng(41)
    significant, near, stopped = 0, 0, 0
    for seed in range(30):
        case = {**leaning_case(rng, 40, rng.choice([0, 0.1, 0.2, 0.3, 0.5])), "level": level}
        task = judge_question(*inputs(case))
        settings = MonteCarloSettings(True, seed, 1, 1000, ("*",))
        full = judges.alignment_tests(task, settings, stop_at=1001)
        tests = judges.alignment_tests(task, settings)
        assert_keeps_decisions(full.p_values, tests.p_values, full.q_values, tests.q_values)
        with monkeypatch.context() as patched:
            patched.setattr(resampling, "BATCH_ELEMENTS", 6_000)  # a few shuffles a batch
            small = judges.alignment_tests(task, settings)
        assert np.array_equal(small.p_values, tests.p_values, equal_nan=True)
        assert np.array_equal(small.n_shuffles, tests.n_shuffles)
        significant += (full.p_values <= 0.05).sum()
        near += ((full.p_values > 0.05) & (full.p_values <= 0.15)).sum()
        stopped += ((tests.n_shuffles > 0) & (tests.n_shuffles < 1000)).sum()
    # what makes the promise bite: significant p, p just above 0.05, stops
    assert significant >= 5 and near >= 5 and stopped >= 10, (significant, near, stopped)


def sampled_tasks(
    rng: np.random.Generator, population: dict, n_samples: int = 200
) -> Iterator[tuple[int, JudgeQuestion]]:
    """(sample number, task) of `n_samples` samples of 120 of the population's 20,000 units."""
    question, references, judge_values, groups = inputs(population)
    for sample in range(n_samples):
        units = rng.choice(20_000, 120, replace=False)
        of_sample = references[references["unit_id"].isin(units)], judge_values[judge_values["unit_id"].isin(units)]
        yield sample, judge_question(question, *of_sample, groups)


def test_the_xrr_interval_covers_the_populations_xrr_about_95_percent_of_the_time() -> None:
    """200 samples of 120 units from a population of 20,000: the judge's xRR with the raters."""
    rng = np.random.default_rng(9)
    population = planted_case(rng, 20_000, sided=True)
    truth = judges.question_rows(judge_question(*inputs(population)), NO_MONTE_CARLO)
    truth_xrr = truth.set_index("reference_dimension").at["raters", "xrr"]
    covered = 0
    for sample, task in sampled_tasks(rng, population):
        rows = judges.question_rows(task, MonteCarloSettings(True, sample, 300, 1, ("*",)))
        row = rows.set_index("reference_dimension").loc["raters"]
        covered += row["xrr_ci_low"] <= truth_xrr <= row["xrr_ci_high"]
    assert 0.88 <= covered / 200 <= 0.99, covered


def test_the_paired_interval_covers_the_populations_difference_about_95_percent_of_the_time() -> None:
    """200 samples of 120 units from a population of 20,000 where judge a copies the raters' view on
    about a third of the units: the interval of xrr_a − xrr_b with the raters (`PairedBootstrap`)."""
    rng = np.random.default_rng(31)
    population = leaning_pair(rng, 20_000, 0.35)
    truth = pd.concat(judge_comparison.question_rows(judge_question(*inputs(population)), NO_MONTE_CARLO))
    truth_difference = truth.set_index("reference_dimension").at["raters", "xrr_difference"]
    covered = 0
    for sample, task in sampled_tasks(rng, population):
        rows = pd.concat(judge_comparison.question_rows(task, MonteCarloSettings(True, sample, 300, 1, ("*",))))
        row = rows.set_index("reference_dimension").loc["raters"]
        covered += row["xrr_difference_ci_low"] <= truth_difference <= row["xrr_difference_ci_high"]
    assert 0.88 <= covered / 200 <= 0.99, covered


def two_judges(rng: np.random.Generator, n_units: int, better: bool) -> dict:
    """10 raters on 3 labels sharing a view of each unit; judge `a` copies the view (better) or draws at
    random, judge `b` always draws at random: without `better`, the two are exchangeable."""
    view = rng.integers(1, 4, n_units)
    rows = [
        {"unit_id": u, "rater_id": r, "ceiling_rater": f"r{r}", "reference": "raters", "value_code": int(v)}
        for r in range(10)
        for u, v in enumerate(np.where(rng.random(n_units) < 0.6, view, rng.integers(1, 4, n_units)))
    ]
    a = view if better else rng.integers(1, 4, n_units)
    judge_rows = [{"judge": "a", "unit_id": u, "value": float(v)} for u, v in enumerate(a)]
    judge_rows += [{"judge": "b", "unit_id": u, "value": float(v)} for u, v in enumerate(rng.integers(1, 4, n_units))]
    return {"level": "nominal", "codes": [1, 2, 3], "rows": rows, "judge_rows": judge_rows, "genders": ["Man"] * 10}


def paired_test(case: dict, seed: int, n_permutations: int, stop_at: int | None = None) -> resampling.SequentialTest:
    """The paired permutation test of judge a against judge b, per reference, on every unit (both
    judged all of them in these cases), as `judge_comparison.pair_rows` runs it."""
    task = judge_question(*inputs(case))
    counts_a, counts_b, references = task.judge_counts[:, 0], task.judge_counts[:, 1], task.stacked()
    weights = np.ones(counts_a.shape[-1])
    with_a, with_b = judge_comparison.paired_xrr(counts_a[:, None], counts_b[:, None], references, task.metric, weights)
    rng = resampling.generator(seed, "paired permutation")
    return judge_comparison.difference_test(
        counts_a, counts_b, references, task.metric, with_a.xrr - with_b.xrr, rng, n_permutations, stop_at=stop_at
    )


@pytest.mark.parametrize("level", ["nominal", "interval", "ratio"])
def test_the_paired_tests_reweighted_null_is_the_swapped_values_null(level: str) -> None:
    """Where δ is fixed the paired test moves each pattern's change between the judges' sums
    (`_reweighted_null`) instead of summing both judges' values as given and swapped (`_swaps_null`,
    what ordinal δ needs): the same null figures, to float rounding."""
    rng = np.random.default_rng(8)
    metric = maths.label_distances(np.arange(1.0, 4.0), level)
    a, b = (np.eye(3)[rng.integers(0, 3, 120)].T[:, None] for _ in range(2))  # (labels, 1, units)
    # (labels, references, units): two references of one value per unit, two of few values
    one_value = np.eye(3)[rng.integers(0, 2, (2, 120))].transpose(2, 0, 1)
    references = np.concatenate([one_value, rng.poisson(0.1, (3, 2, 120))], axis=1).astype(float)
    patterns = resampling.UnitPatterns.of(np.concatenate([a, b, references], axis=1), metric)
    assert patterns.n_units.max() > 1  # units that share a pattern, swapped some at a time
    swapped = rng.binomial(patterns.n_units, 0.5, size=(40, patterns.n_units.size))
    reweighted = judge_comparison._reweighted_null(patterns)(swapped)
    by_swaps = judge_comparison._swaps_null(patterns)(swapped)
    assert reweighted.shape == (40, 4) and not np.isnan(reweighted).all()
    assert np.allclose(reweighted, by_swaps, rtol=1e-12, atol=1e-12, equal_nan=True)


def test_two_judges_who_share_only_units_no_human_rated_have_no_rows_and_stop_nothing() -> None:
    """Judges may judge units no human rated: two that share only such units have no unit to
    compare on, so no rows, beside the other pairs' rows with their Monte Carlo."""
    case = two_judges(np.random.default_rng(1), 30, better=False)
    case["judge_rows"] += [{"judge": j, "unit_id": 100 + u, "value": 1.0} for j in ("c", "d") for u in range(5)]
    rows = pd.concat(
        judge_comparison.question_rows(judge_question(*inputs(case)), MonteCarloSettings(True, 1, 50, 50, ("*",)))
    )
    assert set(zip(rows["judge_a"], rows["judge_b"])) == {("a", "b")}
    assert rows["difference_p"].notna().all() and rows["xrr_difference_ci_low"].notna().all()


def test_the_paired_test_finds_a_better_judge_and_is_uniform_between_exchangeable_ones() -> None:
    rng = np.random.default_rng(77)
    better = two_judges(rng, 60, better=True)
    rows = judge_comparison.question_rows(
        judge_question(*inputs(better)), MonteCarloSettings(True, 1, 300, 300, ("*",))
    )
    row = pd.concat(rows).set_index("reference_dimension").loc["raters"]
    assert row["xrr_difference"] > 0 and row["difference_p"] < 0.01 and row["xrr_difference_ci_low"] > 0
    full, sequential, shares = [], [], []
    for seed in range(150):
        case = two_judges(rng, 30, better=False)
        full.append(paired_test(case, seed, 99, stop_at=100).p_values[0])
        test = paired_test(case, seed, 99)
        sequential.append(test.p_values[0])
        shares.append(test.n_shuffles[0] / 99)
    assert_calibrated(np.array(full), np.array(sequential))
    assert np.mean(shares) <= 0.4, np.mean(shares)


def test_two_judges_on_five_units_are_compared_exactly_and_cannot_reach_0_05() -> None:
    """5 units have 2^5 = 32 ways to swap the judges' values, fewer than P = 1000 shuffles: each is
    tested once (the p checked against every swap made unit by unit), and the smallest p, 2 / 32,
    is given beside it; 10 units (1,024 ways) keep their draws, smallest p 2 / (1 + P)."""
    case = two_judges(np.random.default_rng(12), 5, better=True)
    test = paired_test(case, 1, 1000)

    assert test.exact and test.min_p == pytest.approx(2 / 32) and np.all(test.p_values >= 2 / 32)
    task = judge_question(*inputs(case))
    counts_a, counts_b, references = task.judge_counts[:, 0], task.judge_counts[:, 1], task.stacked()
    null = []
    for swaps in itertools.product([False, True], repeat=5):
        a = np.where(np.array(swaps), counts_b, counts_a)
        b = np.where(np.array(swaps), counts_a, counts_b)
        with_a, with_b = judge_comparison.paired_xrr(a[:, None], b[:, None], references, task.metric, np.ones(5))
        null.append(with_a.xrr - with_b.xrr)
    null, observed = np.array(null), null[0]
    valid = (~np.isnan(null)).sum(axis=0)
    at_least = (null >= observed - resampling.TIE_TOLERANCE).sum(axis=0) / valid
    at_most = (null <= observed + resampling.TIE_TOLERANCE).sum(axis=0) / valid
    np.testing.assert_allclose(test.p_values, np.minimum(1, 2 * np.minimum(at_least, at_most)), rtol=1e-12)
    drawn = paired_test(two_judges(np.random.default_rng(12), 10, better=True), 1, 1000)
    assert not drawn.exact and drawn.min_p == pytest.approx(2 / 1001)


def leaning_pair(rng: np.random.Generator, n_units: int, share: float) -> dict:
    """`two_judges` with judge a copying the raters' view on about `share` of the units only (random
    labels elsewhere): from two exchangeable judges through p near 0.05 to p ≈ 0."""
    case = two_judges(rng, n_units, better=True)
    for row in case["judge_rows"]:
        if row["judge"] == "a" and rng.random() >= share:
            row["value"] = float(rng.integers(1, 4))
    return case


# cases with p ≤ 0.05, p just above it and stops, at each level
SEQUENTIAL_PAIRED_SEEDS = {"nominal": 43, "ordinal": 44}


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_the_sequential_paired_test_keeps_every_decision_of_all_p_shuffles(
    level: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every difference p ≤ 0.05 of all P = 1000 swaps is the sequential test's, exactly, every other
    p above 0.05; the same seed gives the same p and stops whatever the batches (the swaps are drawn
    batch by batch). Nominal swaps reweight the patterns' terms (`_reweighted_null`); ordinal δ
    depends on each shuffle's totals, so its swaps are summed as they are (`_swaps_null`)."""
    rng = np.random.default_rng(SEQUENTIAL_PAIRED_SEEDS[level])
    significant, near, stopped = 0, 0, 0
    for seed in range(30):
        case = {**leaning_pair(rng, 40, rng.choice([0, 0.1, 0.15, 0.2, 0.3])), "level": level}
        full = paired_test(case, seed, 1000, stop_at=1001)
        test = paired_test(case, seed, 1000)
        assert_keeps_decisions(full.p_values, test.p_values)
        with monkeypatch.context() as patched:
            patched.setattr(resampling, "BATCH_ELEMENTS", 500)  # a swap or two a batch
            small = paired_test(case, seed, 1000)
        assert np.array_equal(small.p_values, test.p_values) and np.array_equal(small.n_shuffles, test.n_shuffles)
        significant += (full.p_values <= 0.05).sum()
        near += ((full.p_values > 0.05) & (full.p_values <= 0.15)).sum()
        stopped += (test.n_shuffles < 1000).sum()
    # what makes the promise bite: significant p, p just above 0.05, stops
    assert significant >= 5 and near >= 5 and stopped >= 10, (significant, near, stopped)
