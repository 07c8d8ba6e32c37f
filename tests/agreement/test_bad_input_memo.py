"""Memo rows deleted or edited by hand (issue 63, case 2): a build never publishes them. Each slot's
stored rows carry a digest of the rows computed (`agreement_core.memo`); a later build that would
reuse a slot whose rows no longer give it computes the slot again and says so in one line, and
every mart then equals a from-scratch build of the same inputs."""

import random
import shutil
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tests.dataset_folders import rated_study as study
from tests.helpers import query, run_dwh


def marts(db_path: Path) -> dict[str, pd.DataFrame]:
    """Every mart's rows but when figures were computed and which load landed them (every case loads
    the second study in a load of its own), sorted by every column."""
    with duckdb.connect(str(db_path), read_only=True) as con:
        tables = [
            name for (name,) in con.sql("select table_name from duckdb_tables() where schema_name = 'marts'").fetchall()
        ]
        frames = {}
        for table in sorted(tables):
            rows = (
                con.sql(f"select * from marts.{table}").df().drop(columns=["computed_at", "load_id"], errors="ignore")
            )
            texts = rows.astype(str).apply(lambda row: "\x1f".join(row), axis=1) if len(rows) else pd.Series()
            frames[table] = rows.loc[texts.sort_values().index].reset_index(drop=True)  # structs sort as text
    return frames


@pytest.fixture(scope="module")
def memoized(rated_study_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset and a judge of it, built: every memoized model holds figures. The dataset's own
    build is the session's (`rated_study_build`: the study `rated_study`, seed 1)."""
    root = tmp_path_factory.mktemp("memo")
    db_path = Path(shutil.copyfile(rated_study_build, root / "warehouse.duckdb"))
    rng = random.Random(7)
    judges = root / "judges.csv"
    judges.write_text(
        "judge,dialogue_key,question,value\n"
        + "".join(
            f"{judge},rated_study:u{unit},safe,{rng.choice(['yes', 'no'])}\n"
            for judge in ("judge_a", "judge_b")
            for unit in range(1, 21)
        )
    )
    run_dwh(["ingest", "--judges", str(judges)], db_path, check=True)
    run_dwh(["build"], db_path, check=True)
    return db_path


@pytest.fixture(scope="module")
def other_study(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second study, whose load makes the next build rebuild the figures' models."""
    return study(tmp_path_factory.mktemp("other") / "other", "other_study", 2)


@pytest.fixture(scope="module")
def from_scratch(memoized: Path, other_study: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The marts of both studies and the judges built from scratch (`--full`), once for every case."""
    scratch = tmp_path_factory.mktemp("scratch") / "warehouse.duckdb"
    shutil.copyfile(memoized, scratch)
    run_dwh(["ingest", "--dataset", str(other_study)], scratch, check=True)
    run_dwh(["build", "--full"], scratch, check=True)
    return marts(scratch)


# each tampering, in a slot of its own, and the line the build says of it
TAMPERING = {
    "group-rows-deleted": (
        "delete from intermediate.int_agreement__group_figures where question = 'safe' and group_dimension <> 'all'",
        "memo: int_agreement__group_figures rated_study/all/judgement/safe: its stored rows no longer match",
    ),
    "group-figure-edited": (
        "update intermediate.int_agreement__group_figures set alpha = 0.99, n_units = 0 where question = 'quality'",
        "memo: int_agreement__group_figures rated_study/all/judgement/quality: its stored rows no longer match",
    ),
    "judge-figure-edited": (
        "update intermediate.int_judges__agreement set xrr = -0.5 where judge = 'judge_a'",
        "memo: int_judges__agreement judge_a/rated_study/all/judgement/safe: its stored rows no longer match",
    ),
    "pair-row-deleted": (
        "delete from intermediate.int_judges__comparison where reference_value <> 'all'",
        "memo: int_judges__comparison judge_a/judge_b/rated_study/all/judgement/safe: its stored rows no longer match",
    ),
}


def test_memo_rows_changed_by_hand_are_computed_again_and_every_mart_equals_a_from_scratch_build(
    memoized: Path, other_study: Path, from_scratch: dict, tmp_path: Path
) -> None:
    """Every tampering above, each in a slot of its own, on one copy: one build finds each, names it
    in a line of its own, and computes it again."""
    db_path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(memoized, db_path)
    with duckdb.connect(str(db_path)) as con:
        for case, (tampering, _) in TAMPERING.items():
            assert con.execute(tampering).fetchone()[0] > 0, case
    # another study's load: a later build rebuilds the figures' models, which reuse every slot of the first
    run_dwh(["ingest", "--dataset", str(other_study)], db_path, check=True)
    built = run_dwh(["build"], db_path)
    assert built.returncode == 0, built.stdout + built.stderr
    lines = [line for line in built.stderr.splitlines() if line.startswith("memo: ")]
    for case, (_, said) in TAMPERING.items():
        assert sum(line.startswith(said) for line in lines) == 1, (case, built.stderr)
    assert len(lines) == len(TAMPERING), built.stderr
    assert all(line.endswith("edited or deleted since they were computed): computed again") for line in lines)
    kept, computed = marts(db_path), from_scratch
    assert kept.keys() == computed.keys()
    for table, rows in kept.items():
        pd.testing.assert_frame_equal(rows, computed[table], check_exact=False, rtol=1e-9, atol=1e-12, obj=table)


def test_an_untouched_memo_is_reused_and_says_nothing(memoized: Path, other_study: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    shutil.copyfile(memoized, db_path)
    before = query(db_path, "select distinct question, computed_at from intermediate.int_agreement__group_figures")
    run_dwh(["ingest", "--dataset", str(other_study)], db_path, check=True)
    built = run_dwh(["build"], db_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "memo: " not in built.stderr
    after = query(
        db_path,
        "select distinct question, computed_at from intermediate.int_agreement__group_figures "
        "where source = 'rated_study'",
    )
    assert sorted(after) == sorted(before)  # reused: computed when first built
