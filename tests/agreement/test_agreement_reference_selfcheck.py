"""Self-checks of tests/agreement_reference.py: hand-computed and published figures.

No warehouse is involved: the inputs are small judgements feeds (the shape of the
`int_<source>__judgements` models) with the project's question seeds.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import krippendorff
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from tests import agreement_reference as ref
from tests.helpers import PROJECT_ROOT

# --------------------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------------------

YES_NO_UNSURE = {"Yes": 1, "No": 2, "Unsure": 3}
NOMINAL_1_TO_5 = "nominal_1_to_5"  # a label set of the self-checks only, for Krippendorff's nominal example


def seeds() -> tuple[pd.DataFrame, pd.DataFrame]:
    questions = pd.read_csv(PROJECT_ROOT / "seeds" / "judgement_questions.csv")
    labels = pd.read_csv(PROJECT_ROOT / "seeds" / "judgement_labels.csv", dtype={"value_text": str})
    test_question = {"source": "test", "rating_kind": "nominal", "question": "fluency", "label_set": NOMINAL_1_TO_5}
    test_question |= {"level_of_measurement": "nominal", "several_raters_per_unit": True}
    test_labels = [{"label_set": NOMINAL_1_TO_5, "value_code": c, "value_text": str(c)} for c in range(1, 6)]
    questions = pd.concat([questions, pd.DataFrame([test_question])], ignore_index=True)
    labels = pd.concat([labels, pd.DataFrame(test_labels).assign(counts_as_missing=False)], ignore_index=True)
    return questions, labels.fillna({"is_unsure": False}) if "is_unsure" in labels else labels


def judgement(
    rater: str,
    unit: str,
    code: int | None,
    source: str = "dices",
    scope: str = "350",
    kind: str = "safety",
    question: str = "Q_overall",
    judgement_round: str | None = None,
    row: int | None = None,
    movie_id: str | None = None,
) -> dict:
    return {
        "source": source,
        "scope": scope,
        "rating_kind": kind,
        "question": question,
        "unit_key": unit if movie_id is None else f"{unit}:{movie_id}",
        "dialogue_key": unit,
        "movie_id": movie_id,
        "rater_key": rater,
        "value_code": code,
        "judgement_round": judgement_round,
        "judgement_row": row,
    }


def inputs(
    rows: list[dict], demographics: dict[str, dict[str, str | None]] | None = None, excluded: tuple[str, ...] = ()
) -> ref.Inputs:
    demographics = demographics or {}
    questions, labels = seeds()
    raters = pd.DataFrame(
        [
            {"rater_key": r, **{d: None for d in ref.DEMOGRAPHIC_DIMENSIONS}, **demographics.get(r, {})}
            for r in sorted({row["rater_key"] for row in rows})
        ],
        columns=["rater_key", *ref.DEMOGRAPHIC_DIMENSIONS],
    )
    return ref.Inputs(
        judgements=pd.DataFrame(rows, columns=list(judgement("r", "u", 1))).astype(object),
        raters=raters,
        excluded_raters=pd.DataFrame({"rater_key": list(excluded), "reason": "a test"}),
        questions=questions,
        labels=labels,
    )


def dices(
    answers: dict[str, dict[str, list[str | None]]],
    question: str = "Q_overall",
    demographics: dict[str, dict[str, str | None]] | None = None,
    excluded: tuple[str, ...] = (),
) -> ref.Inputs:
    """answers: item → rater → that rater's answers in file order (several: repeats in later rows)."""
    rows = []
    for item, by_rater in answers.items():
        for rater, values in by_rater.items():
            for value in values:
                code = None if value is None else YES_NO_UNSURE.get(value, value)
                rows.append(judgement(rater, item, code, question=question, row=len(rows)))
    return inputs(rows, demographics, excluded)


def duo(
    objective: dict[str, dict[str, list[int | None]]],
    subjective: dict[str, dict[str, int]] | None = None,
    scope: str = "en:ed",
) -> ref.Inputs:
    """objective: dialogue → metric → its annotators' scores; subjective: dialogue → metric → the user's score."""
    rows = []
    for dialogue, by_metric in objective.items():
        for metric, scores in by_metric.items():
            for slot, score in enumerate(scores, start=1):
                rater = f"duo:{dialogue}:annotator{slot}"
                rows.append(judgement(rater, dialogue, score, "duo", scope, "objective", metric))
    for dialogue, by_metric in (subjective or {}).items():
        for metric, score in by_metric.items():
            rows.append(judgement(f"duo:user:{dialogue}", dialogue, score, "duo", scope, "subjective", metric))
    return inputs(rows)


