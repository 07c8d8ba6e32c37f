"""Independent Python reference for the agreement marts, written from the definitions alone.

The yardstick the SQL marts `rating_distributions`, `group_rating_distributions`, `agreement`,
`rater_agreement`, `rater_consistency` and `score_correlations` are checked against in pytest. It
follows docs/INTERFACE.md, "Agreement definitions",
and the marts' column lists (their YAML), never the SQL, so that the two can disagree.

Inputs (`Inputs`): pandas frames shaped like
- the judgements feed, the union of the `int_<source>__judgements` models: source, scope,
  rating_kind, question, unit_key, dialogue_key, movie_id, rater_key, value_code,
  judgement_round, judgement_row;
- the raters (rater_key and the demographics gender, race, age_group, education, locale);
- the excluded raters (the `excluded_raters` seed: rater_key, reason);
- the `judgement_questions` and `judgement_labels` seeds.

α comes from `krippendorff.alpha(reliability_data=<raters × units>)`; D_o and D_e from
Krippendorff's formulas (the self-checks hold them to the package's α); xRR weighs units as
google-research/cross-replication-reliability does; correlations come from `scipy.stats`, and the
Jensen–Shannon divergence from `scipy.spatial.distance.jensenshannon` (squared: it gives the
distance, the divergence's square root; natural log).

Outputs hold ``None`` for null, never NaN; ``value_counts`` / ``value_shares`` are lists of
(value text, number) pairs in the label set's order.

Readings where the definitions leave a choice (each one stated, so that a reviewer can dispute it):
- A judgement's value is its code unless the code is null or the label set marks it
  `counts_as_missing`; a code outside the label set is an error of the input, not a value.
- A rater's judgements of a unit are ordered by round (natural order: `round_order`), then row,
  nulls last; the first one with a value counts, later ones with a value are repeats.
- A question of a scope is a seeded question with any judgement in the scope (by any rater,
  with or without a value); `agreement` has rows only for questions several raters judge.
- `agreement`'s groups are those of every rater who judged anything in the scope, excluded
  raters included (so that their count has a row to appear in).
- `group_rating_distributions` has a row for every (unit of a question several raters judge,
  demographic group) where a rater of the group gave a value; a rater's group is the value of the
  dimension the rater has (`<race> / <gender>` for race_gender, none where either is unknown), and
  the outsiders are every other rater with a value on the unit, those whose value of the dimension
  is unknown included.
- `rater_agreement` has a row for every (rater, question) where the rater gave a value to a unit.
- `rater_consistency` covers every seeded question (repeats do not need several raters).
- `score_correlations` covers the interval questions (DUO's); a (question, rating_kind) of a
  scope is there when it has a value in the scope.
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import krippendorff
import numpy as np
import pandas as pd
from scipy import stats
from scipy.spatial.distance import jensenshannon

GAI_MIN_XRR = 1e-12  # an xRR within rounding of 0 gives no GAI (agreement.yml)


def round_order(judgement_round: object) -> object:
    """A round as it sorts: its runs of digits written as their count of significant digits (four
    digits) and those digits, its other characters as they are, so that text order is the order of
    the numbers in it ("Phase2" before "Phase10", "01" the same as "1"). Null stays null."""
    if judgement_round is None or (isinstance(judgement_round, float) and math.isnan(judgement_round)):
        return None
    runs = re.findall(r"\d+|\D+", str(judgement_round))
    return "".join(f"{len(r.lstrip('0')):04d}{r.lstrip('0')}" if r.isdigit() else r for r in runs)


def in_judgement_order(judgements: pd.DataFrame) -> pd.DataFrame:
    """The judgements in the order that makes a rater's first of a unit: round (`round_order`),
    then row, nulls last."""
    keyed = judgements.assign(round_order=judgements["judgement_round"].map(round_order))
    ordered = keyed.sort_values(["round_order", "judgement_row"], na_position="last", kind="stable")
    return ordered.drop(columns="round_order")


DEMOGRAPHIC_DIMENSIONS = ("gender", "race", "age_group", "education", "locale")
GROUP_DIMENSIONS = (*DEMOGRAPHIC_DIMENSIONS, "race_gender")  # the groups of `group_rating_distributions`
QUESTION_KEY = ["source", "scope", "rating_kind", "question"]
UNIT_KEY = [*QUESTION_KEY, "unit_key"]

# what names a unit in both distribution marts
DISTRIBUTION_UNIT_COLUMNS = ["dialogue_key", "rating_kind", "question", "movie_id", "source", "scope"]
RATING_DISTRIBUTION_COLUMNS = [
    *DISTRIBUTION_UNIT_COLUMNS,
    "level_of_measurement",
    "n_ratings",
    "n_raters",
    "n_repeats",
    "n_missing",
    "n_distinct_values",
    "value_counts",
    "value_shares",
    "plurality_value",
    "plurality_share",
    "entropy",
    "n_labels",
    "negentropy",
    "mean_value",
    "sd_value",
]
GROUP_RATING_DISTRIBUTION_COLUMNS = [
    *DISTRIBUTION_UNIT_COLUMNS,
    "group_dimension",
    "group_value",
    "n_values",
    "value_counts",
    "value_shares",
    "plurality_value",
    "divergence_from_rest",
]
AGREEMENT_COLUMNS = [
    "source",
    "scope",
    "rating_kind",
    "question",
    "group_dimension",
    "group_value",
    "level_of_measurement",
    "n_labels",
    "n_raters",
    "n_excluded_raters",
    "n_units",
    "n_values",
    "observed_disagreement",
    "expected_disagreement",
    "alpha",
    "n_xrr_units",
    "xrr_observed_disagreement",
    "xrr_expected_disagreement",
    "xrr",
    "gai",
    "n_units_2plus",
    "mean_negentropy",
    "mean_plurality_share",
]
RATER_AGREEMENT_COLUMNS = [
    "rater_key",
    "source",
    "scope",
    "rating_kind",
    "question",
    "n_ratings",
    "n_compared",
    "n_agreeing",
    "agreement_with_others",
    "mean_value",
]
RATER_CONSISTENCY_COLUMNS = [
    "rater_key",
    "source",
    "scope",
    "rating_kind",
    "question",
    "n_repeats",
    "n_identical",
    "share_identical",
]
SCORE_CORRELATION_COLUMNS = [
    "source",
    "scope",
    "question_a",
    "rating_kind_a",
    "question_b",
    "rating_kind_b",
    "n_dialogues",
    "pearson_r",
    "spearman_rho",
]


# --------------------------------------------------------------------------------------------
# Inputs and questions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Inputs:
    judgements: pd.DataFrame
    raters: pd.DataFrame
    excluded_raters: pd.DataFrame
    questions: pd.DataFrame
    labels: pd.DataFrame


@dataclass(frozen=True)
class Question:
    level: str  # nominal | interval
    several_raters: bool
    codes: tuple[int, ...]  # the label set's values (not missing), in its order
    texts: tuple[str, ...]
    missing_codes: frozenset[int]

    @property
    def n_labels(self) -> int:
        return len(self.codes)

    def text(self, code: int) -> str:
        return self.texts[self.codes.index(code)]

    def distance(self, a: int, b: int) -> float:
        """Krippendorff's δ²: 0/1 for nominal, the squared difference of the scores for interval."""
        return float((a - b) ** 2) if self.level == "interval" else float(a != b)


