"""The figures of the `agreement` mart, one row per (question, rater group with a value on the
question): α, xRR and GAI with what they are made of, and their Monte Carlo uncertainty (α's
bootstrap interval, GRASP's permutation p-values, GAI's Benjamini–Hochberg q-value). One
question at a time, from its values as small integers; the row's figures and their draws come
from the same functions (`agreement_core.maths`)."""

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd
from scipy import sparse

from agreement_core import maths, memo, resampling
from agreement_core.questions import EVERY_RATER, SLOT, Question, in_canonical_order
from agreement_core.settings import MonteCarloSettings

COLUMNS = {
    # "string", not object: an empty frame's columns would reach DuckDB as INTEGER
    **dict.fromkeys([*SLOT, "group_dimension", "group_value"], "string"),
    "n_units": "int64",
    "n_values": "int64",
    "observed_disagreement": "float64",
    "expected_disagreement": "float64",
    "alpha": "float64",
    "n_xrr_units": "int64",
    "xrr_observed_disagreement": "float64",
    "xrr_expected_disagreement": "float64",
    "xrr": "float64",
    "gai": "float64",
    "alpha_ci_low": "float64",
    "alpha_ci_high": "float64",
    "alpha_p": "float64",
    "xrr_p": "float64",
    "gai_p": "float64",
    "gai_q": "float64",
    "min_attainable_p": "float64",
    memo.FINGERPRINT: "string",
    memo.COMPUTED_AT: "datetime64[us]",
    memo.ROWS_DIGEST: "string",
}


@dataclass
class QuestionValues:
    """One question's values as label, rater and unit numbers (one entry per value)."""

    question: Question
    rater_ids: np.ndarray
    n_units: int
    label_index: np.ndarray
    rater_index: np.ndarray
    unit_index: np.ndarray

    @classmethod
    def of(cls, question: Question, values: pd.DataFrame) -> "QuestionValues":
        """`values` (unit_id, rater_id, value_code) of the question."""
        unit_ids, unit_index = np.unique(values["unit_id"].to_numpy(), return_inverse=True)
        rater_ids, rater_index = np.unique(values["rater_id"].to_numpy(), return_inverse=True)
        return cls(
            question=question,
            rater_ids=rater_ids,
            n_units=len(unit_ids),
            label_index=np.searchsorted(question.codes, values["value_code"].to_numpy()),
            rater_index=rater_index,
            unit_index=unit_index,
        )

    @property
    def n_labels(self) -> int:
        return len(self.question.codes)

    @cached_property
    def values_by_rater(self) -> sparse.csr_array:
        return maths.values_by_rater(
            self.label_index, self.unit_index, self.rater_index, self.n_labels, self.n_units, len(self.rater_ids)
        )

    def counts(self, chosen: np.ndarray | slice = slice(None)) -> np.ndarray:
        """`(labels, units)`: the counts of the chosen values (default all)."""
        return maths.one_hot_counts(self.unit_index[chosen], self.label_index[chosen], self.n_units, self.n_labels)

    def rater_numbers(self, rater_ids: np.ndarray) -> np.ndarray:
        """Each given rater's number (into rater_ids), -1 for a rater without a value here."""
        position = np.searchsorted(self.rater_ids, rater_ids)
        found = (position < len(self.rater_ids)) & (
            self.rater_ids[np.minimum(position, len(self.rater_ids) - 1)] == rater_ids
        )
        return np.where(found, position, -1)


