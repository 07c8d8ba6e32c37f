"""`dwh build` after `dwh ingest --redial …` on a built warehouse rebuilds only what depends on ReDial
(and on the load bookkeeping); after `dwh ingest --judges …`, only the path from the judges to the
judges' marts (the judges are raters of the spine, of a kind every human figure leaves out). Either
way, the warehouse it publishes equals a full build of the same raw data."""

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from sample_data.judges import write_judges_sample
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


@pytest.fixture(scope="module")
def judged(
    small_sample_build: BuiltWarehouse, small_sample_release: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict:
    """A copy of the small sample's full build given the sample's five judges and built again, and the
    same raw data built in full."""
    root = tmp_path_factory.mktemp("judged_incremental")
    release = Path(shutil.copytree(small_sample_release, root / "release"))
    write_judges_sample(release, seed=0)
    db_path = small_sample_build.copy_to(root)
    run_dwh(["ingest", "--judges", str(release / "judges")], db_path, check=True)
    incremental = run_dwh(["build"], db_path, check=True, env_overrides=dbt_folders(root))
    reference = root / "reference" / db_path.name
    reference.parent.mkdir()
    shutil.copyfile(db_path, reference)
    run_dwh(["build", "--full"], reference, check=True, env_overrides=dbt_folders(root / "reference"))
    return {
        "db": db_path,
        "reference": reference,
        "incremental": incremental,
        "run_results": json.loads((root / "target" / "run_results.json").read_text()),
    }


def models_run(run_results: dict) -> set[str]:
    return {
        result["unique_id"].split(".")[-1]
        for result in run_results["results"]
        if result["unique_id"].startswith("model.")
    }


def test_the_build_after_a_redial_load_runs_only_what_depends_on_redial(reloaded: dict) -> None:
    assert "dwh build: full build" in reloaded["full"].stdout
    assert "dwh build: incremental build: only what depends on redial" in reloaded["incremental"].stdout
    ran = models_run(reloaded["run_results"])
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


def assert_same_marts(built: dict[str, list[tuple]], reference: dict[str, list[tuple]]) -> None:
    assert built.keys() == reference.keys()
    assert len(built) >= 15
    for name, rows in reference.items():
        assert len(built[name]) == len(rows), name
        for built_row, reference_row in zip(built[name], rows):
            assert all(same_figure(a, b) for a, b in zip(built_row, reference_row)), (name, built_row, reference_row)


def test_the_incremental_warehouse_equals_a_full_build(reloaded: dict) -> None:
    built = mart_rows(reloaded["db"])
    assert_same_marts(built, mart_rows(reloaded["reference"]))
    redial_dialogues = [row for row in built["dialogues"] if row[1] == "redial"]
    assert redial_dialogues  # the new ReDial release is what the marts now show


def test_the_build_after_a_judges_load_runs_only_the_path_to_the_judges_marts(judged: dict) -> None:
    assert "dwh build: incremental build: only what depends on judge" in judged["incremental"].stdout
    ran = models_run(judged["run_results"])
    assert {"int_agreement__raters", "int_agreement__judgements", "int_judges__agreement", "judge_agreement"} <= ran
    assert ran.isdisjoint({"agreement", "rater_agreement", "rater_quality", "int_agreement__group_figures"})


def test_a_judges_load_changes_no_human_mart_and_builds_what_a_full_build_does(
    judged: dict, small_sample_build: BuiltWarehouse
) -> None:
    built, before = mart_rows(judged["db"]), mart_rows(small_sample_build.db_path)
    assert_same_marts(built, mart_rows(judged["reference"]))
    assert built["judge_agreement"] and not before["judge_agreement"]
    for name in ("agreement", "rater_agreement", "rater_quality", "rating_distributions", "raters", "ratings"):
        assert built[name] == before[name], name


def test_judges_are_raters_of_kind_judge_numbered_after_every_human(
    judged: dict, small_sample_build: BuiltWarehouse
) -> None:
    """Loading judges renumbers no human rater (the memo's fingerprints hold their numbers): each
    judge is one rater `judge:<name>` of kind judge, numbered after every human, excluded by nothing,
    whose judgements the spine holds beside the humans' but never as a value of their figures. (No dbt
    unit test: the spine unions every source's models, and a source added would have to edit it.)"""
    sql = "select rater_id, rater_key, rater_role, judge, is_judge, is_excluded from intermediate.int_agreement__raters"
    with duckdb.connect(str(judged["db"]), read_only=True) as con:
        raters = con.execute(sql).fetchall()
        loaded = {judge for (judge,) in con.execute("select distinct judge from raw.judge_judgements").fetchall()}
        judge_rows, as_agreement_values, keyed = con.execute(
            "select count(*) filter (where is_judge), count(*) filter (where is_judge and is_agreement_value), "
            "(select count(*) from intermediate.int_judges__judgements) from intermediate.int_agreement__judgements"
        ).fetchone()
    # the spine holds every judge's coded judgement, one per unit, and never as a value of the human figures
    assert judge_rows > 0 and judge_rows == keyed and as_agreement_values == 0
    with duckdb.connect(str(small_sample_build.db_path), read_only=True) as con:
        before = con.execute("select rater_id, rater_key from intermediate.int_agreement__raters").fetchall()
    humans = [(rater_id, key) for rater_id, key, _, _, is_judge, _ in raters if not is_judge]
    judges = [row for row in raters if row[4]]
    assert sorted(humans) == sorted(before)
    assert len(loaded) == 5 and {row[3] for row in judges} == loaded and len(judges) == len(loaded)
    for _, key, role, name, _, excluded in judges:
        assert (key, role, excluded) == (f"judge:{name}", "judge", False)
    assert min(row[0] for row in judges) > max(rater_id for rater_id, _ in humans)


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
