"""The replacement test (`agreement_core.judge_figures.replacement`, the marts `judge_replacement` and
`judge_replacement_raters`) against an independent implementation of the alternative annotator test
written here from the paper's definition (Calderon, Reichart & Dror, ACL 2025) with plain loops,
scipy's `ttest_1samp` and scipy's Benjamini–Yekutieli (`false_discovery_control`), on judges and
raters hypothesis generates (nominal, ordinal, interval); and what the test promises: a judge that
copies the raters' majority replaces them, a random judge does not; the rows where nothing can be
tested are null; ε from a dataset's dataset.yml, the build var and the default, each refused with
one line when unusable."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from agreement_core.judge_figures import replacement
from agreement_core.judge_figures.judge_references import JudgedQuestion
from agreement_core.settings import SettingsError, alt_test_epsilon, alt_test_min_units, dataset_alt_test_epsilon
from tests.figure_checks import same_figure
from tests.judge_cases import GENDERS, inputs
from tests.replacement_reference import paper_alt_test

# --------------------------------------------------------------------------------- generated sets

CODES = {"nominal": [1, 2, 3], "ordinal": [1, 2, 5, 9], "interval": [1, 2, 3, 4, 5]}


@st.composite
def judged_references(draw: st.DrawFn) -> dict:
    """A question, raters in two gender groups with values on many units (some missing), an expert
    reference with one value per unit, and judges (a judge of scores may give halves; some judge
    units no rater judged)."""
    level = draw(st.sampled_from(["nominal", "ordinal", "interval"]))
    codes = CODES[level]
    n_raters, n_units = draw(st.integers(2, 6)), draw(st.integers(3, 24))
    genders = [draw(st.sampled_from(GENDERS)) for _ in range(n_raters)]
    agreement = draw(st.sampled_from([0.0, 0.5, 0.9]))
    truth = [draw(st.sampled_from(codes)) for _ in range(n_units)]
    rows = []
    for rater in range(n_raters):
        for unit in range(n_units):
            if draw(st.integers(0, 5)) == 0:
                continue  # missing
            value = truth[unit] if draw(st.floats(0, 1)) < agreement else draw(st.sampled_from(codes))
            rows.append(
                {
                    "unit_id": unit,
                    "rater_id": rater,
                    "ceiling_rater": f"r{rater}",
                    "reference": "raters",
                    "value_code": value,
                }
            )
    rows += [
        {"unit_id": unit, "rater_id": -1, "ceiling_rater": "expert", "reference": "expert", "value_code": truth[unit]}
        for unit in range(n_units)
    ]
    judge_codes = codes if level != "interval" else [1, 1.5, 2, 3, 3.5, 4, 5]
    judge_rows = []
    for judge in draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=1, max_size=2, unique=True)):
        copies = draw(st.booleans())
        for unit in range(n_units + 3):  # 3 units no rater judged
            if draw(st.integers(0, 6)) == 0:
                continue
            value = truth[unit] if copies and unit < n_units else draw(st.sampled_from(judge_codes))
            judge_rows.append({"judge": judge, "unit_id": unit, "value": value})
    return {
        "level": level,
        "codes": codes,
        "rows": rows,
        "judge_rows": judge_rows,
        "genders": genders,
        "epsilon": draw(st.sampled_from([0.0, 0.1, 0.2, 0.35])),
        "min_units": draw(st.integers(2, 8)),
    }


def judged_of(case: dict) -> JudgedQuestion:
    return JudgedQuestion(*inputs(case))


def on_scale(case: dict, value: float) -> float:
    """A value as the test compares it: an ordinal label's position 1..K, else the value."""
    return float(case["codes"].index(value) + 1) if case["level"] == "ordinal" else float(value)


def expected_of(case: dict, judge: str, gender: str | None) -> dict:
    values: dict = {}
    for row in case["rows"]:
        if row["reference"] == "raters" and gender in (None, case["genders"][row["rater_id"]]):
            values.setdefault(row["ceiling_rater"], {})[row["unit_id"]] = on_scale(case, row["value_code"])
    judged = {row["unit_id"]: on_scale(case, row["value"]) for row in case["judge_rows"] if row["judge"] == judge}
    return paper_alt_test(values, judged, case["level"], case["epsilon"], case["min_units"])


