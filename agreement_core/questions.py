"""A question as every figure reads it, the agreement mart's and the judges': its names and its slot
in the stored figures (`Question`, `SLOT`), its label codes and level of measurement, hence its δ
(`Question.metric`), read from the questions and the labels seed (`questions_of`); the dimension
holding every rater (`EVERY_RATER`); and the one order of the rater groups' memberships the
permutation tests shuffle (`in_canonical_order`)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from agreement_core import maths

# a question's rows are stored, reused and replaced together (`agreement_core.memo`)
SLOT = ["source", "scope", "rating_kind", "question"]


# the dimension holding every rater: no one is outside it, so it has no xRR and no permutation test
EVERY_RATER = "all"


@dataclass
class Question:
    """What the figures need to know of a question: its names, its label codes (the labels that
    are values: K of them) and its level of measurement."""

    question_id: int
    source: str
    scope: str
    rating_kind: str
    question: str
    codes: np.ndarray
    level: str

    @property
    def name(self) -> tuple[str, ...]:
        """What its random numbers are seeded with, beside the seed; its slot in the stored figures."""
        return (self.source, self.scope, self.rating_kind, self.question)

    @property
    def metric(self) -> maths.Metric:
        return maths.label_distances(self.codes, self.level)


def questions_of(questions: pd.DataFrame, labels: pd.DataFrame) -> dict[int, Question]:
    """Each question by id, from `questions` (question_id, source, scope, rating_kind, question,
    label_set, level_of_measurement) and the labels seed (label_set, value_code, counts_as_missing)."""
    codes = labels[~labels["counts_as_missing"].astype(bool)].groupby("label_set")["value_code"]
    codes_of = {label_set: np.sort(c.to_numpy()) for label_set, c in codes}
    return {
        int(q.question_id): Question(
            int(q.question_id),
            q.source,
            q.scope,
            q.rating_kind,
            q.question,
            codes_of[q.label_set],
            q.level_of_measurement,
        )
        for q in questions.itertuples()
    }


def in_canonical_order(groups: pd.DataFrame) -> pd.DataFrame:
    """The memberships (group_id, rater_id, …) sorted by group and rater: the permutation tests
    shuffle the raters' groups in this order, so their p-values must not depend on the order the
    warehouse returns the rows in (which another source's rows change)."""
    return groups.sort_values(["group_id", "rater_id"], kind="stable", ignore_index=True)
