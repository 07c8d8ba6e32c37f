"""`judge_agreement`'s figures, one row per (judge, human question, reference): xRR with its
bootstrap interval, rank correlations or label agreement, the human ceiling, and for rater groups
the alignment with its permutation test, from `agreement_core.judges` (the maths of the human
figures). One question at a time on each core
(`agreement_core.parallel`). The dbt vars arrive through `int_agreement__settings`."""

from agreement_core import judges
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
    )
    return judges.as_result(list(ordered_map(lambda task: judges.question_rows(task, settings), tasks)))
