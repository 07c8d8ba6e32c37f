"""Independent Python reference for the agreement and disagreement marts.

This module is the yardstick the SQL marts `rating_distributions`, `agreement`, `rater_agreement`
and `score_correlations` are checked against in pytest. It is written from the definitions alone
(`../shared/docs/WAREHOUSE_CONTRACT.md`, section "Agreement and disagreement marts", and
`docs/CONTRACT_ADDITIONS.md`, section "Agreement and disagreement marts: how the warehouse reads
the definitions"), never from the SQL, so that the two implementations can disagree.

Inputs are pandas DataFrames shaped like the marts `ratings`, `raters` and `dialogues`.

Every α comes from the `krippendorff` package; D_o / D_e are computed here by Krippendorff's
formulas (the self-checks hold them to the package's α). xRR follows the authors' Java reference
(google-research/cross-replication-reliability, `XrrMetrics.WITH_MISSING_DATA`). Correlations
come from `scipy.stats`.

Nulls: the returned frames hold ``None`` for null, never NaN. Count columns (``n_*``) are int64
and never null; every other column has object dtype holding plain Python values (str, float,
dict) or ``None``.

Readings beyond the two documents (see also the report that came with this file):
- DUO subjective scores are not units, so they appear only in `score_correlations`.
- ReDial: value 2 is missing only for `seen` / `liked` (as written); a null value is missing for
  every source. DICES answer text is kept exactly as written (an empty string is a value).
- Value text of a number: ``str(int(v))`` when integral, else ``repr(float(v))``.
- "Smallest text" is Python's code-point order (= DuckDB's byte order on UTF-8 text).
- `value_counts` dicts list their keys in ascending text order.
- Unit ratings are picked by kind: DUO `objective`, ReDial `movie_form`, DICES `safety`. A rating
  whose dialogue is not in `dialogues` keeps scope None (nothing is dropped silently).
- `agreement`: Y (the xRR comparison group) is every rater outside the group, including raters
  whose value on that dimension is null. For `all`, `n_xrr_units` is 0 (Y is empty) and the
  xRR figures are null. When pairable values exist but D_e = 0, D_o and D_e are reported (0.0)
  and α is null; in the same way the xRR disagreements are reported whenever there are common
  units, and only `xrr` is null when d_e = 0. `n_raters` counts per (scope, question); the group
  values come from the raters with any rating anywhere in the scope.
- `rater_agreement` has a row for every (rater, scope, rating_kind, question) with any rating of a
  unit kind, missing or not (a rater whose ratings are all missing gets n_ratings = 0).
  `mean_value` only for DUO (interval), as `rating_distributions`.
- `score_correlations`: a (question, rating_kind) is "present" when the scope has any rating of
  it; a dialogue's value is the mean of its non-missing values of that combination.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import krippendorff
import numpy as np
import pandas as pd
from scipy import stats

LabelCount = Callable[[str, str], int]
GAI_MIN_XRR = 1e-12

# The rating kind whose ratings form units, per source (DUO subjective scores are not units).
UNIT_KIND = {"duo": "objective", "redial": "movie_form", "dices": "safety"}
LEVEL = {"duo": "interval", "redial": "nominal", "dices": "nominal"}
REDIAL_DID_NOT_SAY = 2.0
REDIAL_QUESTIONS_WITH_DID_NOT_SAY = frozenset({"seen", "liked"})
DEMOGRAPHIC_DIMENSIONS = ("gender", "race", "age_group", "education", "locale")
UNIT_KEY = ["dialogue_key", "rating_kind", "question", "movie_id"]
FIGURE_KEY = ["source", "scope", "rating_kind", "question"]

RATING_DISTRIBUTION_COLUMNS = [
    "dialogue_key",
    "rating_kind",
    "question",
    "movie_id",
    "source",
    "scope",
    "n_ratings",
    "n_raters",
    "n_missing",
    "n_distinct_values",
    "value_counts",
    "plurality_value",
    "plurality_share",
    "entropy",
    "negentropy",
    "mean_value",
    "sd_value",
]
AGREEMENT_COLUMNS = [
    "source",
    "scope",
    "rating_kind",
    "question",
    "group_dimension",
    "group_value",
    "level_of_measurement",
    "n_raters",
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
    "agreement_with_others",
    "mean_value",
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


def default_n_labels(source: str, question: str) -> int:
    """K, the number of labels in the question's vocabulary."""
    if source == "duo":
        return 5
    if source == "redial":
        return 2
    return 4 if question.startswith("Q1") else 3


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def _is_null(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA


def _number_text(value: float) -> str:
    """A score as value text: the number without decimals ('3', '0')."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def _float_or_none(value: Any) -> float | None:
    if _is_null(value):
        return None
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def _finish(rows: list[dict[str, Any]], columns: list[str], sort_by: list[str]) -> pd.DataFrame:
    """Rows → frame with the given columns; counts int64, the rest object with None for null."""
    frame = pd.DataFrame(rows, columns=columns)
    for column in columns:
        if column.startswith("n_"):
            frame[column] = frame[column].astype("int64")
        else:
            frame[column] = frame[column].astype(object).where(frame[column].notna(), None)
    if len(frame) and sort_by:
        frame = frame.sort_values(sort_by, na_position="last", kind="mergesort", ignore_index=True)
    return frame


# --------------------------------------------------------------------------------------------
# Preparing ratings: scope, value text, unit kinds
# --------------------------------------------------------------------------------------------


def dialogue_scopes(dialogues: pd.DataFrame) -> pd.Series:
    """dialogue_key → scope: DICES dataset_config, DUO '<language>:<setting>', ReDial split."""

    def scope(row: pd.Series) -> str | None:
        if row["source"] == "dices":
            return None if _is_null(row["dataset_config"]) else str(row["dataset_config"])
        if row["source"] == "duo":
            return f"{row['language']}:{row['setting']}"
        if row["source"] == "redial":
            return None if _is_null(row["split"]) else str(row["split"])
        return None

    if dialogues.empty:
        return pd.Series(dtype=object)
    return pd.Series(dialogues.apply(scope, axis=1).to_numpy(), index=dialogues["dialogue_key"].to_numpy())


def prepare_ratings(ratings: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """All ratings with scope, `value` (value text or None = missing) and `number` (its score)."""
    frame = ratings.copy()
    frame["movie_id"] = frame["movie_id"].astype(object).where(frame["movie_id"].notna(), None)
    frame["scope"] = frame["dialogue_key"].map(dialogue_scopes(dialogues))
    numeric = pd.to_numeric(frame["value_numeric"], errors="coerce").astype(float)
    is_dices = (frame["source"] == "dices").to_numpy()
    did_not_say = (
        (frame["source"] == "redial")
        & frame["question"].isin(REDIAL_QUESTIONS_WITH_DID_NOT_SAY)
        & (numeric == REDIAL_DID_NOT_SAY)
    ).to_numpy()
    number_missing = numeric.isna().to_numpy() | did_not_say
    number_text = [None if missing else _number_text(v) for v, missing in zip(numeric, number_missing)]
    label_text = [None if _is_null(v) else str(v) for v in frame["value_label"]]
    frame["value"] = np.where(is_dices, np.array(label_text, dtype=object), np.array(number_text, dtype=object))
    frame["number"] = np.where(is_dices | number_missing, np.nan, numeric)
    return frame


def unit_ratings(ratings: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """The ratings that belong to units (DUO objective, ReDial forms, DICES answers), missing ones kept."""
    frame = prepare_ratings(ratings, dialogues)
    is_unit_kind = frame["rating_kind"].to_numpy() == frame["source"].map(UNIT_KIND).to_numpy()
    frame = frame[is_unit_kind].copy()
    frame["unit_id"] = frame.groupby(UNIT_KEY, dropna=False, sort=True).ngroup() if len(frame) else []
    return frame


# --------------------------------------------------------------------------------------------
# Count tables: units × values, and the figures computed from them
# --------------------------------------------------------------------------------------------


@dataclass
class CountTable:
    """The values of one (scope, question): unit and value codes per rating, and the value domain."""

    unit_codes: np.ndarray  # per valued rating: 0..n_units-1
    value_codes: np.ndarray  # per valued rating: index into `domain`
    n_units: int
    domain: list[str]  # value texts, in domain order
    numbers: np.ndarray | None  # interval: the score of each domain value
    level: str

    @classmethod
    def build(cls, valued: pd.DataFrame, level: str) -> CountTable:
        unit_codes, _ = pd.factorize(valued["unit_id"], sort=True)
        if level == "interval":
            pairs = sorted(set(zip(valued["number"], valued["value"])))
            domain = [text for _, text in pairs]
            numbers = np.array([number for number, _ in pairs], dtype=float)
        else:
            domain = sorted(set(valued["value"]))
            numbers = None
        position = {text: index for index, text in enumerate(domain)}
        value_codes = np.array([position[text] for text in valued["value"]], dtype=np.int64)
        n_units = int(unit_codes.max()) + 1 if len(unit_codes) else 0
        return cls(unit_codes.astype(np.int64), value_codes, n_units, domain, numbers, level)

    def counts(self, mask: np.ndarray | None = None) -> np.ndarray:
        """n_uc: how many of the (masked) ratings gave value c on unit u, shape (units, values)."""
        units, values = self.unit_codes, self.value_codes
        if mask is not None:
            units, values = units[mask], values[mask]
        width = len(self.domain)
        flat = np.bincount(units * width + values, minlength=self.n_units * width)
        return flat.reshape(self.n_units, width).astype(float)

    def delta(self) -> np.ndarray:
        """δ between domain values: 1 for different labels (nominal), (c − k)² (interval)."""
        if self.level == "interval":
            return (self.numbers[:, None] - self.numbers[None, :]) ** 2
        return 1.0 - np.eye(len(self.domain))

    def krippendorff_domain(self) -> np.ndarray:
        return self.numbers if self.level == "interval" else np.array(self.domain)


@dataclass
class Reliability:
    n_units: int
    n_values: int
    observed_disagreement: float | None
    expected_disagreement: float | None
    alpha: float | None


def krippendorff_disagreements(counts: np.ndarray, delta: np.ndarray) -> tuple[int, int, float | None, float | None]:
    """(pairable units, pairable values, D_o, D_e) in Krippendorff's normalisation (α = 1 − D_o/D_e)."""
    per_unit = counts.sum(axis=1)
    pairable = counts[per_unit >= 2]
    n_u = per_unit[per_unit >= 2]
    n = float(n_u.sum())
    if n < 2:
        return 0, 0, None, None
    # Σ_{c≠k} n_uc n_uk δ_ck per unit (δ_cc = 0, so the full quadratic form is the off-diagonal sum).
    within = np.einsum("uc,ck,uk->u", pairable, delta, pairable)
    observed = float((within / (n_u - 1)).sum() / n)
    n_c = pairable.sum(axis=0)
    expected = float(n_c @ delta @ n_c / (n * (n - 1)))
    return len(n_u), int(n), observed, expected


def package_alpha(counts: np.ndarray, domain: np.ndarray, level: str) -> float | None:
    """α from `krippendorff.alpha`; None where the package fails or gives no finite number."""
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            value = krippendorff.alpha(value_counts=counts, value_domain=domain, level_of_measurement=level)
    except (ValueError, ZeroDivisionError, FloatingPointError):
        return None
    return _float_or_none(value)


def reliability(counts: np.ndarray, table: CountTable) -> Reliability:
    """Krippendorff's figures for one group's values; α null below 2 pairable values or at D_e = 0."""
    n_units, n_values, observed, expected = krippendorff_disagreements(counts, table.delta())
    if n_values < 2 or not expected:
        alpha = None
    else:
        alpha = package_alpha(counts, table.krippendorff_domain(), table.level)
    return Reliability(n_units, n_values, observed, expected, alpha)


@dataclass
class CrossReliability:
    n_units: int
    observed_disagreement: float | None
    expected_disagreement: float | None
    xrr: float | None


def cross_replication_reliability(counts_x: np.ndarray, counts_y: np.ndarray, delta: np.ndarray) -> CrossReliability:
    """xRR (Wong, Paritosh & Aroyo 2021) between X and Y over the units both gave a value to.

    d_o = Σ_u share_u · (|X_u| + |Y_u|) / Σ_u (|X_u| + |Y_u|), share_u = mean δ over the (x, y) pairs;
    d_e = Σ_{c,k} p_X(c) p_Y(k) δ_ck with p over all of X's / Y's values on those units.
    """
    size_x, size_y = counts_x.sum(axis=1), counts_y.sum(axis=1)
    common = (size_x >= 1) & (size_y >= 1)
    if not common.any():
        return CrossReliability(0, None, None, None)
    x, y = counts_x[common], counts_y[common]
    nx, ny = size_x[common], size_y[common]
    share = np.einsum("uc,ck,uk->u", x, delta, y) / (nx * ny)
    observed = float((share * (nx + ny)).sum() / (nx + ny).sum())
    p_x, p_y = x.sum(axis=0) / nx.sum(), y.sum(axis=0) / ny.sum()
    expected = float(p_x @ delta @ p_y)
    xrr = 1.0 - observed / expected if expected else None
    return CrossReliability(int(common.sum()), observed, expected, xrr)


def unit_entropies(counts: np.ndarray) -> np.ndarray:
    """H = −Σ p_c ln p_c per unit (rows with ≥ 1 value)."""
    p = counts / counts.sum(axis=1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0)), 0.0)
    return -terms.sum(axis=1) + 0.0


