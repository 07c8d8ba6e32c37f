"""The Monte Carlo columns of the `agreement` mart, per (question, rater group): α's bootstrap
interval, GRASP's permutation p-values of α, xRR and GAI, and GAI's Benjamini–Hochberg q-value.
Run by the dbt Python model `int_agreement__monte_carlo` on the agreement models' tables; the
formulas are `dwh.agreement_maths`'. Definitions: WAREHOUSE_CONTRACT.md, "Uncertainty"."""

from dataclasses import dataclass
from fnmatch import fnmatchcase

import numpy as np
import pandas as pd

from dwh import agreement_maths as maths

COLUMNS = {
    "question_id": "int32",
    "group_id": "int32",
    "alpha_ci_low": "float64",
    "alpha_ci_high": "float64",
    "alpha_p": "float64",
    "xrr_p": "float64",
    "gai_p": "float64",
    "gai_q": "float64",
}
# the dimension holding every rater: no one is outside it, so it has no permutation test
EVERY_RATER = "all"


@dataclass(frozen=True)
class Settings:
    seed: int
    n_bootstrap: int
    n_permutations: int
    # glob patterns over "<source>/<scope>/<question>": the questions the figures are computed for
    questions: tuple[str, ...]

    def wants(self, source: str, scope: str, question: str) -> bool:
        return any(fnmatchcase(f"{source}/{scope}/{question}", pattern) for pattern in self.questions)


@dataclass
class QuestionValues:
    """One question's values as label, rater and unit numbers (one entry per value), with its δ."""

    name: tuple[str, ...]
    rater_ids: np.ndarray
    n_units: int
    label_index: np.ndarray
    rater_index: np.ndarray
    unit_index: np.ndarray
    distances: np.ndarray

    def counts(self, rater_numbers: np.ndarray | None = None) -> np.ndarray:
        """`(labels, units)`: the values of the given raters (numbers into rater_ids; default all)."""
        chosen = slice(None) if rater_numbers is None else np.isin(self.rater_index, rater_numbers)
        return maths.one_hot_counts(
            self.unit_index[chosen], self.label_index[chosen], self.n_units, len(self.distances)
        )

    def rater_counts(self, rater_numbers: np.ndarray) -> np.ndarray:
        """`(labels, raters, units)` one-hot: the values of the given raters, each on its own row."""
        position = np.full(len(self.rater_ids), -1)
        position[rater_numbers] = np.arange(len(rater_numbers))
        chosen = position[self.rater_index] >= 0
        counts = np.zeros((len(self.distances), len(rater_numbers), self.n_units))
        counts[self.label_index[chosen], position[self.rater_index[chosen]], self.unit_index[chosen]] = 1.0
        return counts


def empty_result() -> pd.DataFrame:
    return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})


def question_values(values: pd.DataFrame, distances: pd.DataFrame, name: tuple[str, ...]) -> QuestionValues:
    """`values` (unit_id, rater_id, value_code) and `distances` (value_a, value_b, distance) of one question."""
    codes = np.sort(distances["value_a"].unique())
    delta = np.zeros((len(codes), len(codes)))
    delta[np.searchsorted(codes, distances["value_a"]), np.searchsorted(codes, distances["value_b"])] = distances[
        "distance"
    ]
    unit_ids, unit_index = np.unique(values["unit_id"].to_numpy(), return_inverse=True)
    rater_ids, rater_index = np.unique(values["rater_id"].to_numpy(), return_inverse=True)
    return QuestionValues(
        name=name,
        rater_ids=rater_ids,
        n_units=len(unit_ids),
        label_index=np.searchsorted(codes, values["value_code"].to_numpy()),
        rater_index=rater_index,
        unit_index=unit_index,
        distances=delta,
    )


