"""The sample's dataset folder (`datasets/chatbot_study/`): deterministic, in the contract's long
form, and landed by `dwh ingest --dataset` whole: no reject, every question level, a rater without
a row in raters.csv named, repeats as round 2."""

import csv
import json
from pathlib import Path

from sample_data.datasets import datasets_files, write_datasets_sample
from tests.helpers import query, run_dwh


def test_the_sample_dataset_is_the_same_for_the_same_seed(tmp_path: Path) -> None:
    written = write_datasets_sample(tmp_path / "a", seed=3)
    assert written == datasets_files(tmp_path / "a")
    again = write_datasets_sample(tmp_path / "b", seed=3)
    other = write_datasets_sample(tmp_path / "c", seed=4)
    assert [path.read_bytes() for path in written] == [path.read_bytes() for path in again]
    assert [path.read_bytes() for path in written] != [path.read_bytes() for path in other]


def test_the_sample_dataset_lands_whole(tmp_path: Path) -> None:
    folder = write_datasets_sample(tmp_path / "sample", seed=0)[0].parent
    db_path = tmp_path / "warehouse.duckdb"

    completed = run_dwh(["ingest", "--dataset", str(folder)], db_path, check=True)

    with (folder / "judgements.csv").open(newline="") as handle:
        first_round = list(csv.DictReader(handle))
    repeats = [json.loads(line) for line in (folder / "judgements_repeat.jsonl").read_text().splitlines()]
    with (folder / "raters.csv").open(newline="") as handle:
        listed = {row["rater_id"] for row in csv.DictReader(handle)}
    judging = {row["rater_id"] for row in first_round + repeats}
    skipped = sum(1 for row in first_round + repeats if row["value"] in ("", "skip"))
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]
    assert query(db_path, "select count(*), count(*) filter (where is_missing) from raw.dataset_judgements") == [
        (len(first_round) + len(repeats), skipped)
    ]
    assert query(db_path, "select distinct level from raw.dataset_questions order by 1") == [
        ("interval",),
        ("nominal",),
        ("ordinal",),
    ]
    assert query(db_path, "select distinct round, round_rank from raw.dataset_judgements order by 2") == [
        ("1", 1),
        ("2", 2),
    ]
    assert {row["rater_id"] for row in repeats} <= judging
    unlisted = sorted(judging - listed)
    assert unlisted, "the sample has a rater without a row in raters.csv"
    assert (
        f"dataset chatbot_study: {len(unlisted)} rater(s) of the judgements have no row in raters.csv and load "
        f"without attributes: {', '.join(unlisted)}"
    ) in completed.stdout.splitlines()
    assert query(db_path, "select dimensions from raw.dataset_manifests") == [(["age", "gender", "country"],)]
    assert query(db_path, "select count(*) from raw.dataset_rater_attributes where is_missing") == [(1,)]
    assert query(db_path, "select count(*), count(turns) from raw.dataset_units") == [(40, 40)]
