"""Can a judge stand in for a perspective's raters? The alternative annotator test (alt-test;
Calderon, Reichart & Dror, "The Alternative Annotator Test for LLM-as-a-Judge", ACL 2025): the
rows of `judge_replacement` and `judge_replacement_raters`.

One rater h of a reference is left out at a time; on each unit h judged, who matches the
reference's other raters O better, the judge J or h? S(x) is the share of O equal to x (nominal),
or −√mean((x − o)²) over o in O (ordinal on the labels' positions 1..K, interval and ratio on the
values). w_J = [S(J) ≥ S(h)], w_h = [S(h) ≥ S(J)], d = w_h − w_J; h's p-value is the one-sided
one-sample t-test that the mean of d is below ε (`scipy.stats.ttest_1samp(d, ε, alternative="less")`,
computed here for every rater at once, with scipy's own answer at zero variance: −inf and p 0 when
the mean is below ε, +inf and p 1 above it, NaN at ε). The judge wins against h where
Benjamini–Yekutieli at 0.05 over the reference's tested raters rejects h's p-value.

`alt_test` is the test on plain arrays; `judged_question_rows` runs it for every judge and
reference of a question (`agreement_core.judge_figures.judge_references`), computed once per input
(`agreement_core.memo`). No Monte Carlo: the same inputs give the same figures."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from agreement_core import memo
from agreement_core.judge_figures.judge_references import (
    JudgedQuestion,
    JudgeQuestion,
    Reference,
    base_inputs,
    dimension_inputs,
    judge_question,
)
from agreement_core.questions import SLOT

# the margin ε given to the judge by the reference's kind of rater (a dataset.yml's
# `alt_test_epsilon` or the build var `alt_test_epsilon` stands for all)
EPSILON_BY_KIND = {"crowd": 0.10, "expert": 0.20}
# the family-wise level of Benjamini–Yekutieli over a reference's tested raters
ALPHA = 0.05
# the default of the build var `alt_test_min_units`: a rater is tested on at least this many units
MIN_UNITS = 30
# a judge's rows of a question are stored, reused and replaced together (`agreement_core.memo`)
REPLACEMENT_SLOT = ["judge", *SLOT]
# the rater_key of a reference's own row (its verdict) among its raters' rows
VERDICT_ROW = ""
COLUMNS = {
    **dict.fromkeys(REPLACEMENT_SLOT, "string"),
    "reference_dimension": "string",
    "reference_value": "string",
    "rater_key": "string",
    "epsilon": "float64",
    "n_units": "int64",
    "n_raters": "Int64",
    "n_raters_tested": "Int64",
    "winning_rate": "float64",
    "advantage_probability": "float64",
    "replaces": "boolean",
    "judge_advantage": "float64",
    "rater_advantage": "float64",
    "p_value": "float64",
    "judge_wins": "boolean",
    memo.FINGERPRINT: "string",
    memo.COMPUTED_AT: "datetime64[us]",
    memo.ROWS_DIGEST: "string",
}


# ------------------------------------------------------------------------------------- the test


@dataclass
class RaterTests:
    """One entry per tested rater (numbered as the input's `rater_index`), in rater order."""

    rater: np.ndarray
    n_units: np.ndarray
    judge_advantage: np.ndarray  # the mean of w_J
    rater_advantage: np.ndarray  # the mean of w_h
    p_value: np.ndarray
    judge_wins: np.ndarray


@dataclass
class Verdict:
    """The alt-test of one judge against one reference; the figures are NaN / None where no rater
    could be tested."""

    n_units: int
    n_raters: int
    winning_rate: float
    advantage_probability: float
    replaces: bool | None
    raters: RaterTests

    @property
    def n_raters_tested(self) -> int:
        return len(self.raters.rater)


def alt_test(
    unit_index: np.ndarray,
    rater_index: np.ndarray,
    values: np.ndarray,
    judge_values: np.ndarray,
    level: str,
    epsilon: float,
    min_units: int = MIN_UNITS,
    alpha: float = ALPHA,
) -> Verdict:
    """The alt-test of a judge against a reference: the reference's values one per (unit, rater)
    (`unit_index`, `rater_index`, `values`: a label's code for nominal questions, its position 1..K
    for ordinal ones, the value for interval and ratio), the judge's value of each unit
    (`judge_values[unit]`, NaN where it gave none). Units: those the judge judged where at least two
    of the reference's raters have a value; a rater with at least `min_units` of them is tested."""
    unit_index, rater_index = np.asarray(unit_index, dtype=np.int64), np.asarray(rater_index, dtype=np.int64)
    values, judge_values = np.asarray(values, dtype=float), np.asarray(judge_values, dtype=float)
    # rater by rater, unit by unit: the same values in any order are summed in one order, to the last bit
    order = np.lexsort((unit_index, rater_index))
    unit_index, rater_index, values = unit_index[order], rater_index[order], values[order]
    n_unit_axis = len(judge_values)
    per_unit = np.bincount(unit_index, minlength=n_unit_axis)
    kept = ~np.isnan(judge_values[unit_index]) & (per_unit[unit_index] >= 2)
    unit_index, rater_index, values = unit_index[kept], rater_index[kept], values[kept]
    units_of = np.bincount(rater_index)  # every rater's units (one value per rater and unit)
    raters = np.flatnonzero(units_of)
    units_of = units_of[raters]
    position = np.searchsorted(raters, rater_index)
    n_units, n_raters = int(np.count_nonzero(np.bincount(unit_index))), len(raters)
    judge_score, rater_score = scores(unit_index, values, judge_values[unit_index], level, n_unit_axis)
    judge_wins_unit = (judge_score >= rater_score).astype(float)  # w_J
    rater_wins_unit = (rater_score >= judge_score).astype(float)  # w_h
    tested = units_of >= min_units
    tests = rater_t_tests(rater_wins_unit - judge_wins_unit, position, len(raters), epsilon)
    judge_advantage = np.bincount(position, judge_wins_unit, len(raters)) / np.maximum(units_of, 1)
    rater_advantage = np.bincount(position, rater_wins_unit, len(raters)) / np.maximum(units_of, 1)
    p_values = tests[tested]
    wins = benjamini_yekutieli(p_values, alpha)
    rater_tests = RaterTests(
        raters[tested], units_of[tested], judge_advantage[tested], rater_advantage[tested], p_values, wins
    )
    if not tested.any():
        return Verdict(n_units, n_raters, np.nan, np.nan, None, rater_tests)
    winning_rate = float(wins.mean())
    return Verdict(
        n_units, n_raters, winning_rate, float(judge_advantage[tested].mean()), winning_rate >= 0.5, rater_tests
    )


def scores(
    unit_index: np.ndarray, values: np.ndarray, judge_values: np.ndarray, level: str, n_units: int
) -> tuple[np.ndarray, np.ndarray]:
    """S(judge's value) and S(rater's value) against the unit's other raters, for every value (each
    unit has at least two). The other raters' values are counted per distinct value (`(V, E)`): the
    rater's own value taken out of its unit's counts, in whole numbers."""
    distinct, value_index = np.unique(values, return_inverse=True)
    counts = np.zeros((len(distinct), n_units))
    np.add.at(counts, (value_index, unit_index), 1.0)
    others = counts[:, unit_index]  # (V, E)
    others[value_index, np.arange(len(values))] -= 1.0
    n_others = others.sum(axis=0)
    if level == "nominal":
        same_as_judge = distinct[:, None] == judge_values[None, :]
        judge_share = (others * same_as_judge).sum(axis=0) / n_others
        return judge_share, others[value_index, np.arange(len(values))] / n_others
    judge_square = (others * (judge_values[None, :] - distinct[:, None]) ** 2).sum(axis=0)
    rater_square = (others * (values[None, :] - distinct[:, None]) ** 2).sum(axis=0)
    return -np.sqrt(judge_square / n_others), -np.sqrt(rater_square / n_others)


def rater_t_tests(d: np.ndarray, position: np.ndarray, n_raters: int, epsilon: float) -> np.ndarray:
    """Each rater's p of `scipy.stats.ttest_1samp(d, epsilon, alternative="less")` over its units,
    for every rater at once: t = (mean − ε) / (s / √n) with s the sample deviation, p the t
    distribution's lower tail with n − 1 degrees of freedom. At zero variance t is ±inf or NaN and p
    0, 1 or NaN, as scipy gives them. A rater with one unit: NaN."""
    from scipy import stats  # a second or two to import: a build without judges never pays it

    n = np.bincount(position, minlength=n_raters).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.bincount(position, d, n_raters) / n
        square = np.bincount(position, (d - mean[position]) ** 2, n_raters)
        deviation = np.sqrt(square / (n - 1))
        t = (mean - epsilon) / (deviation / np.sqrt(n))
        p = stats.t.cdf(t, n - 1)
    return np.where(n >= 2, p, np.nan)


def benjamini_yekutieli(p_values: np.ndarray, alpha: float = ALPHA) -> np.ndarray:
    """Which p-values Benjamini–Yekutieli rejects at `alpha` (step-up, for any dependence): the
    largest k with p_(k) ≤ k·α / (m·Σ_{j≤m} 1/j), and every p up to it. A NaN p is in no family and
    never rejected."""
    p_values = np.asarray(p_values, dtype=float)
    rejected = np.zeros(p_values.shape, dtype=bool)
    present = np.flatnonzero(~np.isnan(p_values))
    m = present.size
    if m == 0:
        return rejected
    order = present[np.argsort(p_values[present], kind="stable")]
    harmonic = np.sum(1.0 / np.arange(1, m + 1))
    below = p_values[order] <= np.arange(1, m + 1) * alpha / (m * harmonic)
    if below.any():
        rejected[order[: np.flatnonzero(below)[-1] + 1]] = True
    return rejected


# ------------------------------------------------------------------------- judges and references


def has_several_raters(reference: Reference) -> bool:
    """Whether the reference has two or more values on some unit: a perspective of several raters."""
    return bool(reference.counts.sum(axis=0).max(initial=0) >= 2)


def reference_values(task: JudgeQuestion, reference: Reference) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A reference's (unit, rater, value) as `alt_test` reads them: its raters are the human
    ceiling's (a rater, DUO's annotator slot); values by the question's level."""
    base, chosen = reference.base, reference.chosen
    labels = base.label_index[chosen]
    return base.unit_index[chosen], base.ceiling_index[chosen], values_of(task, labels)


