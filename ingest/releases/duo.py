"""Landing the DUO release: one raw row per dialogue file, JSON kept verbatim.

The release tree is `{ed,wow}/{en,ja}/<id>.json`, possibly under a top folder (GitHub archive
zips add one). Files are read with DuckDB's `read_blob`; decoding, JSON validity and shape are
checked in SQL, and what fails goes to raw.ingest_rejects with the reason.
"""

import json
import re
import tempfile
import zipfile
from pathlib import Path

import duckdb

from common.database import out_of_memory
from common.errors import DwhError
from ingest.archives import extract_members
from ingest.file_facts import refuse_another_release
from ingest.landing import FileReport, LoadContext, record_files_from, record_reject, replace_source_rows
from ingest.queries import ingest_query

SOURCE = "duo"
RELEASE_FILE_PATTERN = re.compile(r"(?:^|/)((ed|wow)/(en|ja)/[^/]+\.json)$")


def land_duo(ctx: LoadContext, path: Path) -> list[FileReport]:
    """Land a DUO release tree or zip; replaces whatever DUO rows earlier loads left."""
    if not path.exists():
        raise DwhError(f"{path}: no such file or folder (expected the DUO release tree or its zip)")
    if path.is_file():
        if not zipfile.is_zipfile(path):
            refuse_another_release(path, "the DUO release", own_kind="DUO")
            raise DwhError(f"{path}: a DUO release is a folder {{ed,wow}}/{{en,ja}}/*.json or a zip of it")
        with tempfile.TemporaryDirectory(prefix="dwh-duo-") as extracted:
            extract_members(path, Path(extracted), is_release_file)
            return _land_tree(ctx, Path(extracted), given_root=path)
    return _land_tree(ctx, path, given_root=path)


def is_release_file(name: str) -> bool:
    """Whether a path (or zip member name) is a dialogue file of the release tree."""
    return RELEASE_FILE_PATTERN.search(name.replace("\\", "/")) is not None


def release_files(root: Path) -> list[Path]:
    """The dialogue files of a release tree, in path order."""
    found = [p for p in root.rglob("*.json") if RELEASE_FILE_PATTERN.search(p.as_posix())]
    if not found:
        raise DwhError(f"{root}: no DUO dialogue files found (expected {{ed,wow}}/{{en,ja}}/<id>.json)")
    return sorted(found)


def _land_tree(ctx: LoadContext, root: Path, given_root: Path) -> list[FileReport]:
    files = release_files(root)
    # a FIFO named *.json would block the reader forever, a dangling link cannot be read: both are
    # rejected by name instead of being handed to DuckDB
    readable = [p for p in files if p.is_file()]
    con = ctx.con
    # Reading thousands of small files in order makes DuckDB buffer them all; the files carry
    # their own paths, so their order is not needed, and memory stays within its limit.
    con.execute("set preserve_insertion_order = false")
    try:
        con.execute(ingest_query("duo/read_files"), [[str(p) for p in readable]])
    except duckdb.OutOfMemoryException as exc:
        largest = max(readable, key=lambda p: p.stat().st_size)  # the likeliest cause, by far as a rule
        # a zip's member by its name in the zip, not by the temporary folder it was extracted to
        named = largest if given_root.is_dir() else Path(f"{given_root}!{largest.relative_to(root).as_posix()}")
        raise out_of_memory(named, largest.stat().st_size) from exc
    finally:
        con.execute("reset preserve_insertion_order")
    _account_for_unread_files(ctx, files)
    _check_duplicate_paths(ctx, given_root)
    replace_source_rows(ctx, SOURCE, ["raw.duo_dialogue_files"])
    con.execute(
        """
        insert into raw.duo_dialogue_files
        select ?, file_path, language, setting, sha256, size_bytes, raw_json
        from duo_read where reject_reason is null
        """,
        [ctx.load_id],
    )
    _record_rejects(ctx)
    record_files_from(
        ctx,
        SOURCE,
        str(given_root),
        "select file_path, sha256, size_bytes, 1 as records_read, (reject_reason is null)::int as records_landed, "
        "(reject_reason is not null)::int as records_rejected from duo_read",
    )
    return _folder_reports(ctx)


def _account_for_unread_files(ctx: LoadContext, files: list[Path]) -> None:
    """Every listed file is read, landed or rejected: those DuckDB did not read become rejects.

    `read_blob` silently skips a path that no longer exists (deleted or moved between listing and
    reading), and non-regular files were never handed to it.
    """
    read = {row[0] for row in ctx.con.execute("select filename from duo_read").fetchall()}
    for path in files:
        if str(path) in read:
            continue
        match = RELEASE_FILE_PATTERN.search(path.as_posix())
        ctx.con.execute(
            "insert into duo_read (filename, file_path, language, setting, reject_reason) values (?, ?, ?, ?, ?)",
            [str(path), match.group(1), match.group(3), match.group(2), _unread_reason(path)],
        )


def _unread_reason(path: Path) -> str:
    if path.is_symlink() and not path.exists():
        return "a symbolic link whose target does not exist"
    if path.exists() and not path.is_file():
        return "not a regular file (a FIFO, socket, device or folder named *.json)"
    return "vanished before it could be read (deleted or moved during the load)"


def _check_duplicate_paths(ctx: LoadContext, given_root: Path) -> None:
    """Two copies of one release path (e.g. a tree nested twice) would be ambiguous."""
    duplicate = ctx.con.execute(
        "select file_path from duo_read group by file_path having count(*) > 1 order by 1 limit 1"
    ).fetchone()
    if duplicate:
        raise DwhError(f"{given_root}: {duplicate[0]} appears more than once in this release")


def _record_rejects(ctx: LoadContext) -> None:
    """Rejected files go to raw.ingest_rejects; JSON errors get their line number from Python."""
    rejected = ctx.con.execute(
        "select file_path, reject_reason, json_text from duo_read where reject_reason is not null order by file_path"
    ).fetchall()
    for file_path, reason, text in rejected:
        line_number, detail = _json_error_position(text) if reason == "not valid JSON" else (None, "")
        record_reject(ctx, SOURCE, file_path, line_number, reason + detail, text)


def _json_error_position(text: str) -> tuple[int | None, str]:
    """Line and message of the first JSON syntax error, as Python's parser reports it."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, f": {exc.msg} at line {exc.lineno} column {exc.colno}"
    return None, ""


def _folder_reports(ctx: LoadContext) -> list[FileReport]:
    """One report per release folder (ed/en, wow/ja, …): DUO has a file per dialogue."""
    rows = ctx.con.execute(
        """
        select setting || '/' || language || '/', count(*),
            count(*) filter (where reject_reason is null), count(*) filter (where reject_reason is not null)
        from duo_read group by all order by 1
        """
    ).fetchall()
    return [FileReport(SOURCE, folder, read, landed, rejected) for folder, read, landed, rejected in rows]