def only(frame: pd.DataFrame, **where) -> pd.Series:
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        mask &= (frame[column] == value).to_numpy()
    assert mask.sum() == 1, f"expected one row for {where}, got {mask.sum()}"
    return frame[mask].iloc[0]


def assert_no_nan(frame: pd.DataFrame) -> None:
    for column in frame.columns:
        assert not any(isinstance(v, float) and math.isnan(v) for v in frame[column]), column


def question(level: str, codes: tuple[int, ...]) -> ref.Question:
    return ref.Question(level, True, codes, tuple(map(str, codes)), frozenset())


# The reliability data of Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C:
# 4 observers × 12 units, published α: nominal 0.743, interval 0.849.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


def krippendorff_2011(source: str, kind: str, metric: str) -> ref.Inputs:
    rows = [
        judgement(f"obs{o}", f"u{u:02d}", KRIPPENDORFF_2011[o][u], source, "s", kind, metric)
        for o in range(4)
        for u in range(12)
        if KRIPPENDORFF_2011[o][u] is not None
    ]
    return inputs(rows)


# --------------------------------------------------------------------------------------------
# α
# --------------------------------------------------------------------------------------------


def test_two_raters_who_always_agree_have_alpha_one():
    data = dices({f"i{u}": {"r1": [v], "r2": [v]} for u, v in enumerate(["Yes", "No", "Yes", "Unsure"])})
    row = only(ref.agreement(data), group_dimension="all")
    assert row["alpha"] == pytest.approx(1.0)
    assert row["observed_disagreement"] == 0.0
    assert (row["n_units"], row["n_values"], row["n_raters"], row["n_units_2plus"]) == (4, 8, 2, 4)
    assert row["xrr"] is None and row["gai"] is None and row["n_xrr_units"] == 0


def test_krippendorff_2011_nominal_published_alpha():
    row = only(ref.agreement(krippendorff_2011("test", "nominal", "fluency")), group_dimension="all")
    assert row["alpha"] == pytest.approx(0.743, abs=5e-4)
    assert 1 - row["observed_disagreement"] / row["expected_disagreement"] == pytest.approx(row["alpha"], abs=1e-12)
    assert (row["n_units"], row["n_values"]) == (11, 40)  # unit 12 has a single value: not pairable


def test_krippendorff_2011_interval_published_alpha_on_duo_scores():
    row = only(ref.agreement(krippendorff_2011("duo", "objective", "empathy")), group_dimension="all")
    assert row["level_of_measurement"] == "interval" and row["n_labels"] == 5
    assert row["alpha"] == pytest.approx(0.849, abs=5e-4)
    assert 1 - row["observed_disagreement"] / row["expected_disagreement"] == pytest.approx(row["alpha"], abs=1e-12)


def test_krippendorff_package_docstring_value_counts():
    value_counts = [
        [1, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 2, 0, 0],
        [2, 0, 0, 0],
        [0, 0, 2, 0],
        [0, 0, 2, 1],
        [0, 0, 0, 3],
        [1, 0, 1, 0],
        [0, 2, 0, 0],
        [2, 0, 0, 0],
        [2, 0, 0, 0],
        [0, 0, 2, 0],
        [0, 0, 2, 0],
        [0, 0, 0, 0],
        [0, 0, 1, 1],
    ]
    units = [[c for c in range(4) for _ in range(n[c])] for n in value_counts]
    observed, expected = ref.krippendorff_disagreements(units, question("nominal", (0, 1, 2, 3)))
    assert 1 - observed / expected == pytest.approx(0.691358, abs=1e-6)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from([1, 2, 4, 5]), max_size=4), min_size=1, max_size=8),
    st.sampled_from(["nominal", "interval"]),
)
def test_disagreements_give_the_package_alpha(units, level):
    q = question(level, (1, 2, 4, 5))
    observed, expected = ref.krippendorff_disagreements(units, q)
    pairable = [values for values in units if len(values) >= 2]
    n = sum(map(len, pairable))
    if n < 2:
        assert observed is None and expected is None
        return
    # D_o / D_e by brute force over the ordered pairs of values within each unit
    observed_pairs = sum(
        sum(q.distance(a, b) for a, b in itertools.permutations(values, 2)) / (len(values) - 1) for values in pairable
    )
    everything = [v for values in pairable for v in values]
    expected_pairs = sum(q.distance(a, b) for a, b in itertools.permutations(everything, 2))
    assert observed == pytest.approx(observed_pairs / n)
    assert expected == pytest.approx(expected_pairs / (n * (n - 1)))
    if expected > 0:
        matrix = ref.reliability_matrix([[(f"r{i}", v) for i, v in enumerate(values)] for values in units])
        assert 1 - observed / expected == pytest.approx(ref.package_alpha(matrix, q), abs=1e-9)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from("abcdef"), st.sampled_from([1, 2, 3]), max_size=6), min_size=1))
