"""Landing the ReDial release: one raw row per JSONL line, the line kept verbatim.

PATH is the release zip (`redial_dataset.zip`), a folder holding `train_data.jsonl` and / or
`test_data.jsonl` (and optionally `movies_with_mentions.csv`), or one of those JSONL files.
Zip members are matched on their base name, so they may sit in a subfolder.

Everything is set-based SQL in DuckDB. A split file is landed whole by DuckDB's CSV reader, one
line per row with a delimiter byte that cannot occur in JSON (so nothing is split or unquoted),
numbered by position, and checked against the file's own bytes: as many rows as physical lines
and exactly the file's line bytes. Then the lines are classified in SQL and the ones that are not
conversations move to raw.ingest_rejects. A file the reader cannot reproduce exactly (invalid
UTF-8, a byte order mark, a stray "\\r" or \\x01 byte, a line over 2 MB) is landed instead in
newline-aligned chunks of 4 MiB that Python splits on "\\n" (exact 1-based physical line numbers;
a chunk that is not valid UTF-8 goes through the blob path line by line). Memory stays flat either
way: DuckDB spills, and chunks are bounded.

- A trailing "\\r" (CRLF files) is not part of the line; everything else is kept byte for byte.
- A final newline does not make an extra record; a blank line elsewhere is rejected ("empty line").
- A line that is not valid UTF-8 is rejected on its own, the other lines of that file still land;
  raw_text shows the line with every byte outside printable ASCII, and "\\", written `\\xNN`.
- A UTF-8 byte order mark at the start of a file is ignored for validation and kept in raw_line.
- A file where no line is valid JSON, or no line is a ReDial conversation, is a DwhError
  ("does not look like ReDial JSONL").
"""

import tempfile
import zipfile
from collections.abc import Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import duckdb

from common.errors import DwhError
from ingest.archives import extract_by_base_name
from ingest.file_facts import FileFacts, refuse_another_release, refuse_unreadable_file, scan_file, scanning
from ingest.landing import (
    FileReport,
    LoadContext,
    number_rows_in_file_order,
    record_file,
    record_reject,
    record_rejects_from,
    replace_source_rows,
    transaction,
)
from ingest.queries import ingest_query

SOURCE = "redial"
SPLIT_FILES = {"train_data.jsonl": "train", "test_data.jsonl": "test"}
MOVIES_FILE = "movies_with_mentions.csv"
LAYOUT_HINT = "expected redial_dataset.zip, or a folder or path holding train_data.jsonl / test_data.jsonl"
MOVIES_HEADER = "movieId,movieName,nbMentions"
LINES_TABLE = "raw.redial_conversations"
TABLES = [LINES_TABLE, "raw.redial_movies"]
# Lines are classified this many bytes at a time, so that memory does not grow with the file.
CHUNK_BYTES = 4 << 20
# A ReDial conversation is a few kilobytes on one line; a line longer than this is rejected as
# "line too long" without ever being held in memory whole (docs/OPERATING.md, "Nothing lost, bad input answered").
MAX_LINE_BYTES = 8 << 20
OVERLONG_SHOWN_BYTES = 200
SKIP_READ_BYTES = 1 << 20


@dataclass(frozen=True)
class JsonlReading:
    """How the split files are read. whole_files: DuckDB's CSV reader first (checked against the
    file's bytes), newline-aligned chunks of chunk_bytes only where it cannot reproduce the file;
    False reads in chunks only (the tests compare both paths, with tiny chunks)."""

    whole_files: bool = True
    chunk_bytes: int = CHUNK_BYTES


def land_redial(ctx: LoadContext, path: Path, reading: JsonlReading = JsonlReading()) -> list[FileReport]:
    """Land a ReDial release zip, folder or split file; replaces whatever ReDial rows earlier loads left."""
    refuse_unreadable_file(path, f"give the release zip or its folder ({LAYOUT_HINT})")
    if not path.exists():
        raise DwhError(f"{path}: no such file or folder ({LAYOUT_HINT})")
    replace_source_rows(ctx, SOURCE, TABLES)
    if path.is_dir():
        return _land_files(ctx, _release_files(path, str(path)), str(path), reading)
    if path.name in SPLIT_FILES:
        return _land_files(ctx, {path.name: (path, str(path))}, str(path), reading)
    if zipfile.is_zipfile(path):
        with tempfile.TemporaryDirectory(prefix="dwh-redial-") as extracted:
            return _land_files(ctx, _extract_release(path, Path(extracted)), str(path), reading)
    refuse_another_release(path, "a ReDial release file", own_kind="ReDial")
    raise DwhError(f"{path}: not a zip, and not train_data.jsonl / test_data.jsonl ({LAYOUT_HINT})")