def seeded_questions(inputs: Inputs) -> dict[tuple[str, str, str], Question]:
    """(source, rating_kind, question) → what the seeds say of it."""
    label_sets = {name: of_set.sort_values("value_code") for name, of_set in inputs.labels.groupby("label_set")}
    questions = {}
    for row in inputs.questions.itertuples(index=False):
        of_set = label_sets[row.label_set]
        missing = of_set["counts_as_missing"].astype(bool)
        questions[(row.source, row.rating_kind, row.question)] = Question(
            level=row.level_of_measurement,
            several_raters=bool(row.several_raters_per_unit),
            codes=tuple(int(c) for c in of_set.loc[~missing, "value_code"]),
            texts=tuple(str(t) for t in of_set.loc[~missing, "value_text"]),
            missing_codes=frozenset(int(c) for c in of_set.loc[missing, "value_code"]),
        )
    return questions


def _is_null(value: Any) -> bool:
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def _none_if_null(value: Any) -> Any:
    return None if _is_null(value) else value


# --------------------------------------------------------------------------------------------
# Judgements → first judgements and repeats
# --------------------------------------------------------------------------------------------


def _value(code: Any, question: Question) -> int | None:
    """The judgement's value: its code, or None where it has none (null, or a code that counts as missing)."""
    if _is_null(code) or int(code) in question.missing_codes:
        return None
    if int(code) not in question.codes:
        raise ValueError(f"value code {code} is not in its question's label set")
    return int(code)


