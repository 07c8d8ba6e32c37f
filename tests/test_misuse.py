"""Settings a careful user can get wrong: each is refused up front with one line naming the
setting, a non-zero exit, and nothing locked, copied or written beside the warehouse."""

import contextlib
import fcntl
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import PROJECT_ROOT, run_dwh


def run_dwh_with(env_overrides: dict[str, str], args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **env_overrides}
    env.pop("DWH_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False
    )


def a_folder(path: Path) -> None:
    path.mkdir()


def a_text_file(path: Path) -> None:
    path.write_text("not a database\n", encoding="utf-8")


@pytest.mark.parametrize("command", [["ingest", "--duo", "duo"], ["build"], ["summary"]])
@pytest.mark.parametrize(
    ("make_path", "answer"),
    [
        (a_folder, r"dwh: error: .*/warehouse\.duckdb: is a folder, not a DuckDB file \(DWH_DB_PATH\)"),
        (a_text_file, r"dwh: error: .*/warehouse\.duckdb: is not a DuckDB database file \(DWH_DB_PATH\)"),
    ],
    ids=["folder", "text-file"],
)
def test_a_warehouse_path_that_is_no_duckdb_file_is_refused(
    command: list[str], make_path, answer: str, tmp_path: Path
) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    make_path(db_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, command)
    assert completed.returncode != 0
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and re.match(answer, lines[0]), completed.stderr  # one line, no traceback
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .lock, no .next


