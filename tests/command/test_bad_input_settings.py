"""Settings a careful user can get wrong, and the warehouse file in the wrong state: a warehouse
path that is no DuckDB file (a folder, a FIFO, another project's database, a typo), a memory limit
DuckDB cannot read, a file another client holds open, dbt vars, threads or an exclusion seed the
build cannot use. Each is refused up front with one line naming the setting, a non-zero exit, and
nothing locked, copied or written beside the warehouse.
"""

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from tests.bad_input import _listing, checksum, copy_of, hold_open, release, run_dwh_in, run_dwh_with, the_one_error
from tests.helpers import copy_of_project, dbt_folders, query, run_dwh, selecting

pytestmark = pytest.mark.slow  # each case runs the command line; some build


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
    # the dialogues' lineage runs out as the whole build would, in half the time
    built = run_dwh(["build", *selecting("dialogues")], db_path, env_overrides={"DWH_BUILD_MEMORY_LIMIT": "10MB"})
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


# --- the default warehouse path, a symbolic link, was replaced by a file -----------------


def test_the_default_warehouse_path_as_a_symlink_stays_a_link(
    small_releases: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from common.paths import warehouse_path
    from dwh.load import run_ingest
    from ingest.loading import IngestRequest, SourceRequest

    bigger_disk = tmp_path / "bigger-disk" / "warehouse.duckdb"
    bigger_disk.parent.mkdir()
    run_dwh(["ingest", "--dices", str(small_releases["dices"])], bigger_disk, check=True)
    before = checksum(bigger_disk)
    project = tmp_path / "project"
    default_path = project / "data" / "warehouse.duckdb"
    default_path.parent.mkdir(parents=True)
    default_path.symlink_to(bigger_disk)
    monkeypatch.setattr("common.paths.PROJECT_ROOT", project)
    monkeypatch.delenv("DWH_DB_PATH", raising=False)

    db_path = warehouse_path()  # as `dwh ingest` finds it, without DWH_DB_PATH
    run_ingest(db_path, IngestRequest((SourceRequest("redial", small_releases["redial"]),)), progress=lambda step: None)

    assert db_path == bigger_disk
    assert default_path.is_symlink() and default_path.readlink() == bigger_disk
    assert checksum(bigger_disk) != before  # the link's target got the load, not a file in its place
    with duckdb.connect(str(bigger_disk), read_only=True) as con:
        assert con.execute("select count(*) from raw.redial_conversations").fetchone()[0] > 0
        assert con.execute("select count(*) from raw.dices_350").fetchone()[0] > 0


# --- DWH_DB_PATH a FIFO hung `dwh summary` and `dwh ingest` -----------------------------


@pytest.mark.parametrize("command", [["summary"], ["ingest", "--duo", "duo"]], ids=["summary", "ingest"])
def test_a_fifo_as_the_warehouse_is_refused_not_waited_on(command: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "warehouse.duckdb"
    os.mkfifo(fifo)
    completed = run_dwh_in(command, fifo, timeout=60)
    assert the_one_error(completed) == (
        f"dwh: error: {fifo.resolve()}: is not a regular file (a FIFO, socket or device) (DWH_DB_PATH); "
        "name a warehouse or a new file"
    )
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]


def test_a_bad_default_warehouse_path_is_named_as_the_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from common.errors import DwhError
    from common.paths import warehouse_path

    project = tmp_path / "project"
    (project / "data" / "warehouse.duckdb").mkdir(parents=True)
    monkeypatch.setattr("common.paths.PROJECT_ROOT", project)
    monkeypatch.delenv("DWH_DB_PATH", raising=False)
    with pytest.raises(DwhError) as refused:
        warehouse_path()
    folder = project / "data" / "warehouse.duckdb"
    assert str(refused.value) == (
        f"{folder}: is a folder, not a DuckDB file (the default warehouse path data/warehouse.duckdb; set DWH_DB_PATH "
        f"to name another); name a file, e.g. {folder / 'warehouse.duckdb'}"
    )


def test_build_help_names_dbt_log_path(tmp_path: Path) -> None:
    completed = run_dwh_in(["build", "--help"], tmp_path / "unused.duckdb")
    assert completed.returncode == 0, completed.stderr
    assert "dbt's log is dbt.log in $DBT_LOG_PATH when set, else in dbt's target folder" in " ".join(
        completed.stdout.split()
    )


@pytest.mark.parametrize("command", [["build"], ["ingest", "--dices", "DICES"]], ids=["build", "ingest"])
def test_a_folder_at_warehouse_next_is_one_line(
    command: list[str], small_loaded: Path, small_releases: dict[str, Path], tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    (tmp_path / "warehouse.duckdb.next").mkdir()
    before, listing = checksum(db_path), _listing(tmp_path)
    args = [str(small_releases["dices"]) if arg == "DICES" else arg for arg in command]
    completed = run_dwh(args, db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == (
        f"dwh: error: {db_path}.next: is a folder, where dwh ingest and dwh build keep a file of their own beside "
        "warehouse.duckdb; move or remove it, then run this again (nothing was changed)"
    )
    assert checksum(db_path) == before and _listing(tmp_path) == listing


@pytest.mark.parametrize(
    ("agreement_vars", "line"),
    [
        ("{agreement_seed: -1}", "var agreement_seed: -1 is not a whole number of at least 0"),
        ("{agreement_seed: abc}", "var agreement_seed: 'abc' is not a whole number of at least 0"),
        ("{agreement_bootstrap: 0}", "var agreement_bootstrap: 0 is not a whole number of at least 1"),
        ("{agreement_permutations: 2.5}", "var agreement_permutations: 2.5 is not a whole number of at least 1"),
        ("{agreement_monte_carlo: maybe}", "var agreement_monte_carlo: 'maybe' is not true or false"),
    ],
    ids=["negative-seed", "word-seed", "no-draws", "fraction", "not-a-boolean"],
)
def test_agreement_vars_the_figures_cannot_use_are_one_line(
    agreement_vars: str, line: str, small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", "--vars", agreement_vars], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == f"dwh: error: {line}; give it with --vars or in dbt_project.yml"
    assert completed.stdout == "" and checksum(db_path) == before and _listing(tmp_path) == ["warehouse.duckdb"]


@pytest.mark.parametrize("pattern", ["dices/*/Q_Overall", "duo/en:ed/empathie", "dicess/*"])
def test_a_monte_carlo_pattern_that_matches_no_question_is_one_line(
    pattern: str, small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    given = f"{{agreement_monte_carlo_questions: ['duo/*/*', '{pattern}']}}"
    completed = run_dwh(["build", "--vars", given], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == (
        f"dwh: error: var agreement_monte_carlo_questions: '{pattern}' matches no question of "
        "seeds/judgement_questions.csv nor of a loaded dataset ('<source>/<scope>/<question>', names as in "
        "marts.ratings.question, case counts); fix the pattern or use ['*']"
    )
    assert completed.stdout == "" and checksum(db_path) == before


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--threads", "0"], "'0'"),
        (["--threads=-2"], "'-2'"),
        (["--threads", "two"], "'two'"),
        (["--threads"], "nothing"),
    ],
    ids=["zero", "negative", "word", "missing"],
)
def test_threads_dbt_cannot_use_is_one_line(args: list[str], shown: str, small_loaded: Path, tmp_path: Path) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == (
        f"dwh: error: --threads: needs a whole number of at least 1 (got {shown}), e.g. --threads 2; "
        "nothing was built, the warehouse is unchanged"
    )
    assert completed.stdout == ""  # no dbt output either
    assert checksum(db_path) == before and _listing(tmp_path) == ["warehouse.duckdb"]


NO_MONTE_CARLO = "{agreement_monte_carlo: false}"


@pytest.mark.parametrize(
    ("args", "added"),
    [
        (["--vars", NO_MONTE_CARLO], ["--threads", "1"]),
        (["--vars={agreement_monte_carlo: 'False'}", "--select", "marts.agreement+"], ["--threads", "1"]),
        (["--vars", NO_MONTE_CARLO, "--threads", "3"], []),
        (["--threads=2", "--vars", NO_MONTE_CARLO], []),
        (["--vars", "{agreement_seed: 7}"], []),
        ([], []),
    ],
    ids=["off", "off-as-text", "threads-given", "threads-given-first", "on", "nothing-given"],
)
def test_a_build_without_the_monte_carlo_runs_one_dbt_thread_unless_told_otherwise(
    args: list[str], added: list[str]
) -> None:
    from dwh.building.build import threads_for
    from dwh.building.build_vars import checked_agreement_settings

    assert threads_for(args, checked_agreement_settings(args).enabled) == args + added


def test_a_build_without_the_monte_carlo_passes_on_one_thread_with_no_interval(
    small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    folders = dbt_folders(tmp_path / "dbt")

    built = run_dwh(["build", "--vars", NO_MONTE_CARLO], db_path, env_overrides=folders)

    assert built.returncode == 0, built.stdout[-3000:] + built.stderr
    run_results = json.loads((Path(folders["DBT_TARGET_PATH"]) / "run_results.json").read_text())
    assert run_results["args"]["threads"] == 1
    [(n_figures, n_intervals)] = query(db_path, "select count(alpha), count(alpha_ci_low) from marts.agreement")
    assert n_figures > 0 and n_intervals == 0


def _project_with_seed(root: Path, seed: str, text: str) -> Path:
    """A copy of the project (code, models, seeds) with one seed's file replaced: the project's own
    seeds are never edited by a test."""
    project = copy_of_project(root / "project")
    (project / seed).write_text(text, encoding="utf-8")
    return project


def _build_in(project: Path, db_path: Path, args: list[str]) -> subprocess.CompletedProcess:
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **dbt_folders(project)}
    env.pop("DWH_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", "build", *args], cwd=project, env=env, capture_output=True, text=True
    )


def _dices_rater_keys(db_path: Path) -> list[str]:
    with duckdb.connect(str(db_path), read_only=True) as con:
        ids = con.execute("select distinct rater_id from raw.dices_350 order by 1 limit 3").fetchall()
    return [f"dices:rater:{rater_id}" for (rater_id,) in ids]


def test_exclusion_seed_keys_that_match_no_rater_stop_the_build_by_line(small_loaded: Path, tmp_path: Path) -> None:
    """`dices:rater:999` and an upper-cased key match no rater (keys are case-sensitive data): the
    build stops naming each with its seed line; keys with surrounding spaces match their raters."""
    db_path = copy_of(small_loaded, tmp_path)
    first, second, third = _dices_rater_keys(db_path)
    seed = (
        "rater_key,reason\n"
        "dices:rater:999,a typo\n"
        f" {first},a leading space\n"
        f"{second.upper()},upper case\n"
        f"{third} ,a trailing space\n"
    )
    project = _project_with_seed(tmp_path, "seeds/excluded_raters.csv", seed)
    loaded = checksum(db_path)

    built = _build_in(project, db_path, selecting("excluded_raters_name_known_raters"))

    assert the_one_error(built) == (
        "dwh: error: seeds/excluded_raters.csv line 2: rater_key 'dices:rater:999' matches no rater; "
        f"line 4: rater_key {second.upper()!r} matches no rater: correct the key (rater keys are case-sensitive: "
        "as marts.raters writes them) or remove the row, then run dwh build again; warehouse.duckdb is "
        f"unchanged, the failed build is kept at {db_path}.failed"
    )
    assert checksum(db_path) == loaded


def test_exclusion_seed_keys_match_their_raters_whatever_the_spaces(small_loaded: Path, tmp_path: Path) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    first, second, _ = _dices_rater_keys(db_path)
    seed = f"rater_key,reason\n {first},a leading space\n{second}  ,trailing spaces\n"
    project = _project_with_seed(tmp_path, "seeds/excluded_raters.csv", seed)

    built = _build_in(project, db_path, selecting("excluded_raters_name_known_raters"))

    assert built.returncode == 0, built.stdout[-3000:] + built.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        excluded = con.execute(
            "select rater_key, exclusion_reason from intermediate.int_agreement__raters where is_excluded order by 1"
        ).fetchall()
    assert excluded == sorted([(first, "a leading space"), (second, "trailing spaces")])
