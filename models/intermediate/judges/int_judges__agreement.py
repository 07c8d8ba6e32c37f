"""`judge_agreement`'s figures, one row per (judge, human question, reference): xRR with its
bootstrap interval, rank correlations or label agreement, the human ceiling, and for rater groups
the alignment with its permutation test, from `agreement_core.judge_figures.judges` (the maths of the human
figures). One question at a time on each core (`agreement_core.parallel`). The dbt vars arrive
through `int_agreement__settings`.

Computed once per input (`agreement_core.memo`): a judge's rows of a question are reused while
their fingerprint (the judge's values, the references, the Monte Carlo settings, the code) is
unchanged, so loading a judge computes that judge's figures only; the merge keeps the table equal
to what the model returns. `--full-refresh` computes every judge again."""

from agreement_core import memo
from agreement_core.judge_figures import judges
from agreement_core.judge_figures.judge_references import judged_questions
from agreement_core.parallel import ordered_map
from agreement_core.questions import questions_of
from agreement_core.settings import MonteCarloSettings


def model(dbt, session):
    # computed once per input: the merge it keeps its rows by is dbt_project.yml's `computed_once`
    dbt.config(
        materialized="incremental",
        unique_key=["judge", "source", "scope", "rating_kind", "question", "reference_dimension", "reference_value"],
    )
    stored = memo.stored_memo(dbt, session, judges.JUDGE_SLOT)
    settings = MonteCarloSettings.from_frame(dbt.ref("int_agreement__settings").df())
    questions = judged_questions(
        judgements=dbt.ref("int_judges__judgements"),
        references=dbt.ref("int_judges__reference_values"),
        groups=dbt.ref("int_agreement__rater_groups").df(),
        questions=questions_of(
            dbt.ref("int_agreement__questions").df(), dbt.ref("int_agreement__judgement_labels").df()
        ),
    )
    return judges.as_result(
        list(ordered_map(lambda each: judges.judged_question_rows(each, settings, stored), questions))
    )
