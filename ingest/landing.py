"""What every source's landing code shares: the load context and the per-file report."""

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import duckdb

from common.database import warehouse_cursor
from common.errors import DwhError

Item = TypeVar("Item")
Result = TypeVar("Result")


@dataclass(frozen=True)
class LoadContext:
    """One `dwh ingest` run: the connection to the staged database and the id stamped on each row."""

    con: duckdb.DuckDBPyConnection
    load_id: str


@dataclass(frozen=True)
class FileReport:
    """The outcome of landing one file: read = landed + rejected."""

    source: str
    file_path: str
    records_read: int
    records_landed: int
    records_rejected: int


def replace_source_rows(ctx: LoadContext, source: str, tables: list[str]) -> None:
    """Forget what earlier loads landed for a source, so that a load replaces it whole."""
    for table in tables:
        ctx.con.execute(f"delete from {table}")
    ctx.con.execute("delete from raw.ingest_rejects where source = ?", [source])
    ctx.con.execute("delete from raw.ingest_files where source = ?", [source])


def record_file(
    ctx: LoadContext, report: FileReport, given_path: str, sha256: str | None, size_bytes: int | None
) -> None:
    """Write one file's read / landed / rejected counts to raw.ingest_files."""
    ctx.con.execute(
        "insert into raw.ingest_files values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            ctx.load_id,
            report.source,
            report.file_path,
            given_path,
            sha256,
            size_bytes,
            report.records_read,
            report.records_landed,
            report.records_rejected,
        ],
    )


def record_files_from(ctx: LoadContext, source: str, given_path: str, files_sql: str) -> None:
    """Write the files a query describes to raw.ingest_files, in one statement (thousands of DUO
    files). The query yields file_path, sha256, size_bytes, records_read, records_landed and
    records_rejected."""
    ctx.con.execute(
        "insert into raw.ingest_files select ?, ?, file_path, ?, sha256, size_bytes, records_read, records_landed, "
        f"records_rejected from ({files_sql})",
        [ctx.load_id, source, given_path],
    )


def record_reject(
    ctx: LoadContext, source: str, file_path: str, line_number: int | None, reason: str, raw_text: str | None
) -> None:
    """Write one record that could not be landed to raw.ingest_rejects."""
    ctx.con.execute(
        "insert into raw.ingest_rejects values (?, ?, ?, ?, ?, ?)",
        [ctx.load_id, source, file_path, line_number, reason, raw_text],
    )


def record_rejects_from(ctx: LoadContext, source: str, file_path: str, rejects_sql: str) -> int:
    """Write the rejects a query finds in one file to raw.ingest_rejects, in one statement; returns
    how many. The query yields line_number, reason and raw_text."""
    return int(
        ctx.con.execute(
            f"insert into raw.ingest_rejects select ?, ?, ?, line_number, reason, raw_text from ({rejects_sql})",
            [ctx.load_id, source, file_path],
        ).fetchone()[0]
    )


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Run the body as one transaction: committed when it returns, rolled back when it raises."""
    con.execute("begin transaction")
    try:
        yield
    except BaseException:
        con.execute("rollback")
        raise
    con.execute("commit")


def number_rows_in_file_order(ctx: LoadContext, table: str, column: str, file_path: str) -> int:
    """Number one file's rows 1, 2, ... in the order a single insert appended them; returns the row count.

    `row_number() over ()` in the insert would make DuckDB write the table from one thread (DICES at
    scale 10: about 5 s more). Instead the rows are inserted with a placeholder and numbered from
    their rowid, the row's position in the table: an insert that preserves insertion order
    (DuckDB's default) appends a file's rows consecutively in file order. Run the insert and this
    in one `transaction`, so that no checkpoint compacts the table in between.
    """
    scope = "load_id = ? and file_path = ?"
    ctx.con.execute(
        f"update {table} set {column} = rowid - (select min(rowid) from {table} where {scope}) + 1 where {scope}",
        [ctx.load_id, file_path, ctx.load_id, file_path],
    )
    rows, highest = ctx.con.execute(
        f"select count(*), max({column}) from {table} where {scope}", [ctx.load_id, file_path]
    ).fetchone()
    if rows and highest != rows:
        raise DwhError(
            f"{file_path}: internal error: its {rows} rows were not appended consecutively (highest number {highest})"
        )
    return int(rows)


def in_parallel(
    con: duckdb.DuckDBPyConnection,
    work: Callable[[duckdb.DuckDBPyConnection, Item], Result],
    items: list[Item],
    on_done: Callable[[], None] | None = None,
) -> list[Result]:
    """`work(cursor, item)` for every item, each in its own thread on its own cursor of `con`.

    DuckDB writes a table from mostly one thread, so independent files landed side by side keep
    both cores busy. Results come in item order; when any item fails, the first failure in item
    order is raised once all have finished. Temp tables are per cursor, so items do not share them.
    """
    if not items:
        return []
    cursors = [warehouse_cursor(con) for _ in items]
    try:
        with ThreadPoolExecutor(max_workers=len(items), thread_name_prefix="dwh-land") as pool:
            futures = [pool.submit(work, cursor, item) for cursor, item in zip(cursors, items)]
            for _ in as_completed(futures):
                if on_done:
                    on_done()
        return [future.result() for future in futures]
    finally:
        for cursor in cursors:
            cursor.close()
