"""CSV files read as the ingest reads them: a file's header (DICES's releases, judges' files,
datasets' files), and a user's file as text records, each at its own line: a record the CSV reader
cannot split becomes a row of its own with the reader's reasons (for `raw.ingest_rejects`), and
every record after it keeps its true line in the file."""

import csv
from collections.abc import Callable
from pathlib import Path

import duckdb

from common.database import sql_string
from common.errors import DwhError
from ingest.queries import ingest_query

MAX_HEADER_BYTES = 1 << 20
REJECT_ERRORS = "csv_reject_errors"
REJECT_SCANS = "csv_reject_scans"
ROWS = "csv_rows"


def csv_header(
    path: Path, starts: str, suffix: str = "", before_bad_text: Callable[[], None] | None = None
) -> tuple[str, ...]:
    """The column names of a CSV's first line as written (a UTF-8 byte order mark is skipped). A
    file that cannot be read, an empty first line or one that is not UTF-8 is one line naming the
    file: `starts` says what the file should start with, `suffix` ends each line, and
    `before_bad_text` may give a line of its own for text that is not UTF-8 (another release's file)."""
    try:
        with path.open("rb") as handle:
            first_line = handle.readline(MAX_HEADER_BYTES)
    except OSError as exc:
        raise DwhError(f"{path}: cannot read the file ({exc.strerror or exc}){suffix}") from exc
    try:
        text = first_line.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if before_bad_text:
            before_bad_text()
        raise DwhError(f"{path}: line 1 (header) is not valid UTF-8 text (byte {exc.start}){suffix}") from exc
    if not text.strip():
        raise DwhError(f"{path}: empty file or empty first line; {starts}{suffix}")
    return tuple(next(csv.reader([text.rstrip("\r\n")])))


def land_csv_records(
    con: duckdb.DuckDBPyConnection,
    path: Path,
    columns: list[str],
    select: str,
    into: str,
    fields: list[str],
    raw_text: str,
    parameters: list[object],
) -> None:
    """Read `path` (a header naming `columns`, every value read as text) and insert each record into
    the table `into` as (`parameters`…, line, `fields`…, reason, raw text): `select` makes the
    fields and the `raw_text` column from the file's columns; a record the reader rejects has no
    fields, its reasons and its text as the file has it."""
    for scratch in (REJECT_ERRORS, REJECT_SCANS):
        con.execute(f"drop table if exists temp.{scratch}")
    names = ", ".join(f"{sql_string(name)}: 'VARCHAR'" for name in columns)
    reader = (
        f"read_csv(?, header = true, auto_detect = false, columns = {{{names}}}, delim = ',', quote = '\"', "
        "escape = '\"', allow_quoted_nulls = false, encoding = 'utf-8', store_rejects = true, "
        f"rejects_table = '{REJECT_ERRORS}', rejects_scan = '{REJECT_SCANS}')"
    )
    con.execute(f"create or replace temp table {ROWS} as select {select} from {reader}", [str(path)])
    numbering = ingest_query("number_csv_rows").format(
        input=into,
        errors=REJECT_ERRORS,
        rows=ROWS,
        fields=", ".join(f"rows.{field}" for field in fields),
        nulls=", ".join("null" for _ in fields),
        raw_text=raw_text,
    )
    for statement in filter(str.strip, numbering.split(";\n")):
        con.execute(statement, parameters)
    con.execute(f"drop table temp.{ROWS}")
