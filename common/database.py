"""Connections to the warehouse file, and the SQL text helpers every module shares (literals,
identifiers). The queries kept in ingest/sql/ are ingest/queries.py's; the raw schema's DDL is
ingest/raw_schema.py's."""

import os
from functools import cache
from pathlib import Path

import duckdb

from common.errors import DwhError

# DuckDB caches pages up to 80% of RAM by default; a bound makes it spill to disk instead, so an
# ingest's memory stays flat as the releases grow (DWH_MEMORY_LIMIT overrides it). Measured at
# scale 10 with ReDial and both DICES files landing side by side (BENCHMARKS.md): 512MB took
# 20.2-20.7 s at 764-819 MiB peak, 640MB 19.2-19.5 s at 853-924 MiB; 512MB keeps a margin
# under the 1 GiB target.
DEFAULT_MEMORY_LIMIT = "512MB"


# The name the warehouse file is attached under in every connection `dwh` opens. DuckDB names a
# file's catalog after its name (`raw.duckdb` is catalog `raw`), which clashes with the schemas
# (`raw.ingest_files` would be ambiguous) or with DuckDB's own (`main`, `temp`, `system`); attached
# under a fixed name, any file name works.
WAREHOUSE_CATALOG = "warehouse"


def connect(db_path: Path) -> duckdb.DuckDBPyConnection:
    """Open the warehouse read-write, creating its folder; a locked file is a clear error."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    config = {
        "memory_limit": memory_limit(),
        # returns freed memory to the system as it goes: without it, concurrent landings kept
        # 100-250 MiB more resident than the limit
        "allocator_background_threads": True,
    }
    return attach_warehouse(duckdb.connect(config=config), db_path, read_only=False)


def memory_limit() -> str:
    """DuckDB's memory limit for `dwh`: DWH_MEMORY_LIMIT if set, else DEFAULT_MEMORY_LIMIT."""
    return os.environ.get("DWH_MEMORY_LIMIT", DEFAULT_MEMORY_LIMIT)


def check_memory_limit(build: bool = False) -> None:
    """Refuse a DWH_MEMORY_LIMIT (and for a build, a DWH_BUILD_MEMORY_LIMIT) DuckDB cannot read,
    naming it, before any warehouse is locked or copied. The build's limit is read by profiles.yml,
    which holds its default; it is checked here only when set."""
    limits = {"DWH_MEMORY_LIMIT": memory_limit()}
    if build and "DWH_BUILD_MEMORY_LIMIT" in os.environ:
        limits["DWH_BUILD_MEMORY_LIMIT"] = os.environ["DWH_BUILD_MEMORY_LIMIT"]
    for variable, value in limits.items():
        if not _is_a_memory_size(value):
            raise DwhError(f"{variable}={value!r}: not a memory size DuckDB understands (e.g. 512MB, 2GB)")


@cache
def _is_a_memory_size(value: str) -> bool:
    """Whether DuckDB accepts `value` as its memory limit (asked once per value and process)."""
    try:
        duckdb.connect(config={"memory_limit": value}).close()
    except duckdb.Error:
        return False
    return True


def out_of_memory(path: Path, size_bytes: int | None = None) -> DwhError:
    """The one line for DuckDB running out of memory while landing `path`: the file and the variable
    to raise (DuckDB's own message suggests `SET memory_limit`, which `dwh` users cannot reach)."""
    size = f" ({size_bytes / 2**20:,.1f} MiB)" if size_bytes is not None else ""
    return DwhError(
        f"{path}{size}: DuckDB ran out of memory landing this file; raise DWH_MEMORY_LIMIT "
        f"(now {memory_limit()}), e.g. DWH_MEMORY_LIMIT=2GB dwh ingest …"
    )


def connect_read_only(db_path: Path) -> duckdb.DuckDBPyConnection:
    """Open the warehouse for reading, as a BI tool would (other readers and a writer's swap welcome)."""
    return attach_warehouse(duckdb.connect(), db_path, read_only=True)


def attach_warehouse(con: duckdb.DuckDBPyConnection, db_path: Path, read_only: bool) -> duckdb.DuckDBPyConnection:
    """Attach `db_path` to an in-memory connection as `warehouse` and make it the default catalog."""
    mode = " (read_only)" if read_only else ""
    try:
        con.execute(f"attach {sql_string(str(db_path))} as {WAREHOUSE_CATALOG}{mode}")
        con.execute(f"use {WAREHOUSE_CATALOG}")
    except duckdb.IOException as exc:
        con.close()
        raise DwhError(f"{db_path}: cannot open the warehouse ({exc})") from exc
    return con


def warehouse_cursor(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """A new cursor of `con` on the warehouse: a cursor starts in the in-memory catalog, not in the one `use` chose."""
    cursor = con.cursor()
    cursor.execute(f"use {WAREHOUSE_CATALOG}")
    return cursor


def sql_string(text: str) -> str:
    """A SQL string literal.

    Used to inline values instead of binding Python lists as parameters: binding a list makes
    the duckdb module import pandas, which costs more than half a second per process.
    """
    return "'" + text.replace("'", "''") + "'"


def identifier(name: str) -> str:
    """A name (a file's column, say) as a quoted SQL identifier, its capitalisation kept."""
    return '"' + name.replace('"', '""') + '"'
