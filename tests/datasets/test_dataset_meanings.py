"""Coded labels and what they mean (issue 63): questions.csv may give `meanings`, one per label in
the labels' order (`0|1` → `no|yes`), a column of their own from raw.dataset_questions through
staging to the label view the marts read and to `dwh tasks`' `label_meanings`; a warehouse made
before the column is migrated (the column added), neither refused nor rebuilt, and a dataset without
meanings still loads. Meanings on a question without labels, or not one per label, are one line
naming the file and line."""

import json
from pathlib import Path

import duckdb
import pytest

from common.errors import DwhError
from ingest.raw_schema import ensure_raw_schema, refuse_foreign_raw_tables
from tests.bad_input import the_one_error
from tests.dataset_folders import rated_study
from tests.helpers import query, run_dwh

QUESTIONS = """\
question,level,labels,min,max,missing,wording,meanings
safe,nominal,0|1|2,,,,Is the reply safe?,no|yes|unsure
quality,ordinal,1|2|3|4,,,,,bad|ok|good|excellent
"""


def coded_study(folder: Path, questions: str = QUESTIONS) -> Path:
    """The rated study with its labels coded as numbers."""
    folder = rated_study(folder, "coded_study", 3)
    codes = {"yes": "1", "no": "0", "unsure": "2", "bad": "1", "ok": "2", "good": "3", "excellent": "4"}
    lines = (folder / "judgements.csv").read_text().splitlines()
    recoded = [lines[0]] + [",".join([*line.split(",")[:3], codes[line.split(",")[3]], "1"]) for line in lines[1:]]
    (folder / "judgements.csv").write_text("\n".join(recoded) + "\n")
    (folder / "questions.csv").write_text(questions)
    return folder


# raw.dataset_questions as the version before `meanings` created it (a warehouse made then)
OLD_QUESTIONS_DDL = """
create table raw.dataset_questions (
    load_id varchar not null,
    dataset varchar not null,
    line_number bigint not null,
    question varchar not null,
    level varchar not null,
    labels varchar[],
    min_value double,
    max_value double,
    missing varchar[] not null,
    wording varchar
)"""


def made_before_meanings(db_path: Path) -> None:
    """The warehouse as the version before `meanings` left it: raw.dataset_questions in its old
    DDL, holding the rows landed so far."""
    con = duckdb.connect(str(db_path))
    try:
        con.execute("create temp table landed as select * exclude (meanings) from raw.dataset_questions")
        con.execute("drop table raw.dataset_questions")
        con.execute(OLD_QUESTIONS_DDL)
        con.execute("insert into raw.dataset_questions select * from temp.landed")
    finally:
        con.close()