def values_of(task: JudgeQuestion, labels: np.ndarray) -> np.ndarray:
    """Label numbers as the test compares them: codes (nominal), positions 1..K (ordinal), values."""
    if task.question.level == "ordinal":
        return labels.astype(float) + 1.0
    return task.question.codes[labels].astype(float)


def judge_values_on(task: JudgeQuestion, judge_values: pd.DataFrame) -> np.ndarray:
    """A judge's values (`judge_values`: unit_id, value) on the task's units and the test's scale
    (positions 1..K for ordinal questions), NaN where it gave none: a unit no reference rater judged
    is on no axis of the task, and in no test."""
    on_units = np.full(len(task.unit_ids), np.nan)
    unit_ids = judge_values["unit_id"].to_numpy()
    position = np.minimum(np.searchsorted(task.unit_ids, unit_ids), max(len(task.unit_ids) - 1, 0))
    known = (
        (position < len(task.unit_ids)) & (task.unit_ids[position] == unit_ids) if len(task.unit_ids) else position < 0
    )
    values = judge_values["value"].to_numpy(dtype=float)[known]
    if task.question.level == "ordinal":
        values = np.searchsorted(task.question.codes, values) + 1.0
    on_units[position[known]] = values
    return on_units


@dataclass(frozen=True)
class ReplacementSettings:
    """ε and the minimum units: `epsilon_of(base reference name)` gives a reference's ε."""

    epsilon_of: Callable[[str], float]
    min_units: int = MIN_UNITS


