"""Landing judges' judgements (`dwh ingest --judges PATH …`): files of one row per judgement,
found by ingest/judge_files.py and read by extension with DuckDB's readers (CSV with a header,
JSONL, Parquet).

Every file is first read whole into one scratch table of text (`temp.judge_input`: file, line,
the five fields and the row's text), then checked and landed in SQL (ingest/judge_landing.py):
memory stays within DuckDB's bound as the files grow.

Line numbers: CSV the file's line with the header as line 1 (a record is taken to be one line; a
record the reader cannot split is rejected on its own line and the records after it keep theirs);
JSONL the physical line, whether it ends in LF or CRLF (a blank line, a line that is no JSON
object, or an object giving a key twice is a reject); Parquet the row number from 1. A CSV whose
lines end in both LF and CRLF is one line naming the first line of each kind: DuckDB's reader
cannot split it.
"""

from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest.csv_records import land_csv_records
from ingest.database import identifier, sql_string
from ingest.errors import DwhError, one_line

SOURCE = "judge"  # the name of judges' loads in raw.ingest_loads and raw.ingest_rejects
NEEDED_COLUMNS = ("judge", "dialogue_key", "question", "value")
OPTIONAL_COLUMNS = ("movie_id",)
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet"}
FILES_HINT = "a judges file is CSV with a header (.csv), JSONL (.jsonl) or Parquet (.parquet)"
COLUMNS_HINT = "a judges file has the columns judge, dialogue_key, question, value (and movie_id for ReDial)"
INPUT_TABLE = "temp.judge_input"
# whether a line is a JSON object (a CASE, so that json_type never meets a line that is no JSON)
IS_OBJECT = "case when json_valid(line) then json_type(line) = 'OBJECT' else false end"


@dataclass(frozen=True)
class JudgesFile:
    """A judges file found under the given path: where it is, how it is recorded, its format and columns."""

    path: Path
    file_path: str
    file_format: str
    columns: tuple[str, ...]


def columns_of_jsonl(con: duckdb.DuckDBPyConnection, path: Path) -> tuple[str, ...]:
    """The keys of a JSONL file's lines that are JSON objects."""
    _read_lines(con, path)
    keys = con.execute(
        f"select distinct unnest(case when {IS_OBJECT} then json_keys(line) end) from temp.judge_lines"
    ).fetchall()
    return tuple(name for (name,) in keys)


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
        mixed = mixed_line_ends(found.path) if found.file_format == "csv" else None
        if mixed:
            raise DwhError(f"{found.path}: {mixed}; nothing was loaded") from exc
        raise DwhError(f"{found.path}: cannot be read as {found.file_format.upper()} ({one_line(exc)})") from exc


def mixed_line_ends(path: Path) -> str | None:
    """Where a file's lines end in both CRLF and LF (the first line of each), or None: DuckDB's CSV
    reader splits at one of them. Read in blocks, only after the reader refused the file."""
    first: dict[str, int] = {}
    line, previous = 1, b""
    with path.open("rb") as handle:
        while (block := handle.read(1 << 20)) and len(first) < 2:
            start = 0
            while (end := block.find(b"\n", start)) >= 0 and len(first) < 2:
                before = block[end - 1 : end] if end else previous
                first.setdefault("CRLF" if before == b"\r" else "LF", line)
                line, start = line + 1, end + 1
            previous = block[-1:]
    if len(first) < 2:
        return None
    return (
        f"its lines end in both CRLF (first at line {first['CRLF']}) and LF (first at line {first['LF']}), which "
        "the CSV reader cannot split; save it with one kind of line end (e.g. dos2unix) and load it again"
    )


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
        f"{identifier(name) if name in found.columns else 'null'}::varchar as {alias}" for name, alias in FIELDS.items()
    )


def _raw_text(found: JudgesFile) -> str:
    """A row's text for raw.ingest_rejects: its fields as a JSON object."""
    pairs = ", ".join(f"{sql_string(name)}, {identifier(name)}::varchar" for name in found.columns)
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
    line's final "\\r" are no part of its JSON. With CRLF as the line end the reader splits at LF
    and at CRLF alike: a file mixing them keeps every line's number."""
    con.execute(
        "create or replace temp table judge_lines as "
        "select rtrim(ltrim(coalesce(line, ''), chr(65279)), chr(13)) as line "
        "from read_csv(?, columns = {'line': 'VARCHAR'}, header = false, delim = chr(1), quote = '', escape = '', "
        "new_line = '\\r\\n', auto_detect = false, strict_mode = false, encoding = 'utf-8')",
        [str(path)],
    )


def _read_jsonl(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    """Each line's fields (a number or a string alike, as text); a line that is no JSON object, or an
    object giving one key twice (JSON libraries disagree on which value counts), is read with the
    reason it is not loaded."""
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
                when len(twice) > 0
                    then 'key ' || array_to_string(twice, ', ') || ' given twice in one object; give each key once'
            end,
            line
        from (
            select *, if(is_object, list_distinct(list_filter(keys, (k, i) -> list_position(keys, k) < i)), [])
                as twice
            from (
                select *, if(is_object, json_keys(line), []) as keys
                from (select rowid as position, line, {IS_OBJECT} as is_object from temp.judge_lines)
            )
        )
        """,
        [file_order, found.file_path],
    )
    con.execute("drop table temp.judge_lines")


def _read_csv(con: duckdb.DuckDBPyConnection, found: JudgesFile, file_order: int) -> None:
    """A CSV read as text with its header's columns; a record the reader cannot split is a row of
    its own with the reader's reason, at its line, and the records after it keep their lines."""
    land_csv_records(
        con,
        found.path,
        list(found.columns),
        select=f"{_fields(found)}, {_raw_text(found)}",
        into=INPUT_TABLE,
        fields=list(FIELDS.values()),
        raw_text="raw_text",
        parameters=[file_order, found.file_path],
    )


def _json_key(name: str) -> str:
    """A key in a JSON path, quoted."""
    return '"' + name + '"'
