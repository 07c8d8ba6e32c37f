"""Landing DUO: lossless raw rows, quirks kept, bad files rejected with their reason."""

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from common.errors import DwhError
from dwh.load import run_ingest
from ingest.loading import IngestRequest, SourceRequest
from sample_data.duo import write_duo_sample
from tests.helpers import query


def ingest_duo(db_path: Path, release: Path) -> None:
    run_ingest(db_path, IngestRequest((SourceRequest("duo", release),)), progress=lambda _: None)


@pytest.fixture
def sample_release(tmp_path: Path) -> Path:
    write_duo_sample(tmp_path / "sample", scale=1, seed=7)
    return tmp_path / "sample" / "duo"


def test_real_release_lands_one_lossless_row_per_file(real_duo: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, real_duo)
    rows = query(db_path, "select file_path, language, setting, sha256, raw_json from raw.duo_dialogue_files")
    files = sorted(p for p in real_duo.glob("*/*/*.json"))
    assert len(rows) == len(files) == 455
    by_path = {row[0]: row for row in rows}
    for file in files:
        relative = file.relative_to(real_duo).as_posix()
        _, language, setting, sha256, raw_json = by_path[relative]
        assert (setting, language) == tuple(relative.split("/")[:2])
        assert raw_json.encode("utf-8") == file.read_bytes()
        assert sha256 == hashlib.sha256(file.read_bytes()).hexdigest()


def test_real_release_keeps_id_quirks(real_duo: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, real_duo)
    ids = dict(query(db_path, "select file_path, raw_json::json ->> 'dialogue_id' from raw.duo_dialogue_files"))
    assert ids["ed/en/0003.json"] == "0003"
    assert ids["ed/ja/2000.json"] == "2000"


def test_zip_of_the_release_lands_like_the_tree(sample_release: Path, tmp_path: Path) -> None:
    archive = tmp_path / "duo-dataset-main.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for file in sample_release.rglob("*.json"):
            zf.write(file, "duo-dataset-main/" + file.relative_to(sample_release).as_posix())
    ingest_duo(tmp_path / "tree.duckdb", sample_release)
    ingest_duo(tmp_path / "zip.duckdb", archive)
    sql = "select file_path, sha256 from raw.duo_dialogue_files order by 1"
    assert query(tmp_path / "zip.duckdb", sql) == query(tmp_path / "tree.duckdb", sql)


def test_zip_member_climbing_out_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("ed/en/0000.json", "{}")
        zf.writestr("../../escaped.json", "{}")
    with pytest.raises(DwhError, match=r"evil\.zip.*\.\./\.\./escaped\.json"):
        ingest_duo(tmp_path / "w.duckdb", archive)
    assert not (tmp_path.parent / "escaped.json").exists()


def test_bad_files_are_rejected_with_reason_and_line_while_the_rest_lands(sample_release: Path, tmp_path: Path) -> None:
    (sample_release / "ed/en/0000.json").write_text(
        '{\n  "dialogue_id": "0000",\n  "setting": "ed",\n', encoding="utf-8"
    )
    (sample_release / "ed/en/0001.json").write_text("", encoding="utf-8")
    (sample_release / "ed/en/0002.json").write_text("[1, 2]", encoding="utf-8")
    (sample_release / "ed/en/0003.json").write_bytes(b'{"dialogue_id": "\xff"}')
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, sample_release)
    rejects = {
        row[0]: row[1:] for row in query(db_path, "select file_path, line_number, reason from raw.ingest_rejects")
    }
    assert rejects["ed/en/0000.json"][0] == 4
    assert rejects["ed/en/0000.json"][1].startswith("not valid JSON")
    assert rejects["ed/en/0001.json"][1] == "empty file"
    assert rejects["ed/en/0002.json"][1] == "top-level JSON value is not an object"
    assert rejects["ed/en/0003.json"][1] == "not valid UTF-8 text"
    landed = query(db_path, "select count(*) from raw.duo_dialogue_files")[0][0]
    assert landed == 455 - 4
    read, landed_files, rejected = query(
        db_path, "select sum(records_read), sum(records_landed), sum(records_rejected) from raw.ingest_files"
    )[0]
    assert (read, landed_files, rejected) == (455, 451, 4)


def test_bom_and_explicit_null_evaluation_land(sample_release: Path, tmp_path: Path) -> None:
    target = sample_release / "wow/en/1000.json"
    document = json.loads(target.read_text(encoding="utf-8"))
    document["objective_evaluation"] = None
    target.write_bytes(b"\xef\xbb\xbf" + json.dumps(document).encode("utf-8"))
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, sample_release)
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]
    assert query(db_path, "select count(*) from raw.duo_dialogue_files") == [(455,)]


def test_loading_again_replaces_instead_of_duplicating(sample_release: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, sample_release)
    ingest_duo(db_path, sample_release)
    assert query(db_path, "select count(*), count(distinct file_path) from raw.duo_dialogue_files") == [(455, 455)]
    assert query(db_path, "select count(*) from raw.ingest_files") == [(455,)]


def test_missing_path_and_empty_tree_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(DwhError, match=r"no-such-folder: no such file or folder"):
        ingest_duo(tmp_path / "w.duckdb", tmp_path / "no-such-folder")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DwhError, match=r"no DUO dialogue files found"):
        ingest_duo(tmp_path / "w.duckdb", tmp_path / "empty")


def test_failed_load_leaves_the_previous_load_in_place(sample_release: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "w.duckdb"
    ingest_duo(db_path, sample_release)
    nested = tmp_path / "twice"
    shutil.copytree(sample_release, nested / "a" / "ed", dirs_exist_ok=True)
    shutil.copytree(sample_release, nested / "b", dirs_exist_ok=True)
    with pytest.raises(DwhError, match="appears more than once"):
        ingest_duo(db_path, nested)
    assert query(db_path, "select count(*) from raw.duo_dialogue_files") == [(455,)]