def question_rows(
    task: JudgeQuestion,
    judges: dict[str, np.ndarray],
    settings: ReplacementSettings,
    rater_keys: dict[str, np.ndarray],
) -> pd.DataFrame:
    """The given judges' rows of the question (`judges`: each judge's values on the task's units,
    `judge_values_on`): per reference with several raters per unit, its verdict (rater_key
    `VERDICT_ROW`) and a row per tested rater. `rater_keys`: each base reference's rater keys by
    ceiling number."""
    columns: dict[str, list] = {name: [] for name in ROW_COLUMNS}
    for judge, judge_values in judges.items():
        for reference in task.references:
            if not has_several_raters(reference):
                continue
            epsilon = settings.epsilon_of(reference.base.name)
            units, raters, values = reference_values(task, reference)
            verdict = alt_test(units, raters, values, judge_values, task.question.level, epsilon, settings.min_units)
            add_rows(columns, judge, reference, epsilon, verdict, rater_keys[reference.base.name])
    return pd.DataFrame(columns).assign(**dict(zip(SLOT, task.question.name)))


# a question's rows as `question_rows` collects them, column by column
ROW_COLUMNS = [c for c in COLUMNS if c not in (*SLOT, *memo.MEMO_COLUMNS)]


def add_rows(
    columns: dict[str, list], judge: str, reference: Reference, epsilon: float, verdict: Verdict, keys: np.ndarray
) -> None:
    """A reference's verdict row and its tested raters' rows, appended to `columns`."""
    tested = verdict.raters
    n_rows = 1 + len(tested.rater)
    blank = [None] * len(tested.rater)
    own_and_raters = {
        "judge": [judge] * n_rows,
        "reference_dimension": [reference.dimension] * n_rows,
        "reference_value": [reference.value] * n_rows,
        "rater_key": [VERDICT_ROW, *keys[tested.rater]],
        "epsilon": [epsilon] * n_rows,
        "n_units": [verdict.n_units, *tested.n_units.tolist()],
        "n_raters": [verdict.n_raters, *blank],
        "n_raters_tested": [verdict.n_raters_tested, *blank],
        "winning_rate": [verdict.winning_rate, *blank],
        "advantage_probability": [verdict.advantage_probability, *blank],
        "replaces": [verdict.replaces, *blank],
        "judge_advantage": [None, *tested.judge_advantage.tolist()],
        "rater_advantage": [None, *tested.rater_advantage.tolist()],
        "p_value": [None, *tested.p_value.tolist()],
        "judge_wins": [None, *tested.judge_wins.tolist()],
    }
    for name, values in own_and_raters.items():
        columns[name].extend(values)


