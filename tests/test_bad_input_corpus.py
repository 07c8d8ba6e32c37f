"""Bad input in one place: broken and hostile files, settings a careful user can get wrong, and
full or read-only disks, each with the answer a user should get.

Every case runs the real command line. The answer is one of: a one-line `dwh: error:` naming the
file (and line or row) with a non-zero exit; a row in raw.ingest_rejects with file, line and
reason while the rest loads; or, for values that parse but break a documented rule, a failing
`dwh build` whose output names the offending item and value. Never a traceback, never a drop.

Settings (a warehouse path that is no DuckDB file, a memory limit DuckDB cannot read, a file held
open by another client, Ctrl-C): refused up front with one line naming the setting, a non-zero exit,
and nothing locked, copied or written beside the warehouse.

Disks: a warehouse folder on a read-only or a full file system gets one line naming the folder and
the cause, a non-zero exit, the live file as it was and no staged leftovers (`.next`, its WAL or
checkpoint WAL, `.failed`). Each case mounts a small tmpfs in a private user and mount namespace
(`unshare -rm`, no root needed), so the real disk is never filled.
"""

import contextlib
import csv
import fcntl
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from dwh.sample.dices import write_dices_sample
from dwh.sample.duo import write_duo_sample
from dwh.sample.redial import CONVERSATION_391, generate_conversations
from ingest.dices_columns import COLUMNS_350
from tests.helpers import PROJECT_ROOT, failing_rows, run_dwh, selecting

pytestmark = pytest.mark.slow  # each case runs the command line; some build


@dataclass(frozen=True)
class Case:
    """A release the test writes, the source flag it is given as, and the expected answer."""

    name: str
    source: str
    write: Callable[[Path], Path]
    error: str | None = None  # regex the one `dwh: error:` line (the last on stderr) must match
    reject: tuple[str, int | None, str] | None = None  # (file_path, line_number, reason regex)
    landed: int | None = None  # records expected in the source's raw table


def duo_release(root: Path, edit: Callable[[Path], None] | None = None) -> Path:
    write_duo_sample(root, seed=11)
    if edit:
        edit(root / "duo")
    return root / "duo"


def redial_folder(root: Path, train: bytes | None = None) -> Path:
    folder = root / "redial"
    folder.mkdir(parents=True)
    train_conversations, test_conversations = generate_conversations(6, 2, seed=3)
    default_train = "\n".join(json.dumps(c) for c in [CONVERSATION_391, *train_conversations]).encode() + b"\n"
    (folder / "train_data.jsonl").write_bytes(default_train if train is None else train)
    (folder / "test_data.jsonl").write_text("\n".join(json.dumps(c) for c in test_conversations) + "\n")
    return folder


def dices_csv(root: Path, header: list[str], mutate_rows: Callable[[list[list[str]]], None] | None = None) -> Path:
    """A small 350 file re-written with another header and / or altered rows."""
    written = write_dices_sample(root / "sample", seed=2, items_350=1, items_990=1)[0]
    rows = list(csv.reader(io.StringIO(written.read_text(encoding="utf-8"), newline="")))[1:]
    if mutate_rows:
        mutate_rows(rows)
    target = root / "dices.csv"
    with target.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows([header, *rows])
    return target


def _zip_of(folder: Path) -> Path:
    target = folder.parent / "redial_dataset.zip"
    with zipfile.ZipFile(target, "w") as archive:
        for member in sorted(folder.iterdir()):
            archive.write(member, member.name)
    return target


def write_text(path: Path, text: str | bytes) -> None:
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))


PHYSICAL_LINE = -1  # the reject's line is checked by _physical_line_of_record_5