def plurality_shares(counts: np.ndarray) -> np.ndarray:
    return counts.max(axis=1) / counts.sum(axis=1)


# --------------------------------------------------------------------------------------------
# 1. rating_distributions
# --------------------------------------------------------------------------------------------


def rating_distributions(
    ratings: pd.DataFrame, dialogues: pd.DataFrame, n_labels: LabelCount = default_n_labels
) -> pd.DataFrame:
    """One row per unit with at least one value: counts, plurality, entropy, mean and SD."""
    rated = unit_ratings(ratings, dialogues)
    rows: list[dict[str, Any]] = []
    for (source, _scope, _kind, question), of_question in rated.groupby(FIGURE_KEY, dropna=False, sort=True):
        rows.extend(_distribution_rows(of_question, n_labels(source, question)))
    return _finish(rows, RATING_DISTRIBUTION_COLUMNS, UNIT_KEY)


def _distribution_rows(of_question: pd.DataFrame, k: int) -> list[dict[str, Any]]:
    """The rows of one (scope, rating_kind, question); units whose ratings are all missing have none."""
    valued = of_question[of_question["value"].notna()]
    if valued.empty:
        return []
    table = CountTable.build(valued, "nominal")  # domain in text order: argmax picks the smallest text on ties
    counts = table.counts()
    n_values = counts.sum(axis=1)
    entropies = unit_entropies(counts)
    by_unit = valued.groupby(table.unit_codes)
    first = by_unit.first()
    n_raters = by_unit["rater_key"].nunique()
    means, sds = by_unit["number"].mean(), by_unit["number"].std(ddof=1)
    missing = of_question["value"].isna().groupby(of_question["unit_id"]).sum()
    numeric = of_question["source"].iloc[0] == "duo"
    rows = []
    for u in range(table.n_units):
        present = np.nonzero(counts[u])[0]
        top = int(np.argmax(counts[u]))
        rows.append(
            {
                "dialogue_key": first.at[u, "dialogue_key"],
                "rating_kind": first.at[u, "rating_kind"],
                "question": first.at[u, "question"],
                "movie_id": first.at[u, "movie_id"],
                "source": first.at[u, "source"],
                "scope": first.at[u, "scope"],
                "n_ratings": int(n_values[u]),
                "n_raters": int(n_raters.at[u]),
                "n_missing": int(missing.at[first.at[u, "unit_id"]]),
                "n_distinct_values": len(present),
                "value_counts": {table.domain[c]: int(counts[u, c]) for c in present},
                "plurality_value": table.domain[top],
                "plurality_share": float(counts[u, top] / n_values[u]),
                "entropy": float(entropies[u]),
                "negentropy": math.log(k) - float(entropies[u]),
                "mean_value": _float_or_none(means.at[u]) if numeric else None,
                "sd_value": _float_or_none(sds.at[u]) if numeric else None,
            }
        )
    return rows