@dataclass
class RaterUnit:
    """One rater's judgements of one unit, in judgement order."""

    values: list[int | None]  # one per judgement, None where it has no value

    @cached_property
    def given(self) -> list[int]:
        return [v for v in self.values if v is not None]

    @cached_property
    def first(self) -> int | None:
        return self.given[0] if self.given else None

    @property
    def repeats(self) -> list[int]:
        return self.given[1:]

    @property
    def n_missing(self) -> int:
        return sum(v is None for v in self.values)


@dataclass
class Feed:
    """The judgements, grouped by (source, scope, rating_kind, question) → unit_key → rater_key."""

    questions: dict[tuple[str, str, str], Question]
    excluded: frozenset[str]
    demographics: dict[str, dict[str, str | None]]
    judged: dict[tuple, dict[str, dict[str, RaterUnit]]] = field(default_factory=dict)
    unit_info: dict[tuple, dict[str, tuple[Any, Any]]] = field(default_factory=dict)  # unit → (dialogue, movie)
    _first_values: dict[tuple, dict[str, dict[str, int]]] = field(default_factory=dict)

    def question(self, key: tuple) -> Question:
        source, _scope, kind, question = key
        return self.questions[(source, kind, question)]

    def counted(self, key: tuple) -> dict[str, dict[str, RaterUnit]]:
        """unit → rater → judgements, excluded raters left out."""
        return {
            unit: {r: ju for r, ju in by_rater.items() if r not in self.excluded}
            for unit, by_rater in self.judged[key].items()
        }

    def first_values(self, key: tuple) -> dict[str, dict[str, int]]:
        """unit → rater → the rater's first value there (raters without a value left out)."""
        if key not in self._first_values:
            self._first_values[key] = self._compute_first_values(key)
        return self._first_values[key]

    def _compute_first_values(self, key: tuple) -> dict[str, dict[str, int]]:
        return {
            unit: {r: ju.first for r, ju in by_rater.items() if ju.first is not None}
            for unit, by_rater in self.counted(key).items()
        }


def read_feed(inputs: Inputs) -> Feed:
    questions = seeded_questions(inputs)
    raters = inputs.raters.set_index("rater_key")
    demographics = {
        key: {d: _none_if_null(raters.at[key, d]) if d in raters.columns else None for d in DEMOGRAPHIC_DIMENSIONS}
        for key in raters.index
    }
    feed = Feed(questions, frozenset(inputs.excluded_raters["rater_key"]), demographics)
    judgements = in_judgement_order(inputs.judgements)
    columns = list(judgements.columns)
    for row in (dict(zip(columns, values)) for values in zip(*(judgements[c].tolist() for c in columns))):
        seeded = questions.get((row["source"], row["rating_kind"], row["question"]))
        if seeded is None:
            continue  # a question the seed does not list (a build test names it)
        if row["rater_key"] not in demographics:
            raise ValueError(f"the feed's rater {row['rater_key']} is not among the raters")
        key = tuple(row[c] for c in QUESTION_KEY)
        unit = feed.judged.setdefault(key, {}).setdefault(row["unit_key"], {})
        unit.setdefault(row["rater_key"], RaterUnit([])).values.append(_value(row["value_code"], seeded))
        feed.unit_info.setdefault(key, {}).setdefault(
            row["unit_key"], (row["dialogue_key"], _none_if_null(row["movie_id"]))
        )
    return feed


def as_feed(inputs: Inputs | Feed) -> Feed:
    return inputs if isinstance(inputs, Feed) else read_feed(inputs)


# --------------------------------------------------------------------------------------------
# Figures of a set of values
# --------------------------------------------------------------------------------------------