CASES = [
    Case(
        "truncated DUO JSON",
        "duo",
        lambda r: duo_release(r, lambda d: write_text(d / "ed/en/0001.json", '{\n  "dialogue_id": "0001",\n  "dia')),
        reject=("ed/en/0001.json", 3, r"^not valid JSON"),
        landed=454,
    ),
    Case(
        "DUO file with invalid UTF-8",
        "duo",
        lambda r: duo_release(
            r, lambda d: write_text(d / "wow/ja/3000.json", b'{"dialogue_id": 3000, "x": "\xe3\x81"}')
        ),
        reject=("wow/ja/3000.json", None, r"^not valid UTF-8 text$"),
        landed=454,
    ),
    Case(
        "DUO file with a UTF-8 BOM and CRLF line ends",
        "duo",
        lambda r: duo_release(
            r,
            lambda d: write_text(
                d / "ed/ja/2000.json", b"\xef\xbb\xbf" + (d / "ed/ja/2000.json").read_bytes().replace(b"\n", b"\r\n")
            ),
        ),
        landed=455,
    ),
    Case(
        "empty DUO file",
        "duo",
        lambda r: duo_release(r, lambda d: write_text(d / "ed/en/0002.json", "")),
        reject=("ed/en/0002.json", None, r"^empty file$"),
        landed=454,
    ),
    Case(
        "DUO file of the wrong shape",
        "duo",
        lambda r: duo_release(r, lambda d: write_text(d / "ed/en/0004.json", '{"id": 4, "turns": []}')),
        reject=("ed/en/0004.json", None, r"missing key \"dialogue_id\""),
        landed=454,
    ),
    Case(
        "DUO path that does not exist",
        "duo",
        lambda r: r / "nowhere",
        error=r"^dwh: error: .*nowhere: no such file or folder",
    ),
    Case(
        "ReDial line cut in half",
        "redial",
        lambda r: redial_folder(
            r,
            json.dumps(CONVERSATION_391).encode()[:500]
            + b"\n"
            + json.dumps(CONVERSATION_391).encode().replace(b'"391"', b'"392"')
            + b"\n",
        ),
        reject=("train_data.jsonl", 1, r"^not valid JSON"),
        landed=1 + 2,
    ),
    Case(
        "ReDial line with invalid UTF-8, CRLF and a BOM",
        "redial",
        lambda r: redial_folder(
            r, b"\xef\xbb\xbf" + json.dumps(CONVERSATION_391).encode() + b"\r\n\xff\xfe broken\r\n"
        ),
        reject=("train_data.jsonl", 2, r"^not valid UTF-8 text$"),
        landed=1 + 2,
    ),
    Case(
        "a CSV handed in as ReDial",
        "redial",
        lambda r: redial_folder(r, b"movieId,movieName,nbMentions\n111776,Kill Bill (2003),3\n"),
        error=r"^dwh: error: .*train_data\.jsonl: does not look like ReDial JSONL: no line is valid JSON \(line 1",
    ),
    Case(
        "ReDial's train_data.jsonl handed in as DICES",
        "dices",
        lambda r: redial_folder(r) / "train_data.jsonl",
        error=r"^dwh: error: .*train_data\.jsonl: this looks like a ReDial JSONL file \(--redial\), not a DICES CSV$",
    ),
    Case(
        "ReDial's zip handed in as DICES",
        "dices",
        lambda r: _zip_of(redial_folder(r)),
        error=r"^dwh: error: .*redial_dataset\.zip: this looks like a zip archive .*, not a DICES CSV$",
    ),
    Case(
        "a DICES CSV handed in as ReDial",
        "redial",
        lambda r: dices_csv(r, list(COLUMNS_350)),
        error=r"^dwh: error: .*dices\.csv: this looks like a DICES CSV \(--dices\), not a ReDial release file$",
    ),
    Case(
        "a DICES CSV handed in as DUO",
        "duo",
        lambda r: dices_csv(r, list(COLUMNS_350)),
        error=r"^dwh: error: .*dices\.csv: this looks like a DICES CSV \(--dices\), not the DUO release$",
    ),
    Case(
        "a zip whose member climbs out of the folder",
        "redial",
        lambda r: _hostile_zip(r / "redial_dataset.zip"),
        error=r"^dwh: error: .*redial_dataset\.zip.*\.\./\.\./train_data\.jsonl",
    ),
    Case(
        "DICES file with a missing column",
        "dices",
        lambda r: dices_csv(
            r, [c for c in COLUMNS_350 if c != "safety_gold"], lambda rows: [row.pop(15) for row in rows]
        ),
        error=r"^dwh: error: .*dices\.csv: .*missing.*safety_gold",
    ),
    Case(
        "DICES file with an extra column",
        "dices",
        lambda r: dices_csv(r, [*COLUMNS_350, "notes"], lambda rows: [row.append("") for row in rows]),
        error=r"^dwh: error: .*dices\.csv: .*unexpected.*notes",
    ),
    Case(
        "DICES row with an extra field",
        "dices",
        lambda r: dices_csv(r, list(COLUMNS_350), lambda rows: rows[4].append("surplus")),
        # the physical line differs from the record number: contexts span several lines
        reject=("dices.csv", PHYSICAL_LINE, r"^row 5: too many columns"),
        landed=122,
    ),
    Case("empty DICES file", "dices", lambda r: _empty(r / "empty.csv"), error=r"^dwh: error: .*empty\.csv"),
]


