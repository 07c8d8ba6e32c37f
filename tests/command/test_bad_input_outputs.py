"""What `dwh` writes besides the warehouse, and what a build publishes: `dwh report`, `dwh export`,
`dwh sample` and `make docs` never replace or write through what they were not asked to (the
warehouse, a release file, a link's target, a FIFO), say a place they cannot write before the work,
and say when the marts are older than the last load; `dwh build` publishes only real, tested builds.
The built warehouse is built once per module, on small releases, and only read; a test that writes
gets its own copy.
"""

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import duckdb
import pytest

from ingest.releases.dices_columns import COLUMNS_350
from tests.bad_input import (
    _a_rater_repeated_with_another_answer,
    _listing,
    _run_patched,
    checksum,
    copy_of,
    dices_csv,
    hold_open,
    release,
    run_dwh_in,
    run_dwh_with,
    the_one_error,
)
from tests.helpers import PROJECT_ROOT, dbt_folders, failing_rows, run_dwh, warned_or_failed_tests

pytestmark = pytest.mark.slow  # each case runs the command line; some build


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


# --- `dwh report OUT` replaced whatever was at OUT -------------------------------------


def _the_warehouse(db_path: Path, tmp_path: Path) -> Path:
    return db_path


def _the_kept_failed_build(db_path: Path, tmp_path: Path) -> Path:
    kept = db_path.with_name(db_path.name + ".failed")
    shutil.copyfile(db_path, kept)
    return kept


def _a_release_file(db_path: Path, tmp_path: Path) -> Path:
    release_file = tmp_path / "release" / "duo" / "ed" / "en" / "0000.json"
    release_file.parent.mkdir(parents=True)
    release_file.write_text('{"dialogue_id": "0000", "dialogue": []}', encoding="utf-8")
    return release_file


def _a_fifo(db_path: Path, tmp_path: Path) -> Path:
    fifo = tmp_path / "device.html"
    os.mkfifo(fifo)
    return fifo


@pytest.mark.parametrize(
    ("make_out", "answer"),
    [
        (_the_warehouse, "is the warehouse (DWH_DB_PATH) or a file dwh keeps beside it; dwh report never replaces it"),
        (_the_kept_failed_build, "is the warehouse (DWH_DB_PATH) or a file dwh keeps beside it; dwh report never"),
        (_a_release_file, "already exists and is not a report dwh wrote; dwh report replaces only its own earlier"),
        (_a_fifo, "is not a regular file (a device, FIFO or socket); dwh report never replaces it"),
    ],
    ids=["warehouse", "warehouse.failed", "release-file", "fifo"],
)
def test_a_report_never_replaces_what_is_not_a_report(
    make_out: Callable[[Path, Path], Path], answer: str, small_built: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_built, tmp_path)
    out = make_out(db_path, tmp_path)
    before = "fifo" if stat.S_ISFIFO(out.stat().st_mode) else checksum(out)
    warehouse_before = checksum(db_path)

    completed = run_dwh_in(["report", str(out)], db_path)

    assert the_one_error(completed).startswith(f"dwh: error: {out}: {answer}")
    assert ("fifo" if stat.S_ISFIFO(out.stat().st_mode) else checksum(out)) == before
    assert checksum(db_path) == warehouse_before
    assert not out.with_name(out.name + ".partial").exists()


