"""Self-checks of tests/agreement_reference.py: hand-computed and published figures.

No warehouse is involved: the inputs are small frames shaped like the marts `ratings`, `raters`
and `dialogues`.
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

# --------------------------------------------------------------------------------------------
# Builders
# --------------------------------------------------------------------------------------------

DICES_DIALOGUE = {"source": "dices", "language": "en", "setting": "adversarial_safety", "split": None}


def dices(
    answers: dict[str, dict[str, list[str | None]]],
    question: str = "Q2_harmful_content_other",
    config: str = "350",
    demographics: dict[str, dict[str, str | None]] | None = None,
):
    """answers: item → rater → that rater's answers (several = repeat ratings)."""
    ratings, dialogues = [], []
    for item, by_rater in answers.items():
        key = f"dices{config}:{item}"
        dialogues.append({"dialogue_key": key, "dataset_config": config, **DICES_DIALOGUE})
        for rater, values in by_rater.items():
            for i, value in enumerate(values):
                ratings.append(
                    {
                        "rating_id": f"{key}:{rater}:{i}:{question}",
                        "dialogue_key": key,
                        "rater_key": rater,
                        "rating_kind": "safety",
                        "question": question,
                        "movie_id": None,
                        "value_numeric": None,
                        "value_label": value,
                        "source": "dices",
                    }
                )
    rater_keys = sorted({r for by_rater in answers.values() for r in by_rater})
    demographics = demographics or {}
    raters = pd.DataFrame(
        [
            {
                "rater_key": r,
                "source": "dices",
                "gender": None,
                "race": None,
                "age_group": None,
                "education": None,
                "locale": None,
                **demographics.get(r, {}),
            }
            for r in rater_keys
        ]
    )
    return pd.DataFrame(ratings), raters, pd.DataFrame(dialogues)


def duo(
    objective: dict[str, dict[str, list[float | None]]],
    subjective: dict[str, dict[str, float]] | None = None,
    language: str = "en",
    setting: str = "ed",
):
    """objective: dialogue id → metric → the annotators' scores; subjective: dialogue id → metric → score."""
    ratings, dialogues = [], []
    subjective = subjective or {}
    for dialogue_id in sorted(set(objective) | set(subjective)):
        key = f"duo:{language}:{dialogue_id}"
        dialogues.append(
            {
                "dialogue_key": key,
                "source": "duo",
                "language": language,
                "setting": setting,
                "dataset_config": None,
                "split": None,
            }
        )
        for metric, scores in objective.get(dialogue_id, {}).items():
            for slot, score in enumerate(scores, start=1):
                ratings.append(
                    {
                        "rating_id": f"{key}:objective:{metric}:{slot}",
                        "dialogue_key": key,
                        "rater_key": f"{key}:annotator{slot}",
                        "rating_kind": "objective",
                        "question": metric,
                        "movie_id": None,
                        "value_numeric": score,
                        "value_label": None,
                        "source": "duo",
                    }
                )
        for metric, score in subjective.get(dialogue_id, {}).items():
            ratings.append(
                {
                    "rating_id": f"{key}:subjective:{metric}",
                    "dialogue_key": key,
                    "rater_key": f"duo:{language}:user:{dialogue_id}",
                    "rating_kind": "subjective",
                    "question": metric,
                    "movie_id": None,
                    "value_numeric": score,
                    "value_label": None,
                    "source": "duo",
                }
            )
    return pd.DataFrame(ratings), pd.DataFrame(dialogues)


def only(frame: pd.DataFrame, **where) -> pd.Series:
    mask = np.ones(len(frame), dtype=bool)
    for column, value in where.items():
        mask &= (frame[column] == value).to_numpy()
    assert mask.sum() == 1, f"expected one row for {where}, got {mask.sum()}"
    return frame[mask].iloc[0]


def assert_no_nan(frame: pd.DataFrame) -> None:
    for column in frame.columns:
        assert not any(isinstance(v, float) and math.isnan(v) for v in frame[column]), column


# The reliability data of Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C:
# 4 observers × 12 units, published α: nominal 0.743, interval 0.849.
KRIPPENDORFF_2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]


# --------------------------------------------------------------------------------------------
# α
# --------------------------------------------------------------------------------------------