# --------------------------------------------------------------------------------------------
# 2. agreement
# --------------------------------------------------------------------------------------------


@dataclass
class RaterGroup:
    dimension: str
    value: str
    members: frozenset[str] | None  # None: every rater (`all`)


def rater_groups(raters: pd.DataFrame, source: str, rater_keys: Iterable[str]) -> list[RaterGroup]:
    """`all`, and for DICES every demographic value of the given raters (null: in no group)."""
    groups = [RaterGroup("all", "all", None)]
    if source != "dices":
        return groups
    known = raters[raters["rater_key"].isin(set(rater_keys))]
    for dimension in (*DEMOGRAPHIC_DIMENSIONS, "race_gender"):
        labels = _dimension_labels(known, dimension)
        for value in sorted(set(labels.dropna())):
            groups.append(RaterGroup(dimension, value, frozenset(known.loc[labels == value, "rater_key"])))
    return groups


def _dimension_labels(raters: pd.DataFrame, dimension: str) -> pd.Series:
    """Each rater's group value on a dimension (None where unknown)."""
    if dimension != "race_gender":
        return raters[dimension].astype(object).map(lambda v: None if _is_null(v) else str(v))
    both = raters["race"].notna() & raters["gender"].notna()
    joined = raters["race"].astype(str) + " / " + raters["gender"].astype(str)
    return joined.where(both, None)


