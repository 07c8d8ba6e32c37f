"""Stopping `dwh` and running out of disk: Ctrl-C, `kill` and a closed terminal at any moment, a dbt
child killed mid-build, and a warehouse folder on a read-only or a full file system. Each ends with
one line naming the cause, a non-zero exit, the live file as it was and no staged leftovers
(`.next`, its WAL or checkpoint WAL, `.failed`). The disk cases mount a small tmpfs in a private
user and mount namespace (`unshare -rm`, no root needed), so the real disk is never filled.
"""

import contextlib
import fcntl
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from dwh.building.publish import dbt_view_path, staging_path
from tests.bad_input import MOUNT, checksum, copy_of, folder_error, refused, run_dwh_with
from tests.helpers import PROJECT_ROOT, dbt_folders, sample_ingest_args

pytestmark = pytest.mark.slow  # each case runs the command line; some build


def children_of(pid: int) -> list[tuple[int, str]]:
    """(PID, command line) of the live processes whose parent is `pid`."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat_file.read_text().rsplit(")", 1)[1].split()
            cmdline = (stat_file.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append((int(stat_file.parent.name), cmdline))
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

    db_path = tmp_path / "warehouse.duckdb"
    assert run_dwh_with({"DWH_DB_PATH": str(db_path)}, ["ingest", "--duo", str(real_duo)]).returncode == 0
    live_bytes = db_path.read_bytes()
    env = {
        **os.environ,
        "DWH_DB_PATH": str(db_path),
        **dbt_folders(tmp_path),
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
        staged = staging_path(db_path)
        wait_for(lambda: has_open(dbt_pid, dbt_view_path(staged)), "dbt to open the staged copy")
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
        assert not staged.exists() and not dbt_view_path(staged).parent.exists()
    assert db_path.read_bytes() == live_bytes
    with open(tmp_path / "warehouse.duckdb.lock", "w", encoding="utf-8") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the writer lock is free again
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute("select count(*) from raw.duo_dialogue_files").fetchone()[0] > 0


@pytest.fixture(scope="module")
def interrupt_inputs(
    sample_release: Path, real_duo: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """(the session's sample of all three sources to ingest, a warehouse with the real DUO release to build)."""
    root = tmp_path_factory.mktemp("interrupts")
    loaded = root / "loaded.duckdb"
    assert run_dwh_with({"DWH_DB_PATH": str(loaded)}, ["ingest", "--duo", str(real_duo)]).returncode == 0
    return sample_release, loaded


# Ctrl-C at moments from `dwh`'s imports through landing, and through dbt's start-up and its run:
# whenever it lands, the answer is the same. Each moment counts from the end of Python's own start-up,
# timed just before (until Python runs `dwh`'s code, nothing of dwh can answer: a signal there is
# Python's to report, and a loaded machine makes that start-up many times longer).
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
        args = ["ingest", *sample_ingest_args(sample)]
    before = db_path.read_bytes() if db_path.exists() else None
    env = {
        **os.environ,
        "DWH_DB_PATH": str(db_path),
        **dbt_folders(tmp_path),
    }
    env.pop("DWH_DEBUG", None)
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    python_start_up = time.monotonic() - started
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
    time.sleep(python_start_up + after_seconds)
    os.killpg(running.pid, stop_signal)
    _, stderr = running.communicate(timeout=120)
    assert running.returncode == 130, stderr
    said = [line for line in stderr.splitlines() if not line.startswith("landing ")]
    assert said == ["dwh: interrupted; the warehouse is left as it was before this command"], stderr
    assert (db_path.read_bytes() if db_path.exists() else None) == before
    assert not [p.name for p in tmp_path.glob("warehouse.duckdb.*") if p.name != "warehouse.duckdb.lock"]


# An interrupt that passes through C code running Python (PyRun_String) and is handled after it
# leaves a flag in the interpreter: a `python -m` run then ends itself by SIGINT (exit -2), even
# after `dwh` printed its line and returned 130. Seen once in CI on `dwh build` interrupted at 0.2 s.
INTERRUPTED_INSIDE_C = """
import ctypes
import dwh.cli

run_python_from_c = ctypes.pythonapi.PyRun_String
run_python_from_c.restype = ctypes.py_object
run_python_from_c.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.py_object, ctypes.py_object]
FILE_INPUT = 257


def main_interrupted_inside_c():
    try:
        run_python_from_c(b"raise KeyboardInterrupt", FILE_INPUT, {}, {})
    except KeyboardInterrupt:
        return dwh.cli._say_interrupted()


dwh.cli.main = main_interrupted_inside_c
dwh.cli.run()
"""


def test_an_interrupt_that_passed_through_c_code_still_exits_130(tmp_path: Path) -> None:
    (tmp_path / "interrupted_inside_c.py").write_text(INTERRUPTED_INSIDE_C, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(PROJECT_ROOT)])}
    completed = subprocess.run(
        [sys.executable, "-m", "interrupted_inside_c"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert completed.returncode == 130, completed.stderr
    assert completed.stderr.splitlines() == ["dwh: interrupted; the warehouse is left as it was before this command"]


INTERRUPTED_AS_ANOTHER_ERROR = """
import os
import signal
from types import SimpleNamespace

import duckdb
import dwh.cli


def interrupted_while_duckdb_imports(args):
    try:
        os.kill(os.getpid(), signal.SIGINT)  # dwh's handler remembers it, then raises KeyboardInterrupt
    except KeyboardInterrupt:
        # what DuckDB answers when the interrupt lands while it imports a module to convert a result
        raise duckdb.InvalidInputException(
            "Required module 'decimal' failed to import, due to the following Python exception: KeyboardInterrupt"
        ) from None


class Parser:
    def parse_args(self, own_args):
        return SimpleNamespace(handler=interrupted_while_duckdb_imports)


dwh.cli.build_parser = Parser
dwh.cli.run()
"""


def test_an_interrupt_that_came_back_as_another_error_still_exits_130(tmp_path: Path) -> None:
    """Seen in CI: a Ctrl-C while DuckDB imported `decimal` for a query's result came back as DuckDB's
    InvalidInputException, and dwh said "unexpected error" (exit 2). A signal that arrived is what counts."""
    (tmp_path / "interrupted_as_another_error.py").write_text(INTERRUPTED_AS_ANOTHER_ERROR, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(PROJECT_ROOT)])}
    completed = subprocess.run(
        [sys.executable, "-m", "interrupted_as_another_error"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert completed.returncode == 130, completed.stderr
    assert completed.stderr.splitlines() == ["dwh: interrupted; the warehouse is left as it was before this command"]


def unshare_available() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(["unshare", "-rm", "mount", "-t", "tmpfs", "tmpfs", MOUNT], capture_output=True, check=False)
    return probe.returncode == 0


needs_unshare = pytest.mark.skipif(
    not unshare_available(), reason="needs `unshare -rm` (user namespaces) to mount a small tmpfs"
)


def in_small_mount(size: str, steps: list[str], tmp_path: Path) -> list[str]:
    """Run `steps` (shell lines; `dwh` is the project's command on $MOUNT/warehouse.duckdb) on a fresh
    tmpfs of `size`; returns the output of each step (stdout and stderr, without progress lines, then
    `exit=N`), then the listing of the mount."""
    dwh = f"DWH_DB_PATH={MOUNT}/warehouse.duckdb {shlex.quote(sys.executable)} -m dwh.cli"
    script = [f"mount -t tmpfs -o size={size} tmpfs {MOUNT} || exit 99", f"cd {shlex.quote(str(PROJECT_ROOT))}"]
    for step in steps:
        script += [
            step.replace("dwh ", dwh + " ", 1) + " 2>&1 | grep -v '^landing '; echo \"exit=${PIPESTATUS[0]}\"",
            "echo '@@'",
        ]
    script.append(f"ls -A {MOUNT}")
    (tmp_path / "steps.sh").write_text("\n".join(script) + "\n", encoding="utf-8")
    ran = subprocess.run(
        ["unshare", "-rm", "bash", str(tmp_path / "steps.sh")], capture_output=True, text=True, timeout=600, check=False
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    return [part.strip() for part in ran.stdout.split("@@")]


@needs_unshare
def test_disk_full_during_the_first_ingest(real_duo: Path, tmp_path: Path) -> None:
    ingest, listing = in_small_mount("2m", [f"dwh ingest --duo {real_duo}"], tmp_path)
    assert refused(ingest, "has no space left on device"), ingest
    assert listing.split() == ["warehouse.duckdb.lock"]


@needs_unshare
def test_disk_full_while_copying_the_live_warehouse(real_duo: Path, tmp_path: Path) -> None:
    # after the first load, a filler leaves 1 MB: the ~4 MB warehouse cannot be copied to `.next`
    fill = f"fallocate -l $(( $(df --output=avail -B1 {MOUNT} | tail -1) - 1048576 )) {MOUNT}/filler; echo filled"
    first, _, second, listing = in_small_mount(
        "64m", [f"dwh ingest --duo {real_duo}", fill, f"dwh ingest --duo {real_duo}"], tmp_path
    )
    assert first.splitlines()[-1] == "exit=0"
    assert refused(second, "has no space left on device"), second
    assert sorted(listing.split()) == ["filler", "warehouse.duckdb", "warehouse.duckdb.lock"]


@needs_unshare
def test_disk_full_during_a_build_names_the_cause_and_keeps_no_failed_copy(real_duo: Path, tmp_path: Path) -> None:
    ingest, build, summary, listing = in_small_mount(
        "10m", [f"dwh ingest --duo {real_duo}", "dwh build", "dwh summary"], tmp_path
    )
    assert ingest.splitlines()[-1] == "exit=0"
    # the models it stopped are listed with DuckDB's message, then the cause in one line, last
    assert build.splitlines()[-2].startswith(folder_error("has no space left on device")), build
    assert build.splitlines()[-1] == "exit=1" and sum(line.startswith("dwh: ") for line in build.splitlines()) == 1
    assert "write-ahead log" not in build and "Traceback" not in build
    assert sorted(listing.split()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]
    assert "not built yet" in summary  # the live file is still the ingested one, unbuilt


@needs_unshare
def test_a_read_only_warehouse_folder_is_refused_and_still_read(real_duo: Path, tmp_path: Path) -> None:
    steps = [
        f"dwh ingest --duo {real_duo}",
        # what `dwh summary` reads (dwh.summary.MARTS): the build is not what this test is about
        "dwh build --select +dialogues +turns +raters +ratings --exclude resource_type:test",
        f"mount -o remount,ro {MOUNT}; echo remounted",
        f"dwh ingest --duo {real_duo}",
        "dwh build",
        "dwh summary",
    ]
    ingest, build, _, ingest_again, build_again, summary, listing = in_small_mount("64m", steps, tmp_path)
    assert ingest.splitlines()[-1] == build.splitlines()[-1] == "exit=0"
    for answer in (ingest_again, build_again):
        assert refused(answer, "is on a read-only file system"), answer
    assert summary.splitlines()[-1] == "exit=0"  # reading needs no writing
    assert sorted(listing.split()) == ["warehouse.duckdb", "warehouse.duckdb.lock"]


# --- a dbt child killed while a plain dbt run rewrote target/ ---------------


def _children(pid: int) -> list[int]:
    try:
        return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _dbt_child_holding(pid: int, path: Path) -> int | None:
    """The child of `pid` that runs dbt and has `path` open, if any yet."""
    for child in _children(pid):
        try:
            command_line = Path(f"/proc/{child}/cmdline").read_bytes()
            held = {os.readlink(fd) for fd in Path(f"/proc/{child}/fd").iterdir()}
        except OSError:
            continue
        if b"dbt" in command_line and str(path) in held:
            return child
    return None


@pytest.fixture(scope="module")
def build_killed_mid_run(small_loaded: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """`dwh build --full` whose dbt child is SIGKILLed (as the OOM killer does) once it has the staged
    copy open, after a plain dbt run elsewhere left a green run_results.json in the shared target/."""
    root = tmp_path_factory.mktemp("bad-input-killed")
    db_path = copy_of(small_loaded, root)
    before = checksum(db_path)
    folders = dbt_folders(root)
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **folders}
    env.pop("DWH_DEBUG", None)
    with open(root / "stdout.txt", "w") as stdout, open(root / "stderr.txt", "w") as stderr:
        build = subprocess.Popen(
            [sys.executable, "-m", "dwh.cli", "build", "--full"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=stdout,
            stderr=stderr,
        )
    try:
        seen_by_dbt = dbt_view_path(staging_path(db_path))
        deadline = time.monotonic() + 120
        while (dbt_pid := _dbt_child_holding(build.pid, seen_by_dbt)) is None:
            assert build.poll() is None and time.monotonic() < deadline, "dbt never opened the staged copy"
            time.sleep(0.05)
        target = Path(folders["DBT_TARGET_PATH"])
        (target / "run_results.json").write_text('{"results": []}', encoding="utf-8")
        (target / "manifest.json").write_text('{"nodes": {}}', encoding="utf-8")
        os.kill(dbt_pid, signal.SIGKILL)
        build.wait(timeout=120)
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
    return {
        "returncode": build.returncode,
        "stderr": (root / "stderr.txt").read_text(encoding="utf-8"),
        "before": before,
        "after": checksum(db_path),
        "left_beside": sorted(p.name for p in root.glob("warehouse.duckdb.*")),
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_build_is_never_published(build_killed_mid_run: dict) -> None:
    assert build_killed_mid_run["returncode"] == 1, build_killed_mid_run["stderr"]
    assert build_killed_mid_run["after"] == build_killed_mid_run["before"]
    assert build_killed_mid_run["left_beside"] == ["warehouse.duckdb.lock"]  # no .next, .next.dbt or .failed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_killed_dbt_child_is_said_to_be_killed_and_what_to_try(build_killed_mid_run: dict) -> None:
    assert "Traceback" not in build_killed_mid_run["stderr"]
    assert build_killed_mid_run["stderr"].strip().splitlines()[-1] == (
        "dwh: error: dbt build was killed by signal 9 (SIGKILL: often the out-of-memory killer) before it "
        "finished; nothing was published, warehouse.duckdb is unchanged: free memory (other programs), lower "
        "DWH_BUILD_MEMORY_LIMIT (DuckDB then spills to disk) or add --threads 1, and run dwh build again"
    )