def test_two_raters_who_always_agree_have_alpha_one():
    ratings, raters, dialogues = dices(
        {f"i{u}": {"r1": [v], "r2": [v]} for u, v in enumerate(["Yes", "No", "Yes", "Unsure"])}
    )
    row = only(ref.agreement(ratings, raters, dialogues), group_dimension="all")
    assert row["alpha"] == pytest.approx(1.0)
    assert row["observed_disagreement"] == 0.0
    assert (row["n_units"], row["n_values"], row["n_raters"]) == (4, 8, 2)
    assert row["xrr"] is None and row["gai"] is None and row["n_xrr_units"] == 0


def test_krippendorff_2011_nominal_published_alpha():
    answers = {
        f"u{u:02d}": {
            f"obs{o}": [str(KRIPPENDORFF_2011[o][u])] for o in range(4) if KRIPPENDORFF_2011[o][u] is not None
        }
        for u in range(12)
    }
    ratings, raters, dialogues = dices(answers)
    row = only(ref.agreement(ratings, raters, dialogues), group_dimension="all")
    assert row["alpha"] == pytest.approx(0.743, abs=5e-4)
    assert 1 - row["observed_disagreement"] / row["expected_disagreement"] == pytest.approx(row["alpha"])
    assert (row["n_units"], row["n_values"]) == (11, 40)  # unit 12 has a single value: not pairable


def test_krippendorff_2011_interval_published_alpha_on_duo_scores():
    objective = {f"{u:04d}": {"fluency": [KRIPPENDORFF_2011[o][u] for o in range(4)]} for u in range(12)}
    ratings, dialogues = duo(objective)
    row = only(ref.agreement(ratings, pd.DataFrame(columns=["rater_key"]), dialogues), group_dimension="all")
    assert row["level_of_measurement"] == "interval" and row["scope"] == "en:ed"
    assert row["alpha"] == pytest.approx(0.849, abs=5e-4)
    assert 1 - row["observed_disagreement"] / row["expected_disagreement"] == pytest.approx(row["alpha"])


def test_krippendorff_package_docstring_value_counts():
    value_counts = np.array(
        [
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
        ],
        dtype=float,
    )
    _, _, observed, expected = ref.krippendorff_disagreements(value_counts, 1 - np.eye(4))
    assert 1 - observed / expected == pytest.approx(0.691358, abs=1e-6)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(0, 4), min_size=0, max_size=4).map(lambda row: row + [0] * (4 - len(row))),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from(["nominal", "interval"]),
)
def test_disagreements_give_the_package_alpha(rows, level):
    counts = np.array(rows, dtype=float)
    domain = np.array([1.0, 2.0, 4.0, 5.0])
    delta = (domain[:, None] - domain[None, :]) ** 2 if level == "interval" else 1 - np.eye(4)
    n_units, n_values, observed, expected = ref.krippendorff_disagreements(counts, delta)
    pairable = counts.sum(axis=1) >= 2
    assert (n_units, n_values) == (int(pairable.sum()), int(counts[pairable].sum()))
    if n_values < 2:
        assert observed is None and expected is None
        return
    # D_o / D_e by brute force over the ordered pairs of values within each unit.
    values_of = [[c for c in range(4) for _ in range(int(row[c]))] for row in counts[pairable]]
    observed_pairs = sum(
        sum(delta[a, b] for a, b in itertools.permutations(vals, 2)) / (len(vals) - 1) for vals in values_of
    )
    everything = [v for vals in values_of for v in vals]
    expected_pairs = sum(delta[a, b] for a, b in itertools.permutations(everything, 2))
    assert observed == pytest.approx(observed_pairs / n_values)
    assert expected == pytest.approx(expected_pairs / (n_values * (n_values - 1)))
    if expected > 0:
        package = krippendorff.alpha(value_counts=counts, value_domain=domain, level_of_measurement=level)
        assert 1 - observed / expected == pytest.approx(package, abs=1e-9)


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
    counts_x = np.array([x[u] for u in units], dtype=float)
    counts_y = np.array([y.get(u, (0, 0)) for u in units], dtype=float)
    cross = ref.cross_replication_reliability(counts_x, counts_y, 1 - np.eye(2))
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
    ratings, raters, dialogues = dices(answers, demographics=demographics)
    out = ref.agreement(ratings, raters, dialogues)
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
    demographics = {
        "m1": {"gender": "Man"},
        "m2": {"gender": "Man"},
        "w1": {"gender": "Woman"},
        "w2": {"gender": "Woman"},
    }
    ratings, raters, dialogues = dices(answers, demographics=demographics)
    man = only(ref.agreement(ratings, raters, dialogues), group_value="Man")
    assert man["xrr"] == pytest.approx(1.0) and man["alpha"] == pytest.approx(1.0) and man["gai"] == pytest.approx(1.0)
    assert man["xrr_observed_disagreement"] == 0.0


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.lists(st.sampled_from("abc"), max_size=4), st.lists(st.sampled_from("abc"), max_size=4)),
        min_size=1,
        max_size=6,
    )
)
def test_xrr_equals_the_pairwise_definition(units):
    domain = ["a", "b", "c"]
    counts_x = np.array([[xs.count(c) for c in domain] for xs, _ in units], dtype=float)
    counts_y = np.array([[ys.count(c) for c in domain] for _, ys in units], dtype=float)
    cross = ref.cross_replication_reliability(counts_x, counts_y, 1 - np.eye(3))
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
    if d_e > 0:
        assert cross.xrr == pytest.approx(1 - d_o / d_e)
    else:
        assert cross.xrr is None


