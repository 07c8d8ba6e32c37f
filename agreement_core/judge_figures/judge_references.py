"""Whom a judge is compared with, on one question: the human references (a source's base
references, each split by the agreement's rater groups where its raters have them) and the judges'
values, on one axis of units and labels (`JudgeQuestion`), ready for `agreement_core.judge_figures.judges`."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import duckdb
import numpy as np
import pandas as pd

from agreement_core import maths, memo, resampling
from agreement_core.questions import EVERY_RATER, Question, in_canonical_order
from agreement_core.settings import MonteCarloSettings

# a base reference's own row: reference_dimension is its name, reference_value this
WHOLE_REFERENCE = "all"


@dataclass
class BaseReference:
    """A base reference's values on the question's unit axis, one entry per value: label and unit
    numbers, the rater (−1: none, as DICES's expert) and the ceiling rater (a rater, or DUO's
    annotator slot) numbered 0..C−1."""

    name: str
    label_index: np.ndarray
    unit_index: np.ndarray
    rater_ids: np.ndarray
    ceiling_index: np.ndarray
    n_labels: int
    n_units: int
    # what its fingerprint reads (`base_inputs`, `dimension_inputs`), taken once for every task
    # that shares it (a question's judges and pairs of judges on the same axes)
    # (None: its values; else a dimension's name)
    inputs: dict[str | None, list[object]] = field(default_factory=dict, repr=False, compare=False)

    def counts(self, chosen: np.ndarray | slice = slice(None)) -> np.ndarray:
        """`(labels, units)` of the chosen values (default all)."""
        return maths.one_hot_counts(self.unit_index[chosen], self.label_index[chosen], self.n_units, self.n_labels)

    def ceiling_xrr(self, chosen: np.ndarray, metric: maths.Metric) -> maths.CrossReliability:
        """Each ceiling rater's xRR with the chosen values of the others: X the rater's own values,
        Y the rest, over the units the rater judged (one rater at a time: most judge few units)."""
        counts = self.counts(chosen)
        figures = []
        for rater in np.unique(self.ceiling_index[chosen]):
            own = chosen & (self.ceiling_index == rater)
            units = np.unique(self.unit_index[own])
            x = maths.one_hot_counts(
                np.searchsorted(units, self.unit_index[own]), self.label_index[own], len(units), self.n_labels
            )
            figures.append(maths.cross_reliability(x, counts[:, units] - x, metric))
        return maths.CrossReliability(
            *(
                np.array([getattr(f, name) for f in figures], dtype=float)
                for name in maths.CrossReliability.__dataclass_fields__
            )
        )

    def dimension_values(self, members: pd.DataFrame) -> resampling.RaterValues:
        """The values of the raters in one dimension's groups (`members`: rater_id, group_number),
        numbered for GRASP's shuffles of group labels among them."""
        raters = members.drop_duplicates("rater_id").sort_values("rater_id")
        rater_ids = raters["rater_id"].to_numpy()
        position = np.searchsorted(rater_ids, self.rater_ids)
        in_dimension = (position < len(rater_ids)) & (
            rater_ids[np.minimum(position, len(rater_ids) - 1)] == self.rater_ids
        )
        return resampling.RaterValues(
            label_index=self.label_index[in_dimension],
            rater_index=position[in_dimension],
            unit_index=self.unit_index[in_dimension],
            rater_groups=raters["group_number"].to_numpy(),
            n_labels=self.n_labels,
            n_units=self.n_units,
        )


@dataclass
class Reference:
    """Whom a judge is compared with: a base reference (`dimension` its name, `value` "all") or a
    rater group of one (`base` its base reference, `group_number` its number in the dimension)."""

    dimension: str
    value: str
    counts: np.ndarray  # (labels, units)
    chosen: np.ndarray  # which of the base reference's values are the reference's
    base: BaseReference
    group_number: int | None = None
    _ceiling: maths.CrossReliability | None = field(default=None, repr=False, compare=False)

    @property
    def is_group(self) -> bool:
        return self.group_number is not None

    def ceiling_xrr(self, metric: maths.Metric) -> maths.CrossReliability:
        """Each of the reference's raters against its others (`BaseReference.ceiling_xrr`), computed
        once for every task that shares the reference: the tasks of a question's judges on the same
        axes (`judge_question`), whose metric is the same."""
        if self._ceiling is None:
            self._ceiling = self.base.ceiling_xrr(self.chosen, metric)
        return self._ceiling