# --- `dwh build --empty` published empty marts -------------------------------------------


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (
            ["--empty"],
            "--empty: dbt builds every model with zero rows, and dwh build publishes what it builds over the "
            "warehouse; it never passes --empty (try `dbt build --empty` with DWH_DB_PATH on a scratch copy)",
        ),
        (
            ["--full", "--select", "dialogues"],
            "--select: --full rebuilds and tests everything, and --select would leave models or tests out; "
            "give one of the two",
        ),
        (
            ["--full", "--exclude=marts.agreement"],
            "--exclude: --full rebuilds and tests everything, and --exclude would leave models or tests out; "
            "give one of the two",
        ),
    ],
    ids=["empty", "full-select", "full-exclude"],
)
def test_a_build_that_is_no_real_build_is_refused(
    args: list[str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_built, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides=dbt_folders(tmp_path))
    assert the_one_error(completed) == f"dwh: error: {answer}"
    assert checksum(db_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]  # nothing locked or copied


def test_load_reconciliation_fails_on_an_empty_mart_over_landed_records(small_built: Path, tmp_path: Path) -> None:
    """Plain dbt's `--empty` builds load_reconciliation with zero rows while raw.ingest_files lists
    every landed file: the build fails, naming the files."""
    db_path = copy_of(small_built, tmp_path)
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **dbt_folders(tmp_path)}
    dbt = Path(sys.executable).parent / "dbt"
    completed = subprocess.run(
        [str(dbt), "build", "--empty", "--select", "load_reconciliation+", "--profiles-dir", str(PROJECT_ROOT)],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 1, completed.stdout[-2000:]
    target = tmp_path / "target"
    assert warned_or_failed_tests(target).get("load_reconciliation_lists_every_loaded_file") == "fail"
    rows = failing_rows(db_path, "load_reconciliation_lists_every_loaded_file", target)
    with duckdb.connect(str(db_path), read_only=True) as con:
        loaded = set(con.execute("select source, file_path from raw.ingest_files").fetchall())
    assert {(row["source"], row["file_path"]) for row in rows} == loaded
    assert {source for source, _ in loaded} == {"duo", "redial", "dices"}


# --- `dwh sample OUT` overwrote a release's files ----------------------------------------


def test_a_sample_never_overwrites_a_folder_holding_files(tmp_path: Path) -> None:
    out = tmp_path / "releases"
    real_file = out / "duo" / "ed" / "en" / "0000.json"  # stands for a copy of the real release
    real_file.parent.mkdir(parents=True)
    real_file.write_text('{"dialogue_id": "0000", "dialogue": []}', encoding="utf-8")
    before = checksum(real_file)

    completed = run_dwh_in(["sample", str(out)], tmp_path / "unused.duckdb")

    assert the_one_error(completed) == (
        f"dwh: error: {out}: already holds files (duo); dwh sample writes into a new or empty folder: "
        "choose another, or pass --force to overwrite its files there"
    )
    assert checksum(real_file) == before
    assert [p.relative_to(out).as_posix() for p in sorted(out.rglob("*"))] == [
        "duo",
        "duo/ed",
        "duo/ed/en",
        "duo/ed/en/0000.json",
    ]
    forced = run_dwh_in(["sample", str(out), "--scale", "0.1", "--force"], tmp_path / "unused.duckdb")
    assert forced.returncode == 0, forced.stderr
    assert checksum(real_file) != before  # asked for, with --force


# --- report and export places that cannot be written, said before the work ------------


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (
            ["report", "{tmp}/reports"],
            r"{tmp}/reports: is a folder; dwh report writes one file: name it, e\.g\. "
            r"{tmp}/reports/report\.html",
        ),
        (["report", "/proc/r.html"], r"/proc/r\.html: cannot be written there \(.+\)"),
        (["export", "/proc/x"], r"/proc/x: cannot create the export folder there \(.+\)"),
    ],
    ids=["report-onto-a-folder", "report-into-proc", "export-into-proc"],
)
def test_a_place_that_cannot_be_written_is_one_line(
    args: list[str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    (tmp_path / "reports").mkdir()
    given = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    completed = run_dwh_in(given, small_built)
    assert re.fullmatch("dwh: error: " + answer.replace("{tmp}", re.escape(str(tmp_path))), the_one_error(completed))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no reports.partial left behind
    assert list((tmp_path / "reports").iterdir()) == []


def test_an_export_into_a_link_to_an_empty_folder_fills_that_folder(small_built: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bigger-disk" / "export"
    folder.mkdir(parents=True)
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"export: {folder} (manifest: manifest.json)"
    assert link.is_symlink() and (link / "manifest.json").is_file()


# --- the export folder was made 0700 --------------------------------------------------


def test_the_export_folder_has_the_umasks_mode(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    completed = run_dwh_in(["export", str(out)], small_built, umask=0o022)
    assert completed.returncode == 0, completed.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "manifest.json").stat().st_mode) == 0o644


# --- `dwh summary | head -1` ------------------------------------------------------------


def test_a_closed_pipe_ends_quietly(small_built: Path) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader (`head -1`) has gone before dwh writes
    try:
        env = {**os.environ, "DWH_DB_PATH": str(small_built)}
        env.pop("DWH_DEBUG", None)
        completed = subprocess.run(
            [sys.executable, "-m", "dwh.cli", "summary"],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert completed.stderr == ""
    assert completed.returncode == 141  # as a shell reports a command a closed pipe stopped (128 + SIGPIPE)


# --- `dwh sample --scale 0.1` ----------------------------------------------------------


def test_a_fractional_scale_writes_a_small_sample(tmp_path: Path) -> None:
    out = tmp_path / "sample"
    completed = run_dwh_in(["sample", str(out), "--scale", "0.1"], tmp_path / "unused.duckdb")
    assert completed.returncode == 0, completed.stderr
    duo_files = {
        folder: len(list((out / "duo" / folder).glob("*.json"))) for folder in ("ed/en", "wow/en", "ed/ja", "wow/ja")
    }
    assert duo_files == {"ed/en": 16, "wow/en": 16, "ed/ja": 7, "wow/ja": 7}  # the card's 157 / 157 / 68 / 73, a tenth
    with zipfile.ZipFile(out / "redial" / "redial_dataset.zip") as archive:
        train_lines = archive.read("train_data.jsonl").count(b"\n")
    assert train_lines == 1001  # 10,006 / 10
    with duckdb.connect() as con:
        items = con.execute(
            "select count(distinct item_id), count(*) from read_csv(?)",
            [str(out / "dices" / "350" / "diverse_safety_adversarial_dialog_350.csv")],
        ).fetchone()
    assert items == (35, 35 * 123)
    refused = run_dwh_in(["sample", str(tmp_path / "other"), "--scale", "0"], tmp_path / "unused.duckdb")
    assert the_one_error(refused) == "dwh: error: --scale must be a positive number (a fraction too, e.g. 0.1), got 0"


# --- `dwh report OUT` wrote through whatever was at OUT.partial --------------------------


def _partial_is_the_warehouse(partial: Path, db_path: Path) -> Path:
    """The warehouse itself, named r.html.partial (DWH_DB_PATH names it)."""
    shutil.copyfile(db_path, partial)
    return partial


def _partial_is_a_link_to_the_warehouse(partial: Path, db_path: Path) -> Path:
    partial.symlink_to(db_path)
    return db_path


def _partial_is_a_fifo(partial: Path, db_path: Path) -> Path:
    os.mkfifo(partial)  # opening it to write would wait for a reader forever
    return db_path


def _partial_is_the_users_file(partial: Path, db_path: Path) -> Path:
    partial.write_text("my notes, not dwh's\n", encoding="utf-8")
    return db_path


def _state(path: Path) -> str:
    """What is at `path`, without following a link: its target, a folder, a FIFO or its bytes' SHA-256."""
    if path.is_symlink():
        return f"link to {path.readlink()}"
    if path.is_dir():
        return "folder"
    return "fifo" if stat.S_ISFIFO(path.stat().st_mode) else checksum(path)


@pytest.mark.parametrize(
    "make_partial",
    [_partial_is_the_warehouse, _partial_is_a_link_to_the_warehouse, _partial_is_a_fifo, _partial_is_the_users_file],
    ids=["the-warehouse", "link-to-the-warehouse", "fifo", "users-own-file"],
)
def test_a_report_never_writes_through_what_is_at_out_partial(
    make_partial: Callable[[Path, Path], Path], small_built: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r.html"
    partial = out.with_name("r.html.partial")
    db_path = make_partial(partial, copy_of(small_built, tmp_path))
    before = {path.name: _state(path) for path in (partial, db_path)}

    completed = run_dwh_in(["report", str(out)], db_path, timeout=90)

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"report: {out}"
    assert "<title>Conversational-AI evaluation warehouse: report</title>" in out.read_text(encoding="utf-8")
    assert {path.name: _state(path) for path in (partial, db_path)} == before
    assert not list(tmp_path.glob(".r.html.*"))  # its own partial file renamed onto OUT, none left


# --- `dwh sample DIR --force` wrote through links and waited on FIFOs ----------------------


def _a_link_to_the_warehouse(release_file: Path, db_path: Path) -> None:
    release_file.symlink_to(db_path)


def _a_link_to_the_users_file(release_file: Path, db_path: Path) -> None:
    notes = db_path.with_name("notes.txt")
    notes.write_text("keep me\n", encoding="utf-8")
    release_file.symlink_to(notes)


def _the_warehouse_itself(release_file: Path, db_path: Path) -> None:
    """DWH_DB_PATH names the release file: the warehouse sits where the sample would write."""
    shutil.copyfile(db_path, release_file)


def _a_fifo_file(release_file: Path, db_path: Path) -> None:
    os.mkfifo(release_file)


def _a_folder_in_its_place(release_file: Path, db_path: Path) -> None:
    release_file.mkdir()
    (release_file / "keep.txt").write_text("keep me\n", encoding="utf-8")


# (release file relative to DIR, what is put there, the answer after `<path>: `)
IRREPLACEABLE_RELEASE_FILES = [
    (
        "redial/redial_dataset.zip",
        _a_link_to_the_warehouse,
        "is the warehouse (DWH_DB_PATH) or a file dwh keeps beside it; dwh sample never replaces it: "
        "choose another path",
    ),
    (
        "dices/350/diverse_safety_adversarial_dialog_350.csv",
        _the_warehouse_itself,
        "is the warehouse (DWH_DB_PATH) or a file dwh keeps beside it; dwh sample never replaces it: "
        "choose another path",
    ),
    (
        "duo/ed/en/0000.json",
        _a_link_to_the_users_file,
        "is a symbolic link (to {tmp}/notes.txt); dwh sample --force replaces only regular release files, never a "
        "link or what it names: remove the link or choose another folder",
    ),
    (
        "redial/redial_dataset.zip",
        _a_fifo_file,
        "is a FIFO; dwh sample --force replaces only regular release files: remove it or choose another folder",
    ),
    (
        "dices/990/diverse_safety_adversarial_dialog_990.csv",
        _a_folder_in_its_place,
        "is a folder; dwh sample --force replaces only regular release files: remove it or choose another folder",
    ),
]


@pytest.mark.parametrize(
    ("relative", "make", "answer"),
    IRREPLACEABLE_RELEASE_FILES,
    ids=["link-to-the-warehouse", "the-warehouse", "link-to-a-users-file", "fifo", "folder"],
)
def test_a_forced_sample_replaces_only_regular_release_files(
    relative: str, make: Callable[[Path, Path], None], answer: str, tmp_path: Path
) -> None:
    out = tmp_path / "releases"
    release_file = out / relative
    release_file.parent.mkdir(parents=True)
    db_path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(db_path)).close()
    make(release_file, db_path)
    if make is _the_warehouse_itself:
        db_path = release_file
    before = {path: _state(path) for path in sorted(tmp_path.rglob("*"))}

    completed = run_dwh_in(["sample", str(out), "--scale", "0.1", "--force"], db_path, timeout=60)

    assert the_one_error(completed) == f"dwh: error: {release_file}: {answer.replace('{tmp}', str(tmp_path))}"
    assert {path: _state(path) for path in sorted(tmp_path.rglob("*"))} == before  # nothing written, nothing new


# --- a report path that is a link to an earlier report lost its link ---------------------


def test_a_report_through_a_link_replaces_its_target_and_keeps_the_link(small_built: Path, tmp_path: Path) -> None:
    earlier = tmp_path / "reports" / "2024.html"
    earlier.parent.mkdir()
    earlier.write_text(
        "<html><head><title>Conversational-AI evaluation warehouse: report</title></head></html>", encoding="utf-8"
    )
    before = checksum(earlier)
    latest = tmp_path / "latest.html"
    latest.symlink_to("reports/2024.html")

    completed = run_dwh_in(["report", str(latest)], small_built, timeout=90)

    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"report: {earlier}"
    assert latest.is_symlink() and latest.readlink() == Path("reports/2024.html")
    assert checksum(earlier) != before and "<svg" in earlier.read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["2024.html", "latest.html", "reports"]


# --- builds that are no real build, in dbt's other spellings and its environment ----------


def _full(flag: str) -> str:
    return (
        f"{flag}: --full rebuilds and tests everything, and {flag} would leave models or tests out; give one of the two"
    )


def _never(flag: str, effect: str) -> str:
    return (
        f"{flag}: dbt {effect}, and dwh build publishes what it builds over the warehouse; it never passes {flag} "
        f"(try `dbt build {flag}` with DWH_DB_PATH on a scratch copy)"
    )


def _inherited(variable: str, value: str, flag: str, effect: str) -> str:
    return (
        f"{variable} is set ('{value}'): dbt reads it as {flag}, which {effect}, and dwh build publishes only a "
        f"whole, tested build; unset it (env -u {variable} dwh build …)"
    )


ONLY_NAMED_KINDS = "builds only the kinds of resources named (no data tests unless `test` is one)"
NAMED_KINDS_LEFT_OUT = "leaves the kinds of resources named out of the build (data tests, say)"
UNREAL_BUILDS = [
    ("model", ["--full", "--model", "dialogues"], {}, _full("--model")),
    ("attached-s", ["--full", "-sdialogues"], {}, _full("-s")),
    ("attached-m", ["--full", "-mdialogues"], {}, _full("-m")),
    ("flags-then-s", ["--full", "-xsdialogues"], {}, _full("-s")),
    ("model-equals", ["--full", "--model=dialogues"], {}, _full("--model")),
    (
        "DBT_EMPTY",
        ["--select", "dialogues"],
        {"DBT_EMPTY": "true"},
        _inherited("DBT_EMPTY", "true", "--empty", "builds every model with zero rows"),
    ),
    (
        "DBT_ENGINE_EMPTY",
        ["--full"],
        {"DBT_ENGINE_EMPTY": "1"},
        _inherited("DBT_ENGINE_EMPTY", "1", "--empty", "builds every model with zero rows"),
    ),
    (
        "DBT_RESOURCE_TYPES",
        ["--full"],
        {"DBT_RESOURCE_TYPES": "model"},
        _inherited("DBT_RESOURCE_TYPES", "model", "--resource-types", ONLY_NAMED_KINDS),
    ),
    (
        "DBT_EXCLUDE_RESOURCE_TYPES",
        ["--full"],
        {"DBT_EXCLUDE_RESOURCE_TYPES": "test"},
        _inherited("DBT_EXCLUDE_RESOURCE_TYPES", "test", "--exclude-resource-types", NAMED_KINDS_LEFT_OUT),
    ),
    (
        "DBT_INDIRECT_SELECTION",
        ["--full"],
        {"DBT_INDIRECT_SELECTION": "empty"},
        _inherited(
            "DBT_INDIRECT_SELECTION",
            "empty",
            "--indirect-selection",
            "chooses which data tests run with the models selected (`empty`: none)",
        ),
    ),
    (
        "exclude-resource-type",
        ["--exclude-resource-type", "test"],
        {},
        _never("--exclude-resource-type", NAMED_KINDS_LEFT_OUT),
    ),
    ("resource-type", ["--resource-type", "model"], {}, _never("--resource-type", ONLY_NAMED_KINDS)),
]


@pytest.mark.parametrize(
    ("args", "env", "answer"), [case[1:] for case in UNREAL_BUILDS], ids=[c[0] for c in UNREAL_BUILDS]
)
def test_a_build_that_is_no_real_tested_build_is_refused_in_dbts_other_spellings(
    args: list[str], env: dict[str, str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_built, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides={**dbt_folders(tmp_path), **env})
    assert the_one_error(completed) == f"dwh: error: {answer}"
    assert checksum(db_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]  # nothing locked or copied


# --- `dwh export` onto a dangling link ran the whole export, then failed ---------------


def test_an_export_onto_a_dangling_link_makes_the_folder_it_names(small_built: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bigger-disk" / "export"
    folder.parent.mkdir()
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"export: {folder} (manifest: manifest.json)"
    assert link.is_symlink() and link.readlink() == folder and (folder / "manifest.json").is_file()


def test_an_export_onto_a_link_to_nowhere_is_one_line_before_the_work(small_built: Path, tmp_path: Path) -> None:
    folder = tmp_path / "unmounted-disk" / "export"
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {link}: is a symbolic link to {folder}, which does not exist, nor does the folder it would be "
        f"in; create {folder.parent} first, or choose another export folder"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]  # no partial export left beside it


# --- what a sample folder is instead -------------------------------------------------------


@pytest.mark.parametrize(("make", "kind"), [(os.mkfifo, "a FIFO"), (None, "a device")], ids=["fifo", "device"])
def test_a_sample_onto_a_fifo_or_device_says_what_it_is(
    make: Callable[[Path], None] | None, kind: str, tmp_path: Path
) -> None:
    out = tmp_path / "fifo" if make else Path(os.devnull)
    if make:
        make(out)
    completed = run_dwh_in(["sample", str(out)], tmp_path / "unused.duckdb", timeout=60)
    assert the_one_error(completed) == (
        f"dwh: error: {out}: is {kind}, not a folder; `dwh sample` writes duo/, redial/ and dices/ inside a folder "
        "(give a new or existing folder)"
    )


FULL_DISK_ON_PARTIAL_FILES = """
import errno, pathlib
_write_text = pathlib.Path.write_text
def _full(self, *args, **kwargs):
    if self.name.endswith(".partial"):
        raise OSError(errno.ENOSPC, "No space left on device")
    return _write_text(self, *args, **kwargs)
pathlib.Path.write_text = _full
"""


def test_a_report_on_a_full_disk_names_its_path(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "reports" / "report.html"
    completed = _run_patched(FULL_DISK_ON_PARTIAL_FILES, ["report", str(out)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {out}: could not be written (No space left on device); nothing was written: "
        "free space there or choose another path"
    )
    assert _listing(out.parent) == []  # no report, no partial file left


ANOTHER_EXPORT_GETS_THERE_FIRST = """
import dwh.transfer.export
_export_table = dwh.transfer.export.export_table
def _meanwhile(con, root, relation):
    out = root.parent / root.name.split(".")[1]  # the staging folder is .<out>.<random>.partial
    if not out.exists() or not any(out.iterdir()):
        out.mkdir(exist_ok=True)
        (out / "manifest.json").write_text("the other export's", encoding="utf-8")
    return _export_table(con, root, relation)
dwh.transfer.export.export_table = _meanwhile
"""


def test_an_export_another_export_beat_says_so(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "exported"
    completed = _run_patched(ANOTHER_EXPORT_GETS_THERE_FIRST, ["export", str(out)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {out}: another dwh export (or another program) filled this folder while this export ran, "
        "and got there first; its files are left as they are, this export wrote nothing: use that one, "
        "or choose a new folder"
    )
    assert _listing(out) == ["manifest.json"] and (out / "manifest.json").read_text() == "the other export's"
    assert _listing(tmp_path) == ["exported"]  # no staging folder left


def test_three_exports_at_once_one_wins_intact(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "exported"
    env = {**os.environ, "DWH_DB_PATH": str(small_built)}
    env.pop("DWH_DEBUG", None)
    exports = [
        subprocess.Popen(
            [sys.executable, "-m", "dwh.cli", "export", str(out)],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    answers = [(export.wait(timeout=300), export.stderr.read()) for export in exports]
    assert sorted(code for code, _ in answers) == [0, 1, 1], answers
    for code, stderr in answers:
        assert "Traceback" not in stderr and "unexpected error" not in stderr, stderr
        if code == 1:  # beaten during the work, or refused up front when the winner had already finished
            assert re.fullmatch(
                rf"dwh: error: {re.escape(str(out))}: (another dwh export .* got there first; .*"
                r"|already exists and is not an empty folder; choose a new export folder)",
                stderr.strip(),
            ), stderr
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for table in manifest["tables"]:  # the winner's files, whole
        for file in table["files"]:
            assert checksum(out / file["path"]) == file["sha256"]
    assert _listing(tmp_path) == ["exported"]


def test_a_plain_build_after_one_with_vars_rebuilds_without_them(small_built: Path, tmp_path: Path) -> None:
    """`--vars` changes what is built: the plain build after it is a full build, never "nothing was
    loaded or changed", and brings the default settings back."""
    db_path = copy_of(small_built, tmp_path)
    folders = dbt_folders(tmp_path)
    seed = "select agreement_seed from intermediate.int_agreement__settings"
    with duckdb.connect(str(db_path), read_only=True) as con:
        default_seed = con.execute(seed).fetchone()[0]
    other_seed = ["--vars", "{agreement_seed: 7}", "--select", "int_agreement__settings"]
    run_dwh(["build", *other_seed], db_path, check=True, env_overrides=folders)
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute(seed).fetchone()[0] == "7" != default_seed  # the non-default settings were published

    plain = run_dwh(["build"], db_path, check=True, env_overrides=folders)

    assert plain.stdout.splitlines()[0] == (
        "dwh build: full build (the last build ran with the dbt arguments --vars {agreement_seed: 7} "
        "--select int_agreement__settings: everything is rebuilt without them)"
    )
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute(seed).fetchone()[0] == default_seed
    again = run_dwh(["build"], db_path, check=True, env_overrides=folders)
    assert again.stdout.splitlines()[0] == (
        "dwh build: nothing was loaded or changed, and the project is unchanged, since the last build"
    )


def test_marts_older_than_the_last_load_are_said_to_be(
    small_built: Path, small_releases: dict[str, Path], tmp_path: Path
) -> None:
    """A new load whose build fails leaves the previous build's marts: summary, report and export
    still serve them, each saying in one line that they are older than the last load; the export's
    manifest names the build its marts came from."""
    db_path = copy_of(small_built, tmp_path)
    folders = dbt_folders(tmp_path)
    dices = dices_csv(tmp_path / "dices-input", list(COLUMNS_350), _a_rater_repeated_with_another_answer)
    run_dwh(["ingest", "--dices", str(dices)], db_path, check=True)
    failed = run_dwh(["build"], db_path, env_overrides=folders)
    assert failed.returncode == 1 and "int_dices__rows_keys" in failed.stderr
    assert "dices_350_one_record_per_item_and_rater" in failed.stdout
    with duckdb.connect(str(db_path), read_only=True) as con:
        built_at, loaded_at = con.execute(
            "select (select max(built_at) from raw.warehouse_builds), (select max(finished_at) from raw.ingest_loads)"
        ).fetchone()
    assert built_at < loaded_at
    stamp = f"built {built_at.isoformat(timespec='seconds')}; last load {loaded_at.isoformat(timespec='seconds')}"
    out = tmp_path / "out"
    for command in (["summary"], ["report", str(out / "report.html")], ["export", str(out / "export")]):
        completed = run_dwh(command, db_path)
        assert completed.returncode == 0, completed.stderr
        warnings = [line for line in completed.stderr.splitlines() if line.startswith("dwh:")]
        assert warnings == [
            f"dwh: warning: the marts are older than the last load ({stamp}): dwh {command[0]} serves them as "
            "they are; run dwh build to bring the load in"
        ], completed.stderr
    manifest = json.loads((out / "export" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["build"] == {
        "built_at": built_at.isoformat(timespec="seconds"),
        "last_load_at": loaded_at.isoformat(timespec="seconds"),
        "marts_older_than_last_load": True,
    }
    fresh = run_dwh(["summary"], small_built)  # the build after the last load: not a word
    assert fresh.returncode == 0 and "dwh:" not in fresh.stderr


def _make_docs(db_path: Path, target: Path) -> subprocess.CompletedProcess:
    """`make docs` as a user types it, whether or not the tests themselves run under `make test`: a
    make inside make would announce the directories it enters (make[2]: Entering directory …)."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path), "DBT_TARGET_PATH": str(target)}
    for inherited in ("DWH_DEBUG", "MAKELEVEL", "MAKEFLAGS", "MFLAGS"):
        env.pop(inherited, None)
    command = ["make", "-s", "--no-print-directory", "docs"]
    return subprocess.run(command, cwd=PROJECT_ROOT, env=env, capture_output=True, text=True)


def _dwh_lines(completed: subprocess.CompletedProcess) -> list[str]:
    """The lines dwh said on standard error (make's own `make: *** … Error 1` aside)."""
    return [line for line in completed.stderr.splitlines() if not line.startswith("make: ")]


def test_make_docs_without_a_warehouse_names_the_path(tmp_path: Path) -> None:
    db_path = tmp_path / "warehuose.duckdb"
    completed = _make_docs(db_path, tmp_path / "target")
    assert completed.returncode != 0
    assert _dwh_lines(completed) == [
        f"dwh: error: {db_path}: no warehouse yet (DWH_DB_PATH); run make demo first, or point DWH_DB_PATH at a "
        "built warehouse"
    ]
    assert _listing(tmp_path) == []


def test_make_docs_reads_a_warehouse_others_hold_open(small_built: Path, tmp_path: Path) -> None:
    db_path = copy_of(small_built, tmp_path)
    before = checksum(db_path)
    holder = hold_open(db_path, "read-only")  # a BI tool
    try:
        completed = _make_docs(db_path, tmp_path / "target")
    finally:
        release(holder)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"docs: {tmp_path / 'target' / 'static_index.html'}"
    catalog = json.loads((tmp_path / "target" / "catalog.json").read_text(encoding="utf-8"))
    assert "model.conv_eval_warehouse.ratings" in catalog["nodes"]  # read from the warehouse
    assert checksum(db_path) == before

    holder = hold_open(db_path, "read-write")  # a notebook's plain duckdb.connect(path)
    try:
        refused = _make_docs(db_path, tmp_path / "target")
    finally:
        release(holder)
    assert refused.returncode != 0
    assert _dwh_lines(refused) == [
        f"dwh: error: {db_path}: held open read-write by process {holder.pid}, so it cannot be read meanwhile; "
        "close that connection (or open it with read_only=True), then run make docs again"
    ]
