"""`judge_agreement`'s figures, one row per (judge, human question, reference): xRR with its
bootstrap interval, rank correlations or label agreement, the human ceiling, and for rater groups
the alignment with its permutation test, from `agreement_core.judges` (the maths of the human
figures). One question at a time. The dbt vars arrive through `int_agreement__settings`."""

from agreement_core import judges
from agreement_core.group_figures import questions_of
from agreement_core.judge_references import judge_question
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    judgements = dbt.ref("int_judges__judgements")
    references = dbt.ref("int_judges__reference_values")
    groups = dbt.ref("int_agreement__rater_groups").df()
    questions = questions_of(dbt.ref("int_agreement__questions").df(), dbt.ref("judgement_labels").df())
    rows = []
    for (question_id,) in judgements.project("question_id").distinct().order("question_id").fetchall():
        of_question = f"question_id = {question_id}"
        judge_values = judgements.filter(of_question).project("judge, unit_id, judge_value as value").df()
        human = references.filter(of_question).project(
            "unit_id, coalesce(rater_id, -1) as rater_id, ceiling_rater, reference, value_code"
        )
        task = judge_question(questions[question_id], human.df(), judge_values, groups)
        rows.append(judges.question_rows(task, settings))
    return judges.as_result(rows)
