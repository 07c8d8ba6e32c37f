"""Helpers the tests share: running `dwh` as users do and reading what a build left behind.
(Fixtures live in conftest.py; tests import these functions from here, never from conftest.)"""

import contextlib
import io
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from dwh import TERMINATIONS

PROJECT_ROOT = Path(__file__).resolve().parent.parent
REAL_DUO = PROJECT_ROOT.parent / "shared" / "data" / "duo"
# the session's scale-1 sample is built under this bound, far below the default 1.4GB (at 300MB
# stg_redial__conversations ran out of memory)
SAMPLE_BUILD_MEMORY_LIMIT = "500MB"


def run_dwh(
    args: list[str], db_path: Path, check: bool = False, env_overrides: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run the `dwh` command line in a subprocess against `db_path`, capturing its output."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **(env_overrides or {})}
    env.pop("DWH_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True
    )
    return _checked(completed, args, check)


def _checked(completed: subprocess.CompletedProcess, args: list[str], check: bool) -> subprocess.CompletedProcess:
    if check and completed.returncode != 0:
        raise AssertionError(
            f"dwh {' '.join(args)} exited {completed.returncode}\n{completed.stdout}\n{completed.stderr}"
        )
    return completed


def run_dwh_in_this_process(
    args: list[str], db_path: Path, check: bool = False, env_overrides: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """`run_dwh`, but `dwh.cli.main` called in this pytest worker, its output captured: for the many
    tests of what `dwh ingest` or `dwh recipe` answers a file, where starting Python and DuckDB again
    (about 0.37 CPU s a command) is most of what a subprocess costs. What the process itself does
    (signals, `run`'s exit, locks held by other processes, a build's dbt child) keeps `run_dwh`.
    The command's environment, working folder, signal handlers and its marking of pandas as absent
    are this worker's again afterwards."""
    from dwh.cli import main

    stdout, stderr = io.StringIO(), io.StringIO()
    env = {"DWH_DB_PATH": str(db_path), **(env_overrides or {})}
    with _process_state_restored(env), contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        returncode = main(args)
    completed = subprocess.CompletedProcess(["dwh", *args], returncode, stdout.getvalue(), stderr.getvalue())
    return _checked(completed, args, check)


@contextlib.contextmanager
def _process_state_restored(env: dict[str, str]) -> Iterator[None]:
    saved_env, saved_cwd = dict(os.environ), Path.cwd()
    saved_handlers = {termination: signal.getsignal(termination) for termination in TERMINATIONS}
    had_pandas = "pandas" in sys.modules
    os.environ.pop("DWH_DEBUG", None)
    os.environ.update(env)
    os.chdir(PROJECT_ROOT)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        for termination, handler in saved_handlers.items():
            signal.signal(termination, handler)
        if not had_pandas and sys.modules.get("pandas", "imported") is None:
            del sys.modules["pandas"]  # dwh.cli's _keep_pandas_out: the worker's tests may import it


def selecting(*tests: str) -> list[str]:
    """`dwh build` arguments that build only what these data tests read and run only them (`--select
    +<test>`, no other test of those models): a test that shows how a failing test answers needs no
    more of the build, and dwh answers alike."""
    return ["--select", *(f"+{test}" for test in tests), "--indirect-selection", "empty"]


# what a copy of the project for a test leaves out: what builds, tests and tools write (besides
# hidden files and folders, among them the temporary folders a running build makes)
NOT_PROJECT = {"target", "logs", "data", "dbt_packages", "__pycache__"}


# the example source `toy` of docs/ADDING_A_SOURCE.md: each new file at the path it takes in the
# project, the toy release under release/, the edits to the project's own files in edits.yml
TOY_EXAMPLE = PROJECT_ROOT / "docs" / "examples" / "toy_source"


def toy_example_new_files() -> list[str]:
    """The project paths of the example's new files: every file of TOY_EXAMPLE but its release and edits.yml."""
    return sorted(
        path.relative_to(TOY_EXAMPLE).as_posix()
        for path in TOY_EXAMPLE.rglob("*")
        if path.is_file()
        and path.relative_to(TOY_EXAMPLE).parts[0] != "release"
        and path.name != "edits.yml"
        and "__pycache__" not in path.parts
    )


def toy_example_edits() -> list[dict]:
    """The example's edits to files the project already has, in the guide's order (edits.yml)."""
    import yaml

    return yaml.safe_load((TOY_EXAMPLE / "edits.yml").read_text(encoding="utf-8"))["edits"]


def copy_of_project(destination: Path) -> Path:
    """A copy of the project's code, models and seeds at `destination`, for a test that changes them."""

    def not_project(folder: str, names: list[str]) -> list[str]:
        return [name for name in names if name in NOT_PROJECT or name.startswith(".")]

    return Path(shutil.copytree(PROJECT_ROOT, destination, ignore=not_project))


def query(db_path: Path, sql: str) -> list[tuple]:
    """Rows of `sql` on the warehouse at `db_path`, opened read-only as a BI tool would."""
    import duckdb

    with duckdb.connect(str(db_path), read_only=True) as con:
        return con.execute(sql).fetchall()


def default_target() -> Path:
    """Where a `dwh build` that names no target folder of its own writes dbt's results: the worker's
    DBT_TARGET_PATH (tests/conftest.py sets one per pytest worker), else the project's target/."""
    return Path(os.environ.get("DBT_TARGET_PATH") or PROJECT_ROOT / "target")


def dbt_folders(root: Path) -> dict[str, str]:
    """dbt's target and log folders for one test's builds, under `root`, apart from every other build's."""
    return {"DBT_TARGET_PATH": str(root / "target"), "DBT_LOG_PATH": str(root / "logs")}


def parse_project(folder: Path, project: Path = PROJECT_ROOT) -> Path:
    """`dbt parse` of `project` as `dwh build` runs dbt, for a warehouse of any name (dbt hashes the
    profile, whose path the build gives as one name, `DBT_FILE_NAME`, relative to the folder dbt runs
    in); the path of the parse it leaves."""
    from dwh.building.publish import DBT_FILE_NAME

    target = folder / "target"
    env = {**os.environ, "DWH_DB_PATH": DBT_FILE_NAME, "DBT_TARGET_PATH": str(target)}
    for inherited in ("DWH_BUILD_MEMORY_LIMIT", "DWH_DB_READ_ONLY", "DBT_PARTIAL_PARSE_FILE_PATH"):
        env.pop(inherited, None)
    dbt = Path(sys.executable).with_name("dbt")
    command = [str(dbt), "parse", "--quiet", "--project-dir", str(project), "--profiles-dir", str(project)]
    command += ["--target-path", str(target), "--log-path", str(folder / "logs")]
    subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True)
    return target / "partial_parse.msgpack"


def warned_or_failed_tests(target_path: Path | None = None) -> dict[str, str]:
    """The data and unit tests of the last `dwh build` that warned, failed or errored, by name, with
    their status: read from dbt's `run_results.json` as `dwh build` reads it, not from the console."""
    from dwh.building.build import unsuccessful_tests

    target_path = target_path or default_target()
    outcomes = unsuccessful_tests(target_path / "run_results.json", target_path / "manifest.json")
    return {outcome.name: outcome.status for outcome in outcomes}


def failing_rows(db_path: Path, test_name: str, target_path: Path | None = None) -> list[dict]:
    """The rows a data test of the last `dwh build` found, as dicts: the test's compiled query (read
    from `run_results.json` as `dwh build` reads it) re-run on the build it checked, which `dwh build` keeps
    beside the warehouse as `<name>.failed` when the build fails."""
    from dwh.building.build import unsuccessful_tests

    target_path = target_path or default_target()
    outcomes = unsuccessful_tests(target_path / "run_results.json", target_path / "manifest.json")
    [outcome] = [outcome for outcome in outcomes if outcome.name == test_name]
    assert outcome.status in ("fail", "warn") and outcome.compiled_sql, (
        f"{test_name}: {outcome.status} {outcome.message}"
    )
    built = db_path.with_name(db_path.name + ".failed")
    import duckdb

    with duckdb.connect(str(built if built.exists() else db_path), read_only=True) as con:
        cursor = con.execute(f"select * from ({outcome.compiled_sql}) as failing_rows")
        columns = [d[0] for d in cursor.description]
        return [dict(zip(columns, row)) for row in cursor.fetchall()]


@dataclass(frozen=True)
class BuiltWarehouse:
    """A warehouse ingested and built once for the whole session, with what its build said.

    Shared by every test that reads it: open it read-only (`query`), or work on `copy_to(...)`."""

    db_path: Path
    stdout: str  # what `dwh build` printed
    target: Path  # dbt's target folder of this build (manifest.json, run_results.json)
    log_file: Path  # dbt's log of this build
    not_passed: dict[str, str]  # data and unit tests that warned, failed or errored, with their status
    warned_rows: dict[str, list[dict]]  # the rows each warned test found
    build_env: dict[str, str]  # what `dwh build` ran with beyond the session's environment

    def copy_to(self, folder: Path, name: str = "warehouse.duckdb") -> Path:
        """A private copy of the built warehouse, for a test that changes it."""
        folder.mkdir(parents=True, exist_ok=True)
        return Path(shutil.copyfile(self.db_path, folder / name))


def ingest_and_build(
    root: Path, ingest_args: list[str], build_env: dict[str, str] | None = None, build_args: list[str] | None = None
) -> BuiltWarehouse:
    """`dwh ingest <ingest_args>` and `dwh build <build_args>` (its environment plus `build_env`) into
    `root/warehouse.duckdb`, with dbt's target and log folders of its own (no other build overwrites
    them); a build that does not pass fails the session's tests that need it, with everything dbt said."""
    db_path = root / "warehouse.duckdb"
    env = dbt_folders(root)
    target, logs = Path(env["DBT_TARGET_PATH"]), Path(env["DBT_LOG_PATH"])
    run_dwh(["ingest", *ingest_args], db_path, check=True, env_overrides=env)
    built = run_dwh(["build", *(build_args or [])], db_path, env_overrides={**env, **(build_env or {})})
    if built.returncode != 0:
        raise AssertionError(f"dwh build failed\n{built.stdout[-20000:]}\n{built.stderr}")
    not_passed = warned_or_failed_tests(target)
    warned = {name: failing_rows(db_path, name, target) for name, status in not_passed.items() if status == "warn"}
    return BuiltWarehouse(db_path, built.stdout, target, logs / "dbt.log", not_passed, warned, build_env or {})


def sample_ingest_args(sample: Path) -> list[str]:
    """`dwh ingest` arguments for all three datasets of a `dwh sample` folder."""
    return [
        "--duo",
        str(sample / "duo"),
        "--redial",
        str(sample / "redial" / "redial_dataset.zip"),
        "--dices",
        str(sample / "dices"),
    ]
