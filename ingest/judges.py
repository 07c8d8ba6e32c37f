"""Landing judges' judgements (`dwh ingest --judges PATH`): a file, or a folder of files, of one
row per judgement, read by extension with DuckDB's readers (CSV with a header, JSONL, Parquet).

Every file is first read whole into one scratch table of text (`temp.judge_input`: file, line,
the five fields and the row's text), then checked and landed in SQL (ingest/judges_checks.py):
memory stays within DuckDB's bound as the files grow. A file without a needed column is one
error naming the file and the column, before anything is read: nothing is loaded.

Line numbers: CSV the file's line with the header as line 1 (a record is taken to be one line; a
record the reader cannot split is rejected on its own line and the records after it keep theirs);
JSONL the physical line (a blank line or a line that is no JSON object is a reject); Parquet the
row number from 1.
"""

import csv
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest.database import ingest_query, sql_string
from ingest.errors import DwhError
from ingest.file_facts import refuse_unreadable_file

SOURCE = "judge"  # the name of judges' loads in raw.ingest_loads and raw.ingest_rejects
NEEDED_COLUMNS = ("judge", "dialogue_key", "question", "value")
OPTIONAL_COLUMNS = ("movie_id",)
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
FILES_HINT = "a judges file is CSV with a header (.csv), JSONL (.jsonl) or Parquet (.parquet)"
COLUMNS_HINT = "a judges file has the columns judge, dialogue_key, question, value (and movie_id for ReDial)"
INPUT_TABLE = "temp.judge_input"
REJECT_ERRORS = "judge_reject_errors"
REJECT_SCANS = "judge_reject_scans"
MAX_HEADER_BYTES = 1 << 20
# whether a line is a JSON object (a CASE, so that json_type never meets a line that is no JSON)
IS_OBJECT = "case when json_valid(line) then json_type(line) = 'OBJECT' else false end"


@dataclass(frozen=True)
class JudgesFile:
    """A judges file found under the given path: where it is, how it is recorded, its format and columns."""

    path: Path
    file_path: str
    file_format: str
    columns: tuple[str, ...]


def find_judges_files(path: Path) -> list[Path]:
    """The file itself, or the judges files in the folder and below, in path order."""
    refuse_unreadable_file(path, f"give a judges file or a folder of them ({FILES_HINT})")
    if not path.exists():
        raise DwhError(f"{path}: no such file or folder ({FILES_HINT})")
    if path.is_file():
        if path.suffix.lower() not in FORMATS:
            raise DwhError(f"{path}: not a judges file by its extension; {FILES_HINT}")
        return [path]
    found = sorted(
        candidate
        for candidate in path.rglob("*")
        if candidate.suffix.lower() in FORMATS and not candidate.name.startswith(".") and not candidate.is_dir()
    )
    for candidate in found:
        refuse_unreadable_file(candidate, "remove it from the folder or replace it with a judges file")
    if not found:
        raise DwhError(f"{path}: no judges file found ({FILES_HINT})")
    return found


def recognise_judges_files(con: duckdb.DuckDBPyConnection, given: Path) -> list[JudgesFile]:
    """Every judges file under `given` with its columns; one without a needed column stops the load."""
    found = []
    for path in find_judges_files(given):
        file_format = FORMATS[path.suffix.lower()]
        file_path = path.relative_to(given).as_posix() if given.is_dir() else path.name
        columns = _columns_of(con, path, file_format)
        missing = [name for name in NEEDED_COLUMNS if name not in columns]
        if missing:
            raise DwhError(f"{path}: no column {missing[0]!r} ({COLUMNS_HINT}); nothing was loaded")
        found.append(JudgesFile(path, file_path, file_format, columns))
    return found


def _columns_of(con: duckdb.DuckDBPyConnection, path: Path, file_format: str) -> tuple[str, ...]:
    """The column names a file offers: a CSV's header, a Parquet file's schema, the keys of a JSONL file's lines."""
    try:
        if file_format == "csv":
            return _csv_header(path)
        if file_format == "parquet":
            rows = con.execute("select name from parquet_schema(?) where num_children is null", [str(path)]).fetchall()
            return tuple(name for (name,) in rows)
        _read_lines(con, path)
        keys = con.execute(
            f"select distinct unnest(case when {IS_OBJECT} then json_keys(line) end) from temp.judge_lines"
        ).fetchall()
        return tuple(name for (name,) in keys)
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        raise DwhError(f"{path}: cannot be read as {file_format.upper()} ({_one_line(exc)})") from exc


def _csv_header(path: Path) -> tuple[str, ...]:
    """The column names of a CSV's first line (a UTF-8 byte order mark is skipped)."""
    try:
        with path.open("rb") as handle:
            first_line = handle.readline(MAX_HEADER_BYTES)
        text = first_line.decode("utf-8-sig")
    except OSError as exc:
        raise DwhError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise DwhError(f"{path}: line 1 (header) is not valid UTF-8 text (byte {exc.start})") from exc
    if not text.strip():
        raise DwhError(f"{path}: empty file or empty first line; a judges CSV starts with its header ({COLUMNS_HINT})")
    header = tuple(next(csv.reader([text.rstrip("\r\n")])))
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise DwhError(f"{path}: line 1 (header) repeats column(s) {', '.join(duplicates)}")
    return header