def test_value_slots_give_the_alpha_of_the_raters_matrix(units):
    """The reference packs a too large raters × units matrix into value slots: the same α."""
    as_pairs = [list(unit.items()) for unit in units]
    by_rater = ref.reliability_matrix(as_pairs)
    slots = np.full((6, len(units)), np.nan)
    for u, unit in enumerate(units):
        slots[: len(unit), u] = list(unit.values())
    q = question("nominal", (1, 2, 3))
    assert by_rater.shape[0] == len({r for unit in units for r in unit})
    _, expected = ref.krippendorff_disagreements([list(unit.values()) for unit in units], q)
    if expected:  # α is defined: pairable values that vary
        assert ref.package_alpha(by_rater, q) == pytest.approx(ref.package_alpha(slots, q), abs=1e-12)


# --------------------------------------------------------------------------------------------
# First judgements and repeats
# --------------------------------------------------------------------------------------------


def test_the_first_judgement_is_the_earliest_round_numbers_as_numbers_then_row_nulls_last():
    rows = [
        # rater a: rounds "2" and "10": "2" comes first (as text "10" would)
        judgement("a", "i1", 1, judgement_round="2", row=1),
        judgement("a", "i1", 2, judgement_round="10", row=5),
        # rater b: same round, rows 7 and 3; then a null round, which comes last
        judgement("b", "i1", 2, judgement_round="1", row=7),
        judgement("b", "i1", 1, judgement_round="1", row=3),
        judgement("b", "i1", 3, judgement_round=None, row=1),
        # rater c: a first judgement without a value does not count: the first with a value does
        judgement("c", "i1", None, judgement_round="1", row=1),
        judgement("c", "i1", 3, judgement_round="1", row=2),
        judgement("c", "i1", 3, judgement_round="1", row=None),
    ]
    data = inputs(rows)
    distribution = only(ref.rating_distributions(data), dialogue_key="i1")
    # first values: a Yes (1), b Yes (1), c Unsure (3); repeats: a 1, b 2, c 1; c's null is missing
    assert distribution["value_counts"] == [("Yes", 2), ("No", 0), ("Unsure", 1)]
    assert (distribution["n_ratings"], distribution["n_repeats"], distribution["n_missing"]) == (3, 4, 1)
    consistency = ref.rater_consistency(data)
    a, b, c = (only(consistency, rater_key=r) for r in "abc")
    assert (a["n_repeats"], a["n_identical"]) == (1, 0)  # No after Yes
    assert (b["n_repeats"], b["n_identical"]) == (2, 0)  # No and Unsure after Yes
    assert (c["n_repeats"], c["n_identical"], c["share_identical"]) == (1, 1, 1.0)
    pooled = consistency[consistency["rater_key"].isna()].iloc[0]
    assert (pooled["n_repeats"], pooled["n_identical"], pooled["share_identical"]) == (4, 1, 0.25)


def test_one_rater_with_repeats_has_no_agreement():
    data = dices({"i1": {"a": ["Yes", "No"]}, "i2": {"a": ["No", "No"]}})
    row = only(ref.agreement(data), group_dimension="all")
    assert (row["n_raters"], row["n_units"], row["n_values"], row["n_units_2plus"]) == (1, 0, 0, 0)
    assert row["alpha"] is None and row["mean_negentropy"] is None and row["mean_plurality_share"] is None
    consistency = ref.rater_consistency(data)
    pooled = consistency[consistency["rater_key"].isna()].iloc[0]
    assert (pooled["n_repeats"], pooled["n_identical"]) == (2, 1)