def agreement(
    ratings: pd.DataFrame,
    raters: pd.DataFrame,
    dialogues: pd.DataFrame,
    n_labels: LabelCount = default_n_labels,
) -> pd.DataFrame:
    """One row per (source, scope, rating_kind, question, group): α, xRR, GAI and unit means."""
    rated = unit_ratings(ratings, dialogues)
    rows: list[dict[str, Any]] = []
    for (source, scope), in_scope in rated.groupby(["source", "scope"], dropna=False, sort=True):
        groups = rater_groups(raters, source, in_scope["rater_key"].unique())
        for (kind, question), of_question in in_scope.groupby(["rating_kind", "question"], sort=True):
            valued = of_question[of_question["value"].notna()]
            table = CountTable.build(valued, LEVEL[source])
            k = n_labels(source, question)
            for group in groups:
                figures = _group_figures(valued, table, group, k)
                rows.append(
                    {
                        "source": source,
                        "scope": scope,
                        "rating_kind": kind,
                        "question": question,
                        "group_dimension": group.dimension,
                        "group_value": group.value,
                        "level_of_measurement": LEVEL[source],
                        **figures,
                    }
                )
    return _finish(rows, AGREEMENT_COLUMNS, FIGURE_KEY + ["group_dimension", "group_value"])