def entropy(values: list[int]) -> float:
    """H = −Σ p_c ln p_c (natural log)."""
    shares = [n / len(values) for n in Counter(values).values()]
    return -sum(p * math.log(p) for p in shares) + 0.0


def plurality_share(values: list[int]) -> float:
    return max(values.count(v) for v in set(values)) / len(values)


def krippendorff_disagreements(units: list[list[int]], question: Question) -> tuple[float | None, float | None]:
    """(D_o, D_e) over the pairable units (≥ 2 values), None with fewer than 2 pairable values.

    D_o = Σ_u Σ_{i≠j} δ(v_ui, v_uj) / (n_u − 1) ÷ n;  D_e = Σ_{i≠j} δ(v_i, v_j) ÷ n(n − 1), all pairable values.
    """
    pairable = [values for values in units if len(values) >= 2]
    pooled = [v for values in pairable for v in values]
    n = len(pooled)
    if n < 2:
        return None, None
    observed = sum(_pair_distance_sum(values, values, question) / (len(values) - 1) for values in pairable) / n
    expected = _pair_distance_sum(pooled, pooled, question) / (n * (n - 1))
    return observed, expected


def _pair_distance_sum(xs: list[int], ys: list[int], question: Question) -> float:
    """Σ over every (x, y) of δ(x, y); on the same list the pairs of a value with itself add 0."""
    counts_x, counts_y = Counter(xs), Counter(ys)
    return float(sum(nx * ny * question.distance(a, b) for a, nx in counts_x.items() for b, ny in counts_y.items()))


