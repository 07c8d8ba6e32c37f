"""Settings a careful user can get wrong: each is refused up front with one line naming the
setting, a non-zero exit, and nothing locked, copied or written beside the warehouse."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT


def run_dwh_with(env_overrides: dict[str, str], args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_overrides}
    env.pop("DWH_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "ingest.cli", *args], cwd=PROJECT_ROOT, env=env,
                          capture_output=True, text=True, check=False)


def a_folder(path: Path) -> None:
    path.mkdir()


def a_text_file(path: Path) -> None:
    path.write_text("not a database\n", encoding="utf-8")


@pytest.mark.parametrize("command", [["ingest", "--duo", "duo"], ["build"], ["summary"]])
@pytest.mark.parametrize(("make_path", "answer"), [
    (a_folder, r"dwh: error: .*/warehouse\.duckdb: is a folder, not a DuckDB file \(DWH_DB_PATH\)"),
    (a_text_file, r"dwh: error: .*/warehouse\.duckdb: is not a DuckDB database file \(DWH_DB_PATH\)"),
], ids=["folder", "text-file"])
def test_a_warehouse_path_that_is_no_duckdb_file_is_refused(command: list[str], make_path, answer: str,
                                                           tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    make_path(db_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, command)
    assert completed.returncode != 0
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(answer, lines[0]), completed.stderr  # one line, no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .lock, no .next


@pytest.mark.parametrize("command", [["ingest", "--duo", "duo"], ["build"]])
def test_a_memory_limit_duckdb_cannot_read_is_refused_naming_the_variable(command: list[str], tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path), "DWH_MEMORY_LIMIT": "lots"}, command)
    assert completed.returncode != 0
    assert completed.stderr.strip() == (
        "dwh: error: DWH_MEMORY_LIMIT='lots': not a memory size DuckDB understands (e.g. 512MB, 2GB)"
    )
    assert list(tmp_path.iterdir()) == []


def release_accounting(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    """(every raw.ingest_files row's read / landed / rejected, every reject's file and reason)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute(f"attach '{db_path}' as wh (read_only)")
        files = con.execute("select file_path, records_read, records_landed, records_rejected "
                            "from wh.raw.ingest_files order by file_path").fetchall()
        rejects = con.execute("select file_path, reason from wh.raw.ingest_rejects order by file_path").fetchall()
    return files, rejects


def test_fifos_and_dangling_links_in_a_duo_tree_are_rejected_by_name(tmp_path: Path) -> None:
    from ingest.sample.duo import write_duo_sample

    write_duo_sample(tmp_path / "release", seed=11)
    tree = tmp_path / "release" / "duo"
    n_dialogues = len(list(tree.rglob("*.json")))
    os.mkfifo(tree / "ed" / "en" / "a_fifo.json")  # opening it for reading would wait forever
    (tree / "wow" / "ja" / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    db_path = tmp_path / "warehouse.duckdb"
    completed = subprocess.run([sys.executable, "-m", "ingest.cli", "ingest", "--duo", str(tree)], cwd=PROJECT_ROOT,
                               env={**os.environ, "DWH_DB_PATH": str(db_path)}, capture_output=True, text=True,
                               timeout=300, check=False)
    assert completed.returncode == 0, completed.stderr
    files, rejects = release_accounting(db_path)
    assert len(files) == n_dialogues + 2  # every listed file is accounted for
    assert all(read == landed + rejected for _, read, landed, rejected in files)
    assert rejects == [("ed/en/a_fifo.json", "not a regular file (a FIFO, socket, device or folder named *.json)"),
                       ("wow/ja/dangling.json", "a symbolic link whose target does not exist")]


def test_a_file_deleted_between_listing_and_reading_is_a_reject(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ingest import duo
    from ingest.loading import SourceRequest, run_ingest
    from ingest.sample.duo import write_duo_sample

    write_duo_sample(tmp_path / "release", seed=11)
    tree = tmp_path / "release" / "duo"
    listed = duo.release_files(tree)
    gone = listed[0]
    # the listing happens, then the file disappears before DuckDB reads it
    monkeypatch.setattr(duo, "release_files", lambda root: [*listed])
    gone.unlink()
    db_path = tmp_path / "warehouse.duckdb"
    run_ingest(db_path, [SourceRequest("duo", tree)], progress=lambda step: None)
    files, rejects = release_accounting(db_path)
    assert len(files) == len(listed)
    assert rejects == [(gone.relative_to(tree).as_posix(),
                        "vanished before it could be read (deleted or moved during the load)")]