def _group_figures(valued: pd.DataFrame, table: CountTable, group: RaterGroup, k: int) -> dict[str, Any]:
    if group.members is None:
        in_group = np.ones(len(valued), dtype=bool)
    else:
        in_group = valued["rater_key"].isin(group.members).to_numpy()
    counts_x = table.counts(in_group)
    alpha_figures = reliability(counts_x, table)
    if group.members is None:
        cross = CrossReliability(0, None, None, None)
    else:
        cross = cross_replication_reliability(counts_x, table.counts(~in_group), table.delta())
    # xRR within rounding of 0 is 0: the ratio would be float noise (CONTRACT_ADDITIONS.md)
    gai = (
        alpha_figures.alpha / cross.xrr
        if alpha_figures.alpha is not None and cross.xrr is not None and abs(cross.xrr) >= GAI_MIN_XRR
        else None
    )
    rated_units = counts_x[counts_x.sum(axis=1) >= 1]
    has_values = len(rated_units) > 0
    return {
        "n_raters": int(valued.loc[in_group, "rater_key"].nunique()),
        "n_units": alpha_figures.n_units,
        "n_values": alpha_figures.n_values,
        "observed_disagreement": alpha_figures.observed_disagreement,
        "expected_disagreement": alpha_figures.expected_disagreement,
        "alpha": alpha_figures.alpha,
        "n_xrr_units": cross.n_units,
        "xrr_observed_disagreement": cross.observed_disagreement,
        "xrr_expected_disagreement": cross.expected_disagreement,
        "xrr": cross.xrr,
        "gai": gai,
        "mean_negentropy": float((math.log(k) - unit_entropies(rated_units)).mean()) if has_values else None,
        "mean_plurality_share": float(plurality_shares(rated_units).mean()) if has_values else None,
    }


# --------------------------------------------------------------------------------------------
# 3. rater_agreement
# --------------------------------------------------------------------------------------------