def package_alpha(matrix: np.ndarray, question: Question) -> float | None:
    """α of a raters × units matrix (NaN where the rater gave no value) from the `krippendorff` package."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        value = krippendorff.alpha(
            reliability_data=matrix,
            value_domain=np.array(question.codes, dtype=float),
            level_of_measurement=question.level,
        )
    return None if not np.isfinite(value) else float(value)


@dataclass
class CrossReliability:
    n_units: int
    observed_disagreement: float | None
    expected_disagreement: float | None
    xrr: float | None


def cross_replication_reliability(
    x_units: list[list[int]], y_units: list[list[int]], question: Question
) -> CrossReliability:
    """xRR (Wong, Paritosh & Aroyo 2021) between X and Y over the units both gave values to.

    d_o: each unit's mean δ over its (x, y) pairs, averaged with weights |X_u| + |Y_u|;
    d_e: the mean δ over every pair of one of X's and one of Y's values on those units.
    """
    shared = [(xs, ys) for xs, ys in zip(x_units, y_units) if xs and ys]
    if not shared:
        return CrossReliability(0, None, None, None)
    weights = [len(xs) + len(ys) for xs, ys in shared]
    means = [_pair_distance_sum(xs, ys, question) / (len(xs) * len(ys)) for xs, ys in shared]
    observed = sum(m * w for m, w in zip(means, weights)) / sum(weights)
    all_x = [v for xs, _ in shared for v in xs]
    all_y = [v for _, ys in shared for v in ys]
    expected = _pair_distance_sum(all_x, all_y, question) / (len(all_x) * len(all_y))
    xrr = 1.0 - observed / expected if expected > 0 else None
    return CrossReliability(len(shared), observed, expected, xrr)


# --------------------------------------------------------------------------------------------
# rating_distributions
# --------------------------------------------------------------------------------------------


def rating_distributions(inputs: Inputs | Feed) -> pd.DataFrame:
    """One row per unit of a question several raters judge that holds at least one value."""
    feed = as_feed(inputs)
    rows = []
    for key in feed.judged:
        question = feed.question(key)
        if not question.several_raters:
            continue
        for unit, by_rater in feed.counted(key).items():
            row = _distribution_row(list(by_rater.values()), question)
            if row is not None:
                dialogue_key, movie_id = feed.unit_info[key][unit]
                source, scope, kind, name = key
                rows.append(
                    {"dialogue_key": dialogue_key, "rating_kind": kind, "question": name, "movie_id": movie_id}
                    | {"source": source, "scope": scope, **row}
                )
    return _finish(rows, RATING_DISTRIBUTION_COLUMNS, ["dialogue_key", "rating_kind", "question", "movie_id"])


def _distribution_row(judged: list[RaterUnit], question: Question) -> dict[str, Any] | None:
    values = [ju.first for ju in judged if ju.first is not None]
    if not values:
        return None
    counts = [values.count(code) for code in question.codes]
    top = max(counts)
    h = entropy(values)
    interval = question.level == "interval"
    return {
        "level_of_measurement": question.level,
        "n_ratings": len(values),
        "n_raters": len(values),
        "n_repeats": sum(len(ju.repeats) for ju in judged),
        "n_missing": sum(ju.n_missing for ju in judged),
        "n_distinct_values": len(set(values)),
        "value_counts": list(zip(question.texts, counts)),
        "value_shares": [(text, n / len(values)) for text, n in zip(question.texts, counts)],
        "plurality_value": min(t for t, n in zip(question.texts, counts) if n == top),
        "plurality_share": top / len(values),
        "entropy": h,
        "n_labels": question.n_labels,
        "negentropy": math.log(question.n_labels) - h,
        "mean_value": float(np.mean(values)) if interval else None,
        "sd_value": float(np.std(values, ddof=1)) if interval and len(values) > 1 else None,
    }


# --------------------------------------------------------------------------------------------
# group_rating_distributions
# --------------------------------------------------------------------------------------------


def group_rating_distributions(inputs: Inputs | Feed) -> pd.DataFrame:
    """One row per (unit of a question several raters judge, demographic group that gave a value there):
    the group's counts and shares of every label, its plurality value, and the Jensen–Shannon
    divergence of its shares from those of the raters outside it (None where none of them gave a value)."""
    feed = as_feed(inputs)
    groups_of = {
        r: {d: group_value(of_rater, d) for d in GROUP_DIMENSIONS} for r, of_rater in feed.demographics.items()
    }
    rows = []
    for key in feed.judged:
        question = feed.question(key)
        if not question.several_raters:
            continue
        source, scope, kind, name = key
        key_rows, group_counts, rest_counts = [], [], []
        for unit, by_rater in feed.first_values(key).items():
            dialogue_key, movie_id = feed.unit_info[key][unit]
            on_unit = Counter(by_rater.values())
            for dimension in GROUP_DIMENSIONS:
                # the group's values: each rater's value under the rater's group (None: the group is unknown)
                by_group: dict[str | None, Counter] = defaultdict(Counter)
                for rater, code in by_rater.items():
                    by_group[groups_of[rater][dimension]][code] += 1
                for value in sorted(v for v in by_group if v is not None):
                    counts = [by_group[value][code] for code in question.codes]
                    n_values, top = sum(counts), max(counts)
                    key_rows.append(
                        {"dialogue_key": dialogue_key, "rating_kind": kind, "question": name, "movie_id": movie_id}
                        | {"source": source, "scope": scope, "group_dimension": dimension, "group_value": value}
                        | {
                            "n_values": n_values,
                            "value_counts": list(zip(question.texts, counts)),
                            "value_shares": [(text, n / n_values) for text, n in zip(question.texts, counts)],
                            "plurality_value": min(t for t, n in zip(question.texts, counts) if n == top),
                        }
                    )
                    group_counts.append(counts)
                    # the outsiders: every other rater with a value on the unit, of an unknown group too
                    rest_counts.append([on_unit[code] - n for code, n in zip(question.codes, counts)])
        for row, divergence in zip(key_rows, js_divergences(group_counts, rest_counts)):
            rows.append(row | {"divergence_from_rest": divergence})
    return _finish(
        rows,
        GROUP_RATING_DISTRIBUTION_COLUMNS,
        ["dialogue_key", "rating_kind", "question", "movie_id", "group_dimension", "group_value"],
    )


def js_divergences(counts_a: list[list[int]], counts_b: list[list[int]]) -> list[float | None]:
    """Row by row, the Jensen–Shannon divergence (natural log) of two label distributions given as counts
    (scipy normalises them): scipy's Jensen–Shannon distance squared; None where the second has no value."""
    divergences: list[float | None] = [None] * len(counts_a)
    has_b = [i for i, counts in enumerate(counts_b) if sum(counts) > 0]
    if has_b:
        a, b = np.array(counts_a, dtype=float), np.array(counts_b, dtype=float)
        with np.errstate(invalid="ignore"):
            distances = jensenshannon(a[has_b], b[has_b], axis=1)
        # a NaN distance is the square root of a sum that rounded below 0: a divergence of 0
        for i, distance in zip(has_b, distances):
            divergences[i] = 0.0 if np.isnan(distance) else float(distance) ** 2
    return divergences