# --------------------------------------------------------------------------------------------
# Which rows exist; null rules
# --------------------------------------------------------------------------------------------


def test_every_group_gets_a_row_for_every_question_even_without_values():
    ratings, raters, dialogues = dices(
        {"i1": {"a": ["Yes"], "b": ["Yes"], "c": [None]}, "i2": {"a": ["No"], "b": ["Yes"], "c": [None]}},
        demographics={
            "a": {"race": "Asian", "gender": "Man"},
            "b": {"race": "White"},
            "c": {"race": "Black", "gender": "Woman"},
        },
    )
    out = ref.agreement(ratings, raters, dialogues)
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
    assert all(
        black[c] is None
        for c in [
            "observed_disagreement",
            "expected_disagreement",
            "alpha",
            "xrr",
            "gai",
            "xrr_observed_disagreement",
            "xrr_expected_disagreement",
            "mean_negentropy",
            "mean_plurality_share",
        ]
    )
    asian = only(out, group_value="Asian")  # one value per unit: nothing pairable, but xRR is defined
    assert (asian["n_units"], asian["n_values"], asian["alpha"]) == (0, 0, None)
    # X = a (Yes, No), Y = b (Yes, Yes): d_o = (0·2 + 1·2) / 4 = 0.5, d_e = p_X(No) · p_Y(Yes) = 0.5
    assert asian["n_xrr_units"] == 2 and asian["xrr_observed_disagreement"] == pytest.approx(0.5)
    assert asian["xrr_expected_disagreement"] == pytest.approx(0.5) and asian["xrr"] == pytest.approx(0.0)
    assert asian["gai"] is None
    assert asian["mean_plurality_share"] == 1.0 and asian["mean_negentropy"] == pytest.approx(math.log(3))


def test_alpha_and_xrr_are_null_without_variation():
    ratings, raters, dialogues = dices(
        {"i1": {"a": ["Yes"], "b": ["Yes"]}, "i2": {"a": ["Yes"], "b": ["Yes"]}},
        demographics={"a": {"education": "Other"}},
    )
    out = ref.agreement(ratings, raters, dialogues)
    row = only(out, group_dimension="all")
    assert row["n_values"] == 4 and row["expected_disagreement"] == 0.0 and row["alpha"] is None
    other = only(out, group_dimension="education")
    assert other["n_xrr_units"] == 2 and other["xrr_expected_disagreement"] == 0.0 and other["xrr"] is None


def test_repeat_ratings_by_one_rater_are_values():
    ratings, raters, dialogues = dices({"i1": {"a": ["Yes", "No"]}, "i2": {"a": ["No", "No"]}})
    row = only(ref.agreement(ratings, raters, dialogues), group_dimension="all")
    assert (row["n_raters"], row["n_units"], row["n_values"]) == (1, 2, 4)
    assert row["alpha"] == pytest.approx(
        krippendorff.alpha(value_counts=[[1, 1], [0, 2]], level_of_measurement="nominal")
    )