def rater_agreement(ratings: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """Per rater and question: the share of their values equal to the others' plurality value."""
    rated = unit_ratings(ratings, dialogues)
    frames = []
    for _, of_question in rated.groupby(FIGURE_KEY, dropna=False, sort=True):
        compared, agrees = _compare_with_others(of_question)
        frames.append(of_question.assign(has_value=of_question["value"].notna(), compared=compared, agrees=agrees))
    if not frames:
        return _finish([], RATER_AGREEMENT_COLUMNS, [])
    per_rating = pd.concat(frames)
    per_rating["duo_number"] = per_rating["number"].where(per_rating["source"] == "duo")
    per_rater = (
        per_rating.groupby(["rater_key", *FIGURE_KEY], dropna=False, sort=True)
        .agg(
            n_ratings=("has_value", "sum"),
            n_compared=("compared", "sum"),
            n_agreeing=("agrees", "sum"),
            mean_value=("duo_number", "mean"),
        )
        .reset_index()
    )
    share = per_rater["n_agreeing"] / per_rater["n_compared"]
    per_rater["agreement_with_others"] = share.where(per_rater["n_compared"] > 0)
    return _finish(per_rater.to_dict("records"), RATER_AGREEMENT_COLUMNS, ["rater_key", *FIGURE_KEY])


def _compare_with_others(of_question: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per rating: compared (others gave a value on its unit), agrees (its value is an others' plurality)."""
    compared = np.zeros(len(of_question), dtype=bool)
    agrees = np.zeros(len(of_question), dtype=bool)
    has_value = of_question["value"].notna().to_numpy()
    valued = of_question[has_value]
    if valued.empty:
        return compared, agrees
    table = CountTable.build(valued, "nominal")
    unit_totals = table.counts()
    unit_rater = pd.MultiIndex.from_arrays([table.unit_codes, valued["rater_key"].to_numpy()])
    pair_codes, pair_index = pd.factorize(unit_rater)
    pair_units = pair_index.get_level_values(0).to_numpy()
    width = len(table.domain)
    own = np.bincount(pair_codes * width + table.value_codes, minlength=len(pair_index) * width).reshape(-1, width)
    others = unit_totals[pair_units] - own  # everyone else's values on the unit, all of this rater's left out
    others_total, others_top = others.sum(axis=1), others.max(axis=1)
    compared[has_value] = others_total[pair_codes] > 0
    agrees[has_value] = compared[has_value] & (others[pair_codes, table.value_codes] == others_top[pair_codes])
    return compared, agrees


# --------------------------------------------------------------------------------------------
# 4. score_correlations
# --------------------------------------------------------------------------------------------


def score_correlations(ratings: pd.DataFrame, dialogues: pd.DataFrame) -> pd.DataFrame:
    """DUO: Pearson and Spearman between every ordered pair of (question, rating_kind) per scope."""
    prepared = prepare_ratings(ratings, dialogues)
    duo = prepared[prepared["source"] == "duo"]
    rows: list[dict[str, Any]] = []
    for scope, in_scope in duo.groupby("scope", dropna=False, sort=True):
        combinations = sorted(set(zip(in_scope["question"], in_scope["rating_kind"])))
        per_dialogue = in_scope.groupby(["dialogue_key", "question", "rating_kind"])["number"].mean()
        wide = per_dialogue.unstack(["question", "rating_kind"])
        for a in combinations:
            for b in combinations:
                if a != b:
                    rows.append(
                        {
                            "source": "duo",
                            "scope": scope,
                            "question_a": a[0],
                            "rating_kind_a": a[1],
                            "question_b": b[0],
                            "rating_kind_b": b[1],
                            **_correlation(wide, a, b),
                        }
                    )
    return _finish(rows, SCORE_CORRELATION_COLUMNS, SCORE_CORRELATION_COLUMNS[:6])


def _correlation(wide: pd.DataFrame, a: tuple[str, str], b: tuple[str, str]) -> dict[str, Any]:
    if a not in wide.columns or b not in wide.columns:
        return {"n_dialogues": 0, "pearson_r": None, "spearman_rho": None}
    both = wide[[a, b]].dropna()
    x, y = both[a].to_numpy(dtype=float), both[b].to_numpy(dtype=float)
    n = len(both)
    if n < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return {"n_dialogues": n, "pearson_r": None, "spearman_rho": None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pearson = stats.pearsonr(x, y).statistic
        spearman = stats.spearmanr(x, y).statistic
    return {"n_dialogues": n, "pearson_r": _float_or_none(pearson), "spearman_rho": _float_or_none(spearman)}