@dataclass
class Memberships:
    """The groups with a rater among a question's, numbered in the order of their ids (the order of
    their names), and per rater number its group numbers."""

    group_ids: np.ndarray
    dimensions: np.ndarray  # each group's dimension
    group_values: np.ndarray  # each group's value
    member_raters: np.ndarray  # (memberships,) rater numbers
    member_groups: np.ndarray  # (memberships,) group numbers

    @classmethod
    def of(cls, values: QuestionValues, groups: pd.DataFrame) -> "Memberships":
        """`groups` (group_id, group_dimension, group_value, rater_id), in any row order."""
        groups = in_canonical_order(groups)
        raters = values.rater_numbers(groups["rater_id"].to_numpy())
        present = groups[raters >= 0]
        group_ids, group_numbers = np.unique(present["group_id"].to_numpy(), return_inverse=True)
        names = present.groupby("group_id")[["group_dimension", "group_value"]].first().reindex(group_ids)
        return cls(
            group_ids,
            names["group_dimension"].to_numpy(dtype=object),
            names["group_value"].to_numpy(dtype=object),
            raters[raters >= 0],
            group_numbers,
        )

    def group_counts(self, values: QuestionValues) -> np.ndarray:
        """`(labels, groups, units)`: each group's counts (`maths.counts_of_rater_sets`)."""
        in_group = (np.ones(self.member_raters.size), (self.member_raters, self.member_groups))
        membership = sparse.csr_array(in_group, shape=(len(values.rater_ids), len(self.group_ids)))
        return maths.counts_of_rater_sets(values.values_by_rater, membership, values.n_labels)


def point_figures(
    group_counts: np.ndarray, all_counts: np.ndarray, question: Question
) -> tuple[pd.DataFrame, maths.GroupFigures]:
    """The row's own figures of every group (no Monte Carlo), and the figures they come from."""
    figures = maths.group_figures(group_counts, all_counts, question.metric)
    reliability, cross = figures.reliability, figures.cross
    frame = pd.DataFrame(
        {
            "n_units": reliability.n_units,
            "n_values": reliability.n_values,
            "observed_disagreement": reliability.observed_disagreement,
            "expected_disagreement": reliability.expected_disagreement,
            "alpha": reliability.alpha,
            "n_xrr_units": cross.n_units,
            "xrr_observed_disagreement": cross.observed_disagreement,
            "xrr_expected_disagreement": cross.expected_disagreement,
            "xrr": cross.xrr,
            "gai": figures.gai,
        }
    )
    return frame, figures


def alpha_intervals(
    group_counts: np.ndarray,
    all_counts: np.ndarray,
    observed: maths.GroupFigures,
    question: Question,
    settings: MonteCarloSettings,
) -> pd.DataFrame:
    """α's 95% bootstrap interval per group, resampling the scope's pairable units (≥ 2 values)."""
    pairable = all_counts.sum(axis=0) >= 2
    rng = resampling.generator(settings.seed, *question.name, "bootstrap")
    low, high = resampling.bootstrap_alpha_interval(
        group_counts[:, :, pairable], question.metric, rng, settings.n_bootstrap
    )
    no_alpha = np.isnan(observed.alpha)
    return pd.DataFrame(
        {"alpha_ci_low": np.where(no_alpha, np.nan, low), "alpha_ci_high": np.where(no_alpha, np.nan, high)}
    )


def dimension_tests(
    values: QuestionValues,
    memberships: Memberships,
    all_counts: np.ndarray,
    observed: maths.GroupFigures,
    settings: MonteCarloSettings,
) -> pd.DataFrame:
    """GRASP's permutation test of every dimension's groups, with Benjamini–Hochberg over each dimension's,
    and the smallest p each test can give (exact over every distinct assignment in a small pool)."""
    tests = pd.DataFrame(
        np.nan,
        index=range(len(memberships.group_ids)),
        columns=["alpha_p", "xrr_p", "gai_p", "gai_q", "min_attainable_p"],
    )
    for dimension in np.unique(memberships.dimensions):
        if dimension == EVERY_RATER:
            continue
        in_dimension = np.flatnonzero(memberships.dimensions == dimension)
        test = resampling.group_permutation_test(
            figures_of(observed, in_dimension),
            rater_values(values, memberships, in_dimension),
            all_counts,
            values.question.metric,
            resampling.generator(settings.seed, *values.question.name, dimension),
            settings.n_permutations,
        )
        tests.loc[in_dimension, ["alpha_p", "xrr_p", "gai_p"]] = np.column_stack([test.alpha_p, test.xrr_p, test.gai_p])
        tests.loc[in_dimension, "gai_q"] = resampling.benjamini_hochberg(test.gai_p)
        tests.loc[in_dimension, "min_attainable_p"] = test.min_p
    return tests