def inputs_of(
    task: JudgeQuestion, judge_values: np.ndarray, settings: ReplacementSettings, rater_keys: dict[str, np.ndarray]
) -> list[object]:
    """Everything a judge's rows of a question are computed from, for its fingerprint: the question's
    labels and level, the judge's values on the references' units (numbered by rank, as the task's
    units are the references' own: no other judge moves them), each base reference's values, rater
    keys and ε, its raters' groups, the minimum units and the level of the test."""
    question = task.question
    bases = {reference.base.name: reference.base for reference in task.references}
    dimensions = sorted(task.dimensions.items(), key=lambda item: item[0])
    judged = np.flatnonzero(~np.isnan(judge_values))
    return [
        question.name,
        question.codes,
        question.level,
        judged,
        judge_values[judged],
        [[base_inputs(base), rater_keys[name], settings.epsilon_of(name)] for name, base in sorted(bases.items())],
        [dimension_inputs(bases[base], dimension, members) for (base, dimension), members in dimensions],
        settings.min_units,
        ALPHA,
    ]


def ceiling_keys(judged: JudgedQuestion) -> dict[str, np.ndarray]:
    """Each base reference's rater keys in the order `base_reference` numbers its ceiling raters."""
    return {
        str(name): np.asarray(pd.factorize(rows["ceiling_rater"], sort=True)[1], dtype=object)
        for name, rows in judged.references.groupby("reference", sort=True)
    }


def references_task(judged: JudgedQuestion) -> JudgeQuestion:
    """The question's references on their own units and the question's labels, built once for every
    judge (no judge's values on its axes: a judge's figures depend on no other judge)."""
    return judge_question(
        judged.question, judged.references, judged.judge_values.iloc[:0], judged.groups, None, judged.reference_units
    )


def judged_question_rows(
    judged: JudgedQuestion, settings_of: Callable[[str], ReplacementSettings], stored: memo.Memo | None = None
) -> pd.DataFrame:
    """Every judge's rows of the question (the rows `stored` holds where they were computed from the
    same inputs), the judges computed together on the question's references. `settings_of(source)`:
    the question's source's settings."""
    settings = settings_of(judged.question.source)
    keys = ceiling_keys(judged)
    task = references_task(judged)
    judges = {
        (judge, *judged.question.name): judge_values_on(task, values)
        for judge, values in sorted(judged.values_of_judge.items())
    }
    inputs = {slot: lambda values=values: inputs_of(task, values, settings, keys) for slot, values in judges.items()}
    fingerprints, stale = memo.stale_slots(stored, inputs)
    computed = question_rows(task, {slot[0]: judges[slot] for slot in stale}, settings, keys)
    rows = [
        memo.marked(stored, slot, fingerprints.get(slot), lambda judge=slot[0]: computed[computed["judge"] == judge])
        for slot in judges
    ]
    return pd.concat(rows, ignore_index=True) if rows else as_result([])


def as_result(rows: list[pd.DataFrame]) -> pd.DataFrame:
    """Every question's rows in the model's columns and types (figures not computed are null)."""
    rows = [frame for frame in rows if not frame.empty]
    if not rows:
        return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})
    return pd.concat(rows, ignore_index=True).reindex(columns=list(COLUMNS)).astype(COLUMNS)
