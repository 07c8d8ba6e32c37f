"""A rebuild never disturbs a BI reader, and a killed ingest or build leaves the warehouse intact."""

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import duckdb
import pytest

from common.errors import DwhError
from dwh.building.publish import dbt_view, publish
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, run_dwh

pytestmark = pytest.mark.slow  # dbt builds

# A BI tool's connection: SQLAlchemy + duckdb_engine, read-only, held open while the warehouse is rebuilt.
READER_SCRIPT = textwrap.dedent(
    """
    import sys
    import sqlalchemy as sa

    engine = sa.create_engine(f"duckdb:///{sys.argv[1]}", connect_args={"read_only": True})
    duo_dialogues = sa.text("select count(*) from marts.dialogues where source = 'duo'")
    with engine.connect() as connection:
        count = lambda: connection.execute(duo_dialogues).scalar()
        print(f"before {count()}", flush=True)
        sys.stdin.readline()
        print(f"after {count()}", flush=True)
    """
)


# what these tests read (the dialogues mart) and what it is built from, with the tests of those models
# alone (`cautious`: not the relationship of `ratings`, left unbuilt, to `dialogues`): the publishing
# is their subject, which is the same whatever the build holds
DIALOGUES = ["--select", "+dialogues", "--indirect-selection", "cautious"]


def dialogue_count(db_path: Path) -> int:
    with duckdb.connect(str(db_path), read_only=True) as con:
        return con.execute("select count(*) from marts.dialogues where source = 'duo'").fetchone()[0]


@pytest.fixture
def built_sample(small_sample_release: Path, small_sample_build: BuiltWarehouse, tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the session's small sample build, and a copy of its DUO release to change."""
    release = Path(shutil.copytree(small_sample_release / "duo", tmp_path / "sample" / "duo"))
    return release, small_sample_build.copy_to(tmp_path)


def wait_for(path: Path, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} did not appear within {timeout} s")
        time.sleep(0.02)


def start_dwh(args: list[str], db_path: Path) -> subprocess.Popen:
    env = {**os.environ, "DWH_DB_PATH": str(db_path)}
    return subprocess.Popen(
        [sys.executable, "-m", "dwh.cli", *args],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def test_rebuild_while_a_bi_reader_holds_the_file(built_sample: tuple[Path, Path]) -> None:
    release, db_path = built_sample
    reader = subprocess.Popen(
        [sys.executable, "-c", READER_SCRIPT, str(db_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert reader.stdout.readline().strip() == "before 455"
        shutil.rmtree(release / "wow" / "ja")
        ingested = run_dwh(["ingest", "--duo", str(release)], db_path)
        built = run_dwh(["build", *DIALOGUES], db_path)
        assert ingested.returncode == 0, ingested.stderr
        assert built.returncode == 0, built.stderr
        reader.stdin.write("\n")
        reader.stdin.flush()
        assert reader.stdout.readline().strip() == "after 455", reader.stderr.read()
    finally:
        reader.kill()
        reader.wait()
    assert dialogue_count(db_path) == 455 - 73


@pytest.mark.parametrize("command", ["ingest", "build"])
def test_killed_writer_leaves_the_previous_warehouse_intact(built_sample: tuple[Path, Path], command: str) -> None:
    release, db_path = built_sample
    shutil.rmtree(release / "ed" / "en")
    before = db_path.read_bytes()
    # nothing was loaded since the warehouse was built, so only --full makes the build run
    args = ["ingest", "--duo", str(release)] if command == "ingest" else ["build", "--full"]
    writer = start_dwh(args, db_path)
    wait_for(db_path.with_name(db_path.name + ".next"))
    time.sleep(0.5 if command == "build" else 0.05)
    os.killpg(writer.pid, signal.SIGKILL)
    writer.wait()
    assert db_path.read_bytes() == before
    assert dialogue_count(db_path) == 455
    run_dwh(["ingest", "--duo", str(release)], db_path, check=True)
    run_dwh(["build", *DIALOGUES], db_path, check=True)
    assert dialogue_count(db_path) == 455 - 157


def test_dbt_opens_the_staged_copy_by_one_name_and_its_log_stays_with_the_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`dbt_view`: dbt writes the staged copy through `<name>.next.dbt/warehouse.duckdb`. A write-ahead
    log DuckDB leaves there is moved beside the staged copy (whose next open replays it, and which
    `publish` refuses until then), and the folder goes; a file of the user's at the folder's name is
    left alone, and a file system without hard links leaves no folder, dbt then opening the staged
    copy itself."""
    staged = tmp_path / "eval.duckdb.next"
    with duckdb.connect(str(staged)) as con:
        con.execute("create table judged as select 1 as unit")
    with dbt_view(staged) as seen_by_dbt:
        assert seen_by_dbt == tmp_path / "eval.duckdb.next.dbt" / "warehouse.duckdb"
        con = duckdb.connect(str(seen_by_dbt))
        con.execute("set checkpoint_threshold = '1TB'")  # nothing reaches the file before the log
        con.execute("pragma disable_checkpoint_on_shutdown")
        con.execute("insert into judged values (2)")
        con.close()
        assert (seen_by_dbt.parent / "warehouse.duckdb.wal").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["eval.duckdb.next", "eval.duckdb.next.wal"]
    with pytest.raises(DwhError, match="still has a write-ahead log"):
        publish(staged, tmp_path / "eval.duckdb")
    with duckdb.connect(str(staged)) as con:
        assert con.execute("select list(unit order by unit) from judged").fetchone()[0] == [1, 2]

    (tmp_path / "eval.duckdb.next.dbt").write_text("the user's", encoding="utf-8")
    with dbt_view(staged) as seen_by_dbt:
        assert seen_by_dbt == staged
    assert (tmp_path / "eval.duckdb.next.dbt").read_text(encoding="utf-8") == "the user's"

    (tmp_path / "eval.duckdb.next.dbt").unlink()

    def no_hard_links(source: Path, link: Path) -> None:
        raise PermissionError(1, "Operation not permitted", str(link))

    monkeypatch.setattr(os, "link", no_hard_links)
    with dbt_view(staged) as seen_by_dbt:
        assert seen_by_dbt == staged
    assert not (tmp_path / "eval.duckdb.next.dbt").exists()
