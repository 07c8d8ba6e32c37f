"""Judges' files (`dwh ingest --judges`): bad rows are rejects with file, line and reason while the
rest loads; a file without a needed column, or a path with no judges file, is one line and loads
nothing.
"""

import json
from pathlib import Path

import duckdb
import pytest

from tests.bad_input import checksum, the_one_error, write_text
from tests.helpers import run_dwh

pytestmark = pytest.mark.slow  # each case runs the command line; some build


@pytest.fixture(scope="module")
def judged_units(small_sample_build) -> dict[str, str]:
    """A DUO dialogue and a ReDial conversation with a movie its forms answer `liked` about."""
    db = small_sample_build.db_path
    with duckdb.connect(str(db), read_only=True) as con:
        duo = con.execute("select min(dialogue_key) from marts.dialogues where source = 'duo'").fetchone()[0]
        redial, movie = con.execute(
            "select dialogue_key, movie_id from marts.ratings where source = 'redial' and question = 'liked' "
            "order by all limit 1"
        ).fetchone()
    return {"duo": duo, "redial": redial, "movie": movie}


def judge_line(judge: str, dialogue_key: str, question: str, value: object, movie_id: str | None = None) -> str:
    return json.dumps(
        {"judge": judge, "dialogue_key": dialogue_key, "question": question, "movie_id": movie_id, "value": value}
    )


def test_judges_jsonl_bad_lines_are_rejects_and_the_rest_loads(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo, redial, movie = judged_units["duo"], judged_units["redial"], judged_units["movie"]
    lines = [
        judge_line("j", duo, "empathy", 3.5),  # 1: lands (a number in JSON)
        "",  # 2
        "{not json",  # 3
        '["a list"]',  # 4
        judge_line("j", redial, "liked", 1, movie_id=None),  # 5: ReDial without its movie
        judge_line("j", duo, "empathy", 4, movie_id="123"),  # 6: a movie on a DUO judgement
        judge_line("j", duo, "preference", "high"),  # 7
        judge_line("j", duo, "consistency", 0.5),  # 8
        judge_line("j", redial, "liked", 0, movie_id=movie),  # 9: lands (movie id as text)
        judge_line("j", duo, "engagingness", None),  # 10: value null
    ]
    path = tmp_path / "judges" / "j.jsonl"
    path.parent.mkdir()
    write_text(path, "\n".join(lines) + "\n")

    completed = run_dwh(["ingest", "--judges", str(path.parent)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select line_number from raw.judge_judgements order by 1").fetchall()
        rejects = con.execute(
            "select file_path, line_number, reason from raw.ingest_rejects where source = 'judge' order by 2"
        ).fetchall()
    assert landed == [(1,), (9,)]
    assert rejects == [
        ("j.jsonl", 2, "empty line"),
        ("j.jsonl", 3, "not valid JSON"),
        ("j.jsonl", 4, "not a JSON object"),
        ("j.jsonl", 5, "movie_id: empty; a ReDial judgement names the form's movie"),
        ("j.jsonl", 6, "movie_id '123': only ReDial judgements name a movie"),
        ("j.jsonl", 7, "value 'high': not a number; preference takes a number from 1 to 5"),
        ("j.jsonl", 8, "value '0.5': off the scale of consistency (1 to 5)"),
        ("j.jsonl", 10, "value: empty"),
    ]


def test_judges_csv_record_the_reader_cannot_split_is_a_reject_and_later_lines_keep_their_numbers(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo = judged_units["duo"]
    path = tmp_path / "j.csv"
    write_text(
        path,
        "judge,dialogue_key,question,value\n"
        f"j,{duo},empathy,3\n"
        f"j,{duo},preference,3,extra,fields\n"
        f"j,{duo},consistency,2\n"
        f"j,{duo},wit,2\n",
    )

    completed = run_dwh(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select question, line_number from raw.judge_judgements order by 2").fetchall()
        rejects = con.execute(
            "select line_number, reason from raw.ingest_rejects where source = 'judge' order by 1"
        ).fetchall()
    assert landed == [("empathy", 2), ("consistency", 4)]
    assert [line for line, _ in rejects] == [3, 5]
    assert rejects[0][1].startswith("the CSV reader could not read this record: too many columns")
    assert rejects[1][1] == "question 'wit': not a question of duo (seeds/judgement_questions.csv)"


@pytest.mark.parametrize(
    ("name", "content", "answer"),
    [
        ("no_judge.csv", "dialogue_key,question,value\nduo:en:0000,empathy,3\n", "no column 'judge'"),
        (
            "no_value.jsonl",
            '{"judge": "j", "dialogue_key": "duo:en:0000", "question": "empathy"}\n',
            "no column 'value'",
        ),
        ("notes.txt", "judge,dialogue_key,question,value\n", "not a judges file by its extension"),
    ],
    ids=["csv-without-judge", "jsonl-without-value", "not-a-judges-file"],
)
def test_a_judges_file_that_cannot_load_is_one_line_and_loads_nothing(
    name: str, content: str, answer: str, small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    before = checksum(db_path)
    path = tmp_path / name
    write_text(path, content)

    completed = run_dwh(["ingest", "--judges", str(path)], db_path)

    assert the_one_error(completed).startswith(f"dwh: error: {path}: {answer}")
    assert checksum(db_path) == before
