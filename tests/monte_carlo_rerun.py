"""`int_agreement__group_figures`' Monte Carlo for DICES 350's Q_overall computed again from a
built warehouse's own tables, in a process of its own so that a test can choose its BLAS threads:

    python -m tests.monte_carlo_rerun WAREHOUSE SEED OUT.parquet

The contract's promise is the same figures to 1e-12 from the same seed on any machine: the last
bits may follow the order in which the machine's BLAS sums, never a draw or a decision."""

import sys
from pathlib import Path

import duckdb
import pandas as pd

from agreement_core.group_figures import QuestionValues, as_result, question_rows
from agreement_core.questions import questions_of
from agreement_core.settings import MonteCarloSettings

MONTE_CARLO_COLUMNS = [
    "group_dimension",
    "group_value",
    "alpha_ci_low",
    "alpha_ci_high",
    "alpha_p",
    "xrr_p",
    "gai_p",
    "gai_q",
]
QUESTION = ("dices", "350", "safety", "Q_overall")


def built_figures(con: duckdb.DuckDBPyConnection) -> pd.DataFrame:
    """The build's Monte Carlo columns of the question, one row per group."""
    source, scope, _, question = QUESTION
    return (
        con.execute(
            f"""select {", ".join(MONTE_CARLO_COLUMNS)} from intermediate.int_agreement__group_figures
                where source = ? and scope = ? and question = ? order by group_dimension, group_value""",
            [source, scope, question],
        )
        .df()
        .reset_index(drop=True)
    )


def rerun(con: duckdb.DuckDBPyConnection, seed: int) -> pd.DataFrame:
    """The same columns computed again in this process, with `seed`."""
    questions = questions_of(
        con.execute("select * from intermediate.int_agreement__questions").df(),
        con.execute("select * from reference.judgement_labels").df(),
    )
    (question,) = [q for q in questions.values() if q.name == QUESTION]
    values = con.execute(
        "select unit_id, rater_id, value_code from intermediate.int_agreement__judgements "
        "where is_agreement_value and question_id = ?",
        [question.question_id],
    ).df()
    groups = con.execute(
        "select group_id, group_dimension, group_value, rater_id from intermediate.int_agreement__rater_groups"
    ).df()
    settings = MonteCarloSettings(True, seed, 1000, 1000, ("*",))
    figures = as_result([question_rows(QuestionValues.of(question, values), groups, settings)])
    # the model's names come back from DuckDB as object columns
    figures = figures.astype({"group_dimension": object, "group_value": object})
    return figures[MONTE_CARLO_COLUMNS].sort_values(["group_dimension", "group_value"]).reset_index(drop=True)


def main(warehouse: str, seed: str, out: str) -> None:
    with duckdb.connect(warehouse, read_only=True) as con:
        rerun(con, int(seed)).to_parquet(Path(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
