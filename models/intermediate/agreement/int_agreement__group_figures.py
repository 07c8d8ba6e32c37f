"""`agreement`'s figures, one row per (question, rater group with a value on the question): α, xRR
and GAI with what they are made of, and their Monte Carlo uncertainty, all from `agreement_core`
(one implementation of each figure, for the row and its draws alike). One question at a time on
each core (`agreement_core.parallel`): memory holds a few questions' values. The dbt vars arrive
through `int_agreement__settings`.

Computed once per input (`agreement_core.memo`): an incremental model whose rows of a question are
reused while the question's fingerprint (its values, its raters' groups, its level, the Monte Carlo
settings, the code) is the one they were computed from; the merge keeps the table equal to what
the model returns, so the rows of questions gone are gone. `--full-refresh` computes every question."""

from collections.abc import Iterator

from agreement_core import memo
from agreement_core.group_figures import QuestionValues, as_result, question_rows
from agreement_core.parallel import ordered_map
from agreement_core.questions import SLOT, questions_of
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    # computed once per input: the merge it keeps its rows by is dbt_project.yml's `computed_once`
    dbt.config(
        materialized="incremental",
        unique_key=["source", "scope", "rating_kind", "question", "group_dimension", "group_value"],
    )
    stored = memo.stored_memo(dbt, session, SLOT)
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    values = dbt.ref("int_agreement__judgements").filter("is_agreement_value")
    groups = dbt.ref("int_agreement__rater_groups").project("group_id, group_dimension, group_value, rater_id").df()
    questions = questions_of(dbt.ref("int_agreement__questions").df(), dbt.ref("int_agreement__judgement_labels").df())
    question_ids = values.aggregate("question_id", "question_id").order("question_id")

    def values_of_each_question() -> Iterator[QuestionValues]:
        for (question_id,) in question_ids.fetchall():
            of_question = values.filter(f"question_id = {question_id}").project("unit_id, rater_id, value_code").df()
            yield QuestionValues.of(questions[question_id], of_question)

    rows = ordered_map(lambda each: question_rows(each, groups, settings, stored), values_of_each_question())
    return as_result(list(rows))