def _release_files(folder: Path, label: str) -> dict[str, tuple[Path, str]]:
    """The release files present in a folder: base name -> (path on disk, name shown in messages)."""
    names = [*SPLIT_FILES, MOVIES_FILE]
    for name in names:
        refuse_unreadable_file(folder / name, "remove it from the folder or replace it with the release file")
    found = {name: (folder / name, str(folder / name)) for name in names if (folder / name).is_file()}
    if not any(name in found for name in SPLIT_FILES):
        raise DwhError(f"{label}: neither train_data.jsonl nor test_data.jsonl found")
    return found


def _extract_release(zip_path: Path, destination: Path) -> dict[str, tuple[Path, str]]:
    """Copy the release files out of the zip, flat; a zip without a split file is no ReDial release."""
    files = extract_by_base_name(zip_path, destination, [*SPLIT_FILES, MOVIES_FILE])
    if not any(name in files for name in SPLIT_FILES):
        raise DwhError(f"{zip_path}: neither train_data.jsonl nor test_data.jsonl is in this zip")
    return files


def _land_files(
    ctx: LoadContext, files: dict[str, tuple[Path, str]], given_path: str, reading: JsonlReading
) -> list[FileReport]:
    """Land the split files (train first) and the movie list when present; one report each."""
    reports = []
    for name in [*SPLIT_FILES, MOVIES_FILE]:
        if name not in files:
            continue
        path, label = files[name]
        try:
            if name == MOVIES_FILE:
                facts = scan_file(path, label)
                report = _land_movies(ctx, path, label)
            else:
                report, facts = _land_jsonl(ctx, path, name, label, reading)
        except duckdb.Error as exc:
            raise DwhError(f"{label}: {str(exc).splitlines()[0]}") from exc
        record_file(ctx, report, given_path, facts.sha256, facts.size_bytes)
        reports.append(report)
    return reports


@dataclass(frozen=True)
class OverlongLine:
    """A line longer than MAX_LINE_BYTES: skipped in bounded reads, never held whole, and rejected."""

    line_number: int
    size_bytes: int
    start: bytes  # its first bytes, for the reject's text


def newline_aligned_chunks(
    path: Path, chunk_bytes: int | None = None, max_line_bytes: int | None = None
) -> Iterator[tuple[int, bytes | OverlongLine]]:
    """The file in pieces of about `chunk_bytes` that end on a line break, each with the number of
    lines before it, and an OverlongLine in place of each line longer than `max_line_bytes`:
    memory stays flat however large the file, or one of its lines, grows."""
    size, limit = chunk_bytes or CHUNK_BYTES, max_line_bytes or MAX_LINE_BYTES
    lines_before = 0
    pending: list[bytes] = []  # the start of a line the reads cut, in pieces (joined once, when it ends)
    pending_bytes = 0
    with path.open("rb") as handle:
        while block := handle.read(size):
            line_end = block.find(b"\n")
            if pending_bytes and line_end >= 0 and pending_bytes + line_end > limit:  # the cut line ends here, too long
                yield lines_before, OverlongLine(lines_before + 1, pending_bytes + line_end, _start_of(pending))
                lines_before, pending, pending_bytes = lines_before + 1, [], 0
                block = block[line_end + 1 :]
            cut = block.rfind(b"\n") + 1
            if cut:
                complete = b"".join([*pending, block[:cut]])
                yield lines_before, complete
                lines_before += complete.count(b"\n")
                pending, pending_bytes = [block[cut:]], len(block) - cut
            else:
                pending.append(block)
                pending_bytes += len(block)
            if pending_bytes > limit:
                yield lines_before, _skip_overlong_line(handle, pending, pending_bytes, lines_before + 1)
                lines_before, pending, pending_bytes = lines_before + 1, [], 0
        if pending_bytes:
            yield lines_before, b"".join(pending)


def _start_of(pieces: list[bytes]) -> bytes:
    """The first OVERLONG_SHOWN_BYTES of a line held in pieces."""
    start = b""
    for piece in pieces:
        start += piece[: OVERLONG_SHOWN_BYTES - len(start)]
        if len(start) >= OVERLONG_SHOWN_BYTES:
            break
    return start


