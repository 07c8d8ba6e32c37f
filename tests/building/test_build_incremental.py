"""`dwh build` after `dwh ingest --redial …` on a built warehouse rebuilds only what depends on ReDial
(and on the load bookkeeping), and the warehouse it publishes equals a full build of the same raw data."""

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from sample_data.redial import write_redial_sample
from tests.figure_checks import same_figure
from tests.helpers import BuiltWarehouse, dbt_folders, run_dwh

pytestmark = pytest.mark.slow  # dbt builds

# models that read only DUO or DICES raw data: an incremental build after a ReDial load must not run them
UNTOUCHED_PREFIXES = ("stg_duo__", "stg_dices__", "int_duo__", "int_dices__")


@pytest.fixture(scope="module")
def reloaded(small_sample_build: BuiltWarehouse, tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A warehouse built in full from the small sample (a copy of the session's), then given another
    (small) ReDial release and built again."""
    root = tmp_path_factory.mktemp("incremental")
    second, db_path = root / "second", small_sample_build.copy_to(root)
    write_redial_sample(second, seed=7, n_train=60, n_test=20)
    full = small_sample_build
    target = dbt_folders(root)
    run_dwh(["ingest", "--redial", str(second / "redial" / "redial_dataset.zip")], db_path, check=True)
    incremental = run_dwh(["build"], db_path, check=True, env_overrides=target)
    run_results = json.loads((root / "target" / "run_results.json").read_text())
    # the reference: the same raw data built in full, in a folder of its own under the same file
    # name (dbt then reuses the session's parse: its profile names the file)
    reference = root / "reference" / db_path.name
    reference.parent.mkdir()
    shutil.copyfile(db_path, reference)
    rebuilt = run_dwh(["build", "--full"], reference, check=True, env_overrides=dbt_folders(root / "reference"))
    again = run_dwh(["build"], db_path, check=True, env_overrides=target)
    return {
        "db": db_path,
        "reference": reference,
        "full": full,
        "incremental": incremental,
        "rebuilt": rebuilt,
        "again": again,
        "run_results": run_results,
    }


def test_the_build_after_a_redial_load_runs_only_what_depends_on_redial(reloaded: dict) -> None:
    assert "dwh build: full build" in reloaded["full"].stdout
    assert "dwh build: incremental build: only what depends on redial" in reloaded["incremental"].stdout
    ran = {
        result["unique_id"].split(".")[-1]
        for result in reloaded["run_results"]["results"]
        if result["unique_id"].startswith("model.")
    }
    assert {
        "stg_redial__conversations",
        "int_redial__turns",
        "int_redial__form_answers",
        "movie_mentions",
        "turns",
        "dialogues",
        "agreement",
        "load_reconciliation",
    } <= ran
    assert not [name for name in ran if name.startswith(UNTOUCHED_PREFIXES)]
    assert not [
        result for result in reloaded["run_results"]["results"] if result["status"] in ("error", "fail", "skipped")
    ]


def test_nothing_is_rebuilt_when_nothing_was_loaded(reloaded: dict) -> None:
    assert (
        "nothing was loaded or changed, and the project is unchanged, since the last build" in reloaded["again"].stdout
    )
    assert "Done." not in reloaded["again"].stdout


def mart_rows(db_path: Path) -> dict[str, list[tuple]]:
    """Every relation of schema marts, its rows sorted (floats kept as floats)."""
    con = duckdb.connect(str(db_path), read_only=True)
    try:
        names = [
            row[0]
            for row in con.execute(
                "select table_name from duckdb_tables() where schema_name = 'marts' "
                "union all select view_name from duckdb_views() where schema_name = 'marts' and not internal"
            ).fetchall()
        ]
        return {name: sorted(con.execute(f'select * from marts."{name}"').fetchall(), key=repr) for name in names}
    finally:
        con.close()


def test_the_incremental_warehouse_equals_a_full_build(reloaded: dict) -> None:
    built, reference = mart_rows(reloaded["db"]), mart_rows(reloaded["reference"])
    assert built.keys() == reference.keys()
    assert len(built) >= 15
    for name, rows in reference.items():
        assert len(built[name]) == len(rows), name
        for built_row, reference_row in zip(built[name], rows):
            assert all(same_figure(a, b) for a, b in zip(built_row, reference_row)), (name, built_row, reference_row)
    redial_dialogues = [row for row in built["dialogues"] if row[1] == "redial"]
    assert redial_dialogues  # the new ReDial release is what the marts now show


def test_raw_rows_changed_by_hand_count_as_a_change(reloaded: dict) -> None:
    """Runs last: it changes the module's warehouse. Rows deleted from a raw table by hand make the next
    build rebuild that source, whose reconciliation then names the records that vanished."""
    with duckdb.connect(str(reloaded["db"])) as con:
        con.execute("delete from raw.duo_dialogue_files where file_path like 'ed/en/%'")
    rebuilt = run_dwh(["build"], reloaded["db"])
    assert (
        "dwh build: incremental build: only what depends on duo (loaded or changed since the last build)"
        in rebuilt.stdout
    )
    assert rebuilt.returncode == 1
    assert "load_reconciliation_rules" in rebuilt.stderr
    assert "every_read_record_is_landed_or_rejected" in rebuilt.stdout