def _hostile_zip(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("../../train_data.jsonl", json.dumps(CONVERSATION_391) + "\n")
    return path


def _empty(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def _physical_line_of_record_5(line_number: int | None) -> bool:
    return line_number is not None and line_number > 6


RAW_TABLES = {
    "duo": "raw.duo_dialogue_files",
    "redial": "raw.redial_conversations",
    "dices": "(select * from raw.dices_350 union all by name select * from raw.dices_990)",
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_gets_a_clear_answer(case: Case, tmp_path: Path) -> None:
    given = case.write(tmp_path / "input")
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh(["ingest", f"--{case.source}", str(given)], db_path)
    assert "Traceback" not in completed.stderr
    if case.error:
        assert completed.returncode == 1
        errors = [line for line in completed.stderr.splitlines() if line.startswith("dwh:")]
        assert len(errors) == 1 and errors[0] == completed.stderr.strip().splitlines()[-1], completed.stderr
        assert re.search(case.error, errors[0]), completed.stderr
        return
    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        rejects = con.execute("select file_path, line_number, reason from raw.ingest_rejects").fetchall()
        landed = con.execute(f"select count(*) from {RAW_TABLES[case.source]}").fetchone()[0]
    if case.reject:
        file_path, line_number, reason = case.reject
        assert [r[0] for r in rejects] == [file_path], rejects
        if line_number == PHYSICAL_LINE:
            assert _physical_line_of_record_5(rejects[0][1]), rejects
        else:
            assert rejects[0][1] == line_number, rejects
        assert re.search(reason, rejects[0][2]), rejects
        assert "rejected: see raw.ingest_rejects" in completed.stdout
    else:
        assert rejects == []
    assert landed == case.landed


# ---------------------------------------------------------------- settings a careful user can get wrong


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
def interrupt_inputs(
    sample_release: Path, real_duo: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path]:
    """(the session's sample of all three sources to ingest, a warehouse with the real DUO release to build)."""
    root = tmp_path_factory.mktemp("interrupts")
    loaded = root / "loaded.duckdb"
    assert run_dwh_with({"DWH_DB_PATH": str(loaded)}, ["ingest", "--duo", str(real_duo)]).returncode == 0
    return sample_release, loaded


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


# ---------------------------------------------------------------- full and read-only disks


MOUNT = "/mnt"  # inside the private namespace only


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


def refused(output: str, cause: str) -> bool:
    """The step printed exactly one line, the folder error with `cause`, and exited 1."""
    return output.splitlines() == [output.splitlines()[0], "exit=1"] and output.startswith(folder_error(cause))


def folder_error(cause: str) -> str:
    return (
        f"dwh: error: {MOUNT}: the warehouse's folder {cause}; dwh ingest and dwh build write the new version "
        "beside warehouse.duckdb (about its size again): "
    )


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
        "dwh build",
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


# ---------------------------------------------------------------- values that break documented rules


def test_values_that_break_documented_rules_fail_the_build_naming_them(tmp_path: Path) -> None:
    """Scores of 7, "five" and "4" (subjective and objective alike), and one conversation id in both
    ReDial split files: one build names all."""
    objective_file: list[str] = []

    def bad_scores(duo: Path) -> None:
        for name, metric, value in [
            ("0001", "preference", 7.0),
            ("0002", "consistency", "five"),
            ("0003", "empathy", "4"),
        ]:
            path = duo / "ed" / "en" / f"{name}.json"
            document = json.loads(path.read_text(encoding="utf-8"))
            document["subjective_evaluation"][metric] = value
            path.write_text(json.dumps(document, indent=4), encoding="utf-8")
        for path in sorted((duo / "ed" / "en").glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            if document.get("objective_evaluation"):
                document["objective_evaluation"]["preference_scores"][1] = "4"  # a string, though it reads like 4
                path.write_text(json.dumps(document, indent=4), encoding="utf-8")
                objective_file.append(path.stem)
                return

    duo = duo_release(tmp_path / "duo-input", bad_scores)
    redial = redial_folder(tmp_path / "redial-input")
    test_file = redial / "test_data.jsonl"
    test_file.write_text(test_file.read_text() + json.dumps(CONVERSATION_391) + "\n")
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--duo", str(duo), "--redial", str(redial)], db_path, check=True)
    failing = [
        "duo_subjective_score_is_integer_1_to_5",
        "duo_subjective_score_is_a_json_number",
        "duo_objective_score_is_a_json_number",
        "redial_conversation_ids_unique",
    ]
    built = run_dwh(["build", *selecting(*failing)], db_path)
    assert built.returncode == 1
    assert "Traceback" not in built.stderr

    for test_name in failing:  # the console names each failed test; its rows are checked below
        assert f"FAIL: {test_name}" in built.stdout
    rows = {name: failing_rows(db_path, name) for name in failing}
    subjective = lambda name: [(r["dialogue_key"], r["metric"], r["score_raw"], r["score_problem"]) for r in rows[name]]  # noqa: E731
    assert subjective("duo_subjective_score_is_integer_1_to_5") == [("duo:en:0001", "preference", "7.0", None)]
    assert sorted(subjective("duo_subjective_score_is_a_json_number")) == [
        ("duo:en:0002", "consistency", '"five"', "not a number: a JSON string"),
        ("duo:en:0003", "empathy", '"4"', "not a number: a JSON string"),
    ]
    assert [
        (r["dialogue_key"], r["metric"], r["annotator_slot"], r["score_raw"], r["score_problem"])
        for r in rows["duo_objective_score_is_a_json_number"]
    ] == [(f"duo:en:{objective_file[0]}", "preference", 2, '"4"', "not a number: a JSON string")]
    repeated = {
        (r["conversation_id"], r["file_path"], r["line_number"]) for r in rows["redial_conversation_ids_unique"]
    }
    assert {("391", "test_data.jsonl", 3), ("391", "train_data.jsonl", 1)} <= repeated
    assert {conversation for conversation, _, _ in repeated} == {"391"}


def test_a_source_failing_beside_another_publishes_nothing(tmp_path: Path) -> None:
    """ReDial and DICES land side by side; when ReDial fails, the error names its file and the
    warehouse keeps what the previous load published, DICES rows included."""
    dices = write_dices_sample(tmp_path / "releases", seed=2, items_350=1, items_990=1)[0].parent.parent
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--dices", str(dices)], db_path, check=True)
    count_sql = (
        "select (select count(*) from raw.dices_350) + (select count(*) from raw.dices_990),"
        " count(*) from raw.ingest_loads"
    )
    with duckdb.connect(str(db_path), read_only=True) as con:
        before = con.execute(count_sql).fetchone()
    not_redial = redial_folder(tmp_path / "bad", train=b"movieId,movieName\n1,x\n")

    completed = run_dwh(["ingest", "--redial", str(not_redial), "--dices", str(dices)], db_path)

    assert completed.returncode == 1 and "Traceback" not in completed.stderr
    last_line = completed.stderr.strip().splitlines()[-1]
    assert last_line.startswith("dwh: error:") and "train_data.jsonl: does not look like ReDial JSONL" in last_line
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute(count_sql).fetchone() == before
    assert before[0] > 0
