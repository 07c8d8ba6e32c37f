"""The Monte Carlo columns of `agreement`, one row per (question, rater group): α's bootstrap
interval and GRASP's permutation p-values, computed by `dwh.agreement_monte_carlo` with numpy
(vectorised over draws and permutations) from the agreement models' tables. The dbt vars
arrive through this model's config (its YAML): agreement_seed, agreement_bootstrap,
agreement_permutations, agreement_monte_carlo (false: no figures, a quick build) and
agreement_monte_carlo_questions (which questions get them)."""

import ast

from dwh.agreement_monte_carlo import Settings, empty_result, monte_carlo_figures


def settings_of(dbt) -> Settings:
    questions = dbt.config.get("agreement_monte_carlo_questions")
    if isinstance(questions, str):  # a list var given as text on the command line
        questions = ast.literal_eval(questions) if questions.startswith("[") else [questions]
    return Settings(
        seed=int(dbt.config.get("agreement_seed")),
        n_bootstrap=int(dbt.config.get("agreement_bootstrap")),
        n_permutations=int(dbt.config.get("agreement_permutations")),
        questions=tuple(questions),
    )


def model(dbt, session):
    if str(dbt.config.get("agreement_monte_carlo")).lower() != "true":
        return empty_result()
    settings = settings_of(dbt)
    questions = dbt.ref("int_agreement__questions").df()
    wanted = questions[[settings.wants(q.source, q.scope, q.question) for q in questions.itertuples()]]
    if wanted.empty:
        return empty_result()
    wanted_ids = ", ".join(str(int(question_id)) for question_id in wanted["question_id"])
    units = dbt.ref("int_agreement__units").filter(f"question_id in ({wanted_ids})").project("unit_id, question_id")
    return monte_carlo_figures(
        values=dbt.ref("int_agreement__values").join(units, "unit_id").project("unit_id, rater_id, value_code").df(),
        units=units.df(),
        questions=wanted,
        groups=dbt.ref("int_agreement__rater_groups").df(),
        distances=dbt.ref("int_agreement__value_distances").filter(f"question_id in ({wanted_ids})").df(),
        settings=settings,
    )