# --------------------------------------------------------------------------------------------
# rating_distributions
# --------------------------------------------------------------------------------------------


def test_rating_distribution_of_one_unit():
    ratings, _, dialogues = dices(
        {
            "i1": {"a": ["Yes"], "b": ["Yes"], "c": ["No"], "d": ["No"], "e": ["Unsure"], "f": [None]},
            "i2": {"a": [None]},
        },
        question="Q1_whole_conversation_evaluation",
    )
    out = ref.rating_distributions(ratings, dialogues)
    assert_no_nan(out)
    assert list(out["dialogue_key"]) == ["dices350:i1"]  # i2 has only a missing rating
    row = out.iloc[0]
    assert row["value_counts"] == {"No": 2, "Unsure": 1, "Yes": 2}
    assert (row["n_ratings"], row["n_raters"], row["n_missing"], row["n_distinct_values"]) == (5, 5, 1, 3)
    assert row["plurality_value"] == "No" and row["plurality_share"] == pytest.approx(0.4)
    entropy = -(2 * 0.4 * math.log(0.4) + 0.2 * math.log(0.2))
    assert row["entropy"] == pytest.approx(entropy)
    assert row["negentropy"] == pytest.approx(math.log(4) - entropy)  # Q1: K = 4
    assert row["mean_value"] is None and row["sd_value"] is None and row["scope"] == "350"


def test_duo_distribution_has_mean_and_sample_sd():
    ratings, dialogues = duo(
        {"0001": {"empathy": [3.0, 4.0, 4.0]}, "0002": {"empathy": [5.0, None, None]}},
        subjective={"0001": {"empathy": 2.0}},
    )
    out = ref.rating_distributions(ratings, dialogues)
    assert list(out["rating_kind"]) == ["objective", "objective"]  # subjective scores are not units
    first, second = out.iloc[0], out.iloc[1]
    assert first["value_counts"] == {"3": 1, "4": 2} and first["plurality_value"] == "4"
    assert first["mean_value"] == pytest.approx(11 / 3) and first["sd_value"] == pytest.approx(
        np.std([3, 4, 4], ddof=1)
    )
    assert first["negentropy"] == pytest.approx(math.log(5) - first["entropy"])
    assert (second["n_ratings"], second["n_missing"], second["sd_value"], second["entropy"]) == (1, 2, None, 0.0)


def test_redial_did_not_say_is_missing():
    rows = []
    for role, worker in (("initiator", "redial:worker:1"), ("respondent", "redial:worker:2")):
        for question, value in (("seen", 2.0 if role == "initiator" else 1.0), ("liked", 1.0), ("suggested", 0.0)):
            rows.append(
                {
                    "rating_id": f"redial:7:{role}:99:{question}",
                    "dialogue_key": "redial:7",
                    "rater_key": worker,
                    "rating_kind": "movie_form",
                    "question": question,
                    "movie_id": "99",
                    "value_numeric": value,
                    "value_label": "whatever",
                    "source": "redial",
                }
            )
    ratings = pd.DataFrame(rows)
    dialogues = pd.DataFrame(
        [
            {
                "dialogue_key": "redial:7",
                "source": "redial",
                "language": "en",
                "setting": "movie_recommendation",
                "dataset_config": None,
                "split": "test",
            }
        ]
    )
    out = ref.rating_distributions(ratings, dialogues)
    seen = only(out, question="seen")
    assert (seen["n_ratings"], seen["n_missing"], seen["value_counts"]) == (1, 1, {"1": 1})
    assert seen["negentropy"] == pytest.approx(math.log(2)) and seen["movie_id"] == "99" and seen["scope"] == "test"
    rater = ref.rater_agreement(ratings, dialogues)
    seen_1 = only(rater, rater_key="redial:worker:1", question="seen")
    assert (seen_1["n_ratings"], seen_1["n_compared"], seen_1["agreement_with_others"]) == (0, 0, None)
    liked_2 = only(rater, rater_key="redial:worker:2", question="liked")
    assert (liked_2["n_compared"], liked_2["agreement_with_others"]) == (1, 1.0)


# --------------------------------------------------------------------------------------------
# rater_agreement
# --------------------------------------------------------------------------------------------