def test_repeats_are_left_out_of_alpha():
    with_repeats = dices({"i1": {"a": ["Yes", "No"], "b": ["Yes"]}, "i2": {"a": ["No"], "b": ["Yes", "Yes"]}})
    without = dices({"i1": {"a": ["Yes"], "b": ["Yes"]}, "i2": {"a": ["No"], "b": ["Yes"]}})
    alpha = krippendorff.alpha(reliability_data=[[1, 2], [1, 1]], level_of_measurement="nominal")
    for data in (with_repeats, without):
        assert only(ref.agreement(data), group_dimension="all")["alpha"] == pytest.approx(alpha)


def test_excluded_raters_are_left_out_and_counted():
    answers = {"i1": {"a": ["Yes"], "b": ["Yes"], "x": ["No"]}, "i2": {"a": ["No"], "b": ["Yes"], "x": ["No"]}}
    demographics = {"a": {"gender": "Man"}, "b": {"gender": "Woman"}, "x": {"gender": "Man"}}
    excluded = dices(answers, demographics=demographics, excluded=("x",))
    without_x = dices(
        {i: {r: v for r, v in by.items() if r != "x"} for i, by in answers.items()}, demographics=demographics
    )
    with_x, without = ref.agreement(excluded), ref.agreement(without_x)
    assert list(with_x["n_excluded_raters"]) == [1, 1, 0]  # all, Man, Woman
    pd.testing.assert_frame_equal(with_x.drop(columns="n_excluded_raters"), without.drop(columns="n_excluded_raters"))
    assert "x" not in set(ref.rater_agreement(excluded)["rater_key"])
    assert only(ref.rating_distributions(excluded), dialogue_key="i1")["n_ratings"] == 2


# --------------------------------------------------------------------------------------------
# xRR and GAI
# --------------------------------------------------------------------------------------------


def _java_test_data():
    """CrossReplicationReliabilityTest (google-research/cross-replication-reliability): xRR 0.1818182."""
    x = {1: (0, 2), 2: (0, 3), 3: (2, 0), 4: (3, 0), 5: (1, 1), 6: (3, 0), 7: (2, 1)}  # 6, 7: X only
    y = {1: (0, 2), 2: (1, 1), 3: (1, 1), 4: (1, 1), 5: (2, 0)}
    return x, y


def test_xrr_matches_the_reference_implementations_test():
    x, y = _java_test_data()
    units = sorted(x)
    as_values = lambda n: [1] * n[0] + [2] * n[1]  # noqa: E731
    x_units = [as_values(x[u]) for u in units]
    y_units = [as_values(y.get(u, (0, 0))) for u in units]
    cross = ref.cross_replication_reliability(x_units, y_units, question("nominal", (1, 2)))
    assert cross.n_units == 5
    assert cross.xrr == pytest.approx(0.1818182, abs=1e-6)


def test_xrr_in_the_agreement_mart_between_demographic_groups():
    x, y = _java_test_data()
    answers: dict[str, dict[str, list[str]]] = {}
    demographics = {}
    for side, data, gender in (("x", x, "Man"), ("y", y, "Woman")):
        for unit, (n_a, n_b) in data.items():
            for i, label in enumerate(["Yes"] * n_a + ["No"] * n_b):
                rater = f"{side}{i}"
                answers.setdefault(f"i{unit}", {})[rater] = [label]
                demographics[rater] = {"gender": gender}
    out = ref.agreement(dices(answers, demographics=demographics))
    man = only(out, group_dimension="gender", group_value="Man")
    woman = only(out, group_dimension="gender", group_value="Woman")
    assert man["n_xrr_units"] == 5 and man["xrr"] == pytest.approx(0.1818182, abs=1e-6)
    assert woman["xrr"] == pytest.approx(man["xrr"])  # nominal xRR is symmetric in X and Y
    assert man["gai"] == pytest.approx(man["alpha"] / man["xrr"])
    assert set(out["group_dimension"]) == {"all", "gender"}  # every other dimension is null for everyone


