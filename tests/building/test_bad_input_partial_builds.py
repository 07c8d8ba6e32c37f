"""A build given its own selection after a rating changed (issue 63, case 3): `dwh build --exclude
int_agreement__group_figures` publishes `agreement` from figures computed before the change. The
build names, one line per mart, every mart it leaves older than its inputs (dwh/building/staleness.py); the
inputs stay changed for the next build, and a build without a selection brings every mart up to
date (equal to a from-scratch build)."""

import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tests.dataset_folders import rated_study
from tests.helpers import run_dwh

FIGURES_LEFT_OUT = (
    "dwh build: marts.agreement is older than its inputs: rebuilt from int_agreement__group_figures, left out of "
    "this build and older than the change to dataset since the last build; run dwh build without a selection"
)


@pytest.fixture(scope="module")
def built(rated_study_build: Path) -> Path:
    """The study `rated_study`, seed 1, built (the session's: tests/conftest.py); every case copies it."""
    return rated_study_build


def with_a_rating_changed(built: Path, tmp_path: Path) -> Path:
    """A copy of the built warehouse, its study reloaded with one rater's judgement of a unit changed."""
    db_path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(built, db_path)
    folder = rated_study(tmp_path / "study", "rated_study", 1)
    text = (folder / "judgements.csv").read_text()
    line = next(line for line in text.splitlines() if line.startswith("u1,r1,safe,"))
    changed = "u1,r1,safe," + ("no" if line.endswith(",yes,1") else "yes") + ",1"
    (folder / "judgements.csv").write_text(text.replace(line, changed))
    run_dwh(["ingest", "--dataset", str(folder)], db_path, check=True)
    return db_path


def agreement(db_path: Path) -> pd.DataFrame:
    with duckdb.connect(str(db_path), read_only=True) as con:
        rows = con.sql("select * from marts.agreement").df()
    return rows.sort_values(list(rows.columns)).reset_index(drop=True)


def stale_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if "is older than its inputs" in line]


def test_a_build_leaving_the_figures_out_after_a_rating_changed_names_the_marts_it_leaves_behind(
    built: Path, tmp_path: Path
) -> None:
    db_path = with_a_rating_changed(built, tmp_path)

    partial = run_dwh(["build", "--exclude", "int_agreement__group_figures"], db_path)

    assert partial.returncode == 0, partial.stdout + partial.stderr
    lines = stale_lines(partial.stdout)
    assert FIGURES_LEFT_OUT in lines, lines
    assert all(line.startswith("dwh build: marts.") for line in lines)
    assert not any("marts.ratings " in line for line in lines)  # rebuilt, from inputs rebuilt

    again = run_dwh(["build", "--exclude", "int_agreement__group_figures"], db_path)

    assert FIGURES_LEFT_OUT in stale_lines(again.stdout)  # still behind: the change is kept for the next build

    whole = run_dwh(["build"], db_path)

    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert stale_lines(whole.stdout) == []
    scratch = tmp_path / "scratch.duckdb"
    shutil.copyfile(db_path, scratch)
    # what `dwh build --full` runs (tests/building/test_build_plan_states.py), for the lineage of the mart compared
    run_dwh(["build", "--select", "+agreement", "--full-refresh"], scratch, check=True)
    pd.testing.assert_frame_equal(
        agreement(db_path).drop(columns="computed_at", errors="ignore"),
        agreement(scratch).drop(columns="computed_at", errors="ignore"),
        check_exact=False,
        rtol=1e-9,
    )


def test_a_build_leaving_a_mart_itself_out_names_it(built: Path, tmp_path: Path) -> None:
    db_path = with_a_rating_changed(built, tmp_path)
    partial = run_dwh(["build", "--exclude", "agreement"], db_path)
    assert partial.returncode == 0, partial.stdout + partial.stderr
    assert (
        "dwh build: marts.agreement is older than its inputs: left out of this build, it predates the change to "
        "dataset since the last build; run dwh build without a selection"
    ) in stale_lines(partial.stdout)


def test_a_selection_after_no_change_names_no_mart(built: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(built, db_path)
    partial = run_dwh(["build", "--exclude", "int_agreement__group_figures"], db_path)
    assert partial.returncode == 0, partial.stdout + partial.stderr
    assert stale_lines(partial.stdout) == []
