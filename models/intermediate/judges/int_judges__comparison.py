"""`judge_comparison`'s figures, one row per (two judges, human question, reference): each judge's
xRR over the units both judged, their difference with its paired bootstrap interval and paired
permutation p, from `agreement_core.judge_figures.judge_comparison` (the maths of the human figures). One question
at a time on each core (`agreement_core.parallel`), of those at least two judges judged. The dbt
vars arrive through `int_agreement__settings`.

Computed once per input (`agreement_core.memo`): two judges' rows of a question are reused while
their fingerprint (both judges' values, the references, the Monte Carlo settings, the code) is
unchanged, so loading a judge computes only the pairs it is in; the merge keeps the table equal to
what the model returns. `--full-refresh` computes every pair again."""

from agreement_core import memo
from agreement_core.judge_figures import judge_comparison
from agreement_core.judge_figures.judge_references import judged_questions
from agreement_core.parallel import ordered_map
from agreement_core.questions import questions_of
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    # computed once per input: the merge it keeps its rows by is dbt_project.yml's `computed_once`
    dbt.config(
        materialized="incremental",
        unique_key=[
            "judge_a",
            "judge_b",
            "source",
            "scope",
            "rating_kind",
            "question",
            "reference_dimension",
            "reference_value",
        ],
    )
    stored = memo.stored_memo(dbt, session, judge_comparison.PAIR_SLOT)
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    questions = judged_questions(
        judgements=dbt.ref("int_judges__judgements"),
        references=dbt.ref("int_judges__reference_values"),
        groups=dbt.ref("int_agreement__rater_groups").df(),
        questions=questions_of(
            dbt.ref("int_agreement__questions").df(), dbt.ref("int_agreement__judgement_labels").df()
        ),
        least_judges=2,
    )
    rows_of_questions = ordered_map(
        lambda each: judge_comparison.judged_question_rows(each, settings, stored), questions
    )
    return judge_comparison.as_result([row for rows in rows_of_questions for row in rows])