def test_two_groups_that_agree_perfectly_have_xrr_one():
    answers = {
        f"i{u}": {"m1": [v], "m2": [v], "w1": [v], "w2": [v]} for u, v in enumerate(["Yes", "No", "No", "Unsure"])
    }
    demographics = {r: {"gender": "Man" if r.startswith("m") else "Woman"} for r in ("m1", "m2", "w1", "w2")}
    man = only(ref.agreement(dices(answers, demographics=demographics)), group_value="Man")
    assert man["xrr"] == pytest.approx(1.0) and man["alpha"] == pytest.approx(1.0) and man["gai"] == pytest.approx(1.0)
    assert man["xrr_observed_disagreement"] == 0.0


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from([1, 2, 3]), max_size=4), st.lists(st.sampled_from([1, 2, 3]), max_size=4)),
        min_size=1,
        max_size=6,
    )
)
def test_xrr_equals_the_pairwise_definition(units):
    cross = ref.cross_replication_reliability(
        [x for x, _ in units], [y for _, y in units], question("nominal", (1, 2, 3))
    )
    common = [(xs, ys) for xs, ys in units if xs and ys]
    assert cross.n_units == len(common)
    if not common:
        assert cross.xrr is None
        return
    weights = [len(xs) + len(ys) for xs, ys in common]
    shares = [sum(a != b for a in xs for b in ys) / (len(xs) * len(ys)) for xs, ys in common]
    d_o = sum(s * w for s, w in zip(shares, weights)) / sum(weights)
    all_x = [a for xs, _ in common for a in xs]
    all_y = [b for _, ys in common for b in ys]
    d_e = sum(a != b for a in all_x for b in all_y) / (len(all_x) * len(all_y))
    assert cross.observed_disagreement == pytest.approx(d_o)
    assert cross.expected_disagreement == pytest.approx(d_e)
    assert cross.xrr == (pytest.approx(1 - d_o / d_e) if d_e > 0 else None)


# --------------------------------------------------------------------------------------------
# Which rows exist; null rules; n_units_2plus
# --------------------------------------------------------------------------------------------


def test_every_group_gets_a_row_for_every_question_even_without_values():
    data = dices(
        {"i1": {"a": ["Yes"], "b": ["Yes"], "c": [None]}, "i2": {"a": ["No"], "b": ["Yes"], "c": [None]}},
        demographics={
            "a": {"race": "Asian", "gender": "Man"},
            "b": {"race": "White"},
            "c": {"race": "Black", "gender": "Woman"},
        },
    )
    out = ref.agreement(data)
    assert_no_nan(out)
    assert sorted(zip(out["group_dimension"], out["group_value"])) == [
        ("all", "all"),
        ("gender", "Man"),
        ("gender", "Woman"),
        ("race", "Asian"),
        ("race", "Black"),
        ("race", "White"),
        ("race_gender", "Asian / Man"),
        ("race_gender", "Black / Woman"),
    ]
    black = only(out, group_value="Black")  # rater c has only missing answers
    assert (black["n_raters"], black["n_units"], black["n_values"], black["n_xrr_units"]) == (0, 0, 0, 0)
    figures = ["observed_disagreement", "expected_disagreement", "alpha", "xrr", "gai", "xrr_observed_disagreement"]
    figures += ["xrr_expected_disagreement", "mean_negentropy", "mean_plurality_share"]
    assert all(black[c] is None for c in figures)
    asian = only(out, group_value="Asian")  # one value per unit: nothing pairable, but xRR is defined
    assert (asian["n_units"], asian["n_values"], asian["n_units_2plus"], asian["alpha"]) == (0, 0, 0, None)
    # X = a (Yes, No), Y = b (Yes, Yes): d_o = (0·2 + 1·2) / 4 = 0.5, d_e = p_X(No) · p_Y(Yes) = 0.5
    assert asian["n_xrr_units"] == 2 and asian["xrr_observed_disagreement"] == pytest.approx(0.5)
    assert asian["xrr_expected_disagreement"] == pytest.approx(0.5) and asian["xrr"] == pytest.approx(0.0)
    assert asian["gai"] is None
    # one value is not agreement: a group of one rater does not look unanimous
    assert asian["mean_plurality_share"] is None and asian["mean_negentropy"] is None


