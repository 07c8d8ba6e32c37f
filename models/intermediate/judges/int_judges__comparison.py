"""`judge_comparison`'s figures, one row per (two judges, human question, reference): each judge's
xRR over the units both judged, their difference with its paired bootstrap interval and paired
permutation p, from `agreement_core.judge_comparison` (the maths of the human figures). One question
at a time on each core (`agreement_core.parallel`), of those at least two judges judged. The dbt
vars arrive through `int_agreement__settings`."""

from agreement_core import judge_comparison
from agreement_core.group_figures import questions_of
from agreement_core.judge_references import judged_questions
from agreement_core.parallel import ordered_map
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    tasks = judged_questions(
        judgements=dbt.ref("int_judges__judgements"),
        references=dbt.ref("int_judges__reference_values"),
        groups=dbt.ref("int_agreement__rater_groups").df(),
        questions=questions_of(dbt.ref("int_agreement__questions").df(), dbt.ref("judgement_labels").df()),
        least_judges=2,
    )
    rows_of_questions = ordered_map(lambda task: judge_comparison.question_rows(task, settings), tasks)
    return judge_comparison.as_result([row for rows in rows_of_questions for row in rows])
