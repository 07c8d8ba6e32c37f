"""Nothing lost: every read record is landed or rejected, every landed one reaches the marts;
and loading the same files again leaves the marts identical."""

import shutil
from pathlib import Path

import pytest

from sample_data.dices import write_dices_sample
from sample_data.duo import write_duo_sample
from sample_data.redial import write_redial_sample
from tests.helpers import query, run_dwh

pytestmark = pytest.mark.slow  # dbt builds

# Marts whose content depends only on the files (the reconciliation marts also carry load ids).
CONTENT_MARTS = [
    "dialogues",
    "turns",
    "raters",
    "ratings",
    "movie_mentions",
    "movies",
    "published_statistics_comparison",
    "dices_ratings_wide",
]


def mart_fingerprints(db_path: Path) -> dict[str, tuple[int, str]]:
    """Row count and an order-independent hash of every row of each content mart."""
    return {
        mart: query(
            db_path,
            f"select count(*), md5(string_agg(cast(t as varchar), '|' order by cast(t as varchar))) "
            f"from marts.{mart} as t",
        )[0]
        for mart in CONTENT_MARTS
    }


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Small releases of all three datasets, each with one record that cannot be landed."""
    root = tmp_path_factory.mktemp("releases")
    write_duo_sample(root, seed=5)
    (root / "duo" / "ed" / "en" / "0000.json").write_text('{"dialogue_id": "0000", ', encoding="utf-8")
    zip_path = write_redial_sample(root, seed=5, n_train=40, n_test=10)
    folder = root / "redial-folder"
    shutil.unpack_archive(zip_path, folder)
    train = folder / "train_data.jsonl"
    lines = train.read_bytes().split(b"\n")
    lines[4] = lines[4][: len(lines[4]) // 2]
    train.write_bytes(b"\n".join(lines))
    write_dices_sample(root, seed=5, items_350=2, items_990=3)
    return {"duo": root / "duo", "redial": folder, "dices": root / "dices"}


def ingest_and_build(db_path: Path, releases: dict[str, Path]) -> None:
    args = ["ingest"] + [arg for name, path in releases.items() for arg in (f"--{name}", str(path))]
    run_dwh(args, db_path, check=True)
    run_dwh(["build"], db_path, check=True)


@pytest.fixture(scope="module")
def warehouse(releases: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db_path = tmp_path_factory.mktemp("wh") / "warehouse.duckdb"
    ingest_and_build(db_path, releases)
    return db_path


def test_every_file_reconciles(warehouse: Path) -> None:
    rows = query(
        warehouse,
        """
        select source, sum(records_read), sum(records_landed), sum(records_rejected),
            sum(records_in_raw), sum(records_in_marts), sum(records_not_in_marts), bool_and(is_accounted_for)
        from marts.load_reconciliation group by source order by source""",
    )
    by_source = {row[0]: row[1:] for row in rows}
    duo_read, duo_landed, duo_rejected, duo_raw, duo_marts, duo_missing, duo_ok = by_source["duo"]
    assert (duo_read, duo_landed, duo_rejected, duo_missing, duo_ok) == (455, 454, 1, 0, True)
    assert duo_raw == duo_marts == 454
    redial = by_source["redial"]
    assert redial[2] == 1 and redial[0] == redial[1] + 1 and redial[5] == 0 and redial[6]
    dices = by_source["dices"]
    assert dices[2] == 0 and dices[0] == dices[1] == dices[4] and dices[6]
    assert query(warehouse, "select count(*) from marts.unreached_records") == [(0,)]


def test_the_rejects_name_file_and_line(warehouse: Path) -> None:
    rejects = query(warehouse, "select source, file_path, line_number from raw.ingest_rejects order by source")
    assert rejects == [("duo", "ed/en/0000.json", 1), ("redial", "train_data.jsonl", 5)]


def test_loading_the_same_files_again_leaves_the_marts_identical(
    warehouse: Path, releases: dict[str, Path], tmp_path: Path
) -> None:
    before = mart_fingerprints(warehouse)
    copy = tmp_path / "warehouse.duckdb"
    shutil.copyfile(warehouse, copy)
    ingest_and_build(copy, releases)
    assert mart_fingerprints(copy) == before
    assert query(copy, "select count(*) from raw.duo_dialogue_files") == [(454,)]
