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
