"""`judge_replacement`'s and `judge_replacement_raters`'s figures: the alternative annotator test
(alt-test) of every judge against every reference with several raters per unit, one question at a
time on each core, from `agreement_core.judge_figures.replacement`. The same inputs as `int_judges__agreement`
(`agreement_core.judge_figures.judge_references.judged_questions`); ε by the reference's kind of rater
(`judge_reference_kinds`), a dataset's `alt_test_epsilon` (its dataset.yml) or the var
`alt_test_epsilon` for all; the minimum units the var `alt_test_min_units`. The vars arrive through
`int_agreement__settings`.

One row per (judge, question, reference) with rater_key '' (the verdict) and one per tested rater.
Computed once per input (`agreement_core.memo`): a judge's rows of a question are reused while
their fingerprint is unchanged. No Monte Carlo."""

from agreement_core import memo, settings
from agreement_core.judge_figures import replacement
from agreement_core.judge_figures.judge_references import judged_questions
from agreement_core.parallel import ordered_map
from agreement_core.questions import questions_of


def model(dbt, session):
    # computed once per input: the merge it keeps its rows by is dbt_project.yml's `computed_once`
    dbt.config(
        materialized="incremental",
        unique_key=[
            "judge",
            "source",
            "scope",
            "rating_kind",
            "question",
            "reference_dimension",
            "reference_value",
            "rater_key",
        ],
    )
    stored = memo.Memo.of(memo.stored_rows(dbt, session), replacement.REPLACEMENT_SLOT)
    given = dbt.ref("int_agreement__settings").df().iloc[0]
    epsilon_for_all = settings.alt_test_epsilon(given["alt_test_epsilon"], "var alt_test_epsilon")
    min_units = settings.alt_test_min_units(given["alt_test_min_units"])
    kinds_of_references = dbt.ref("judge_reference_kinds").df()
    kinds = dict(zip(kinds_of_references["reference"], kinds_of_references["rater_kind"]))
    datasets = {
        str(row.source): settings.dataset_alt_test_epsilon(row.manifest_text, f"{row.folder}/dataset.yml")
        for row in dbt.ref("stg_dataset__manifests").df().itertuples(index=False)
    }

    def settings_of(source: str) -> replacement.ReplacementSettings:
        def epsilon_of(reference: str) -> float:
            for given_epsilon in (epsilon_for_all, datasets.get(source)):
                if given_epsilon is not None:
                    return given_epsilon
            return replacement.EPSILON_BY_KIND[kinds.get(reference, "crowd")]

        return replacement.ReplacementSettings(epsilon_of, min_units)

    questions = judged_questions(
        judgements=dbt.ref("int_judges__judgements"),
        references=dbt.ref("int_judges__reference_values"),
        groups=dbt.ref("int_agreement__rater_groups").df(),
        questions=questions_of(
            dbt.ref("int_agreement__questions").df(), dbt.ref("int_agreement__judgement_labels").df()
        ),
    )
    return replacement.as_result(
        list(ordered_map(lambda each: replacement.judged_question_rows(each, settings_of, stored), questions))
    )