def rows_of(case: dict) -> pd.DataFrame:
    settings_ = replacement.ReplacementSettings(lambda reference: case["epsilon"], case["min_units"])
    return replacement.as_result([replacement.judged_question_rows(judged_of(case), lambda source: settings_)])


@given(judged_references())
@settings(max_examples=120, deadline=None)
def test_every_verdict_and_rater_equals_the_papers_definition(case: dict) -> None:
    """Per judge and reference (the raters, each gender group): the verdict's counts, winning rate,
    advantage probability and replaces, and each tested rater's advantages, p-value and win, as the
    paper's definition computes them; the expert (one value per unit) has no row."""
    rows = rows_of(case)
    assert "expert" not in set(rows["reference_dimension"])
    for judge in sorted({row["judge"] for row in case["judge_rows"]}):
        for dimension, value, gender in [("raters", "all", None), *[("gender", g, g) for g in GENDERS]]:
            expected = expected_of(case, judge, gender)
            mine = rows[
                (rows["judge"] == judge)
                & (rows["reference_dimension"] == dimension)
                & (rows["reference_value"] == value)
            ]
            if mine.empty:  # the reference has one value per unit at most: no row
                members = [
                    r
                    for r in case["rows"]
                    if r["reference"] == "raters" and gender in (None, case["genders"][r["rater_id"]])
                ]
                per_unit = pd.Series([r["unit_id"] for r in members]).value_counts()
                assert (per_unit.max() if len(per_unit) else 0) <= 1
                continue
            verdict = mine[mine["rater_key"] == replacement.VERDICT_ROW].iloc[0]
            for column, figure in expected["verdict"].items():
                assert same_figure(figure, verdict[column]), (judge, dimension, value, column, figure, verdict[column])
            assert verdict["epsilon"] == case["epsilon"]
            raters = mine[mine["rater_key"] != replacement.VERDICT_ROW].set_index("rater_key")
            assert sorted(raters.index) == sorted(expected["raters"])
            for rater, figures in expected["raters"].items():
                assert same_figure(figures["n_units"], raters.loc[rater, "n_units"])
                assert same_figure(figures["judge_advantage"], raters.loc[rater, "judge_advantage"])
                assert same_figure(figures["rater_advantage"], raters.loc[rater, "rater_advantage"])
                assert same_figure(figures["p_value"], raters.loc[rater, "p_value"]), (figures, raters.loc[rater])
                assert bool(raters.loc[rater, "judge_wins"]) == figures["wins"]


# ------------------------------------------------------------------------------ what it promises


