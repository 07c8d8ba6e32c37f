"""Ids of a dataset's files given with blanks around them (issue 63, case 5): `u1 ` from a
spreadsheet is the unit `u1`, not a second one. unit_id, rater_id and question are trimmed as a
judges file's fields are (spaces, tabs, line ends), in the judgements, raters.csv and the units
file alike, and the ingest says how many were trimmed, per file and column; a rater id that still
holds a character that does not show is named as such."""

from pathlib import Path

import pytest

from tests.dataset_folders import GOOD_JUDGEMENTS, RATERS, UNITS, write_dataset
from tests.helpers import query, run_dwh


def ingest(db_path: Path, folder: Path):
    completed = run_dwh(["ingest", "--dataset", str(folder)], db_path)
    assert completed.returncode == 0, completed.stderr
    return completed


def trimmed_line(stdout: str) -> str:
    [line] = [line for line in stdout.splitlines() if "were trimmed" in line]
    return line


BLANKS = [
    ("u1 ", "r1", "safe", "yes", "1"),  # a trailing space, as a spreadsheet leaves it
    ("u1", "r2\t", "safe", "no", "1"),  # a trailing tab
    ("\tu1", " r3", " safe ", "yes", "1"),  # leading blanks, and the question's
    ("u2", "r1", "safe", "no", "1"),
]


@pytest.mark.parametrize("file_name", ["judgements.csv", "judgements.jsonl", "judgements.parquet"])
def test_ids_with_blanks_around_them_are_trimmed_and_counted(tmp_path: Path, file_name: str) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    completed = ingest(db_path, write_dataset(tmp_path / "study", judgements=BLANKS, judgements_file=file_name))

    assert query(db_path, "select unit_id, rater_id, question from raw.dataset_judgements order by line_number") == [
        ("u1", "r1", "safe"),
        ("u1", "r2", "safe"),
        ("u1", "r3", "safe"),
        ("u2", "r1", "safe"),
    ]
    assert "2 unit(s)" in completed.stdout and "3 rater(s) (4 in raters.csv)" in completed.stdout
    assert "no row in raters.csv" not in completed.stdout
    assert trimmed_line(completed.stdout) == (
        "dataset chatbot_study: 5 id(s) had invisible blanks (spaces, tabs, line ends) before or after them and were "
        f"trimmed, as a judges file's are ('u1 ' is 'u1'): {file_name} unit_id: 2 ('\\tu1', 'u1 '); "
        f"{file_name} rater_id: 2 (' r3', 'r2\\t'); {file_name} question: 1 (' safe ')"
    )


def test_a_unit_given_with_a_blank_and_without_is_one_unit_and_its_second_value_a_reject(tmp_path: Path) -> None:
    rows = [("u1", "r1", "safe", "yes", "1"), ("u1 ", "r1", "safe", "no", "1")]
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "study", judgements=rows))
    assert query(db_path, "select count(*) from raw.dataset_judgements") == [(1,)]
    assert query(db_path, "select line_number, reason from raw.ingest_rejects") == [
        (
            3,
            "a second value for unit 'u1', rater 'r1', question safe, round 1; "
            "the first (judgements.csv line 2) counts",
        )
    ]


def test_raters_and_units_files_ids_are_trimmed_too_and_join_the_judgements(tmp_path: Path) -> None:
    raters = RATERS.replace("r1,crowd", "r1 ,crowd").replace("r3,expert", "\tr3,expert")
    units = [{**UNITS[0], "unit_id": "u1\r"}, *UNITS[1:]]
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest(db_path, write_dataset(tmp_path / "study", raters=raters, units=units))

    assert query(db_path, "select rater_id from raw.dataset_raters order by 1") == [("r1",), ("r2",), ("r3",), ("r4",)]
    assert query(db_path, "select unit_id from raw.dataset_units order by 1") == [("u1",), ("u2",), ("u3",)]
    assert "1 rater(s) of the judgements have no row in raters.csv and load without attributes: r5" in completed.stdout
    assert "no row in the units file" not in completed.stdout
    assert trimmed_line(completed.stdout).endswith(
        "('u1 ' is 'u1'): raters.csv rater_id: 2 ('\\tr3', 'r1 '); units.jsonl unit_id: 1 ('u1\\r')"
    )


def test_without_blanks_nothing_is_said_of_trimming(tmp_path: Path) -> None:
    completed = ingest(tmp_path / "warehouse.duckdb", write_dataset(tmp_path / "study", judgements=GOOD_JUDGEMENTS))
    assert "trimmed" not in completed.stdout


def test_a_rater_id_holding_an_invisible_character_is_named_as_such(tmp_path: Path) -> None:
    rows = [("u1", "r1\u00a0", "safe", "yes", "1"), ("u1", "r1", "safe", "no", "1")]
    folder = write_dataset(tmp_path / "study", judgements=rows, judgements_file="judgements.jsonl")
    completed = ingest(tmp_path / "warehouse.duckdb", folder)
    assert (
        "dataset chatbot_study: 1 rater(s) of the judgements have no row in raters.csv and load without attributes: "
        "'r1\\xa0' (with an invisible character)"
    ) in completed.stdout.splitlines()
