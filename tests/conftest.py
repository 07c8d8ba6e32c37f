"""Shared fixtures: the real DUO release beside the project, and running `dwh` as users do."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
REAL_DUO = PROJECT_ROOT.parent / "shared" / "data" / "duo"


def run_dwh(
    args: list[str], db_path: Path, check: bool = False, env_overrides: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Run the `dwh` command line in a subprocess against `db_path`, capturing its output."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **(env_overrides or {})}
    env.pop("DWH_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True
    )
    if check and completed.returncode != 0:
        raise AssertionError(
            f"dwh {' '.join(args)} exited {completed.returncode}\n{completed.stdout}\n{completed.stderr}"
        )
    return completed


@pytest.fixture(scope="session")
def real_duo() -> Path:
    """The real DUO release in ../shared/data/duo; tests using it are skipped where it is absent."""
    if not REAL_DUO.is_dir():
        pytest.skip(f"real DUO release not found at {REAL_DUO} (only the project's CI machine has it)")
    return REAL_DUO


def query(db_path: Path, sql: str) -> list[tuple]:
    """Rows of `sql` on the warehouse at `db_path`, opened read-only as a BI tool would."""
    import duckdb

    with duckdb.connect(str(db_path), read_only=True) as con:
        return con.execute(sql).fetchall()


def warned_or_failed_tests(target_path: Path = PROJECT_ROOT / "target") -> dict[str, str]:
    """The data and unit tests of the last `dwh build` that warned, failed or errored, by name, with
    their status: read from dbt's `run_results.json` as `dwh build` reads it, not from the console."""
    from dwh.build import unsuccessful_tests

    outcomes = unsuccessful_tests(target_path / "run_results.json", target_path / "manifest.json")
    return {outcome.name: outcome.status for outcome in outcomes}


def failing_rows(db_path: Path, test_name: str, target_path: Path = PROJECT_ROOT / "target") -> list[dict]:
    """The rows a data test of the last `dwh build` found, as dicts: the test's compiled query (read
    from `run_results.json` as `dwh build` reads it) re-run on the build it checked, which `dwh build` keeps
    beside the warehouse as `<name>.failed` when the build fails."""
    from dwh.build import unsuccessful_tests

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