def crowd(n_units: int = 80, n_raters: int = 6, agreement: float = 0.8, seed: int = 3, n_labels: int = 3):
    """Raters who give the unit's true label with probability `agreement`, else a random one."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, n_labels, n_units)
    values = np.where(
        rng.random((n_units, n_raters)) < agreement, truth[:, None], rng.integers(0, n_labels, (n_units, n_raters))
    )
    units, raters = np.meshgrid(np.arange(n_units), np.arange(n_raters), indexing="ij")
    return units.ravel(), raters.ravel(), values.ravel().astype(float), values


def test_a_judge_that_copies_the_majority_replaces_the_raters_and_a_random_judge_does_not() -> None:
    units, raters, values, table = crowd()
    majority = np.array([np.bincount(row.astype(int), minlength=3).argmax() for row in table], dtype=float)
    copying = replacement.alt_test(units, raters, values, majority, "nominal", 0.1)
    assert copying.replaces and copying.winning_rate == 1.0 and copying.n_raters_tested == 6
    assert copying.advantage_probability == 1.0  # the majority always matches the others at least as well
    rng = np.random.default_rng(11)
    random = replacement.alt_test(units, raters, values, rng.integers(0, 3, len(table)).astype(float), "nominal", 0.1)
    assert random.replaces is False and random.winning_rate == 0.0
    assert random.advantage_probability < 0.5


def test_zero_variance_gives_scipys_t_test() -> None:
    """Every rater agrees on every unit and the judge too: d is 0 on every unit. Below ε the t-test
    is −inf with p 0 (the judge wins); at ε = 0 it is NaN, a p no test rejects (the judge wins
    against none)."""
    n_units, n_raters = 40, 4
    units, raters = (a.ravel() for a in np.meshgrid(np.arange(n_units), np.arange(n_raters), indexing="ij"))
    values = np.full(len(units), 2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scipy_p = scipy.stats.ttest_1samp(np.zeros(n_units), 0.1, alternative="less").pvalue
    above = replacement.alt_test(units, raters, values, np.full(n_units, 2.0), "interval", 0.1)
    assert scipy_p == 0.0 and list(above.raters.p_value) == [0.0] * n_raters and above.replaces
    at = replacement.alt_test(units, raters, values, np.full(n_units, 2.0), "interval", 0.0)
    assert np.isnan(at.raters.p_value).all() and at.winning_rate == 0.0 and at.replaces is False


def test_nothing_testable_gives_null_figures_not_an_error() -> None:
    """A judge of fewer units than the minimum, raters with one unit each, a reference with one
    rater per unit: counts, and null winning rate, advantage probability and replaces."""
    units, raters, values, table = crowd(n_units=80)
    few = np.full(80, np.nan)
    few[:20] = table[:20, 0]
    verdict = replacement.alt_test(units, raters, values, few, "nominal", 0.1)
    assert (verdict.n_units, verdict.n_raters, verdict.n_raters_tested) == (20, 6, 0)
    assert math.isnan(verdict.winning_rate) and math.isnan(verdict.advantage_probability) and verdict.replaces is None
    one_each = replacement.alt_test(units, np.arange(len(units)), values, table[:, 0].astype(float), "nominal", 0.1)
    assert (one_each.n_units, one_each.n_raters, one_each.n_raters_tested, one_each.replaces) == (80, 480, 0, None)
    one_per_unit = replacement.alt_test(np.arange(50), np.arange(50) % 5, np.ones(50), np.ones(50), "nominal", 0.1)
    assert (one_per_unit.n_units, one_per_unit.n_raters, one_per_unit.replaces) == (0, 0, None)


def test_units_no_rater_judged_change_nothing() -> None:
    units, raters, values, table = crowd(n_units=60)
    judge = table[:, 1].astype(float)
    alone = replacement.alt_test(units, raters, values, judge, "nominal", 0.1)
    wider = replacement.alt_test(units, raters, values, np.concatenate([judge, np.ones(25)]), "nominal", 0.1)
    assert (alone.n_units, alone.n_raters, alone.winning_rate, alone.advantage_probability) == (
        wider.n_units,
        wider.n_raters,
        wider.winning_rate,
        wider.advantage_probability,
    )
    for field in ("rater", "n_units", "judge_advantage", "rater_advantage", "p_value", "judge_wins"):
        assert np.array_equal(getattr(alone.raters, field), getattr(wider.raters, field))


def test_min_units_is_the_setting() -> None:
    units, raters, values, table = crowd(n_units=40)
    judge = table[:, 0].astype(float)
    assert replacement.alt_test(units, raters, values, judge, "nominal", 0.1).n_raters_tested == 6
    assert replacement.alt_test(units, raters, values, judge, "nominal", 0.1, min_units=41).n_raters_tested == 0


# ------------------------------------------------------------------------------------------ ε


def test_epsilon_settings_read_and_refuse_in_one_line() -> None:
    assert alt_test_epsilon("None", "var alt_test_epsilon") is None
    assert alt_test_epsilon(None, "var alt_test_epsilon") is None
    assert alt_test_epsilon("0.25", "var alt_test_epsilon") == 0.25
    assert alt_test_epsilon(0, "var alt_test_epsilon") == 0.0
    for bad in ("1", 1.5, -0.1, "lots", True):
        with pytest.raises(
            SettingsError, match=r"^var alt_test_epsilon: alt_test_epsilon .* is not a number in \[0, 1\)"
        ):
            alt_test_epsilon(bad, "var alt_test_epsilon")
    assert alt_test_min_units("30") == 30
    with pytest.raises(SettingsError, match="alt_test_min_units"):
        alt_test_min_units("1")
    assert dataset_alt_test_epsilon("name: x\nalt_test_epsilon: 0.3\n", "d/dataset.yml") == 0.3
    assert dataset_alt_test_epsilon("name: x\n", "d/dataset.yml") is None
    with pytest.raises(SettingsError, match=r"^d/dataset.yml: alt_test_epsilon"):
        dataset_alt_test_epsilon("name: x\nalt_test_epsilon: 2\n", "d/dataset.yml")


def test_each_reference_gets_its_epsilon() -> None:
    """The settings' ε by base reference reaches every row of that reference, its groups' too."""
    case = {
        "level": "nominal",
        "codes": [1, 2, 3],
        "rows": [
            {
                "unit_id": u,
                "rater_id": r if name == "raters" else -1,
                "ceiling_rater": f"{name}{r}",
                "reference": name,
                "value_code": 1 + (u * r) % 3,
            }
            for u in range(12)
            for r in range(4)
            for name in ("raters", "expert")
        ],
        "judge_rows": [{"judge": "a", "unit_id": u, "value": 1} for u in range(12)],
        "genders": ["Man", "Woman", "Man", "Woman"],
    }
    epsilons = {"raters": 0.1, "expert": 0.2}
    settings_ = replacement.ReplacementSettings(epsilons.__getitem__, 5)
    rows = replacement.judged_question_rows(judged_of(case), lambda source: settings_)
    by_reference = rows.groupby("reference_dimension")["epsilon"].unique().to_dict()
    assert {name: list(values) for name, values in by_reference.items()} == {
        "expert": [0.2],
        "gender": [0.1],
        "raters": [0.1],
    }


# ------------------------------------------------------------------------- report and summary


def test_the_report_and_summary_show_a_judge_that_replaces_the_raters_but_not_a_group() -> None:
    """`dwh report`'s tables and `dwh summary`'s lines on marts where judge_a replaces DICES's raters
    but not its women, and judge_b replaces nobody."""
    import duckdb

    from dwh.reporting.report_replacement import groups_not_replaced, replacement_figures
    from dwh.summary import replacement_lines

    con = duckdb.connect()
    con.execute("create schema marts")
    con.execute(
        "create table marts.judge_replacement as select * from (values "
        "('judge_a', 'dices', '350', 'Q_overall', 'raters', 'all', 0.1, 40, 10, 10, 0.8, 0.9, true), "
        "('judge_a', 'dices', '350', 'Q_overall', 'gender', 'Woman', 0.1, 40, 5, 5, 0.2, 0.6, false), "
        "('judge_a', 'dices', '350', 'Q_overall', 'gender', 'Man', 0.1, 40, 5, 5, 1.0, 0.95, true), "
        "('judge_b', 'dices', '350', 'Q_overall', 'raters', 'all', 0.1, 40, 10, 0, null, null, null)"
        ") as t(judge, source, scope, question, reference_dimension, reference_value, epsilon, n_units, n_raters, "
        "n_raters_tested, winning_rate, advantage_probability, replaces)"
    )
    con.execute(
        "create table marts.judge_agreement as select * from (values "
        "('judge_a', 'dices', '350', 'Q_overall', 'raters', 'all', 0.42, 0.3)) "
        "as t(judge, source, scope, question, reference_dimension, reference_value, xrr, human_xrr_median)"
    )
    with_groups = groups_not_replaced(con)
    assert "Woman" in with_groups and "Man" not in with_groups.replace("Woman", "")
    verdicts, _ = replacement_figures(con)
    assert "1 of 1" in verdicts and "0 of 0" in verdicts and "0.42" in verdicts
    lines = replacement_lines(con, {"judge_replacement"})
    assert lines[1] == "  dices raters: 1 of 2 judge(s) on some question, 1 on every tested question (judge_a 1/1)"


def test_the_order_of_the_values_changes_no_bit() -> None:
    """The values come from SQL in no fixed order: the figures are the same to the last bit (a
    memoized row and one computed again are compared exactly)."""
    units, raters, values, table = crowd(n_units=70, agreement=0.6, seed=5)
    judge = np.where(np.random.default_rng(2).random(70) < 0.7, table[:, 0], 1).astype(float)
    first = replacement.alt_test(units, raters, values, judge, "interval", 0.1)
    shuffled = np.random.default_rng(9).permutation(len(units))
    again = replacement.alt_test(units[shuffled], raters[shuffled], values[shuffled], judge, "interval", 0.1)
    for field in ("rater", "n_units", "judge_advantage", "rater_advantage", "p_value", "judge_wins"):
        assert getattr(first.raters, field).tobytes() == getattr(again.raters, field).tobytes(), field