@dataclass
class JudgeQuestion:
    """A question's judges and references on one axis of units and one label set: the question's
    codes, and for interval questions the judges' own values too (a judge may give 3.5)."""

    question: Question
    judges: np.ndarray
    judge_counts: np.ndarray  # (labels, judges, units), one value per judge and unit
    references: list[Reference]
    dimensions: dict[tuple[str, str], pd.DataFrame]  # (base, dimension) -> members (rater_id, group_number)
    unit_ids: np.ndarray  # the warehouse's id of each unit on the axis, in order

    @property
    def metric(self) -> maths.Metric:
        return self.question.metric

    def of_judges(self, numbers: Sequence[int]) -> "JudgeQuestion":
        """The task of some of its judges, on the same axes."""
        return JudgeQuestion(
            self.question,
            self.judges[list(numbers)],
            self.judge_counts[:, list(numbers)],
            self.references,
            self.dimensions,
            self.unit_ids,
        )

    def stacked(self, references: list[Reference] | None = None) -> np.ndarray:
        """`(labels, references, units)`."""
        return np.stack([reference.counts for reference in references or self.references], axis=1)


def label_codes(question: Question, judge_values: pd.DataFrame) -> np.ndarray:
    """The codes on the question's axis: its labels, and for numbers the judges' values among them."""
    if question.level in ("interval", "ratio"):
        return np.union1d(question.codes, judge_values["value"].to_numpy(dtype=float))
    return question.codes


def judge_question(
    question: Question,
    references: pd.DataFrame,
    judge_values: pd.DataFrame,
    groups: pd.DataFrame,
    built_references: dict[tuple[bytes, bytes], "BuiltReferences"] | None = None,
    reference_units: np.ndarray | None = None,
) -> JudgeQuestion:
    """`references` (unit_id, rater_id (−1: none), ceiling_rater, reference, value_code),
    `judge_values` (judge, unit_id, value), `groups` (group_id, group_dimension, group_value, rater_id).
    The references on the task's axes (labels, units) are taken from `built_references` where they
    were built on the same axes for another task of the question (the tasks of its judges and pairs
    of judges share them), and kept there; `reference_units`, the references' distinct unit ids, where
    the caller has them."""
    on_axis = Question(**{**question.__dict__, "codes": label_codes(question, judge_values)})
    if reference_units is None:
        reference_units = references["unit_id"].to_numpy()
    unit_ids = np.union1d(reference_units, judge_values["unit_id"].to_numpy())
    judge_index, judges = pd.factorize(judge_values["judge"], sort=True)  # np.unique sorts objects slowly
    judges = np.asarray(judges, dtype=object)
    judge_counts = np.zeros((len(on_axis.codes), len(judges), len(unit_ids)))
    judge_counts[
        np.searchsorted(on_axis.codes, judge_values["value"].to_numpy(dtype=float)),
        judge_index,
        np.searchsorted(unit_ids, judge_values["unit_id"].to_numpy()),
    ] = 1.0
    axes = (on_axis.codes.tobytes(), unit_ids.tobytes())
    built = (built_references or {}).get(axes) or references_on(on_axis, references, unit_ids, groups)
    if built_references is not None:
        built_references[axes] = built
    return JudgeQuestion(on_axis, judges, judge_counts, *built, unit_ids=unit_ids)


# a question's references on one axis of labels and units, and its dimensions' members
BuiltReferences = tuple[list["Reference"], dict[tuple[str, str], pd.DataFrame]]


def references_on(
    question: Question, references: pd.DataFrame, unit_ids: np.ndarray, groups: pd.DataFrame
) -> BuiltReferences:
    """Every base reference of the question on the given axes, each followed by its rater groups."""
    built, dimensions = [], {}
    groups = in_canonical_order(groups)
    for name, rows in references.groupby("reference", sort=True):
        base = base_reference(str(name), question, rows, unit_ids)
        everything = np.ones(len(base.label_index), dtype=bool)
        built.append(Reference(base.name, WHOLE_REFERENCE, base.counts(), everything, base))
        for dimension, members in groups[groups["rater_id"].isin(rows["rater_id"])].groupby("group_dimension"):
            if dimension == EVERY_RATER:
                continue
            members = members.assign(group_number=pd.factorize(members["group_value"], sort=True)[0])
            dimensions[(base.name, str(dimension))] = members
            built.extend(group_references(base, str(dimension), members))
    return built, dimensions


def base_reference(name: str, question: Question, rows: pd.DataFrame, unit_ids: np.ndarray) -> BaseReference:
    ceiling_index = pd.factorize(rows["ceiling_rater"], sort=True)[0]
    return BaseReference(
        name=name,
        label_index=np.searchsorted(question.codes, rows["value_code"].to_numpy(dtype=float)),
        unit_index=np.searchsorted(unit_ids, rows["unit_id"].to_numpy()),
        rater_ids=rows["rater_id"].to_numpy(),
        ceiling_index=ceiling_index,
        n_labels=len(question.codes),
        n_units=len(unit_ids),
    )


def group_references(base: BaseReference, dimension: str, members: pd.DataFrame) -> list[Reference]:
    """One reference per group of the dimension, in group-number order."""
    references = []
    for (number, value), of_group in members.groupby(["group_number", "group_value"], sort=True):
        chosen = np.isin(base.rater_ids, of_group["rater_id"].to_numpy())
        references.append(Reference(dimension, str(value), base.counts(chosen), chosen, base, int(number)))
    return references