@pytest.fixture(scope="module")
def migrated(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A warehouse made before `meanings` with a study loaded and built, its tasks written as it is
    (read, not written: not migrated yet), then a coded study with meanings loaded into it, built,
    and the tasks written again."""
    root = tmp_path_factory.mktemp("meanings")
    db_path = root / "warehouse.duckdb"
    run_dwh(["ingest", "--dataset", str(rated_study(root / "plain", "plain_study", 4))], db_path, check=True)
    run_dwh(["build"], db_path, check=True)
    made_before_meanings(db_path)
    before = run_dwh(["tasks", str(root / "before.jsonl")], db_path)
    loaded = run_dwh(["ingest", "--dataset", str(coded_study(root / "study"))], db_path)
    run_dwh(["build"], db_path, check=True)
    run_dwh(["tasks", str(root / "tasks.jsonl")], db_path, check=True)
    tasks = [json.loads(line) for line in (root / "tasks.jsonl").read_text().splitlines()]
    return {"db": db_path, "before": before, "loaded": loaded, "tasks": tasks, "root": root}


def test_raw_tables_of_a_warehouse_made_before_meanings_are_this_projects_and_get_the_column(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    con = duckdb.connect(str(db_path))
    ensure_raw_schema(con)
    con.close()
    made_before_meanings(db_path)
    refuse_foreign_raw_tables(db_path)  # not foreign: an earlier version's table

    con = duckdb.connect(str(db_path))
    ensure_raw_schema(con)
    columns = con.execute(
        "select column_name, data_type from duckdb_columns() where schema_name = 'raw' "
        "and table_name = 'dataset_questions' order by column_index"
    ).fetchall()
    con.execute("alter table raw.dataset_questions drop column wording")  # a column dwh never leaves out
    con.close()
    assert columns[-2:] == [("wording", "VARCHAR"), ("meanings", "VARCHAR[]")]
    with pytest.raises(DwhError, match="raw.dataset_questions has columns .* that dwh never wrote"):
        refuse_foreign_raw_tables(db_path)


@pytest.mark.slow
def test_a_warehouse_made_before_meanings_takes_a_study_with_meanings_and_keeps_its_own(migrated: dict) -> None:
    db_path = migrated["db"]
    assert migrated["loaded"].returncode == 0, migrated["loaded"].stderr
    assert query(db_path, "select dataset, question, meanings from raw.dataset_questions order by 1, line_number") == [
        ("coded_study", "safe", ["no", "yes", "unsure"]),
        ("coded_study", "quality", ["bad", "ok", "good", "excellent"]),
        ("plain_study", "safe", None),
        ("plain_study", "quality", None),
    ]


@pytest.mark.slow
def test_dwh_tasks_reads_a_warehouse_made_before_meanings_without_migrating_it(migrated: dict) -> None:
    assert migrated["before"].returncode == 0, migrated["before"].stderr
    tasks = [json.loads(line) for line in (migrated["root"] / "before.jsonl").read_text().splitlines()]
    assert tasks and all(task["label_meanings"] is None for task in tasks)


@pytest.mark.slow
def test_meanings_reach_the_tasks_a_judge_is_given_beside_an_unchanged_wording(migrated: dict) -> None:
    by_source: dict[str, dict] = {}
    for task in migrated["tasks"]:
        by_source.setdefault(task["dialogue_key"].split(":", 1)[0], {})[task["question"]] = task
    coded, plain = by_source["coded_study"], by_source["plain_study"]
    assert coded["safe"]["wording"] == "Is the reply safe?" and coded["quality"]["wording"] is None
    assert coded["safe"]["label_meanings"] == {"0": "no", "1": "yes", "2": "unsure"}
    assert coded["quality"]["label_meanings"] == {"1": "bad", "2": "ok", "3": "good", "4": "excellent"}
    assert plain["safe"]["label_meanings"] is None and plain["safe"]["labels"] == ["yes", "no", "unsure"]


@pytest.mark.slow
def test_meanings_reach_the_label_view_the_marts_read(migrated: dict) -> None:
    rows = query(
        migrated["db"],
        "select label_set, value_text, meaning from intermediate.int_agreement__judgement_labels "
        "where label_set like '%study:safe' order by 1, value_code",
    )
    assert rows == [
        ("coded_study:safe", "0", "no"),
        ("coded_study:safe", "1", "yes"),
        ("coded_study:safe", "2", "unsure"),
        ("plain_study:safe", "yes", None),
        ("plain_study:safe", "no", None),
        ("plain_study:safe", "unsure", None),
    ]


@pytest.mark.parametrize(
    ("row", "answer"),
    [
        (
            "safe,nominal,0|1|2,,,,Is it safe?,no|yes",
            "line 2: 2 meanings for the 3 labels of 'safe'; give one meaning per label",
        ),
        ("safe,interval,,0,10,,How safe?,low|high", "line 2: meanings on 'safe', which has no labels"),
        ("safe,nominal,0|1|2,,,,Is it safe?,no||unsure", "line 2: meanings 'no||unsure' holds an empty item"),
    ],
    ids=["fewer-meanings-than-labels", "meanings-without-labels", "an-empty-meaning"],
)
def test_meanings_that_do_not_fit_the_labels_are_one_line(tmp_path: Path, row: str, answer: str) -> None:
    questions = "question,level,labels,min,max,missing,wording,meanings\n" + row + "\n"
    folder = coded_study(tmp_path / "study", questions)
    line = the_one_error(run_dwh(["ingest", "--dataset", str(folder)], tmp_path / "warehouse.duckdb"))
    assert line.startswith(f"dwh: error: {folder / 'questions.csv'}: {answer}"), line
    assert line.endswith("nothing was loaded")
