"""A dataset's data files read with DuckDB's readers into scratch tables of text, each row with its
file, line, the fields asked for (null where the file has no such column), a reading error and the
row's text for raw.ingest_rejects. Memory stays within DuckDB's bound as the files grow.

Lines: CSV the file's line with the header as line 1 (a record the reader cannot split is a row of
its own at its line, with the reader's reason; the records after it keep their lines); JSONL the
physical line (a blank line or a line that is no JSON object is a row with its reason); Parquet the
row number from 1. Values are text as given: a JSON number as its text, a JSON list or object
(a unit's turns) as its JSON text.
"""

from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest.csv_records import csv_header, land_csv_records
from ingest.database import identifier, sql_string
from ingest.errors import DwhError, one_line

# the scratch tables' own columns, beside the fields
META_COLUMNS = ("_file_order", "_file_path", "_line", "_read_error", "_raw_text")
# whether a line is a JSON object (a CASE, so that json_type never meets a line that is no JSON)
IS_OBJECT = "case when json_valid(line) then json_type(line) = 'OBJECT' else false end"
NOTHING = "nothing was loaded"


@dataclass(frozen=True)
class DataFile:
    """A data file of a dataset folder: where it is, its name in the folder, what it holds
    (judgements, raters, units), its format and its columns."""

    path: Path
    file_path: str
    kind: str
    file_format: str
    columns: tuple[str, ...]


def columns_of(con: duckdb.DuckDBPyConnection, path: Path, file_format: str) -> tuple[str, ...]:
    """The column names a file offers: a CSV's header, a Parquet file's schema, the keys of a JSONL
    file's lines. Two columns whose names differ only in case are refused (SQL would take them for one)."""
    try:
        if file_format == "csv":
            columns = _csv_header(path)
        elif file_format == "parquet":
            rows = con.execute("select name from parquet_schema(?) where num_children is null", [str(path)]).fetchall()
            columns = tuple(name for (name,) in rows)
        else:
            keys = con.execute(
                f"select distinct unnest(case when {IS_OBJECT} then json_keys(line) end) as key "
                f"from ({_lines_sql(path)}) order by key"
            ).fetchall()
            columns = tuple(name for (name,) in keys)
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        raise DwhError(f"{path}: cannot be read as {file_format.upper()} ({one_line(exc)}); {NOTHING}") from exc
    _refuse_clashing_columns(path, columns)
    return columns


def _csv_header(path: Path) -> tuple[str, ...]:
    """The column names of a CSV's first line, trimmed."""
    header = csv_header(path, "a CSV file starts with its header", suffix=f"; {NOTHING}")
    return tuple(name.strip() for name in header)


def _refuse_clashing_columns(path: Path, columns: tuple[str, ...]) -> None:
    folded = [name.lower() for name in columns]
    repeated = sorted({name for name, fold in zip(columns, folded) if folded.count(fold) > 1})
    if repeated:
        raise DwhError(f"{path}: line 1 (header) repeats column(s) {', '.join(repeated)}; {NOTHING}")
    if "" in columns:
        raise DwhError(f"{path}: line 1 (header) has a column without a name; {NOTHING}")
    own = [name for name in columns if name.lower() in META_COLUMNS]
    if own:
        raise DwhError(f"{path}: column {own[0]!r}: a name dwh uses for itself; rename it; {NOTHING}")


def create_input_table(con: duckdb.DuckDBPyConnection, table: str, fields: tuple[str, ...]) -> None:
    """The scratch table `temp.<table>` files are read into: the meta columns and the fields, as text."""
    columns = ", ".join(f"{identifier(name)} varchar" for name in fields)
    con.execute(
        f"create or replace temp table {table} (_file_order integer, _file_path varchar, _line bigint, "
        f"{columns}, _read_error varchar, _raw_text varchar)"
    )


def read_rows(
    con: duckdb.DuckDBPyConnection, found: DataFile, fields: tuple[str, ...], table: str, file_order: int
) -> None:
    """Append one file's rows to `temp.<table>` (made by `create_input_table` with these fields)."""
    readers = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}
    try:
        readers[found.file_format](con, found, fields, table, file_order)
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        raise DwhError(
            f"{found.path}: cannot be read as {found.file_format.upper()} ({one_line(exc)}); {NOTHING}"
        ) from exc


def _fields(found: DataFile, fields: tuple[str, ...]) -> str:
    """The fields as text, named as in the scratch table (null where the file has no such column)."""
    return ", ".join(
        f"{identifier(name) if name in found.columns else 'null'}::varchar as {identifier(name)}" for name in fields
    )


def _raw_text(found: DataFile) -> str:
    """A row's text for raw.ingest_rejects: its fields as a JSON object."""
    pairs = ", ".join(f"{sql_string(name)}, {identifier(name)}::varchar" for name in found.columns)
    return f"json_object({pairs})::varchar as _raw_text"


def _read_parquet(
    con: duckdb.DuckDBPyConnection, found: DataFile, fields: tuple[str, ...], table: str, file_order: int
) -> None:
    con.execute(
        f"insert into temp.{table} select ?, ?, file_row_number + 1, {_fields(found, fields)}, null, "
        f"{_raw_text(found)} from read_parquet(?, file_row_number = true)",
        [file_order, found.file_path, str(found.path)],
    )


def _lines_sql(path: Path) -> str:
    """A text file as one row per physical line, in file order: chr(1) never occurs in JSON text, a
    blank line reads as ''; a byte order mark and a line's final "\\r" are no part of its JSON."""
    return (
        "select rtrim(ltrim(coalesce(line, ''), chr(65279)), chr(13)) as line "
        f"from read_csv({sql_string(str(path))}, columns = {{'line': 'VARCHAR'}}, header = false, delim = chr(1), "
        "quote = '', escape = '', auto_detect = false, strict_mode = false, encoding = 'utf-8')"
    )


def _read_jsonl(
    con: duckdb.DuckDBPyConnection, found: DataFile, fields: tuple[str, ...], table: str, file_order: int
) -> None:
    """Each line's fields (a number or a string alike, as text; a list or an object as its JSON);
    a line that is no JSON object is read with the reason it is not. One parse per line: the fields
    are extracted together."""
    con.execute(f"create or replace temp table dataset_lines as {_lines_sql(found.path)}")
    paths = ", ".join(sql_string("$." + identifier(name)) for name in fields)
    extracted = ", ".join(f"fields[{index}] as {identifier(name)}" for index, name in enumerate(fields, start=1))
    con.execute(
        f"""
        insert into temp.{table}
        select ?, ?, position + 1, {extracted},
            case
                when trim(line) = '' then 'empty line'
                when not json_valid(line) then 'not valid JSON'
                when not is_object then 'not a JSON object'
            end,
            line
        from (
            select position, line, is_object, if(is_object, json_extract_string(line, [{paths}]), null) as fields
            from (select rowid as position, line, {IS_OBJECT} as is_object from temp.dataset_lines)
        )
        """,
        [file_order, found.file_path],
    )
    con.execute("drop table temp.dataset_lines")


def _read_csv(
    con: duckdb.DuckDBPyConnection, found: DataFile, fields: tuple[str, ...], table: str, file_order: int
) -> None:
    """A CSV read as text with its header's columns; a record the reader cannot split is a row of
    its own with the reader's reason, at its line, and the records after it keep their lines."""
    land_csv_records(
        con,
        found.path,
        list(found.columns),
        select=f"{_fields(found, fields)}, {_raw_text(found)}",
        into=f"temp.{table}",
        fields=[identifier(name) for name in fields],
        raw_text="_raw_text",
        parameters=[file_order, found.file_path],
    )