def create_input_table(con: duckdb.DuckDBPyConnection) -> None:
    """The scratch table every file's rows are read into, as text."""
    con.execute(
        f"create or replace temp table {INPUT_TABLE.split('.')[1]} (file_order integer, file_path varchar, "
        "line_number bigint, judge varchar, dialogue_key varchar, question varchar, movie_id varchar, "
        "value_text varchar, read_error varchar, raw_text varchar)"
    )


def read_into_input(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    """Append one file's rows to temp.judge_input, each with its line and the row's text."""
    try:
        {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}[found.file_format](con, found, file_order)
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        raise DwhError(f"{found.path}: cannot be read as {found.file_format.upper()} ({_one_line(exc)})") from exc


FIELDS = {
    "judge": "judge",
    "dialogue_key": "dialogue_key",
    "question": "question",
    "movie_id": "movie_id",
    "value": "value_text",
}


def _fields(found: JudgesFile) -> str:
    """The five fields as text, named as in temp.judge_input (movie_id null when the file has none)."""
    return ", ".join(
        f"{_identifier(name) if name in found.columns else 'null'}::varchar as {alias}"
        for name, alias in FIELDS.items()
    )


def _raw_text(found: JudgesFile) -> str:
    """A row's text for raw.ingest_rejects: its fields as a JSON object."""
    pairs = ", ".join(f"{sql_string(name)}, {_identifier(name)}::varchar" for name in found.columns)
    return f"json_object({pairs})::varchar as raw_text"


def _read_parquet(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    con.execute(
        f"insert into {INPUT_TABLE} select ?, ?, file_row_number + 1, {_fields(found)}, null, {_raw_text(found)} "
        "from read_parquet(?, file_row_number = true)",
        [file_order, found.file_path, str(found.path)],
    )


def _read_lines(con: duckdb.DuckDBPyConnection, path: Path) -> None:
    """A text file as one row per physical line (temp.judge_lines, in file order), as ReDial's lines
    are read: chr(1) never occurs in JSON text, and a blank line reads as ''; a byte order mark and a
    line's final "\\r" are no part of its JSON."""
    con.execute(
        "create or replace temp table judge_lines as "
        "select rtrim(ltrim(coalesce(line, ''), chr(65279)), chr(13)) as line "
        "from read_csv(?, columns = {'line': 'VARCHAR'}, header = false, delim = chr(1), quote = '', escape = '', "
        "auto_detect = false, strict_mode = false, encoding = 'utf-8')",
        [str(path)],
    )


def _read_jsonl(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    """Each line's fields (a number or a string alike, as text); a line that is no JSON object is read
    with the reason it is not."""
    _read_lines(con, found.path)
    fields = ", ".join(
        f"if(is_object, json_extract_string(line, {sql_string('$.' + _json_key(name))}), null)" for name in FIELDS
    )
    con.execute(
        f"""
        insert into {INPUT_TABLE}
        select ?, ?, position + 1, {fields},
            case
                when trim(line) = '' then 'empty line'
                when not json_valid(line) then 'not valid JSON'
                when not is_object then 'not a JSON object'
            end,
            line
        from (
            select rowid as position, line, {IS_OBJECT} as is_object
            from temp.judge_lines
        )
        """,
        [file_order, found.file_path],
    )
    con.execute("drop table temp.judge_lines")


def _read_csv(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    """A CSV read as text with its header's columns; a record the reader cannot split is a row of
    its own with the reader's reason, at its line, and the records after it keep their lines."""
    for table in (REJECT_ERRORS, REJECT_SCANS):
        con.execute(f"drop table if exists temp.{table}")
    columns = ", ".join(f"{sql_string(name)}: 'VARCHAR'" for name in found.columns)
    reader = (
        f"read_csv(?, header = true, auto_detect = false, columns = {{{columns}}}, delim = ',', quote = '\"', "
        "escape = '\"', allow_quoted_nulls = false, encoding = 'utf-8', store_rejects = true, "
        f"rejects_table = '{REJECT_ERRORS}', rejects_scan = '{REJECT_SCANS}')"
    )
    con.execute(
        f"create or replace temp table judge_csv_rows as select {_fields(found)}, {_raw_text(found)} from {reader}",
        [str(found.path)],
    )
    numbering = ingest_query("judges/number_csv_rows").format(input=INPUT_TABLE, errors=REJECT_ERRORS)
    for statement in filter(str.strip, numbering.split(";\n")):
        con.execute(statement, [file_order, found.file_path])
    con.execute("drop table temp.judge_csv_rows")


def _identifier(name: str) -> str:
    """A column name as a quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def _json_key(name: str) -> str:
    """A key in a JSON path, quoted."""
    return '"' + name + '"'


def _one_line(exc: Exception) -> str:
    """An exception's message on one line."""
    return " ".join(str(exc).split())
