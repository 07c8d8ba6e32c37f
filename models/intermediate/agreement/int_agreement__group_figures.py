"""`agreement`'s figures, one row per (question, rater group with a value on the question): α, xRR
and GAI with what they are made of, and their Monte Carlo uncertainty, all from `agreement_core`
(one implementation of each figure, for the row and its draws alike). One question at a time on
each core (`agreement_core.parallel`): memory holds a few questions' values. The dbt vars arrive
through `int_agreement__settings`."""

from collections.abc import Iterator

from agreement_core.group_figures import QuestionValues, as_result, question_rows, questions_of
from agreement_core.parallel import ordered_map
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    units = dbt.ref("int_agreement__units")
    values = dbt.ref("int_agreement__values")
    groups = dbt.ref("int_agreement__rater_groups").project("group_id, group_dimension, rater_id").df()
    questions = questions_of(dbt.ref("int_agreement__questions").df(), dbt.ref("judgement_labels").df())
    # a question's units are numbered in one run (int_agreement__judged_units): its values are a range
    unit_ranges = units.aggregate("question_id, min(unit_id), max(unit_id)", "question_id").order("question_id")

    def values_of_each_question() -> Iterator[QuestionValues]:
        for question_id, first_unit, last_unit in unit_ranges.fetchall():
            of_question = values.filter(f"unit_id between {first_unit} and {last_unit}").df()
            if len(of_question):
                yield QuestionValues.of(questions[question_id], of_question)

    return as_result(list(ordered_map(lambda each: question_rows(each, groups, settings), values_of_each_question())))