def test_agreement_with_others_counts_ties_and_leaves_own_repeats_out():
    ratings, _, dialogues = dices(
        {
            "i1": {
                "a": ["Yes"],
                "b": ["Yes"],
                "c": ["No"],
            },  # a: others Yes 1 / No 1 tie → agrees; c: others Yes 2 → no
            "i2": {"a": ["Yes", "Yes"], "b": ["No"]},  # a's two values vs b's No → 0 of 2; b vs Yes, Yes → no
            "i3": {"c": ["No"]},  # nobody else: not compared
        }
    )
    out = ref.rater_agreement(ratings, dialogues)
    assert_no_nan(out)
    a, b, c = (only(out, rater_key=r) for r in "abc")
    assert (a["n_ratings"], a["n_compared"], a["agreement_with_others"]) == (3, 3, pytest.approx(1 / 3))
    assert (b["n_ratings"], b["n_compared"], b["agreement_with_others"]) == (2, 2, pytest.approx(0.5))
    assert (c["n_ratings"], c["n_compared"], c["agreement_with_others"]) == (2, 1, 0.0)
    assert a["mean_value"] is None


def test_duo_rater_mean_value():
    ratings, dialogues = duo({"0001": {"empathy": [3.0, 3.0, 5.0]}})
    out = ref.rater_agreement(ratings, dialogues)
    third = only(out, rater_key="duo:en:0001:annotator3")
    assert (third["n_compared"], third["agreement_with_others"], third["mean_value"]) == (1, 0.0, 5.0)
    assert only(out, rater_key="duo:en:0001:annotator1")["agreement_with_others"] == 1.0


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
        "0001": {"empathy": 1, "fluency": 3},
        "0002": {"empathy": 3, "fluency": 3},
        "0003": {"empathy": 2, "fluency": 3},
        "0004": {"empathy": 4},
    }
    ratings, dialogues = duo(objective, subjective)
    out = ref.score_correlations(ratings, dialogues)
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
    constant = only(
        out, question_a="fluency", rating_kind_a="subjective", question_b="empathy", rating_kind_b="objective"
    )
    assert constant["n_dialogues"] == 3 and constant["pearson_r"] is None and constant["spearman_rho"] is None


def test_spearman_uses_average_ranks():
    objective = {f"{i:04d}": {"coherence": [v, v, v]} for i, v in enumerate([1, 2, 2, 3, 5])}
    subjective = {f"{i:04d}": {"coherence": v} for i, v in enumerate([2, 1, 3, 3, 4])}
    ratings, dialogues = duo(objective, subjective)
    row = only(ref.score_correlations(ratings, dialogues), rating_kind_a="objective")
    ranks_a, ranks_b = stats.rankdata([1, 2, 2, 3, 5]), stats.rankdata([2, 1, 3, 3, 4])
    assert row["spearman_rho"] == pytest.approx(np.corrcoef(ranks_a, ranks_b)[0, 1])


# --------------------------------------------------------------------------------------------
# Consistency across the marts on a random data set
# --------------------------------------------------------------------------------------------


def test_group_all_means_equal_the_unit_distributions():
    rng = np.random.default_rng(7)
    answers = {
        f"i{u}": {f"r{r}": [str(rng.choice(["Yes", "No", "Unsure"]))] for r in rng.choice(20, 6, replace=False)}
        for u in range(40)
    }
    ratings, raters, dialogues = dices(answers)
    distributions = ref.rating_distributions(ratings, dialogues)
    row = only(ref.agreement(ratings, raters, dialogues), group_dimension="all")
    assert row["mean_negentropy"] == pytest.approx(np.mean(list(distributions["negentropy"])))
    assert row["mean_plurality_share"] == pytest.approx(np.mean(list(distributions["plurality_share"])))
    reliability = [[None] * 40 for _ in range(20)]
    for u, by_rater in enumerate(answers.values()):
        for rater, (value,) in by_rater.items():
            reliability[int(rater[1:])][u] = ["No", "Unsure", "Yes"].index(value)
    expected = krippendorff.alpha(reliability_data=np.array(reliability, dtype=float), level_of_measurement="nominal")
    assert row["alpha"] == pytest.approx(expected)
    counts = Counter(v for by_rater in answers.values() for (v,) in by_rater.values())
    assert sum(sum(d.values()) for d in distributions["value_counts"]) == sum(counts.values())