@pytest.mark.parametrize(
    ("variable", "command"),
    [
        ("DWH_MEMORY_LIMIT", ["ingest", "--duo", "duo"]),
        ("DWH_MEMORY_LIMIT", ["build"]),
        ("DWH_BUILD_MEMORY_LIMIT", ["build"]),
    ],
)
def test_a_memory_limit_duckdb_cannot_read_is_refused_naming_the_variable(
    variable: str, command: list[str], tmp_path: Path
) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path), variable: "lots"}, command)
    assert completed.returncode != 0
    assert completed.stderr.strip() == (
        f"dwh: error: {variable}='lots': not a memory size DuckDB understands (e.g. 512MB, 2GB)"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_build_that_runs_out_of_memory_says_which_variable_to_raise(real_duo: Path, tmp_path: Path) -> None:
    """profiles.yml bounds DuckDB's memory during the build; a release too large for the bound must
    say so, not leave the user with dbt's 'Out of Memory Error' on some model."""
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--duo", str(real_duo)], db_path, check=True)
    loaded = db_path.read_bytes()
    built = run_dwh(["build"], db_path, env_overrides={"DWH_BUILD_MEMORY_LIMIT": "10MB"})
    assert built.returncode != 0
    [line] = built.stderr.strip().splitlines()
    assert line.startswith("dwh: error: dbt build failed: ")
    assert line.endswith("; DuckDB ran out of memory: raise DWH_BUILD_MEMORY_LIMIT (now 10MB)")
    assert "Out of Memory Error" in built.stdout
    assert db_path.read_bytes() == loaded  # the loaded warehouse is not touched


@pytest.mark.parametrize("command", [["ingest", "--duo", "duo"], ["build"]])
def test_another_projects_duckdb_with_clashing_raw_tables_is_refused(command: list[str], tmp_path: Path) -> None:
    import duckdb

    db_path = tmp_path / "theirs.duckdb"
    with duckdb.connect(str(db_path)) as con:
        con.execute("create schema raw; create table raw.ingest_files (id integer, note varchar)")
        con.execute("insert into raw.ingest_files values (1, 'their row')")
    before = sorted(p.name for p in tmp_path.iterdir())
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, command)
    assert completed.returncode == 1
    assert completed.stderr.strip() == (
        f"dwh: error: {db_path}: raw.ingest_files has columns (id, note) that dwh never wrote: not a warehouse of "
        "this project (DWH_DB_PATH); point DWH_DB_PATH at a new file or at a warehouse dwh made"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no .lock, no .next
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute("select * from raw.ingest_files").fetchall() == [(1, "their row")]


@pytest.mark.parametrize(
    "make_path",
    [lambda path: None, lambda path: __import__("duckdb").connect(str(path)).close()],
    ids=["no-file", "empty-duckdb-file"],
)
def test_a_build_of_a_warehouse_never_loaded_is_refused(make_path, tmp_path: Path) -> None:
    db_path = tmp_path / "warehuose.duckdb"  # the typo a user makes in DWH_DB_PATH
    make_path(db_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, ["build"])
    assert completed.returncode == 1
    assert completed.stderr.strip() == (
        f"dwh: error: {db_path}: no dwh ingest has loaded this warehouse yet (DWH_DB_PATH); "
        "run dwh ingest --duo/--redial/--dices first, or point DWH_DB_PATH at the warehouse"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def release_accounting(db_path: Path) -> tuple[list[tuple], list[tuple]]:
    """(every raw.ingest_files row's read / landed / rejected, every reject's file and reason)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute(f"attach '{db_path}' as wh (read_only)")
        files = con.execute(
            "select file_path, records_read, records_landed, records_rejected "
            "from wh.raw.ingest_files order by file_path"
        ).fetchall()
        rejects = con.execute("select file_path, reason from wh.raw.ingest_rejects order by file_path").fetchall()
    return files, rejects


def test_fifos_and_dangling_links_in_a_duo_tree_are_rejected_by_name(tmp_path: Path) -> None:
    from dwh.sample.duo import write_duo_sample

    write_duo_sample(tmp_path / "release", seed=11)
    tree = tmp_path / "release" / "duo"
    n_dialogues = len(list(tree.rglob("*.json")))
    os.mkfifo(tree / "ed" / "en" / "a_fifo.json")  # opening it for reading would wait forever
    (tree / "wow" / "ja" / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    db_path = tmp_path / "warehouse.duckdb"
    completed = subprocess.run(
        [sys.executable, "-m", "dwh.cli", "ingest", "--duo", str(tree)],
        cwd=PROJECT_ROOT,
        env={**os.environ, "DWH_DB_PATH": str(db_path)},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    files, rejects = release_accounting(db_path)
    assert len(files) == n_dialogues + 2  # every listed file is accounted for
    assert all(read == landed + rejected for _, read, landed, rejected in files)
    assert rejects == [
        ("ed/en/a_fifo.json", "not a regular file (a FIFO, socket, device or folder named *.json)"),
        ("wow/ja/dangling.json", "a symbolic link whose target does not exist"),
    ]


def a_fifo(path: Path) -> None:
    os.mkfifo(path)  # opening it for reading would wait for a writer forever


def a_dangling_link(path: Path) -> None:
    path.symlink_to(path.parent / "nowhere")


# (the --flag, the path given relative to tmp_path, the release file that is not a regular file)
IRREGULAR_RELEASE_FILES = [
    ("--dices", "dices", "dices/350/diverse_safety_adversarial_dialog_350.csv"),
    (
        "--dices",
        "dices/350/diverse_safety_adversarial_dialog_350.csv",
        "dices/350/diverse_safety_adversarial_dialog_350.csv",
    ),
    ("--redial", "redial", "redial/train_data.jsonl"),
    ("--redial", "redial/test_data.jsonl", "redial/test_data.jsonl"),
    ("--redial", "redial", "redial/movies_with_mentions.csv"),
]


@pytest.mark.parametrize("make_irregular", [a_fifo, a_dangling_link], ids=["fifo", "dangling-link"])
@pytest.mark.parametrize(
    ("flag", "given", "irregular"),
    IRREGULAR_RELEASE_FILES,
    ids=["dices-folder", "dices-file", "redial-folder", "redial-split-file", "redial-movies"],
)
def test_a_dices_or_redial_file_that_is_no_regular_file_is_refused_by_name(
    flag: str, given: str, irregular: str, make_irregular, tmp_path: Path
) -> None:
    (tmp_path / "dices" / "350").mkdir(parents=True)
    (tmp_path / "redial").mkdir()
    make_irregular(tmp_path / irregular)
    if not (tmp_path / "redial" / "train_data.jsonl").is_symlink():  # a regular split beside the odd file
        (tmp_path / "redial" / "train_data.jsonl").touch()
    db_path = tmp_path / "warehouse.duckdb"
    completed = subprocess.run(
        [sys.executable, "-m", "dwh.cli", "ingest", flag, str(tmp_path / given)],
        cwd=PROJECT_ROOT,
        env={**os.environ, "DWH_DB_PATH": str(db_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 1
    errors = [line for line in completed.stderr.splitlines() if line.startswith("dwh: error: ")]
    assert len(errors) == 1 and errors == completed.stderr.splitlines()[-1:], completed.stderr
    assert errors[0].startswith(f"dwh: error: {tmp_path / irregular}: is a ") and "not a regular file" in errors[0]
    assert not db_path.exists() and not list(tmp_path.glob("warehouse.duckdb.next*"))


def test_a_file_deleted_between_listing_and_reading_is_a_reject(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dwh.load import run_ingest
    from dwh.sample.duo import write_duo_sample
    from ingest import duo
    from ingest.loading import SourceRequest

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
    assert len(files) == len(listed)  # every listed file is accounted for
    assert all(read == landed + rejected for _, read, landed, rejected in files)
    assert rejects == [
        (gone.relative_to(tree).as_posix(), "vanished before it could be read (deleted or moved during the load)")
    ]


HOLDER = """
import duckdb, sys, time
con = duckdb.connect(sys.argv[1], read_only=sys.argv[2] == "read-only")
if sys.argv[2] == "read-write":
    con.execute("create table if not exists main.notebook_notes (note varchar)")
    con.execute("insert into main.notebook_notes values ('written while dwh ran')")
print("holding", flush=True)
sys.stdin.readline()  # hold the file until the test says so
if sys.argv[2] == "read-write":
    con.execute("insert into main.notebook_notes values ('written after dwh ran')")
con.close()
"""


def hold_open(db_path: Path, mode: str) -> subprocess.Popen:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db_path), mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout.readline() == "holding\n"
    return holder


def release(holder: subprocess.Popen) -> None:
    holder.communicate("done\n", timeout=60)
    assert holder.returncode == 0


@pytest.mark.parametrize("command", [["ingest", "--duo", "DUO"], ["build"]])
def test_a_client_holding_the_warehouse_read_write_is_refused_by_pid_and_keeps_its_writes(
    command: list[str], real_duo: Path, tmp_path: Path
) -> None:
    import duckdb

    db_path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(db_path)).close()
    holder = hold_open(db_path, "read-write")
    try:
        args = [str(real_duo) if a == "DUO" else a for a in command]
        completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, args)
    finally:
        release(holder)
    assert completed.returncode != 0
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1 and f"held open read-write by process {holder.pid} (" in lines[0], completed.stderr
    assert "read_only=True" in lines[0]
    with duckdb.connect(str(db_path), read_only=True) as con:  # nothing the notebook wrote was lost
        assert con.execute("select note from main.notebook_notes order by note").fetchall() == [
            ("written after dwh ran",),
            ("written while dwh ran",),
        ]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]  # refused before any lock file


def test_a_client_holding_the_warehouse_read_only_does_not_stop_an_ingest(real_duo: Path, tmp_path: Path) -> None:
    import duckdb

    db_path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(db_path)).close()
    holder = hold_open(db_path, "read-only")
    try:
        completed = run_dwh_with({"DWH_DB_PATH": str(db_path)}, ["ingest", "--duo", str(real_duo)])
    finally:
        release(holder)
    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute("select count(*) from raw.duo_dialogue_files").fetchone()[0] > 0


def children_of(pid: int) -> list[tuple[int, str]]:
    """(PID, command line) of the live processes whose parent is `pid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append((int(stat.parent.name), cmdline))
    return found


def runs_dbt(command_line: str) -> bool:
    """Whether a command line is dbt's (its program or script is named `dbt`)."""
    return any(Path(argument).name == "dbt" for argument in command_line.split())


def wait_for(condition, what: str, seconds: float = 120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def has_open(pid: int, path: Path) -> bool:
    try:
        return any(os.readlink(fd) == str(path) for fd in Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return False


def is_running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL], ids=lambda s: s.name)
def test_a_stopped_build_takes_its_dbt_child_with_it(
    stop_signal: signal.Signals, real_duo: Path, tmp_path: Path
) -> None:
    import duckdb

    db_path = tmp_path / "warehouse.duckdb"
    assert run_dwh_with({"DWH_DB_PATH": str(db_path)}, ["ingest", "--duo", str(real_duo)]).returncode == 0
    live_bytes = db_path.read_bytes()
    env = {
        **os.environ,
        "DWH_DB_PATH": str(db_path),
        "DBT_TARGET_PATH": str(tmp_path / "target"),
        "DBT_LOG_PATH": str(tmp_path / "logs"),
    }
    env.pop("DWH_DEBUG", None)
    stderr_path = tmp_path / "stderr.txt"  # a file, not a pipe: an orphan holding a pipe would hide itself
    with open(stderr_path, "w", encoding="utf-8") as stderr_file:
        build = subprocess.Popen(
            [sys.executable, "-m", "dwh.cli", "build"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr_file,
        )
    dbt_pid = None
    try:
        # the child's command line reads empty, or as dwh's own, until it has exec'd dbt (a loaded
        # machine shows that moment): wait for the child that is dbt
        dbt_pid, _ = wait_for(
            lambda: next((child for child in children_of(build.pid) if runs_dbt(child[1])), None), "the dbt child"
        )
        wait_for(lambda: has_open(dbt_pid, tmp_path / "warehouse.duckdb.next"), "dbt to open the staged copy")
        build.send_signal(stop_signal)
        build.wait(timeout=120)
        wait_for(lambda: not is_running(dbt_pid), "the dbt child to end", seconds=5)  # a whole build takes longer
    finally:
        for pid in (build.pid, dbt_pid):  # whatever the outcome, nothing outlives the test
            with contextlib.suppress(ProcessLookupError, TypeError):
                os.kill(pid, signal.SIGKILL)
    if stop_signal == signal.SIGKILL:
        assert build.returncode == -signal.SIGKILL
    else:
        assert build.returncode == 130
        assert (
            stderr_path.read_text(encoding="utf-8").strip()
            == "dwh: interrupted; the warehouse is left as it was before this command"
        )
        assert not (tmp_path / "warehouse.duckdb.next").exists()
    assert db_path.read_bytes() == live_bytes
    with open(tmp_path / "warehouse.duckdb.lock", "w", encoding="utf-8") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the writer lock is free again
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute("select count(*) from raw.duo_dialogue_files").fetchone()[0] > 0


@pytest.fixture(scope="module")
def interrupt_inputs(real_duo: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a sample of all three sources to ingest, a warehouse with the real DUO release to build)."""
    root = tmp_path_factory.mktemp("interrupts")
    assert run_dwh_with({"DWH_DB_PATH": str(root / "unused.duckdb")}, ["sample", str(root / "sample")]).returncode == 0
    loaded = root / "loaded.duckdb"
    assert run_dwh_with({"DWH_DB_PATH": str(loaded)}, ["ingest", "--duo", str(real_duo)]).returncode == 0
    return root / "sample", loaded


# Ctrl-C at moments from Python's start-up (imports) through landing, and through dbt's start-up
# and its run: whenever it lands, the answer is the same. (Before ~20 ms Python itself has not
# started running `dwh`'s code; nothing can answer there.)
@pytest.mark.parametrize(
    ("command", "after_seconds", "stop_signal"),
    [
        ("ingest", 0.05, signal.SIGINT),
        ("ingest", 0.2, signal.SIGINT),
        ("ingest", 0.5, signal.SIGINT),
        ("ingest", 1.0, signal.SIGINT),
        ("build", 0.2, signal.SIGINT),
        ("build", 0.6, signal.SIGINT),
        ("build", 1.5, signal.SIGINT),
        ("build", 4.0, signal.SIGINT),
        ("ingest", 0.5, signal.SIGTERM),
        ("ingest", 1.0, signal.SIGHUP),  # `kill` and a closed terminal, like Ctrl-C
    ],
)
def test_ctrl_c_at_any_moment_exits_130_with_one_line(
    command: str, after_seconds: float, stop_signal: signal.Signals, interrupt_inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    sample, loaded = interrupt_inputs
    db_path = tmp_path / "warehouse.duckdb"
    if command == "build":
        db_path.write_bytes(loaded.read_bytes())
        args = ["build"]
    else:
        args = [
            "ingest",
            "--duo",
            str(sample / "duo"),
            "--redial",
            str(sample / "redial" / "redial_dataset.zip"),
            "--dices",
            str(sample / "dices"),
        ]
    before = db_path.read_bytes() if db_path.exists() else None
    env = {
        **os.environ,
        "DWH_DB_PATH": str(db_path),
        "DBT_TARGET_PATH": str(tmp_path / "target"),
        "DBT_LOG_PATH": str(tmp_path / "logs"),
    }
    env.pop("DWH_DEBUG", None)
    # its own process group, as a shell's foreground job: Ctrl-C reaches dwh and its dbt child alike
    running = subprocess.Popen(
        [sys.executable, "-m", "dwh.cli", *args],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    time.sleep(after_seconds)
    os.killpg(running.pid, stop_signal)
    _, stderr = running.communicate(timeout=120)
    assert running.returncode == 130, stderr
    said = [line for line in stderr.splitlines() if not line.startswith("landing ")]
    assert said == ["dwh: interrupted; the warehouse is left as it was before this command"], stderr
    assert (db_path.read_bytes() if db_path.exists() else None) == before
    assert not [p.name for p in tmp_path.glob("warehouse.duckdb.*") if p.name != "warehouse.duckdb.lock"]


@pytest.mark.parametrize("inside_a_file", [False, True], ids=["out-is-a-file", "out-is-inside-a-file"])
def test_a_sample_written_onto_a_file_is_refused_in_one_line(inside_a_file: bool, tmp_path: Path) -> None:
    existing = tmp_path / "notes.txt"
    existing.write_text("keep me\n", encoding="utf-8")
    out = existing / "sample" if inside_a_file else existing
    completed = run_dwh_with({"DWH_DB_PATH": str(tmp_path / "warehouse.duckdb")}, ["sample", str(out)])
    assert completed.returncode == 1
    expected = (
        f"dwh: error: {out}: cannot create this folder (Not a directory)"
        if inside_a_file
        else f"dwh: error: {out}: is a file, not a folder; `dwh sample` writes duo/, redial/ and dices/ "
        f"inside a folder (give a new or existing folder)"
    )
    assert completed.stderr.strip() == expected
    assert existing.read_text(encoding="utf-8") == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]
