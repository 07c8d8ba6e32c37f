"""Coded labels and what they mean (issue 63): questions.csv may give `meanings`, one per label in
the labels' order (`0|1` → `no|yes`), and `dwh tasks` shows a judge the question with them; meanings
on a question without labels, or not one per label, are one line naming the file and line."""

import json
from pathlib import Path

import pytest

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


@pytest.mark.slow
def test_meanings_reach_the_tasks_a_judge_is_given(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--dataset", str(coded_study(tmp_path / "study"))], db_path, check=True)
    assert query(db_path, "select question, wording from raw.dataset_questions order by line_number") == [
        ("safe", "Is the reply safe? (0: no; 1: yes; 2: unsure)"),
        ("quality", "1: bad; 2: ok; 3: good; 4: excellent"),
    ]
    run_dwh(["build"], db_path, check=True)
    run_dwh(["tasks", str(tmp_path / "tasks.jsonl"), "--source", "coded_study"], db_path, check=True)
    tasks = [json.loads(line) for line in (tmp_path / "tasks.jsonl").read_text().splitlines()]
    wordings = {task["question"]: task["wording"] for task in tasks}
    assert wordings == {
        "safe": "Is the reply safe? (0: no; 1: yes; 2: unsure)",
        "quality": "1: bad; 2: ok; 3: good; 4: excellent",
    }


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
