"""The columns a long-form file offers, read before any of its rows, and the one line for a file
that lacks one it needs: the cause where the file shows it (a header in another case or with a
blank, a header of one column separated by semicolons or tabs, columns inside a Parquet struct)."""

from pathlib import Path

import duckdb

from common.errors import DwhError, one_line
from ingest.csv_records import csv_header
from ingest.long_form import NOTHING, FileKind, LongFormFile
from ingest.long_form.lines import lines_sql

# the scratch tables' own columns (ingest/long_form/reading.py), beside the fields
META_COLUMNS = ("_file_order", "_file_path", "_line", "_read_error", "_raw_text")
# whether a line is a JSON object (a CASE, so that json_type never meets a line that is no JSON)
IS_OBJECT = "case when json_valid(line) then json_type(line) = 'OBJECT' else false end"
DELIMITERS = {";": "semicolons", "\t": "tabs", "|": "vertical bars"}


def recognise(
    con: duckdb.DuckDBPyConnection, path: Path, file_path: str, file_format: str, kind: FileKind
) -> LongFormFile:
    """A file with its columns, or the one line that says why it cannot load."""
    columns = columns_of(con, path, file_format, kind)
    missing = [name for name in kind.needed if name not in columns]
    if missing:
        raise DwhError(f"{path}: {_missing_column(missing[0], columns, file_format, kind)}; {NOTHING}")
    return LongFormFile(path, file_path, kind.name, file_format, tuple(columns))


def columns_of(con: duckdb.DuckDBPyConnection, path: Path, file_format: str, kind: FileKind) -> dict[str, str]:
    """The columns a file offers, with their types where the format has them: a CSV's header, a
    Parquet file's top-level columns, the keys of a JSONL file's lines (in name order). Two columns
    whose names differ only in case are refused (SQL would take them for one), as are a column
    without a name and one named as the scratch tables' own columns."""
    try:
        if file_format == "csv":
            columns = dict.fromkeys(_csv_header(path, kind), "VARCHAR")
        elif file_format == "parquet":
            rows = con.execute("select column_name, column_type from (describe from read_parquet(?))", [str(path)])
            columns = dict(rows.fetchall())
        else:
            keys = con.execute(
                f"select distinct unnest(case when {IS_OBJECT} then json_keys(line) end) as key "
                f"from ({lines_sql(path)}) order by key"
            ).fetchall()
            columns = dict.fromkeys((name for (name,) in keys), "")
    except duckdb.OutOfMemoryException:
        raise  # named as such by the loader
    except duckdb.Error as exc:
        raise cannot_read(path, file_format, exc) from exc
    _refuse_clashing_columns(path, list(columns))
    return columns


def cannot_read(path: Path, file_format: str, exc: duckdb.Error) -> DwhError:
    """The one line for a file DuckDB's reader refuses."""
    return DwhError(f"{path}: cannot be read as {file_format.upper()} ({one_line(exc)}); {NOTHING}")


def _csv_header(path: Path, kind: FileKind) -> list[str]:
    """The column names of a CSV's first line (trimmed where the kind reads them so)."""
    header = csv_header(path, f"{kind.csv_name} starts with its header ({kind.hint})", suffix=f"; {NOTHING}")
    return [name.strip() for name in header] if kind.trims_header else list(header)


def _refuse_clashing_columns(path: Path, columns: list[str]) -> None:
    folded = [name.lower() for name in columns]
    repeated = sorted({name for name, fold in zip(columns, folded) if folded.count(fold) > 1})
    if repeated:
        raise DwhError(f"{path}: line 1 (header) repeats column(s) {', '.join(repeated)}; {NOTHING}")
    if "" in columns:
        raise DwhError(f"{path}: line 1 (header) has a column without a name; {NOTHING}")
    own = [name for name in columns if name.lower() in META_COLUMNS]
    if own:
        raise DwhError(f"{path}: column {own[0]!r}: a name dwh uses for itself; rename it; {NOTHING}")


def _missing_column(first: str, columns: dict[str, str], file_format: str, kind: FileKind) -> str:
    """Why a needed column is missing, as the file shows it, and what to do."""
    names = list(columns)
    if file_format == "csv" and len(names) == 1:
        delimiter = next((d for d in DELIMITERS if d in names[0]), None)
        if delimiter:
            return (
                f"line 1 (header) is one column {names[0]!r}: the file is separated by {DELIMITERS[delimiter]}, "
                f"{kind.csv_name} by commas; save it comma-separated"
            )
    near = [name for name in names if name.strip().lower() == first]
    if near:
        return f"no column {first!r}, but a column {near[0]!r}: column names are lower case, without blanks; rename it"
    inside = [name for name, type_ in columns.items() if type_.upper().startswith("STRUCT") and f"{first} " in type_]
    if inside:
        return (
            f"no column {first!r}: the columns sit inside the struct column {inside[0]!r}; write them as "
            f"top-level columns (in DuckDB: copy (select {inside[0]}.* from …) to …)"
        )
    return f"no column {first!r} ({kind.hint})"