def test_negentropy_and_plurality_average_over_the_units_with_two_values_or_more():
    data = dices(
        {
            "i1": {"a": ["Yes"], "b": ["Yes"], "c": ["No"]},  # the men a, b: Yes Yes
            "i2": {"a": ["Yes"], "b": ["No"], "c": ["No"]},  # Yes No
            "i3": {"a": ["Unsure"], "c": ["Yes"]},  # one man's value: not counted
        },
        demographics={"a": {"gender": "Man"}, "b": {"gender": "Man"}, "c": {"gender": "Woman"}},
    )
    man = only(ref.agreement(data), group_value="Man")
    assert man["n_units_2plus"] == 2 and man["n_units"] == 2 and man["n_values"] == 4
    assert man["mean_plurality_share"] == pytest.approx((1 + 0.5) / 2)
    assert man["mean_negentropy"] == pytest.approx(((math.log(3) - 0) + (math.log(3) - math.log(2))) / 2)
    everyone = only(ref.agreement(data), group_dimension="all")
    assert everyone["n_units_2plus"] == 3 and everyone["mean_plurality_share"] == pytest.approx(
        (2 / 3 + 2 / 3 + 0.5) / 3
    )


def test_alpha_and_xrr_are_null_without_variation():
    data = dices(
        {"i1": {"a": ["Yes"], "b": ["Yes"]}, "i2": {"a": ["Yes"], "b": ["Yes"]}},
        demographics={"a": {"education": "Other"}},
    )
    out = ref.agreement(data)
    row = only(out, group_dimension="all")
    assert row["n_values"] == 4 and row["expected_disagreement"] == 0.0 and row["alpha"] is None
    other = only(out, group_dimension="education")
    assert other["n_xrr_units"] == 2 and other["xrr_expected_disagreement"] == 0.0 and other["xrr"] is None


# --------------------------------------------------------------------------------------------
# rating_distributions
# --------------------------------------------------------------------------------------------


def test_rating_distribution_of_one_unit_over_the_full_label_set():
    data = dices(
        {
            "i1": {"a": ["Yes"], "b": ["Yes"], "c": ["No"], "d": ["No"], "e": ["Yes"], "f": [None]},
            "i2": {"a": [None]},
        }
    )
    out = ref.rating_distributions(data)
    assert_no_nan(out)
    assert list(out["dialogue_key"]) == ["i1"]  # i2 has only a missing judgement
    row = out.iloc[0]
    assert row["value_counts"] == [("Yes", 3), ("No", 2), ("Unsure", 0)]  # the label set's order, zeros included
    assert row["value_shares"] == [("Yes", 0.6), ("No", 0.4), ("Unsure", 0.0)]
    assert (row["n_ratings"], row["n_raters"], row["n_missing"], row["n_distinct_values"]) == (5, 5, 1, 2)
    assert row["plurality_value"] == "Yes" and row["plurality_share"] == pytest.approx(0.6)
    entropy = -(0.6 * math.log(0.6) + 0.4 * math.log(0.4))
    assert row["entropy"] == pytest.approx(entropy) and row["n_labels"] == 3
    assert row["negentropy"] == pytest.approx(math.log(3) - entropy)
    assert row["mean_value"] is None and row["sd_value"] is None and row["scope"] == "350"


def test_plurality_ties_go_to_the_smallest_value_text_and_q1_has_four_labels():
    data = dices({"i1": {"a": [1], "b": [2]}}, question="Q1_whole_conversation_evaluation")
    row = ref.rating_distributions(data).iloc[0]
    texts = [text for text, _ in row["value_counts"]]
    assert len(texts) == 4 and row["n_labels"] == 4 and [n for _, n in row["value_counts"]] == [1, 1, 0, 0]
    assert row["plurality_value"] == min(texts[:2]) == "It is nonsensical (repetitive, incomprehensible, gibberish)"
    assert row["negentropy"] == pytest.approx(math.log(4) - math.log(2))


