"""`dwh recipe lewidi SRC OUT` on files written here in both LeWiDi layouts: 2023's (HS-Brexit:
annotators and annotations as comma-separated texts, item ids restarting in each split) and 2025's
(CSC: annotations keyed `Ann<N>`, an annotators' metadata file keyed `<N>`). Each becomes a dataset
folder that `dwh ingest --dataset` lands whole: every annotation a judgement, no reject."""

import json
from pathlib import Path

from tests.bad_input import the_one_error
from tests.helpers import query, run_dwh


def hs_brexit(src: Path) -> int:
    """2023's layout; returns how many annotations it holds."""
    src.mkdir(parents=True)
    total = 0
    for split, n_items in (("train", 4), ("dev", 3)):
        items = {}
        for n in range(1, n_items + 1):  # ids restart: "1", "2", … in each split
            annotators = [f"Ann{a}" for a in range(1, 4 + n % 3)]
            items[str(n)] = {
                "annotation task": "Hate Speech Detection",
                "number of annotations": len(annotators),
                "annotations": ",".join(str((n + a) % 2) for a in range(len(annotators))),
                "annotators": ",".join(annotators),
                "lang": "en",
                "soft_label": {"0": 0.5, "1": 0.5},
                "hard_label": "1",
                "split": split,
                "text": f"<user> tweet {split} {n}",
                "other_info": {},
            }
            total += len(annotators)
        (src / f"HS-Brexit_{split}.json").write_text(json.dumps(items, indent=1))
    return total


def csc(src: Path) -> int:
    """2025's layout, with metadata; returns how many annotations it holds."""
    src.mkdir(parents=True)
    total = 0
    for split in ("train", "dev", "test"):
        items = {
            f"{split}{n}": {
                "text": {"context": f"context {n}", "response": f"response {n}"},
                "annotators": "Ann1,Ann2,Ann10",
                "annotations": {"Ann1": str(1 + n % 6), "Ann2": str(6 - n % 6), "Ann10": "3"},
                "lang": "en",
            }
            for n in range(5)
        }
        total += 15
        (src / f"CSC_{split}.json").write_text(json.dumps(items))
    meta = {"1": {"Age": "31", "Gender": "Female"}, "2": {"Age": "45", "Gender": "Male"}, "10": {"Gender": "Female"}}
    (src / "CSC_annotators_meta.json").write_text(json.dumps(meta))
    return total


def recipe_and_ingest(src: Path, tmp_path: Path) -> tuple[Path, Path, str]:
    out, db_path = tmp_path / "out", tmp_path / "warehouse.duckdb"
    written = run_dwh(["recipe", "lewidi", str(src), str(out)], db_path, check=True)
    assert written.stdout.splitlines()[-1] == f"recipe lewidi: load it with dwh ingest --dataset {out}"
    landed = run_dwh(["ingest", "--dataset", str(out)], db_path, check=True)
    return out, db_path, landed.stdout


def test_a_2023_release_with_ids_restarting_per_split_lands_whole(tmp_path: Path) -> None:
    annotations = hs_brexit(tmp_path / "release")
    out, db_path, output = recipe_and_ingest(tmp_path / "release", tmp_path)

    assert f"dataset hs_brexit: {annotations} judgement(s), 0 missing value(s), 0 reject(s)" in output
    assert query(db_path, "select count(distinct unit_id) from raw.dataset_judgements") == [(7,)]
    assert query(db_path, "select min(unit_id), max(unit_id) from raw.dataset_units") == [("dev:1", "train:4")]
    assert query(db_path, "select labels, wording from raw.dataset_questions") == [
        (["0", "1"], "Hate Speech Detection")
    ]
    assert query(db_path, "select text from raw.dataset_units where unit_id = 'dev:2'") == [("<user> tweet dev 2",)]
    assert not (out / "raters.csv").exists()


def test_a_2025_release_with_annotators_metadata_lands_whole(tmp_path: Path) -> None:
    annotations = csc(tmp_path / "release")
    _, db_path, output = recipe_and_ingest(tmp_path / "release", tmp_path)

    assert (
        f"dataset csc: {annotations} judgement(s), 0 missing value(s), 0 reject(s), 3 rater(s) (3 in raters.csv)"
        in (output)
    )
    assert query(db_path, "select labels from raw.dataset_questions") == [(["1", "2", "3", "4", "5", "6"],)]
    assert query(db_path, "select rater_id, attribute, value from raw.dataset_rater_attributes order by 1, 2") == [
        ("Ann1", "age", "31"),
        ("Ann1", "gender", "Female"),
        ("Ann10", "age", None),
        ("Ann10", "gender", "Female"),
        ("Ann2", "age", "45"),
        ("Ann2", "gender", "Male"),
    ]
    [(turns,)] = query(db_path, "select turns from raw.dataset_units where unit_id = 'test:test3'")
    assert json.loads(turns) == [
        {"speaker_role": "context", "text": "context 3"},
        {"speaker_role": "response", "text": "response 3"},
    ]


def test_a_folder_without_one_lewidi_release_is_one_line(tmp_path: Path) -> None:
    src = tmp_path / "two"
    hs_brexit(src)
    (src / "ArMIS_train.json").write_text("{}")
    completed = run_dwh(["recipe", "lewidi", str(src), str(tmp_path / "out")], tmp_path / "unused.duckdb")
    assert the_one_error(completed) == (
        f"dwh: error: {src}: the files of 2 releases (ArMIS, HS-Brexit); give the folder holding one LeWiDi "
        "release's split files"
    )
    (tmp_path / "empty").mkdir()
    completed = run_dwh(["recipe", "lewidi", str(tmp_path / "empty"), str(tmp_path / "out")], tmp_path / "x.duckdb")
    assert the_one_error(completed).endswith(
        "no <X>_train|dev|test.json; give the folder holding one LeWiDi release's split files"
    )
    assert not (tmp_path / "out").exists()
