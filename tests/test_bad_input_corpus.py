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
import hashlib
import io
import json
import os
import re
import shlex
import shutil
import signal
import stat
import struct
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
from tests.helpers import (
    PROJECT_ROOT,
    copy_of_project,
    dbt_folders,
    failing_rows,
    run_dwh,
    selecting,
    warned_or_failed_tests,
)

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
        "DUO file with an empty dialogue_id (issue 44, case 16)",
        "duo",
        lambda r: duo_release(r, lambda d: _set_dialogue_id(d / "ed/en/0005.json", "")),
        reject=("ed/en/0005.json", None, r'^empty or null "dialogue_id" \(the dialogue\'s key needs it\)'),
        landed=454,
    ),
    Case(
        "DUO file with a null dialogue_id (issue 44, case 16)",
        "duo",
        lambda r: duo_release(r, lambda d: _set_dialogue_id(d / "wow/ja/3001.json", None)),
        reject=("wow/ja/3001.json", None, r'^empty or null "dialogue_id"'),
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


def _set_dialogue_id(path: Path, dialogue_id: str | None) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    document["dialogue_id"] = dialogue_id
    path.write_text(json.dumps(document, indent=4), encoding="utf-8")


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
    import duckdb

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


# ==============================================================================================
# Issue 36: never replace what the user did not ask to replace (six bugs that lost or corrupted
# data with exit 0), and ten answers that were unclear. Each test names its case (bug N / answer N).
# The built warehouse is built once, on the corpus's small releases, and only read; a test that
# writes gets its own copy.
# ==============================================================================================


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def the_one_error(completed: subprocess.CompletedProcess) -> str:
    """The single line a refused command printed (ingest's `landing …` progress lines aside)."""
    lines = [line for line in completed.stderr.splitlines() if not line.startswith("landing ")]
    assert completed.returncode == 1 and len(lines) == 1, (completed.returncode, completed.stderr)
    return lines[0]


def run_dwh_in(args: list[str], db_path: Path, timeout: float = 120, umask: int | None = None, **popen) -> tuple:
    """`dwh args` against db_path with a time limit (a hang fails the test instead of stalling it)."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path)}
    env.pop("DWH_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=None if umask is None else (lambda: os.umask(umask)),  # noqa: PLW1509
        **popen,
    )


@pytest.fixture(scope="module")
def small_releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The corpus's small releases of all three sources, as `dwh ingest` takes them."""
    root = tmp_path_factory.mktemp("issue36-releases")
    dices = write_dices_sample(root / "dices-input", seed=2, items_350=1, items_990=1)[0].parent.parent
    train, _ = generate_conversations(6, 2, seed=3)  # without CONVERSATION_391, which the first one repeats
    redial = redial_folder(root / "redial-input", "".join(json.dumps(c) + "\n" for c in train).encode())
    return {"duo": duo_release(root / "duo-input"), "redial": redial, "dices": dices}


def ingest_args(releases: dict[str, Path]) -> list[str]:
    return ["ingest", *(arg for source, path in releases.items() for arg in (f"--{source}", str(path)))]


@pytest.fixture(scope="module")
def small_loaded(small_releases: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse the small releases were ingested into, never built; tests build copies of it."""
    db_path = tmp_path_factory.mktemp("issue36-loaded") / "warehouse.duckdb"
    run_dwh(ingest_args(small_releases), db_path, check=True)
    return db_path


@pytest.fixture(scope="module")
def small_built(small_loaded: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small releases built once, for the tests that read a built warehouse (none writes it)."""
    root = tmp_path_factory.mktemp("issue36-built")
    db_path = root / "warehouse.duckdb"
    shutil.copyfile(small_loaded, db_path)
    run_dwh(["build"], db_path, check=True, env_overrides=dbt_folders(root))
    return db_path


def copy_of(db_path: Path, folder: Path) -> Path:
    copied = folder / db_path.name
    shutil.copyfile(db_path, copied)
    return copied


# --- bug 1: `dwh report OUT` replaced whatever was at OUT -------------------------------------


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
def test_issue36_bug1_a_report_never_replaces_what_is_not_a_report(
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


# --- bug 2 and answer 9: a dbt child killed while a plain dbt run rewrote target/ ---------------


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
    root = tmp_path_factory.mktemp("issue36-killed")
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
        staged = db_path.with_name(db_path.name + ".next")
        deadline = time.monotonic() + 120
        while (dbt_pid := _dbt_child_holding(build.pid, staged)) is None:
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
def test_issue36_bug2_a_killed_build_is_never_published(build_killed_mid_run: dict) -> None:
    assert build_killed_mid_run["returncode"] == 1, build_killed_mid_run["stderr"]
    assert build_killed_mid_run["after"] == build_killed_mid_run["before"]
    assert build_killed_mid_run["left_beside"] == ["warehouse.duckdb.lock"]  # no .next, no .failed


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_issue36_answer9_a_killed_dbt_child_is_said_to_be_killed_and_what_to_try(build_killed_mid_run: dict) -> None:
    assert "Traceback" not in build_killed_mid_run["stderr"]
    assert build_killed_mid_run["stderr"].strip().splitlines()[-1] == (
        "dwh: error: dbt build was killed by signal 9 (SIGKILL: often the out-of-memory killer) before it "
        "finished; nothing was published, warehouse.duckdb is unchanged: free memory (other programs), lower "
        "DWH_BUILD_MEMORY_LIMIT (DuckDB then spills to disk) or add --threads 1, and run dwh build again"
    )


# --- bug 3: `dwh build --empty` published empty marts -------------------------------------------


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
def test_issue36_bug3_a_build_that_is_no_real_build_is_refused(
    args: list[str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_built, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides=dbt_folders(tmp_path))
    assert the_one_error(completed) == f"dwh: error: {answer}"
    assert checksum(db_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]  # nothing locked or copied


def test_issue36_bug3_load_reconciliation_fails_on_an_empty_mart_over_landed_records(
    small_built: Path, tmp_path: Path
) -> None:
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


# --- bug 4: `dwh sample OUT` overwrote a release's files ----------------------------------------


def test_issue36_bug4_a_sample_never_overwrites_a_folder_holding_files(tmp_path: Path) -> None:
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


# --- bug 5: the default warehouse path, a symbolic link, was replaced by a file -----------------


def test_issue36_bug5_the_default_warehouse_path_as_a_symlink_stays_a_link(
    small_releases: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dwh.load import run_ingest
    from ingest.loading import SourceRequest
    from ingest.settings import warehouse_path

    bigger_disk = tmp_path / "bigger-disk" / "warehouse.duckdb"
    bigger_disk.parent.mkdir()
    run_dwh(["ingest", "--dices", str(small_releases["dices"])], bigger_disk, check=True)
    before = checksum(bigger_disk)
    project = tmp_path / "project"
    default_path = project / "data" / "warehouse.duckdb"
    default_path.parent.mkdir(parents=True)
    default_path.symlink_to(bigger_disk)
    monkeypatch.setattr("ingest.settings.PROJECT_ROOT", project)
    monkeypatch.delenv("DWH_DB_PATH", raising=False)

    db_path = warehouse_path()  # as `dwh ingest` finds it, without DWH_DB_PATH
    run_ingest(db_path, [SourceRequest("redial", small_releases["redial"])], progress=lambda step: None)

    assert db_path == bigger_disk
    assert default_path.is_symlink() and default_path.readlink() == bigger_disk
    assert checksum(bigger_disk) != before  # the link's target got the load, not a file in its place
    with duckdb.connect(str(bigger_disk), read_only=True) as con:
        assert con.execute("select count(*) from raw.redial_conversations").fetchone()[0] > 0
        assert con.execute("select count(*) from raw.dices_350").fetchone()[0] > 0


# --- bug 6: DWH_DB_PATH a FIFO hung `dwh summary` and `dwh ingest` -----------------------------


@pytest.mark.parametrize("command", [["summary"], ["ingest", "--duo", "duo"]], ids=["summary", "ingest"])
def test_issue36_bug6_a_fifo_as_the_warehouse_is_refused_not_waited_on(command: list[str], tmp_path: Path) -> None:
    fifo = tmp_path / "warehouse.duckdb"
    os.mkfifo(fifo)
    completed = run_dwh_in(command, fifo, timeout=60)
    assert the_one_error(completed) == (
        f"dwh: error: {fifo.resolve()}: is not a regular file (a FIFO, socket or device) (DWH_DB_PATH); "
        "name a warehouse or a new file"
    )
    assert stat.S_ISFIFO(fifo.stat().st_mode) and sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]


# --- answer 1: DuckDB out of memory on a large DUO file ----------------------------------------


def _grown_to_megabytes(path: Path) -> None:
    """The dialogue repeated until the file is several MiB, still a valid DUO file."""
    document = json.loads(path.read_text(encoding="utf-8"))
    document["dialogue"] = document["dialogue"] * 2000
    path.write_text(json.dumps(document, indent=4), encoding="utf-8")


def test_issue36_answer1_out_of_memory_names_the_file_and_dwh_memory_limit(tmp_path: Path) -> None:
    duo = duo_release(tmp_path / "input", lambda d: _grown_to_megabytes(d / "ed" / "en" / "0001.json"))
    big = duo / "ed" / "en" / "0001.json"
    db_path = tmp_path / "warehouse.duckdb"

    completed = run_dwh(["ingest", "--duo", str(duo)], db_path, env_overrides={"DWH_MEMORY_LIMIT": "16MB"})

    mib = f"{big.stat().st_size / 2**20:,.1f}"
    assert the_one_error(completed) == (
        f"dwh: error: {big} ({mib} MiB): DuckDB ran out of memory landing this file; raise DWH_MEMORY_LIMIT "
        "(now 16MB), e.g. DWH_MEMORY_LIMIT=2GB dwh ingest …"
    )
    assert not db_path.exists()
    run_dwh(["ingest", "--duo", str(duo)], db_path, check=True, env_overrides={"DWH_MEMORY_LIMIT": "2GB"})


def test_issue36_answer1_out_of_memory_in_a_zip_names_the_member(tmp_path: Path) -> None:
    member = "duo/ed/en/0001.json"
    grown = tmp_path / "grown"
    _grown_to_megabytes(duo_release(grown) / "ed" / "en" / "0001.json")
    big = (grown / member).read_bytes()
    archive = _duo_zip(tmp_path / "zipped", lambda a: a.writestr(member, big), leave_out=member)

    completed = run_dwh(
        ["ingest", "--duo", str(archive)], tmp_path / "warehouse.duckdb", env_overrides={"DWH_MEMORY_LIMIT": "16MB"}
    )

    assert the_one_error(completed) == (
        f"dwh: error: {archive}!{member} ({len(big) / 2**20:,.1f} MiB): DuckDB ran out of memory landing this file; "
        "raise DWH_MEMORY_LIMIT (now 16MB), e.g. DWH_MEMORY_LIMIT=2GB dwh ingest …"
    )


# --- answer 2: a DUO zip padded with a huge member ---------------------------------------------


def _duo_zip(root: Path, add: Callable[[zipfile.ZipFile], None], leave_out: str | None = None) -> Path:
    duo = duo_release(root / "tree")
    target = root / "duo.zip"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(duo.rglob("*.json")):
            name = path.relative_to(duo.parent).as_posix()
            if name != leave_out:
                archive.write(path, name)
        add(archive)
    return target


def test_issue36_answer2_only_release_members_of_a_zip_are_extracted(tmp_path: Path) -> None:
    """A member that is no release file is never written out: one whose data is corrupt stops nothing."""
    padding = b"padding " * 8192
    archive = _duo_zip(tmp_path, lambda a: a.writestr(zipfile.ZipInfo("notes/padding.bin"), padding))
    archive.write_bytes(archive.read_bytes().replace(padding, padding.upper()))  # its CRC no longer matches
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh(["ingest", "--duo", str(archive)], db_path)
    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute("select count(*) from raw.duo_dialogue_files").fetchone()[0] == 455


def test_issue36_answer2_a_release_member_out_of_proportion_is_refused_by_name(tmp_path: Path) -> None:
    padded = '{"dialogue_id": "0001", "dialogue": []}' + " " * (20 * 2**20)  # valid JSON, 20 MiB, compresses ~1000x
    member = "duo/ed/en/0001.json"
    archive = _duo_zip(tmp_path, lambda a: a.writestr(member, padded), leave_out=member)
    completed = run_dwh(["ingest", "--duo", str(archive)], tmp_path / "warehouse.duckdb")
    assert re.fullmatch(
        rf"dwh: error: {re.escape(str(archive))}: refusing member '{member}': it expands to 20\.0 MiB from "
        r"[0-9.]+ KiB, over 100 times its compressed size: out of proportion for a release file",
        the_one_error(completed),
    )
    assert not (tmp_path / "warehouse.duckdb").exists()


# --- answers 3 and 4: a DICES rater answering an item twice; a ReDial seeker who is the recommender


def _a_rater_repeated_with_another_answer(rows: list[list[str]]) -> None:
    repeated = list(rows[0])
    repeated[COLUMNS_350.index("id")] = str(max(int(row[0]) for row in rows) + 1)
    answer = COLUMNS_350.index("Q_overall")
    repeated[answer] = "No" if rows[0][answer] != "No" else "Yes"
    rows.append(repeated)


def _seeker_and_recommender_one_worker(root: Path) -> Path:
    """Conversation 391 with the seeker's id for the recommender too, on every message as well."""
    worker = CONVERSATION_391["initiatorWorkerId"]
    messages = [{**message, "senderWorkerId": worker} for message in CONVERSATION_391["messages"]]
    same_worker = {**CONVERSATION_391, "respondentWorkerId": worker, "messages": messages}
    return redial_folder(root, json.dumps(same_worker).encode() + b"\n")


@pytest.fixture(scope="module")
def build_of_release_faults(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, Path, list[str]]:
    """(warehouse, build output, dbt target, the repeated DICES row) of one build of both faults."""
    root = tmp_path_factory.mktemp("issue36-faults")
    dices = dices_csv(root, list(COLUMNS_350), _a_rater_repeated_with_another_answer)
    repeated_row = list(csv.reader(io.StringIO(dices.read_text(encoding="utf-8"), newline="")))[-1]
    redial = _seeker_and_recommender_one_worker(root / "redial-input")
    db_path = root / "warehouse.duckdb"
    run_dwh(["ingest", "--dices", str(dices), "--redial", str(redial)], db_path, check=True)
    built = run_dwh(["build"], db_path, env_overrides=dbt_folders(root))
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    return db_path, built.stdout, root / "target", repeated_row


def test_issue36_answer3_a_dices_350_rater_answering_an_item_twice_is_named(
    build_of_release_faults: tuple[Path, str, Path, list[str]],
) -> None:
    db_path, output, target, repeated = build_of_release_faults
    assert "FAIL: dices_350_one_record_per_item_and_rater" in output
    rows = failing_rows(db_path, "dices_350_one_record_per_item_and_rater", target)
    item, rater = repeated[COLUMNS_350.index("item_id")], repeated[COLUMNS_350.index("rater_id")]
    assert [(row["item_id"], row["rater_id"], row["n_rows"]) for row in rows] == [(item, rater, 2)]


def test_issue36_answer4_a_redial_conversation_with_one_worker_in_both_roles_is_named(
    build_of_release_faults: tuple[Path, str, Path, list[str]],
) -> None:
    db_path, output, target, _ = build_of_release_faults
    assert "FAIL: redial_seeker_and_recommender_are_two_workers" in output
    rows = failing_rows(db_path, "redial_seeker_and_recommender_are_two_workers", target)
    worker = str(CONVERSATION_391["initiatorWorkerId"])
    assert [
        (
            r["dialogue_key"],
            r["source_file"],
            r["source_line_number"],
            r["seeker_worker_id"],
            r["recommender_worker_id"],
        )
        for r in rows
    ] == [("redial:391", "train_data.jsonl", 1, worker, worker)]


# --- answer 6: report and export places that cannot be written, said before the work ------------


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
def test_issue36_answer6_a_place_that_cannot_be_written_is_one_line(
    args: list[str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    (tmp_path / "reports").mkdir()
    given = [arg.replace("{tmp}", str(tmp_path)) for arg in args]
    completed = run_dwh_in(given, small_built)
    assert re.fullmatch("dwh: error: " + answer.replace("{tmp}", re.escape(str(tmp_path))), the_one_error(completed))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no reports.partial left behind
    assert list((tmp_path / "reports").iterdir()) == []


def test_issue36_answer6_an_export_into_a_link_to_an_empty_folder_fills_that_folder(
    small_built: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "bigger-disk" / "export"
    folder.mkdir(parents=True)
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"export: {folder} (manifest: manifest.json)"
    assert link.is_symlink() and (link / "manifest.json").is_file()


# --- answer 7: the export folder was made 0700 --------------------------------------------------


def test_issue36_answer7_the_export_folder_has_the_umasks_mode(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "export"
    completed = run_dwh_in(["export", str(out)], small_built, umask=0o022)
    assert completed.returncode == 0, completed.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert stat.S_IMODE((out / "manifest.json").stat().st_mode) == 0o644


# --- answer 8: `dwh summary | head -1` ------------------------------------------------------------


def test_issue36_answer8_a_closed_pipe_ends_quietly(small_built: Path) -> None:
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


# --- answer 10: `dwh sample --scale 0.1` ----------------------------------------------------------


def test_issue36_answer10_a_fractional_scale_writes_a_small_sample(tmp_path: Path) -> None:
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


# ==============================================================================================
# Issue 36, gaps a review found in the answers above: each test fails without its fix.
# ==============================================================================================

# --- gap 1: `dwh report OUT` wrote through whatever was at OUT.partial --------------------------


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
def test_issue36_gap1_a_report_never_writes_through_what_is_at_out_partial(
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


# --- gap 2: `dwh sample DIR --force` wrote through links and waited on FIFOs ----------------------


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
def test_issue36_gap2_a_forced_sample_replaces_only_regular_release_files(
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


# --- gap 3: a report path that is a link to an earlier report lost its link ---------------------


def test_issue36_gap3_a_report_through_a_link_replaces_its_target_and_keeps_the_link(
    small_built: Path, tmp_path: Path
) -> None:
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


# --- gap 4: builds that are no real build, in dbt's other spellings and its environment ----------


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
def test_issue36_gap4_a_build_that_is_no_real_tested_build_is_refused(
    args: list[str], env: dict[str, str], answer: str, small_built: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_built, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides={**dbt_folders(tmp_path), **env})
    assert the_one_error(completed) == f"dwh: error: {answer}"
    assert checksum(db_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["warehouse.duckdb"]  # nothing locked or copied


# --- gap 5: a DUO zip member whose data does not match its header -------------------------------


def _understated_size(data: bytearray, info: zipfile.ZipInfo) -> None:
    """The central directory says the member expands to half its size."""
    central = data.rfind(info.filename.encode()) - 46  # the name ends the member's central directory entry
    assert data[central : central + 4] == b"PK\x01\x02"
    struct.pack_into("<I", data, central + 24, info.file_size // 2)


def _corrupt_data(data: bytearray, info: zipfile.ZipInfo) -> None:
    """Sixteen bytes of the member's compressed data zeroed."""
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    middle = start + info.compress_size // 2
    data[middle : middle + 16] = bytes(16)


def _damage_member(archive: Path, member: str, damage: Callable[[bytearray, zipfile.ZipInfo], None]) -> None:
    with zipfile.ZipFile(archive) as opened:
        info = opened.getinfo(member)
    data = bytearray(archive.read_bytes())
    damage(data, info)
    archive.write_bytes(bytes(data))


def _says_the_member_is_corrupt(completed: subprocess.CompletedProcess, archive: Path, member: str) -> bool:
    return bool(
        re.fullmatch(
            rf"dwh: error: {re.escape(str(archive))}: member '{member}' is corrupt \((Bad CRC-32 for file '{member}'|"
            r"Error -3 while decompressing data: .+)\)",
            the_one_error(completed),
        )
    )


@pytest.mark.parametrize("damage", [_understated_size, _corrupt_data], ids=["understated-size", "corrupt-data"])
def test_issue36_gap5_a_corrupt_duo_zip_member_is_named(
    damage: Callable[[bytearray, zipfile.ZipInfo], None], tmp_path: Path
) -> None:
    member = "duo/ed/en/0001.json"
    archive = _duo_zip(tmp_path, lambda a: None)
    _damage_member(archive, member, damage)
    db_path = tmp_path / "warehouse.duckdb"

    completed = run_dwh(["ingest", "--duo", str(archive)], db_path)

    assert _says_the_member_is_corrupt(completed, archive, member)
    assert not db_path.exists()


def test_issue36_gap5_a_corrupt_redial_zip_member_is_named_alike(tmp_path: Path) -> None:
    from dwh.sample.redial import write_redial_sample

    archive = write_redial_sample(tmp_path, n_train=40, n_test=10)
    _damage_member(archive, "train_data.jsonl", _corrupt_data)
    db_path = tmp_path / "warehouse.duckdb"

    completed = run_dwh(["ingest", "--redial", str(archive)], db_path)

    assert _says_the_member_is_corrupt(completed, archive, "train_data.jsonl")
    assert not db_path.exists()


# --- answer 5 and gap 6: a ReDial line repeating a key, at the top or in a nested object ---------


def _conversation_id_twice(line: str) -> str:
    return '{"conversationId": "9391", ' + line[1:]  # DuckDB would read 9391, Python 391


def _text_twice_in_a_message(line: str) -> str:
    first = json.dumps(CONVERSATION_391["messages"][0])
    return line.replace(first, first[:-1] + ', "text": "another text"}', 1)


def _liked_twice_in_a_form_answer(line: str) -> str:
    answers = json.dumps(CONVERSATION_391["respondentQuestions"]["203371"])
    return line.replace(answers, answers[:-1] + ', "liked": 0}', 1)


@pytest.mark.parametrize(
    ("repeat", "key"),
    [
        (_conversation_id_twice, "conversationId"),
        (_text_twice_in_a_message, "text"),
        (_liked_twice_in_a_form_answer, "liked"),
    ],
    ids=["conversation-id", "message-text", "form-answer"],
)
def test_issue36_answer5_gap6_a_redial_line_repeating_a_key_is_rejected_with_its_text(
    repeat: Callable[[str], str], key: str, tmp_path: Path
) -> None:
    twice = repeat(json.dumps(CONVERSATION_391))
    assert twice != json.dumps(CONVERSATION_391)
    second = json.dumps({**CONVERSATION_391, "conversationId": "392"})
    folder = redial_folder(tmp_path / "input", f"{twice}\n{second}\n".encode())
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh(["ingest", "--redial", str(folder)], db_path, check=True)
    assert "1 record(s) rejected: see raw.ingest_rejects" in completed.stdout
    with duckdb.connect(str(db_path), read_only=True) as con:
        rejects = con.execute("select file_path, line_number, reason, raw_text from raw.ingest_rejects").fetchall()
        landed = con.execute("select count(*) from raw.redial_conversations").fetchone()[0]
    assert rejects == [
        ("train_data.jsonl", 1, f'duplicate key "{key}" (which of its values counts is ambiguous)', twice)
    ]
    assert landed == 1 + 2  # the second train line and both test lines


# --- gap 7: `dwh export` onto a dangling link ran the whole export, then failed ---------------


def test_issue36_gap7_an_export_onto_a_dangling_link_makes_the_folder_it_names(
    small_built: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "bigger-disk" / "export"
    folder.parent.mkdir()
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == f"export: {folder} (manifest: manifest.json)"
    assert link.is_symlink() and link.readlink() == folder and (folder / "manifest.json").is_file()


def test_issue36_gap7_an_export_onto_a_link_to_nowhere_is_one_line_before_the_work(
    small_built: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "unmounted-disk" / "export"
    link = tmp_path / "export"
    link.symlink_to(folder)
    completed = run_dwh_in(["export", str(link)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {link}: is a symbolic link to {folder}, which does not exist, nor does the folder it would be "
        f"in; create {folder.parent} first, or choose another export folder"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["export"]  # no partial export left beside it


# --- wording: what a sample folder is instead; the default warehouse path; dbt's log --------------


@pytest.mark.parametrize(("make", "kind"), [(os.mkfifo, "a FIFO"), (None, "a device")], ids=["fifo", "device"])
def test_issue36_wording_a_sample_onto_a_fifo_or_device_says_what_it_is(
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


def test_issue36_wording_a_bad_default_warehouse_path_is_named_as_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ingest.errors import DwhError
    from ingest.settings import warehouse_path

    project = tmp_path / "project"
    (project / "data" / "warehouse.duckdb").mkdir(parents=True)
    monkeypatch.setattr("ingest.settings.PROJECT_ROOT", project)
    monkeypatch.delenv("DWH_DB_PATH", raising=False)
    with pytest.raises(DwhError) as refused:
        warehouse_path()
    folder = project / "data" / "warehouse.duckdb"
    assert str(refused.value) == (
        f"{folder}: is a folder, not a DuckDB file (the default warehouse path data/warehouse.duckdb; set DWH_DB_PATH "
        f"to name another); name a file, e.g. {folder / 'warehouse.duckdb'}"
    )


def test_issue36_wording_build_help_names_dbt_log_path(tmp_path: Path) -> None:
    completed = run_dwh_in(["build", "--help"], tmp_path / "unused.duckdb")
    assert completed.returncode == 0, completed.stderr
    assert "dbt's log is dbt.log in $DBT_LOG_PATH when set, else in dbt's target folder" in " ".join(
        completed.stdout.split()
    )


# ==============================================================================================
# Issue 44: say what was not done. Each test names its case (case N).
# ==============================================================================================


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _run_patched(patch: str, args: list[str], db_path: Path) -> subprocess.CompletedProcess:
    """`dwh args` in a subprocess whose Python first runs `patch` (to simulate what a test cannot
    provoke for real: a full disk, another process winning a race)."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path)}
    env.pop("DWH_DEBUG", None)
    script = f"{patch}\nimport sys\nfrom dwh.cli import run\nsys.argv = ['dwh', *{args!r}]\nrun()\n"
    return subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def _with_key_separator(conversation_id: str, movie_id: str) -> dict:
    """Conversation 391 under another id, with one movie (mentioned and answered) under another id."""
    old_movie = next(iter(CONVERSATION_391["movieMentions"]))
    rename = lambda mapping: {movie_id if k == old_movie else k: v for k, v in mapping.items()}  # noqa: E731
    return {
        **CONVERSATION_391,
        "conversationId": conversation_id,
        "movieMentions": rename(CONVERSATION_391["movieMentions"]),
        "respondentQuestions": rename(CONVERSATION_391["respondentQuestions"]),
    }


@pytest.mark.parametrize("prefix", [b"", b"\xef\xbb\xbf"], ids=["whole-file", "in-chunks"])
def test_issue44_case8_redial_ids_holding_the_key_separator_are_rejected_by_line(prefix: bytes, tmp_path: Path) -> None:
    """Conversation 1 with movie 2:3 and conversation 1:2 with movie 3 would both be unit redial:1:2:3:
    each line is rejected, naming its file, line and id; the others land (a byte order mark sends the
    file down the chunked path)."""
    lines = [_with_key_separator("1", "2:3"), _with_key_separator("1:2", "3"), CONVERSATION_391]
    redial = redial_folder(tmp_path / "input", prefix + "".join(json.dumps(c) + "\n" for c in lines).encode())
    db_path = tmp_path / "warehouse.duckdb"
    completed = run_dwh(["ingest", "--redial", str(redial)], db_path)
    assert completed.returncode == 0 and "Traceback" not in completed.stderr, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        rejects = con.execute(
            "select file_path, line_number, reason from raw.ingest_rejects order by line_number"
        ).fetchall()
        landed = con.execute("select file_path, line_number from raw.redial_conversations order by all").fetchall()
    separator = (
        ' holds ":", the separator of the warehouse\'s keys (two records could get one key): fix the id in the release'
    )
    assert rejects == [
        ("train_data.jsonl", 1, 'movie id "2:3"' + separator),
        ("train_data.jsonl", 2, 'conversationId "1:2"' + separator),
    ]
    assert landed == [("test_data.jsonl", 1), ("test_data.jsonl", 2), ("train_data.jsonl", 3)]
    assert "rejected: see raw.ingest_rejects" in completed.stdout


FULL_DISK_ON_PARTIAL_FILES = """
import errno, pathlib
_write_text = pathlib.Path.write_text
def _full(self, *args, **kwargs):
    if self.name.endswith(".partial"):
        raise OSError(errno.ENOSPC, "No space left on device")
    return _write_text(self, *args, **kwargs)
pathlib.Path.write_text = _full
"""


def test_issue44_case9_a_report_on_a_full_disk_names_its_path(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "reports" / "report.html"
    completed = _run_patched(FULL_DISK_ON_PARTIAL_FILES, ["report", str(out)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {out}: could not be written (No space left on device); nothing was written: "
        "free space there or choose another path"
    )
    assert _listing(out.parent) == []  # no report, no partial file left


ANOTHER_EXPORT_GETS_THERE_FIRST = """
import dwh.export
_export_table = dwh.export.export_table
def _meanwhile(con, root, relation):
    out = root.parent / root.name.split(".")[1]  # the staging folder is .<out>.<random>.partial
    if not out.exists() or not any(out.iterdir()):
        out.mkdir(exist_ok=True)
        (out / "manifest.json").write_text("the other export's", encoding="utf-8")
    return _export_table(con, root, relation)
dwh.export.export_table = _meanwhile
"""


def test_issue44_case10_an_export_another_export_beat_says_so(small_built: Path, tmp_path: Path) -> None:
    out = tmp_path / "exported"
    completed = _run_patched(ANOTHER_EXPORT_GETS_THERE_FIRST, ["export", str(out)], small_built)
    assert the_one_error(completed) == (
        f"dwh: error: {out}: another dwh export (or another program) filled this folder while this export ran, "
        "and got there first; its files are left as they are, this export wrote nothing: use that one, "
        "or choose a new folder"
    )
    assert _listing(out) == ["manifest.json"] and (out / "manifest.json").read_text() == "the other export's"
    assert _listing(tmp_path) == ["exported"]  # no staging folder left


def test_issue44_case10_three_exports_at_once_one_wins_intact(small_built: Path, tmp_path: Path) -> None:
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


@pytest.mark.parametrize("command", [["build"], ["ingest", "--dices", "DICES"]], ids=["build", "ingest"])
def test_issue44_case11_a_folder_at_warehouse_next_is_one_line(
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
def test_issue44_case4_agreement_vars_the_figures_cannot_use_are_one_line(
    agreement_vars: str, line: str, small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", "--vars", agreement_vars], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == f"dwh: error: {line}; give it with --vars or in dbt_project.yml"
    assert completed.stdout == "" and checksum(db_path) == before and _listing(tmp_path) == ["warehouse.duckdb"]


@pytest.mark.parametrize("pattern", ["dices/*/Q_Overall", "duo/en:ed/empathie", "dicess/*"])
def test_issue44_case5_a_monte_carlo_pattern_that_matches_no_question_is_one_line(
    pattern: str, small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    given = f"{{agreement_monte_carlo_questions: ['duo/*/*', '{pattern}']}}"
    completed = run_dwh(["build", "--vars", given], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == (
        f"dwh: error: var agreement_monte_carlo_questions: '{pattern}' matches no question of "
        "seeds/judgement_questions.csv ('<source>/<scope>/<question>', names as in marts.ratings.question, "
        "case counts); fix the pattern or use ['*']"
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
def test_issue44_case13_threads_dbt_cannot_use_is_one_line(
    args: list[str], shown: str, small_loaded: Path, tmp_path: Path
) -> None:
    db_path = copy_of(small_loaded, tmp_path)
    before = checksum(db_path)
    completed = run_dwh(["build", *args], db_path, env_overrides=dbt_folders(tmp_path / "dbt"))
    assert the_one_error(completed) == (
        f"dwh: error: --threads: needs a whole number of at least 1 (got {shown}), e.g. --threads 2; "
        "nothing was built, the warehouse is unchanged"
    )
    assert completed.stdout == ""  # no dbt output either
    assert checksum(db_path) == before and _listing(tmp_path) == ["warehouse.duckdb"]


def test_issue44_case2_a_plain_build_after_one_with_vars_rebuilds_without_them(
    small_built: Path, tmp_path: Path
) -> None:
    """`--vars` changes what is built: the plain build after it is a full build, never "nothing was
    loaded or changed", and brings the default figures back."""
    db_path = copy_of(small_built, tmp_path)
    folders = dbt_folders(tmp_path)
    intervals = "select count(alpha_ci_low) from marts.agreement"
    with duckdb.connect(str(db_path), read_only=True) as con:
        default_intervals = con.execute(intervals).fetchone()[0]
    assert default_intervals > 0
    run_dwh(["build", "--vars", "{agreement_monte_carlo: false}"], db_path, check=True, env_overrides=folders)
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute(intervals).fetchone()[0] == 0  # the non-default figures were published

    plain = run_dwh(["build"], db_path, check=True, env_overrides=folders)

    assert plain.stdout.splitlines()[0] == (
        "dwh build: full build (the last build ran with the dbt arguments --vars {agreement_monte_carlo: false}: "
        "everything is rebuilt without them)"
    )
    with duckdb.connect(str(db_path), read_only=True) as con:
        assert con.execute(intervals).fetchone()[0] == default_intervals
    again = run_dwh(["build"], db_path, check=True, env_overrides=folders)
    assert again.stdout.splitlines()[0] == (
        "dwh build: nothing was loaded or changed, and the project is unchanged, since the last build"
    )


def test_issue44_case12_marts_older_than_the_last_load_are_said_to_be(
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
    assert failed.returncode == 1 and "dices_350_one_record_per_item_and_rater" in failed.stderr
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


def test_issue44_case7_duo_objective_scores_off_the_scale_are_named_from_staging(tmp_path: Path) -> None:
    """[6, 3, 3] whose mean matches the published one, and [6, 3, 3] whose mean does not (that
    metric's published-mean test failed too, and skipped the 1-5 test downstream of it): the 1-5 test
    reads the staged dialogues and names both scores, with their files."""
    edited: list[tuple[str, str]] = []

    def off_the_scale(duo: Path) -> None:
        for path in sorted((duo / "ed" / "en").glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            evaluation = document.get("objective_evaluation")
            if not evaluation:
                continue
            metric = "empathy" if not edited else "preference"
            evaluation[f"{metric}_scores"] = [6.0, 3.0, 3.0]
            evaluation[metric] = 4.0 if not edited else 3.0  # the mean, then not the mean
            path.write_text(json.dumps(document, indent=4), encoding="utf-8")
            edited.append((path.relative_to(duo).as_posix(), metric))
            if len(edited) == 2:
                return

    duo = duo_release(tmp_path / "input", off_the_scale)
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--duo", str(duo)], db_path, check=True)
    loaded = checksum(db_path)
    tests = ["duo_objective_score_is_integer_1_to_5", "duo_objective_published_mean_matches_scores"]
    built = run_dwh(["build", *selecting(*tests)], db_path, env_overrides=dbt_folders(tmp_path))
    assert built.returncode == 1 and "Traceback" not in built.stderr, built.stderr
    # the staging test fails first; what it stops downstream (the published-mean test among them) is skipped
    assert f"FAIL: {tests[0]} (2 row(s))" in built.stdout and "were skipped" in built.stdout
    rows = failing_rows(db_path, tests[0], tmp_path / "target")
    assert sorted((r["file_path"], r["metric"], r["annotator_slot"], r["score_raw"]) for r in rows) == sorted(
        (file_path, metric, 1, "6.0") for file_path, metric in edited
    )
    assert {r["dialogue_key"] for r in rows} == {f"duo:en:{Path(file_path).stem}" for file_path, _ in edited}
    assert checksum(db_path) == loaded


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


def test_issue44_case1_exclusion_seed_keys_that_match_no_rater_stop_the_build_by_line(
    small_loaded: Path, tmp_path: Path
) -> None:
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


def test_issue44_case1_exclusion_seed_keys_match_their_raters_whatever_the_spaces(
    small_loaded: Path, tmp_path: Path
) -> None:
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


def test_issue44_case14_make_docs_without_a_warehouse_names_the_path(tmp_path: Path) -> None:
    db_path = tmp_path / "warehuose.duckdb"
    completed = _make_docs(db_path, tmp_path / "target")
    assert completed.returncode != 0
    assert _dwh_lines(completed) == [
        f"dwh: error: {db_path}: no warehouse yet (DWH_DB_PATH); run make demo first, or point DWH_DB_PATH at a "
        "built warehouse"
    ]
    assert _listing(tmp_path) == []


def test_issue44_case14_make_docs_reads_a_warehouse_others_hold_open(small_built: Path, tmp_path: Path) -> None:
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


# ==============================================================================================
# Judges (`dwh ingest --judges`): bad rows are rejects with file, line and reason while the rest
# loads; a file without a needed column, or a path with no judges file, is one line and loads nothing.
# ==============================================================================================


@pytest.fixture(scope="module")
def judged_units(small_sample_build) -> dict[str, str]:
    """A DUO dialogue and a ReDial conversation with a movie its forms answer `liked` about."""
    db = small_sample_build.db_path
    with duckdb.connect(str(db), read_only=True) as con:
        duo = con.execute("select min(dialogue_key) from marts.dialogues where source = 'duo'").fetchone()[0]
        redial, movie = con.execute(
            "select dialogue_key, movie_id from marts.ratings where source = 'redial' and question = 'liked' "
            "order by all limit 1"
        ).fetchone()
    return {"duo": duo, "redial": redial, "movie": movie}


def judge_line(judge: str, dialogue_key: str, question: str, value: object, movie_id: str | None = None) -> str:
    return json.dumps(
        {"judge": judge, "dialogue_key": dialogue_key, "question": question, "movie_id": movie_id, "value": value}
    )


def test_judges_jsonl_bad_lines_are_rejects_and_the_rest_loads(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo, redial, movie = judged_units["duo"], judged_units["redial"], judged_units["movie"]
    lines = [
        judge_line("j", duo, "empathy", 3.5),  # 1: lands (a number in JSON)
        "",  # 2
        "{not json",  # 3
        '["a list"]',  # 4
        judge_line("j", redial, "liked", 1, movie_id=None),  # 5: ReDial without its movie
        judge_line("j", duo, "empathy", 4, movie_id="123"),  # 6: a movie on a DUO judgement
        judge_line("j", duo, "preference", "high"),  # 7
        judge_line("j", duo, "consistency", 0.5),  # 8
        judge_line("j", redial, "liked", 0, movie_id=movie),  # 9: lands (movie id as text)
        judge_line("j", duo, "engagingness", None),  # 10: value null
    ]
    path = tmp_path / "judges" / "j.jsonl"
    path.parent.mkdir()
    write_text(path, "\n".join(lines) + "\n")

    completed = run_dwh(["ingest", "--judges", str(path.parent)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select line_number from raw.judge_judgements order by 1").fetchall()
        rejects = con.execute(
            "select file_path, line_number, reason from raw.ingest_rejects where source = 'judge' order by 2"
        ).fetchall()
    assert landed == [(1,), (9,)]
    assert rejects == [
        ("j.jsonl", 2, "empty line"),
        ("j.jsonl", 3, "not valid JSON"),
        ("j.jsonl", 4, "not a JSON object"),
        ("j.jsonl", 5, "movie_id: empty; a ReDial judgement names the form's movie"),
        ("j.jsonl", 6, "movie_id '123': only ReDial judgements name a movie"),
        ("j.jsonl", 7, "value 'high': not a number; preference takes a number from 1 to 5"),
        ("j.jsonl", 8, "value '0.5': off the scale of consistency (1 to 5)"),
        ("j.jsonl", 10, "value: empty"),
    ]


def test_judges_csv_record_the_reader_cannot_split_is_a_reject_and_later_lines_keep_their_numbers(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo = judged_units["duo"]
    path = tmp_path / "j.csv"
    write_text(
        path,
        "judge,dialogue_key,question,value\n"
        f"j,{duo},empathy,3\n"
        f"j,{duo},preference,3,extra,fields\n"
        f"j,{duo},consistency,2\n"
        f"j,{duo},wit,2\n",
    )

    completed = run_dwh(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select question, line_number from raw.judge_judgements order by 2").fetchall()
        rejects = con.execute(
            "select line_number, reason from raw.ingest_rejects where source = 'judge' order by 1"
        ).fetchall()
    assert landed == [("empathy", 2), ("consistency", 4)]
    assert [line for line, _ in rejects] == [3, 5]
    assert rejects[0][1].startswith("the CSV reader could not read this record: too many columns")
    assert rejects[1][1] == "question 'wit': not a question of duo (seeds/judgement_questions.csv)"


@pytest.mark.parametrize(
    ("name", "content", "answer"),
    [
        ("no_judge.csv", "dialogue_key,question,value\nduo:en:0000,empathy,3\n", "no column 'judge'"),
        (
            "no_value.jsonl",
            '{"judge": "j", "dialogue_key": "duo:en:0000", "question": "empathy"}\n',
            "no column 'value'",
        ),
        ("notes.txt", "judge,dialogue_key,question,value\n", "not a judges file by its extension"),
    ],
    ids=["csv-without-judge", "jsonl-without-value", "not-a-judges-file"],
)
def test_a_judges_file_that_cannot_load_is_one_line_and_loads_nothing(
    name: str, content: str, answer: str, small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    before = checksum(db_path)
    path = tmp_path / name
    write_text(path, content)

    completed = run_dwh(["ingest", "--judges", str(path)], db_path)

    assert the_one_error(completed).startswith(f"dwh: error: {path}: {answer}")
    assert checksum(db_path) == before