def test_group_distributions_by_hand():
    """Each group's soft label on each item against the raters outside it (first values only, a rater
    of unknown gender among the outsiders): Jensen–Shannon worked out by hand, ln 2 for no label in
    common, null with no one outside."""
    answers = {
        "i1": {"m1": ["Yes"], "m2": ["Yes"], "w1": ["No"], "w2": ["Yes", "No"], "u": ["Yes"]},
        "i2": {"m1": ["No"], "m2": ["Unsure"]},
        "i3": {"m1": ["Yes"], "w1": ["No"]},
    }
    demographics = {"m1": {"gender": "Man", "race": "White"}, "m2": {"gender": "Man"}}
    demographics |= {"w1": {"gender": "Woman"}, "w2": {"gender": "Woman"}}
    out = ref.group_rating_distributions(dices(answers, demographics=demographics))
    assert_no_nan(out)
    assert set(out["group_dimension"]) == {"gender", "race", "race_gender"}
    man = only(out, dialogue_key="i1", group_value="Man")
    assert man["value_counts"] == [("Yes", 2), ("No", 0), ("Unsure", 0)] and man["n_values"] == 2
    # the Man group (1, 0, 0) against w1, w2 (first value: Yes) and u: (2/3, 1/3, 0); the mean (5/6, 1/6, 0)
    by_hand = (math.log(6 / 5) + 2 / 3 * math.log(4 / 5) + 1 / 3 * math.log(2)) / 2
    assert man["divergence_from_rest"] == pytest.approx(by_hand, abs=1e-12) and man["plurality_value"] == "Yes"
    woman = only(out, dialogue_key="i1", group_value="Woman")
    assert woman["value_shares"] == [("Yes", 0.5), ("No", 0.5), ("Unsure", 0.0)] and woman["plurality_value"] == "No"
    tie = only(out, dialogue_key="i2", group_value="Man")
    assert tie["plurality_value"] == "No" and tie["divergence_from_rest"] is None  # no one outside
    assert only(out, dialogue_key="i3", group_value="White / Man")["divergence_from_rest"] == pytest.approx(math.log(2))
    assert len(out[out["dialogue_key"] == "i2"]) == 3  # Man, White, White / Man: no Woman row without a value


def test_duo_distribution_has_mean_and_sample_sd():
    data = duo(
        {"0001": {"empathy": [3, 4, 4]}, "0002": {"empathy": [5, None, None]}}, subjective={"0001": {"empathy": 2}}
    )
    out = ref.rating_distributions(data)
    assert list(out["rating_kind"]) == ["objective", "objective"]  # subjective scores are not units
    first, second = out.iloc[0], out.iloc[1]
    assert (
        first["value_counts"] == [("1", 0), ("2", 0), ("3", 1), ("4", 2), ("5", 0)] and first["plurality_value"] == "4"
    )
    assert first["mean_value"] == pytest.approx(11 / 3) and first["sd_value"] == pytest.approx(
        np.std([3, 4, 4], ddof=1)
    )
    assert first["negentropy"] == pytest.approx(math.log(5) - first["entropy"])
    assert (second["n_ratings"], second["n_missing"], second["sd_value"], second["entropy"]) == (1, 2, None, 0.0)


def test_redial_did_not_say_is_missing():
    rows = []
    for worker, form_row, seen in (("redial:worker:1", 1, 2), ("redial:worker:2", 2, 1)):
        for question_name, value in (("seen", seen), ("liked", 1), ("suggested", 0)):
            rows.append(
                judgement(
                    worker, "redial:7", value, "redial", "test", "movie_form", question_name, None, form_row, "99"
                )
            )
    data = inputs(rows)
    seen = only(ref.rating_distributions(data), question="seen")
    assert (seen["n_ratings"], seen["n_missing"], seen["value_counts"]) == (1, 1, [("0", 0), ("1", 1)])
    assert seen["negentropy"] == pytest.approx(math.log(2)) and seen["movie_id"] == "99" and seen["scope"] == "test"
    raters = ref.rater_agreement(data)
    assert len(raters[(raters["rater_key"] == "redial:worker:1") & (raters["question"] == "seen")]) == 0
    liked_2 = only(raters, rater_key="redial:worker:2", question="liked")
    assert (liked_2["n_compared"], liked_2["agreement_with_others"]) == (1, 1.0)


# --------------------------------------------------------------------------------------------
# rater_agreement
# --------------------------------------------------------------------------------------------


def test_agreement_with_others_counts_ties_and_only_first_judgements():
    data = dices(
        {
            "i1": {"a": ["Yes"], "b": ["Yes"], "c": ["No"]},  # a: others Yes 1 / No 1, a tie → agrees; c: no
            "i2": {"a": ["Yes", "No"], "b": ["No"]},  # a's first value Yes against b's No → no; b against Yes → no
            "i3": {"c": ["No"]},  # nobody else: not compared
        }
    )
    out = ref.rater_agreement(data)
    assert_no_nan(out)
    a, b, c = (only(out, rater_key=r) for r in "abc")
    assert (a["n_ratings"], a["n_compared"], a["n_agreeing"], a["agreement_with_others"]) == (2, 2, 1, 0.5)
    assert (b["n_ratings"], b["n_compared"], b["agreement_with_others"]) == (2, 2, pytest.approx(0.5))
    assert (c["n_ratings"], c["n_compared"], c["agreement_with_others"]) == (2, 1, 0.0)
    assert a["mean_value"] is None