def group_rows(question: QuestionValues, groups: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """One row per rater group with a rater among the question's: its interval and p-values."""
    members = groups[groups["rater_id"].isin(question.rater_ids)]
    group_ids = np.sort(members["group_id"].unique())
    group_counts = np.stack(
        [question.counts(rater_numbers(question, members[members["group_id"] == g])) for g in group_ids], axis=1
    )
    # the scope's pairable units: ≥ 2 values from all raters
    pairable = question.counts().sum(axis=0) >= 2
    rng = maths.generator(settings.seed, *question.name, "bootstrap")
    low, high = maths.bootstrap_alpha_interval(
        group_counts[:, :, pairable], question.distances, rng, settings.n_bootstrap
    )
    observed_alpha = maths.krippendorff_alpha(group_counts, question.distances)
    intervals = pd.DataFrame(
        {
            "group_id": group_ids,
            "alpha_ci_low": np.where(np.isnan(observed_alpha), np.nan, low),
            "alpha_ci_high": np.where(np.isnan(observed_alpha), np.nan, high),
        }
    )
    tests = [
        dimension_test(question, dimension_members, settings)
        for dimension, dimension_members in members.groupby("group_dimension")
        if dimension != EVERY_RATER
    ]
    p_values = pd.concat(tests) if tests else empty_result()[["group_id", "alpha_p", "xrr_p", "gai_p", "gai_q"]]
    return intervals.merge(p_values, on="group_id", how="left")


def rater_numbers(question: QuestionValues, members: pd.DataFrame) -> np.ndarray:
    """The numbers (into question.rater_ids) of the raters in `members` (rater_id)."""
    return np.searchsorted(question.rater_ids, members["rater_id"].to_numpy())


def dimension_test(question: QuestionValues, members: pd.DataFrame, settings: Settings) -> pd.DataFrame:
    """GRASP's permutation test for the groups of one dimension, with Benjamini–Hochberg over them."""
    dimension = members["group_dimension"].iloc[0]
    group_ids, group_numbers = np.unique(members["group_id"].to_numpy(), return_inverse=True)
    in_a_group = question.rater_counts(rater_numbers(question, members))
    outside_every_group = question.counts() - in_a_group.sum(axis=1)
    rng = maths.generator(settings.seed, *question.name, dimension)
    test = maths.group_permutation_test(
        in_a_group, group_numbers, outside_every_group, question.distances, rng, settings.n_permutations
    )
    return pd.DataFrame(
        {
            "group_id": group_ids,
            "alpha_p": test.alpha_p,
            "xrr_p": test.xrr_p,
            "gai_p": test.gai_p,
            "gai_q": maths.benjamini_hochberg(test.gai_p),
        }
    )


def monte_carlo_figures(
    values: pd.DataFrame,
    units: pd.DataFrame,
    questions: pd.DataFrame,
    groups: pd.DataFrame,
    distances: pd.DataFrame,
    settings: Settings,
) -> pd.DataFrame:
    """The Monte Carlo columns for every (question, group) of the questions `settings` wants.

    `values` (unit_id, rater_id, value_code), `units` (unit_id, question_id), `questions`
    (question_id, source, scope, rating_kind, question), `groups` (group_id, group_dimension,
    rater_id), `distances` (question_id, value_a, value_b, distance)."""
    wanted = questions[[settings.wants(q.source, q.scope, q.question) for q in questions.itertuples()]]
    values = values.merge(units[["unit_id", "question_id"]], on="unit_id")
    results = []
    for question in wanted.itertuples():
        of_question = values[values["question_id"] == question.question_id]
        if of_question.empty:
            continue
        name = (question.source, question.scope, question.rating_kind, question.question)
        prepared = question_values(of_question, distances[distances["question_id"] == question.question_id], name)
        rows = group_rows(prepared, groups, settings)
        results.append(rows.assign(question_id=question.question_id))
    if not results:
        return empty_result()
    return pd.concat(results, ignore_index=True)[list(COLUMNS)].astype(COLUMNS)