# --------------------------------------------------------------------------------------------
# agreement
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RaterGroup:
    dimension: str
    value: str
    members: frozenset[str] | None  # None: `all`, every rater


def group_value(demographics: dict[str, str | None], dimension: str) -> str | None:
    if dimension == "race_gender":
        race, gender = demographics["race"], demographics["gender"]
        return None if race is None or gender is None else f"{race} / {gender}"
    return demographics[dimension]


def rater_groups(feed: Feed, rater_keys: Iterable[str]) -> list[RaterGroup]:
    """`all`, and one group per value of each dimension the given raters have."""
    rater_keys = set(rater_keys)
    groups = [RaterGroup("all", "all", None)]
    for dimension in (*DEMOGRAPHIC_DIMENSIONS, "race_gender"):
        by_value: dict[str, set[str]] = {}
        for rater in rater_keys:
            value = group_value(feed.demographics[rater], dimension)
            if value is not None:
                by_value.setdefault(value, set()).add(rater)
        groups += [RaterGroup(dimension, v, frozenset(members)) for v, members in sorted(by_value.items())]
    return groups


def agreement(inputs: Inputs | Feed) -> pd.DataFrame:
    """One row per (source, scope, rating_kind, question, group) of the questions several raters judge."""
    feed = as_feed(inputs)
    rows = []
    for keys in _keys_by_scope(feed).values():
        judged_in_scope = {r for key in keys for by_rater in feed.judged[key].values() for r in by_rater}
        groups = rater_groups(feed, judged_in_scope)
        for key in keys:
            if feed.question(key).several_raters:
                rows += [_agreement_row(feed, key, group) for group in groups]
    return _finish(rows, AGREEMENT_COLUMNS, [*QUESTION_KEY, "group_dimension", "group_value"])


def _keys_by_scope(feed: Feed) -> dict[tuple[str, str], list[tuple]]:
    by_scope: dict[tuple[str, str], list[tuple]] = {}
    for key in feed.judged:
        by_scope.setdefault(key[:2], []).append(key)
    return by_scope


def _agreement_row(feed: Feed, key: tuple, group: RaterGroup) -> dict[str, Any]:
    question = feed.question(key)
    values = feed.first_values(key)
    is_member = (lambda r: True) if group.members is None else (lambda r: r in group.members)  # noqa: E731
    x_units = [[v for r, v in by_rater.items() if is_member(r)] for by_rater in values.values()]
    y_units = [[v for r, v in by_rater.items() if not is_member(r)] for by_rater in values.values()]
    pairable = [xs for xs in x_units if len(xs) >= 2]
    observed, expected = krippendorff_disagreements(x_units, question)
    alpha = _group_alpha(values, is_member, question) if expected else None
    cross = cross_replication_reliability(x_units, y_units, question)
    if group.members is None:
        cross = CrossReliability(0, None, None, None)  # no one is outside `all`
    judged = {r for by_rater in feed.judged[key].values() for r in by_rater if is_member(r)}
    return {
        "source": key[0],
        "scope": key[1],
        "rating_kind": key[2],
        "question": key[3],
        "group_dimension": group.dimension,
        "group_value": group.value,
        "level_of_measurement": question.level,
        "n_labels": question.n_labels,
        "n_raters": len({r for by_rater in values.values() for r in by_rater if is_member(r)}),
        "n_excluded_raters": len(judged & feed.excluded),
        "n_units": len(pairable),
        "n_values": sum(len(xs) for xs in pairable),
        "observed_disagreement": observed,
        "expected_disagreement": expected,
        "alpha": alpha,
        "n_xrr_units": cross.n_units,
        "xrr_observed_disagreement": cross.observed_disagreement,
        "xrr_expected_disagreement": cross.expected_disagreement,
        "xrr": cross.xrr,
        "gai": _gai(alpha, cross.xrr),
        "n_units_2plus": len(pairable),
        "mean_negentropy": _mean([math.log(question.n_labels) - entropy(xs) for xs in pairable]),
        "mean_plurality_share": _mean([plurality_share(xs) for xs in pairable]),
    }