def _skip_overlong_line(handle: BinaryIO, pending: list[bytes], pending_bytes: int, line_number: int) -> OverlongLine:
    """Read to the end of a line already longer than the limit, SKIP_READ_BYTES at a time, keeping none of it."""
    start = _start_of(pending)
    size_bytes = pending_bytes
    while piece := handle.readline(SKIP_READ_BYTES):
        if piece.endswith(b"\n"):
            size_bytes += len(piece) - 1
            break
        size_bytes += len(piece)
    return OverlongLine(line_number, size_bytes, start)


def _land_jsonl(
    ctx: LoadContext, path: Path, file_name: str, label: str, reading: JsonlReading
) -> tuple[FileReport, FileFacts]:
    """Land one split file: good lines to raw.redial_conversations, the others to raw.ingest_rejects.
    A file in which nothing lands is refused whole."""
    with scanning(path, label) as scan:
        landed_whole = reading.whole_files and _land_whole_file(ctx, path, file_name, scan)
        facts = scan.result()
    if landed_whole:
        read = facts.physical_lines  # what _land_whole_file landed, checked against the file
        json_lines, rejected, first_reject = _reject_landed_lines(ctx, file_name, read)
    else:
        read, json_lines, rejected, first_reject = _land_in_chunks(ctx, path, file_name, reading.chunk_bytes)
    ctx.con.execute("drop table if exists redial_classified; drop table if exists redial_lines")
    _refuse_foreign_file(label, read, json_lines, rejected, first_reject)
    return FileReport(SOURCE, file_name, read, read - rejected, rejected), facts


def _land_whole_file(ctx: LoadContext, path: Path, file_name: str, scan: "Future[FileFacts]") -> bool:
    """Land every line of the file with DuckDB's CSV reader; False (and nothing landed) when the
    rows are not exactly the file's lines, so that the caller lands it in chunks instead."""
    try:
        with transaction(ctx.con):
            ctx.con.execute(
                ingest_query("redial/insert_whole_file"), [ctx.load_id, file_name, SPLIT_FILES[file_name], str(path)]
            )
            rows = number_rows_in_file_order(ctx, LINES_TABLE, "line_number", file_name)
            line_bytes, longest_line = ctx.con.execute(
                f"select coalesce(sum(strlen(raw_line)), 0), coalesce(max(strlen(raw_line)), 0) from {LINES_TABLE} "
                "where load_id = ? and file_path = ?",
                [ctx.load_id, file_name],
            ).fetchone()
            facts = scan.result()
            # an overlong line is rejected by the chunked path, which never holds it whole
            if (rows, line_bytes) != (facts.physical_lines, facts.line_content_bytes) or longest_line > MAX_LINE_BYTES:
                raise _NotTheFilesLines
    except (duckdb.Error, _NotTheFilesLines):
        return False
    return True


class _NotTheFilesLines(Exception):
    """The CSV reader's rows differ from the file's physical lines (rolls the landing back)."""


def _reject_landed_lines(ctx: LoadContext, file_name: str, lines_read: int) -> tuple[int, int, tuple | None]:
    """Classify the landed lines of one file; move those that are not conversations to the rejects.
    Returns (lines that are valid JSON, rejected, first reject)."""
    con = ctx.con
    con.execute(
        "create or replace temp table redial_lines as " + ingest_query("redial/landed_non_conversations"),
        [ctx.load_id, file_name],
    )
    con.execute(
        "create or replace temp table redial_classified as select * from ("
        + ingest_query("redial/classify_lines")
        + ") where reason is not null"
    )
    _insert_rejects(ctx, file_name)
    con.execute(
        f"""
        delete from {LINES_TABLE} where load_id = ? and file_path = ?
            and line_number in (select line_number from redial_classified)
        """,
        [ctx.load_id, file_name],
    )
    rejected, not_json = con.execute(
        "select count(*), count(*) filter (where not json_ok) from redial_classified"
    ).fetchone()
    return lines_read - not_json, rejected, _first_reject(ctx)


def _land_in_chunks(
    ctx: LoadContext, path: Path, file_name: str, chunk_bytes: int
) -> tuple[int, int, int, tuple | None]:
    """Land one file chunk by chunk (the exact path for files the CSV reader cannot reproduce).
    Returns (lines read, lines that are valid JSON, rejected, first reject)."""
    read = json_lines = rejected = 0
    first_reject = None
    for lines_before, chunk in newline_aligned_chunks(path, chunk_bytes):
        if isinstance(chunk, OverlongLine):
            reason = f"line too long: {chunk.size_bytes} bytes, more than the {MAX_LINE_BYTES} a line may have"
            text = chunk.start.decode("utf-8", errors="replace") + " …"
            record_reject(ctx, SOURCE, file_name, chunk.line_number, reason, text)
            first_reject = first_reject or (chunk.line_number, reason, text)
            read, rejected = read + 1, rejected + 1
            continue
        counts = _land_chunk(ctx, file_name, lines_before, chunk)
        first_reject = first_reject or _first_reject(ctx)
        read, json_lines, rejected = read + counts[0], json_lines + counts[1], rejected + counts[2]
    return read, json_lines, rejected, first_reject