def figures_of(figures: maths.GroupFigures, groups: np.ndarray) -> maths.GroupFigures:
    """The figures of some of the groups (numbers along the groups axis)."""

    def pick(result: object) -> object:
        return type(result)(**{name: getattr(result, name)[groups] for name in result.__dataclass_fields__})

    return maths.GroupFigures(reliability=pick(figures.reliability), cross=pick(figures.cross), gai=figures.gai[groups])


def rater_values(values: QuestionValues, memberships: Memberships, groups: np.ndarray) -> resampling.RaterValues:
    """The values of the raters in one of the given groups (a dimension: one group per rater), numbered
    for the permutation test."""
    chosen = np.isin(memberships.member_groups, groups)
    raters = memberships.member_raters[chosen]
    group_number = np.searchsorted(groups, memberships.member_groups[chosen])
    position = np.full(len(values.rater_ids), -1)
    position[raters] = np.arange(len(raters))
    in_a_group = position[values.rater_index] >= 0
    return resampling.RaterValues(
        label_index=values.label_index[in_a_group],
        rater_index=position[values.rater_index[in_a_group]],
        unit_index=values.unit_index[in_a_group],
        rater_groups=group_number,
        n_labels=values.n_labels,
        n_units=values.n_units,
    )


def inputs_of(values: QuestionValues, memberships: Memberships, settings: MonteCarloSettings) -> list[object]:
    """Everything `question_rows` reads, for the question's fingerprint (`agreement_core.memo`): the
    values as (unit, rater, label) numbers, whatever order they arrived in (units and raters are
    numbered in the order of their keys, so another source's reload renumbers none of them), the
    groups' names and members, the question, and the Monte Carlo it gets."""
    question = values.question
    return [
        question.name,
        question.codes,
        question.level,
        values.n_units,
        len(values.rater_ids),
        memo.sorted_rows(values.unit_index, values.rater_index, values.label_index),
        memberships.dimensions,
        memberships.group_values,
        memo.sorted_rows(memberships.member_groups, memberships.member_raters),
        settings.draws_of(question.source, question.scope, question.question),
    ]


def question_rows(
    values: QuestionValues, groups: pd.DataFrame, settings: MonteCarloSettings, stored: memo.Memo | None = None
) -> pd.DataFrame:
    """One row per group with a rater among the question's values: its figures and their uncertainty
    (the rows `stored` holds when they were computed from the same inputs)."""
    memberships = Memberships.of(values, groups)
    return memo.rows_of(
        stored,
        values.question.name,
        lambda: inputs_of(values, memberships, settings),
        lambda: computed_rows(values, memberships, settings),
    )


def computed_rows(values: QuestionValues, memberships: Memberships, settings: MonteCarloSettings) -> pd.DataFrame:
    """The question's rows, computed."""
    question = values.question
    group_counts = memberships.group_counts(values)
    all_counts = values.counts()
    rows, observed = point_figures(group_counts, all_counts, question)
    if settings.wants(question.source, question.scope, question.question):
        rows = pd.concat(
            [
                rows,
                alpha_intervals(group_counts, all_counts, observed, question, settings),
                dimension_tests(values, memberships, all_counts, observed, settings),
            ],
            axis=1,
        )
    slot = dict(zip(SLOT, question.name))
    return rows.assign(**slot, group_dimension=memberships.dimensions, group_value=memberships.group_values)


def empty_result() -> pd.DataFrame:
    return pd.DataFrame({column: pd.Series(dtype=dtype) for column, dtype in COLUMNS.items()})


def as_result(rows: list[pd.DataFrame]) -> pd.DataFrame:
    """The rows of every question in the model's columns and types (Monte Carlo columns null where not computed)."""
    if not rows:
        return empty_result()
    return pd.concat(rows, ignore_index=True).reindex(columns=list(COLUMNS)).astype(COLUMNS)