MAX_MATRIX_CELLS = 4_000_000  # ReDial's ~1,000 workers × 60,000 units would not fit: see reliability_matrix


def _group_alpha(values: dict[str, dict[str, int]], is_member: Any, question: Question) -> float | None:
    """The package's α on the group's raters × units matrix of first values."""
    units = [[(r, v) for r, v in by_rater.items() if is_member(r)] for by_rater in values.values()]
    return package_alpha(reliability_matrix(units), question)


def reliability_matrix(units: list[list[tuple[str, int]]]) -> np.ndarray:
    """Raters × units, NaN where a rater gave the unit no value. α depends only on each unit's values,
    not on who gave them: where that matrix would be too large (many raters, each on few units) the
    rows are value slots instead (the i-th value of each unit), the same α from a far smaller matrix."""
    raters = sorted({r for unit in units for r, _ in unit})
    if len(raters) * len(units) <= MAX_MATRIX_CELLS:
        row_of = {r: i for i, r in enumerate(raters)}
        cells = [(row_of[r], u, v) for u, unit in enumerate(units) for r, v in unit]
        height = len(raters)
    else:
        cells = [(i, u, v) for u, unit in enumerate(units) for i, (_, v) in enumerate(unit)]
        height = max(len(unit) for unit in units)
    matrix = np.full((height, len(units)), np.nan)
    if cells:
        rows, columns, codes = zip(*cells)
        matrix[list(rows), list(columns)] = codes
    return matrix


def _gai(alpha: float | None, xrr: float | None) -> float | None:
    if alpha is None or xrr is None or abs(xrr) < GAI_MIN_XRR:
        return None
    return alpha / xrr


def _mean(numbers: list[float]) -> float | None:
    return float(np.mean(numbers)) if numbers else None


# --------------------------------------------------------------------------------------------
# rater_agreement
# --------------------------------------------------------------------------------------------


def rater_agreement(inputs: Inputs | Feed) -> pd.DataFrame:
    """Per rater and question several raters judge: the share of the rater's values that are the others' plurality."""
    feed = as_feed(inputs)
    rows = []
    for key in feed.judged:
        question = feed.question(key)
        if question.several_raters:
            per_rater: dict[str, list[tuple[int, bool | None]]] = {}
            for by_rater in feed.first_values(key).values():
                unit_counts = Counter(by_rater.values())
                for rater, value in by_rater.items():
                    per_rater.setdefault(rater, []).append((value, _agrees_with_others(value, unit_counts)))
            rows += [_rater_agreement_row(key, r, per_rater[r], question) for r in sorted(per_rater)]
    return _finish(rows, RATER_AGREEMENT_COLUMNS, ["rater_key", *QUESTION_KEY])


def _agrees_with_others(value: int, unit_counts: Counter) -> bool | None:
    """Whether a rater's value is (one of) the plurality value(s) of the other raters' values on the unit
    (the unit's value counts less the rater's own value); None where no one else gave a value."""
    others = unit_counts.copy()
    others[value] -= 1
    if others.total() == 0:
        return None
    return others[value] == max(others.values())


def _rater_agreement_row(key: tuple, rater: str, judged: list[tuple[int, bool | None]], question: Question) -> dict:
    compared = [agrees for _, agrees in judged if agrees is not None]
    return {
        "rater_key": rater,
        **dict(zip(QUESTION_KEY, key)),
        "n_ratings": len(judged),
        "n_compared": len(compared),
        "n_agreeing": sum(compared),
        "agreement_with_others": sum(compared) / len(compared) if compared else None,
        "mean_value": float(np.mean([v for v, _ in judged])) if question.level == "interval" else None,
    }


# --------------------------------------------------------------------------------------------
# rater_consistency
# --------------------------------------------------------------------------------------------


