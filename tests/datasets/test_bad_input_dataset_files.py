"""A dataset folder's and a recipe's files that are not what they seem (issue 63, "Unclear"): each
answer names its cause. A FIFO or other non-file is named as such (not "no such file"); a stray
`judgements (1).csv` beside `judgements.csv` is named as a copy; a truncated JSON release file is
named with its line and column (not an SQL fragment and the folder); a load whose rejects are mostly
second values (unit ids that restart in each split) says so."""

import json
import os
from pathlib import Path

import pytest

from tests.bad_input import checksum, the_one_error
from tests.dataset_folders import GOOD_JUDGEMENTS, write_dataset
from tests.helpers import run_dwh_in_this_process


def ingest(db_path: Path, folder: Path):
    return run_dwh_in_this_process(["ingest", "--dataset", str(folder)], db_path)


@pytest.mark.parametrize("name", ["dataset.yml", "questions.csv", "judgements.csv"])
def test_a_fifo_in_a_dataset_folder_is_named_as_a_fifo(tmp_path: Path, name: str) -> None:
    folder = write_dataset(tmp_path / "study")
    (folder / name).unlink()
    os.mkfifo(folder / name)
    if name == "judgements.csv":
        write_dataset(folder, judgements_file="judgements_more.csv")  # the FIFO is not the only judgements file

    completed = ingest(tmp_path / "warehouse.duckdb", folder)

    line = the_one_error(completed)
    assert line.startswith(f"dwh: error: {folder / name}: is a FIFO (named pipe), not a regular file; "), line
    assert line.endswith("nothing was loaded")


def test_a_fifo_given_to_a_recipe_is_named_as_a_fifo(tmp_path: Path) -> None:
    src = tmp_path / "release"
    src.mkdir()
    os.mkfifo(src / "ConvAbuseEMNLPfull.csv")
    completed = run_dwh_in_this_process(
        ["recipe", "convabuse", str(src), str(tmp_path / "out")], tmp_path / "unused.duckdb"
    )
    assert the_one_error(completed) == (
        f"dwh: error: {src / 'ConvAbuseEMNLPfull.csv'}: is a FIFO (named pipe), not a regular file; give the folder "
        "holding ConvAbuse's ConvAbuseEMNLPfull.csv"
    )
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("original", "copy"),
    [
        ("judgements.csv", "judgements (1).csv"),
        ("judgements.csv", "judgements copy.csv"),
        ("judgements_train.jsonl", "judgements_train - Copy.jsonl"),
    ],
    ids=["browser-download", "finder-copy", "windows-copy"],
)
def test_a_stray_copy_of_a_judgements_file_is_named_as_ambiguous(tmp_path: Path, original: str, copy: str) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    assert ingest(db_path, write_dataset(tmp_path / "earlier", name="earlier")).returncode == 0
    before = checksum(db_path)
    folder = write_dataset(tmp_path / "study", judgements_file=original)
    write_dataset(folder, judgements=GOOD_JUDGEMENTS[:3], judgements_file=copy)

    completed = ingest(db_path, folder)

    assert the_one_error(completed) == (
        f"dwh: error: {folder / copy}: looks like a second copy of {original} (a download or file manager names "
        "copies so); every judgements* file of the folder loads, so both would, their rows twice; remove or rename "
        "one; nothing was loaded"
    )
    assert checksum(db_path) == before


def test_judgements_files_of_several_parts_still_load_together(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=GOOD_JUDGEMENTS[:4], judgements_file="judgements_1.csv")
    write_dataset(folder, judgements=GOOD_JUDGEMENTS[4:], judgements_file="judgements_2.csv")
    completed = ingest(tmp_path / "warehouse.duckdb", folder)
    assert completed.returncode == 0, completed.stderr
    assert "dataset chatbot_study: 12 judgement(s), 2 missing value(s), 0 reject(s)" in completed.stdout


def multipico_release(src: Path) -> Path:
    """A small MultiPICo release in the shared task's layout: items keyed by id, annotators `Ann<N>`."""
    src.mkdir(parents=True)
    for split in ("dev", "test"):
        items = {
            f"{split}{n}": {
                "text": {"post": f"post {n}", "reply": f"reply {n}"},
                "annotators": "Ann1,Ann2",
                "annotations": {"Ann1": "1", "Ann2": "0"},
                "lang": "en",
            }
            for n in range(3)
        }
        (src / f"MP_{split}.json").write_text(json.dumps(items, indent=2))
    meta = {str(n): {"Age": "30", "Gender": "Female"} for n in (1, 2)}
    (src / "MP_annotators_meta.json").write_text(json.dumps(meta))
    return src


@pytest.mark.parametrize(
    ("file_name", "cut"),
    [("MP_test.json", 0.6), ("MP_annotators_meta.json", 0.5), ("MP_dev.json", 0.99)],
    ids=["test-split-halfway", "metadata-halfway", "dev-last-brace"],
)
def test_a_truncated_multipico_file_is_named_with_its_line_and_column(
    tmp_path: Path, file_name: str, cut: float
) -> None:
    src = multipico_release(tmp_path / "release")
    text = (src / file_name).read_text()
    (src / file_name).write_text(text[: int(len(text) * cut)])
    out = tmp_path / "out"

    completed = run_dwh_in_this_process(["recipe", "multipico", str(src), str(out)], tmp_path / "unused.duckdb")

    line = the_one_error(completed)
    assert line.startswith(f"dwh: error: {src / file_name}: not valid JSON, line "), line
    assert "(the file ends mid-text: truncated?)" in line
    assert line.endswith("MultiPICo (LeWiDi 2025)'s files are JSON as published: download it again")
    assert "select" not in line.lower() and not out.exists()


def test_unit_ids_repeated_across_splits_are_said_to_be_so_when_most_rejects_are_repeats(tmp_path: Path) -> None:
    """Two splits whose unit ids restart (`1`, `2`, … in each): the second split's rows are second
    values for the first's units."""
    rows = [
        (str(unit), f"r{rater}", "safe", value, "1")
        for value in ("yes", "no")  # the train split, then the test split, ids restarting
        for unit in range(1, 6)
        for rater in (1, 2)
    ] + [("1", "r1", "wit", "yes", "1")]
    completed = ingest(tmp_path / "warehouse.duckdb", write_dataset(tmp_path / "study", judgements=rows))
    assert completed.returncode == 0, completed.stderr
    assert (
        "dataset chatbot_study: 10 of the 11 reject(s) are a second value for one unit, rater, question and round: "
        "unit ids are unique in a dataset (docs/DATASETS.md), so a release whose ids restart in each split (train, "
        "dev, test) needs them made unique, e.g. <split>:<id>"
    ) in completed.stdout.splitlines()


def test_a_few_repeats_among_other_rejects_are_not_called_a_split_problem(tmp_path: Path) -> None:
    rows = [
        ("u1", "r1", "safe", "yes", "1"),
        ("u1", "r1", "safe", "no", "1"),
        ("u1", "r2", "wit", "yes", "1"),
        ("u1", "r3", "safe", "maybe", "1"),
    ]
    completed = ingest(tmp_path / "warehouse.duckdb", write_dataset(tmp_path / "study", judgements=rows))
    assert completed.returncode == 0, completed.stderr
    assert "3 reject(s)" in completed.stdout and "restart in each split" not in completed.stdout