def test_duo_rater_mean_value():
    out = ref.rater_agreement(duo({"0001": {"empathy": [3, 3, 5]}}))
    third = only(out, rater_key="duo:0001:annotator3")
    assert (third["n_compared"], third["agreement_with_others"], third["mean_value"]) == (1, 0.0, 5.0)
    assert only(out, rater_key="duo:0001:annotator1")["agreement_with_others"] == 1.0


# --------------------------------------------------------------------------------------------
# score_correlations
# --------------------------------------------------------------------------------------------


def test_score_correlations_use_the_unrounded_objective_mean():
    objective = {
        "0001": {"empathy": [1, 1, 2]},
        "0002": {"empathy": [2, 3, 3]},
        "0003": {"empathy": [2, 2, 2]},
        "0004": {"empathy": [5, 4, 5]},
    }
    subjective = {
        "0001": {"empathy": 1, "preference": 3},
        "0002": {"empathy": 3, "preference": 3},
        "0003": {"empathy": 2, "preference": 3},
        "0004": {"empathy": 4},
    }
    out = ref.score_correlations(duo(objective, subjective))
    assert_no_nan(out)
    assert len(out) == 6  # 3 combinations, ordered pairs
    row = only(out, question_a="empathy", rating_kind_a="objective", question_b="empathy", rating_kind_b="subjective")
    x, y = [4 / 3, 8 / 3, 2, 14 / 3], [1, 3, 2, 4]
    assert row["n_dialogues"] == 4
    assert row["pearson_r"] == pytest.approx(stats.pearsonr(x, y).statistic)
    assert row["spearman_rho"] == pytest.approx(1.0)
    reverse = only(
        out, question_a="empathy", rating_kind_a="subjective", question_b="empathy", rating_kind_b="objective"
    )
    assert reverse["pearson_r"] == pytest.approx(row["pearson_r"])
    constant = only(out, question_a="preference", rating_kind_b="objective")
    assert constant["n_dialogues"] == 3 and constant["pearson_r"] is None and constant["spearman_rho"] is None


def test_spearman_uses_average_ranks():
    objective = {f"{i:04d}": {"empathy": [v, v, v]} for i, v in enumerate([1, 2, 2, 3, 5])}
    subjective = {f"{i:04d}": {"empathy": v} for i, v in enumerate([2, 1, 3, 3, 4])}
    row = only(ref.score_correlations(duo(objective, subjective)), rating_kind_a="objective")
    ranks_a, ranks_b = stats.rankdata([1, 2, 2, 3, 5]), stats.rankdata([2, 1, 3, 3, 4])
    assert row["spearman_rho"] == pytest.approx(np.corrcoef(ranks_a, ranks_b)[0, 1])


# --------------------------------------------------------------------------------------------
# Consistency across the marts on a random data set
# --------------------------------------------------------------------------------------------


def test_group_all_means_equal_the_unit_distributions_and_alpha_the_package():
    rng = np.random.default_rng(7)
    answers = {
        f"i{u}": {f"r{r}": [str(rng.choice(["Yes", "No", "Unsure"]))] for r in rng.choice(20, 6, replace=False)}
        for u in range(40)
    }
    data = dices(answers)
    distributions = ref.rating_distributions(data)
    row = only(ref.agreement(data), group_dimension="all")
    assert row["mean_negentropy"] == pytest.approx(np.mean(list(distributions["negentropy"])))
    assert row["mean_plurality_share"] == pytest.approx(np.mean(list(distributions["plurality_share"])))
    reliability = [[np.nan] * 40 for _ in range(20)]
    for u, by_rater in enumerate(answers.values()):
        for rater, (value,) in by_rater.items():
            reliability[int(rater[1:])][u] = YES_NO_UNSURE[value]
    expected = krippendorff.alpha(reliability_data=np.array(reliability), level_of_measurement="nominal")
    assert row["alpha"] == pytest.approx(expected, abs=1e-12)
    counts = Counter(v for by_rater in answers.values() for (v,) in by_rater.values())
    assert sum(n for pairs in distributions["value_counts"] for _, n in pairs) == sum(counts.values())