def rater_consistency(inputs: Inputs | Feed) -> pd.DataFrame:
    """Per rater and question with repeats, and pooled per question (rater_key None): repeats equal to the first."""
    feed = as_feed(inputs)
    rows = []
    for key in feed.judged:
        per_rater: dict[str, list[bool]] = {}
        for by_rater in feed.counted(key).values():
            for rater, judged in by_rater.items():
                per_rater.setdefault(rater, []).extend(v == judged.first for v in judged.repeats)
        per_rater = {r: same for r, same in per_rater.items() if same}
        rows += [_consistency_row(key, rater, same) for rater, same in per_rater.items()]
        if per_rater:
            rows.append(_consistency_row(key, None, [s for same in per_rater.values() for s in same]))
    return _finish(rows, RATER_CONSISTENCY_COLUMNS, ["rater_key", *QUESTION_KEY])


def _consistency_row(key: tuple, rater: str | None, identical: list[bool]) -> dict[str, Any]:
    return {
        "rater_key": rater,
        **dict(zip(QUESTION_KEY, key)),
        "n_repeats": len(identical),
        "n_identical": sum(identical),
        "share_identical": sum(identical) / len(identical),
    }


# --------------------------------------------------------------------------------------------
# score_correlations
# --------------------------------------------------------------------------------------------


def score_correlations(inputs: Inputs | Feed) -> pd.DataFrame:
    """Per scope, every ordered pair of different (question, rating_kind) of the interval questions."""
    feed = as_feed(inputs)
    scores: dict[tuple[str, str], dict[tuple[str, str], pd.Series]] = {}
    for key in feed.judged:
        if feed.question(key).level == "interval":
            series = _dialogue_scores(feed, key)
            if len(series):
                scores.setdefault(key[:2], {})[(key[3], key[2])] = series
    rows = []
    for (source, scope), measures in scores.items():
        for a in measures:
            for b in measures:
                if a != b:
                    names = {"question_a": a[0], "rating_kind_a": a[1], "question_b": b[0], "rating_kind_b": b[1]}
                    rows.append({"source": source, "scope": scope, **names, **_correlation(measures[a], measures[b])})
    return _finish(rows, SCORE_CORRELATION_COLUMNS, SCORE_CORRELATION_COLUMNS[:6])


def _dialogue_scores(feed: Feed, key: tuple) -> pd.Series:
    """dialogue_key → the mean of its raters' first values (the unrounded mean of the annotators)."""
    by_dialogue: dict[str, list[int]] = {}
    for unit, by_rater in feed.first_values(key).items():
        dialogue_key = feed.unit_info[key][unit][0]
        by_dialogue.setdefault(dialogue_key, []).extend(by_rater.values())
    return pd.Series({d: float(np.mean(v)) for d, v in by_dialogue.items() if v}, dtype=float)


def _correlation(a: pd.Series, b: pd.Series) -> dict[str, Any]:
    both = pd.concat([a, b], axis=1, join="inner")
    x, y = both.iloc[:, 0].to_numpy(), both.iloc[:, 1].to_numpy()
    if len(both) < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return {"n_dialogues": len(both), "pearson_r": None, "spearman_rho": None}
    return {
        "n_dialogues": len(both),
        "pearson_r": float(stats.pearsonr(x, y).statistic),
        "spearman_rho": float(stats.spearmanr(x, y).statistic),
    }


# --------------------------------------------------------------------------------------------
# All six marts
# --------------------------------------------------------------------------------------------

MARTS = {
    "rating_distributions": rating_distributions,
    "group_rating_distributions": group_rating_distributions,
    "agreement": agreement,
    "rater_agreement": rater_agreement,
    "rater_consistency": rater_consistency,
    "score_correlations": score_correlations,
}


def all_marts(inputs: Inputs) -> dict[str, pd.DataFrame]:
    feed = read_feed(inputs)
    return {name: compute(feed) for name, compute in MARTS.items()}


def _finish(rows: list[dict[str, Any]], columns: list[str], sort_by: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=columns).astype(object)
    frame = frame.where(frame.notna(), None)
    if len(frame):
        frame = frame.sort_values(sort_by, key=lambda c: c.map(lambda v: (v is None, v)), ignore_index=True)
    return frame