@dataclass
class JudgedQuestion:
    """A question's human references and judges' values as the models read them, from which the
    task of any of its judges is made (`task`): the figures of a judge, or of two, are computed
    from their own task, so that they depend on no other judge (`agreement_core.memo`)."""

    question: Question
    references: pd.DataFrame  # unit_id, rater_id (−1: none), ceiling_rater, reference, value_code
    judge_values: pd.DataFrame  # judge, unit_id, value
    groups: pd.DataFrame  # group_id, group_dimension, group_value, rater_id
    # the references built for its tasks, by axes: built once for all its judges and pairs
    built_references: dict[tuple[bytes, bytes], BuiltReferences] = field(default_factory=dict, repr=False)

    @property
    def judges(self) -> list[str]:
        return sorted(self.values_of_judge)

    @cached_property
    def values_of_judge(self) -> dict[str, pd.DataFrame]:
        """Each judge's values, split once for the tasks of its judges and pairs of judges."""
        return {str(judge): values for judge, values in self.judge_values.groupby("judge", sort=False)}

    @cached_property
    def reference_units(self) -> np.ndarray:
        return np.unique(self.references["unit_id"].to_numpy())

    def task(self, judges: Sequence[str] | None = None) -> JudgeQuestion:
        """The task of the given judges (default every judge of the question)."""
        values = self.judge_values if judges is None else pd.concat([self.values_of_judge[j] for j in judges])
        return judge_question(
            self.question, self.references, values, self.groups, self.built_references, self.reference_units
        )


def judged_questions(
    judgements: duckdb.DuckDBPyRelation,
    references: duckdb.DuckDBPyRelation,
    groups: pd.DataFrame,
    questions: dict[int, Question],
    least_judges: int = 1,
) -> Iterator[JudgedQuestion]:
    """Each question that at least `least_judges` judges judged, one at a time (memory holds one
    question's values): `judgements` (judge, question_id, unit_id, judge_value) and `references`
    as `int_judges__judgements` and `int_judges__reference_values` hold them."""
    judged = judgements.aggregate("question_id, count(distinct judge) as n_judges", "question_id")
    for (question_id,) in (
        judged.filter(f"n_judges >= {least_judges}").project("question_id").order("question_id").fetchall()
    ):
        of_question = f"question_id = {question_id}"
        judge_values = judgements.filter(of_question).project("judge, unit_id, judge_value as value").df()
        human = references.filter(of_question).project(
            "unit_id, coalesce(rater_id, -1) as rater_id, ceiling_rater, reference, value_code"
        )
        yield JudgedQuestion(questions[question_id], human.df(), judge_values, groups)


def inputs_of(task: JudgeQuestion, settings: MonteCarloSettings) -> list[object]:
    """Everything a task's figures are computed from, for its fingerprint (`agreement_core.memo`):
    the question on the task's label axis, the judges and their values, each base reference's
    values and its raters' groups, and the Monte Carlo it gets. Units and raters are numbered in
    the order of their keys (ranks, not the warehouse's ids: another source's reload renumbers
    none of them)."""
    question = task.question
    bases = {reference.base.name: reference.base for reference in task.references}
    dimensions = sorted(task.dimensions.items(), key=lambda item: item[0])
    return [
        question.name,
        question.codes,
        question.level,
        task.judges,
        list(np.nonzero(task.judge_counts)),
        [base_inputs(base) for _, base in sorted(bases.items())],
        [dimension_inputs(bases[base], dimension, members) for (base, dimension), members in dimensions],
        settings.draws_of(question.source, question.scope, question.question),
    ]


def base_inputs(base: BaseReference) -> list[object]:
    """A base reference's values as (unit, rater rank, ceiling rater, label) numbers, in any order."""
    if None not in base.inputs:
        rater_ranks = np.unique(base.rater_ids, return_inverse=True)[1]
        values = memo.sorted_rows(base.unit_index, rater_ranks, base.ceiling_index, base.label_index)
        base.inputs[None] = [base.name, base.n_units, *values]
    return base.inputs[None]


def dimension_inputs(base: BaseReference, dimension: str, members: pd.DataFrame) -> list[object]:
    """A dimension's groups among a base reference's raters: their names and (group, rater rank) members."""
    if dimension not in base.inputs:
        rater_ranks = np.searchsorted(np.unique(base.rater_ids), members["rater_id"].to_numpy())
        groups = members.drop_duplicates("group_number").sort_values("group_number")
        names = groups["group_value"].to_numpy(dtype=object)
        group_members = memo.sorted_rows(members["group_number"].to_numpy(), rater_ranks)
        base.inputs[dimension] = [base.name, dimension, names, *group_members]
    return base.inputs[dimension]
