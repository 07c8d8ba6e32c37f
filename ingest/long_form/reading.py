"""A long-form file's rows read with DuckDB's readers into a scratch table of text: each row with its
file's order and recorded path, its line, the fields asked for (null where the file has no such
column), the reason it cannot be read (null when it can) and its text for raw.ingest_rejects.
Memory stays within DuckDB's bound as the files grow.

A CSV record the reader cannot split is a row of its own at its line with the reader's reason (the
records after it keep their lines); a JSONL line that is blank, no JSON object, or an object giving
a key twice (JSON libraries disagree on which value counts) is a row with its reason; a file the
reader refuses is one line naming it (for a CSV whose lines end in both LF and CRLF, the first line
of each).
"""

import duckdb

from common.database import identifier, sql_string
from common.errors import DwhError
from ingest.csv_records import land_csv_records
from ingest.long_form import NOTHING, LongFormFile
from ingest.long_form.columns import IS_OBJECT, cannot_read
from ingest.long_form.lines import lines_sql, mixed_line_ends

LINES_TABLE = "long_form_lines"


def create_input_table(con: duckdb.DuckDBPyConnection, table: str, fields: tuple[str, ...]) -> None:
    """The scratch table `temp.<table>` files are read into: their order and recorded path, the line,
    the fields, the reason a row cannot be read and its text, all text but the first and the line."""
    columns = ", ".join(f"{identifier(name)} varchar" for name in fields)
    con.execute(
        f"create or replace temp table {identifier(table)} (_file_order integer, _file_path varchar, "
        f"_line bigint, {columns}, _read_error varchar, _raw_text varchar)"
    )


def read_rows(
    con: duckdb.DuckDBPyConnection, found: LongFormFile, fields: tuple[str, ...], table: str, file_order: int
) -> None:
    """Append one file's rows to `temp.<table>` (made by `create_input_table` with these fields)."""
    readers = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}
    try:
        readers[found.file_format](con, found, fields, f"temp.{identifier(table)}", file_order)
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        mixed = mixed_line_ends(found.path) if found.file_format == "csv" else None
        if mixed:
            raise DwhError(f"{found.path}: {mixed}; {NOTHING}") from exc
        raise cannot_read(found.path, found.file_format, exc) from exc


def _fields(found: LongFormFile, fields: tuple[str, ...]) -> str:
    """The fields as text, named as in the scratch table (null where the file has no such column)."""
    return ", ".join(
        f"{identifier(name) if name in found.columns else 'null'}::varchar as {identifier(name)}" for name in fields
    )


def _raw_text(found: LongFormFile) -> str:
    """A row's text for raw.ingest_rejects: its fields as a JSON object."""
    pairs = ", ".join(f"{sql_string(name)}, {identifier(name)}::varchar" for name in found.columns)
    return f"json_object({pairs})::varchar as _raw_text"


def _read_parquet(
    con: duckdb.DuckDBPyConnection, found: LongFormFile, fields: tuple[str, ...], into: str, file_order: int
) -> None:
    con.execute(
        f"insert into {into} select ?, ?, file_row_number + 1, {_fields(found, fields)}, null, {_raw_text(found)} "
        "from read_parquet(?, file_row_number = true)",
        [file_order, found.file_path, str(found.path)],
    )


def _read_csv(
    con: duckdb.DuckDBPyConnection, found: LongFormFile, fields: tuple[str, ...], into: str, file_order: int
) -> None:
    """A CSV read as text with its header's columns; a record the reader cannot split is a row of
    its own with the reader's reason, at its line, and the records after it keep their lines."""
    land_csv_records(
        con,
        found.path,
        list(found.columns),
        select=f"{_fields(found, fields)}, {_raw_text(found)}",
        into=into,
        fields=[identifier(name) for name in fields],
        raw_text="_raw_text",
        parameters=[file_order, found.file_path],
    )


def _read_jsonl(
    con: duckdb.DuckDBPyConnection, found: LongFormFile, fields: tuple[str, ...], into: str, file_order: int
) -> None:
    """Each line's fields (a number or a string alike, as text; a list or an object as its JSON),
    extracted together; a line that is no JSON object, or an object giving a key twice, is read
    with the reason it is not loaded."""
    con.execute(f"create or replace temp table {LINES_TABLE} as {lines_sql(found.path)}")
    paths = ", ".join(sql_string(json_path(name)) for name in fields)
    extracted = ", ".join(f"fields[{index}] as {identifier(name)}" for index, name in enumerate(fields, start=1))
    con.execute(
        f"""
        insert into {into}
        select ?, ?, position + 1, {extracted},
            case
                when trim(line) = '' then 'empty line'
                when not json_valid(line) then 'not valid JSON'
                when not is_object then 'not a JSON object'
                when len(twice) > 0
                    then 'key ' || array_to_string(twice, ', ') || ' given twice in one object; give each key once'
            end,
            line
        from (
            select position, line, is_object, if(is_object, json_extract_string(line, [{paths}]), null) as fields,
                list_distinct(list_filter(keys, (k, i) -> list_position(keys, k) < i)) as twice
            from (
                select *, if(is_object, json_keys(line), []) as keys
                from (select rowid as position, line, {IS_OBJECT} as is_object from temp.{LINES_TABLE})
            )
        )
        """,
        [file_order, found.file_path],
    )
    con.execute(f"drop table temp.{LINES_TABLE}")


def json_path(key: str) -> str:
    """A JSON path to a top-level key, the key quoted (a quote or backslash in it escaped)."""
    return '$."' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'