def _first_reject(ctx: LoadContext) -> tuple | None:
    """(line number, reason, text) of the first classified line that is rejected."""
    return ctx.con.execute(
        "select line_number, reason, shown from redial_classified where reason is not null order by 1 limit 1"
    ).fetchone()


def _land_chunk(ctx: LoadContext, file_name: str, lines_before: int, chunk: bytes) -> tuple[int, int, int]:
    """Classify and land the lines of one chunk; returns (lines read, valid JSON, rejected)."""
    con = ctx.con
    try:
        content, lines_query = chunk.decode("utf-8"), "redial/text_lines"
    except UnicodeDecodeError:
        content, lines_query = chunk, "redial/blob_lines"
    con.execute(
        "create or replace temp table redial_lines as " + ingest_query(lines_query),
        [content, lines_before, lines_before],
    )
    con.execute("create or replace temp table redial_classified as " + ingest_query("redial/classify_lines"))
    counts = con.execute(
        "select count(*), count(*) filter (where json_ok), count(*) filter (where reason is not null)"
        " from redial_classified"
    ).fetchone()
    con.execute(
        f"""
        insert into {LINES_TABLE}
        select ?, ?, ?, line_number, line from redial_classified where reason is null order by line_number
        """,
        [ctx.load_id, file_name, SPLIT_FILES[file_name]],
    )
    _insert_rejects(ctx, file_name)
    return counts


def _insert_rejects(ctx: LoadContext, file_name: str) -> None:
    """Copy the rejected lines of redial_classified to raw.ingest_rejects."""
    record_rejects_from(
        ctx,
        SOURCE,
        file_name,
        "select line_number, reason, shown as raw_text from redial_classified"
        " where reason is not null order by line_number",
    )


def _refuse_foreign_file(label: str, read: int, json_lines: int, rejected: int, first_reject: tuple | None) -> None:
    """A non-empty file in which no line is valid JSON, or none a conversation, is not ReDial JSONL."""
    if read == 0 or rejected < read or first_reject is None:
        return
    line_number, reason, shown = first_reject
    what = "no line is valid JSON" if json_lines == 0 else "no line is a ReDial conversation"
    raise DwhError(f"{label}: does not look like ReDial JSONL: {what} (line {line_number}: {reason}: {shown[:80]!r})")


def _land_movies(ctx: LoadContext, path: Path, label: str) -> FileReport:
    """Land movies_with_mentions.csv as text; malformed rows go to raw.ingest_rejects with their line."""
    _check_movies_header(path, label)
    con = ctx.con
    con.execute("drop table if exists redial_movies_rejects; drop table if exists redial_movies_scans")
    landed = con.execute(
        f"""
        insert into raw.redial_movies
        select ?, ?, row_number, movieId, movieName, nbMentions
        from ({ingest_query("redial/read_movies")})
        order by row_number
        """,
        [ctx.load_id, MOVIES_FILE, str(path)],
    ).fetchone()[0]
    rejected = record_rejects_from(
        ctx,
        SOURCE,
        MOVIES_FILE,
        """
        select line as line_number, 'CSV row: ' || string_agg(error_type || ': ' || error_message, '; ') as reason,
            any_value(trim(csv_line, chr(10) || chr(13))) as raw_text
        from redial_movies_rejects group by line order by line
        """,
    )
    con.execute("drop table redial_movies_rejects; drop table redial_movies_scans")
    return FileReport(SOURCE, MOVIES_FILE, landed + rejected, landed, rejected)


def _check_movies_header(path: Path, label: str) -> None:
    """The movie list must start with the header movieId,movieName,nbMentions."""
    with path.open("rb") as handle:
        first = handle.readline(4096)
    header = first.decode("utf-8-sig", errors="replace").rstrip("\r\n")
    if header != MOVIES_HEADER:
        raise DwhError(f"{label}: line 1 is {header!r}, expected the header {MOVIES_HEADER}")
