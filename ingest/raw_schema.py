"""The raw schema every load relies on: its DDL (ingest/sql/raw_*.sql, and the raw tables a source
derives from a list, `Source.raw_ddl`), created where missing, and the check that a DuckDB file's
raw tables are this project's before anything is copied or written.

A column added to a raw table after warehouses were made with it is listed in `ADDED_COLUMNS`: a
warehouse an earlier version made is this project's (the check accepts its tables without the
columns added since), and `ensure_raw_schema`, which every writer runs on its staged copy, adds
them (null in the rows already landed): migrated, never refused nor rebuilt."""

from functools import cache
from importlib import resources
from pathlib import Path

import duckdb

from common.database import connect_read_only
from common.errors import DwhError
from common.paths import warehouse_setting
from common.sources import SOURCES, ingest_options
from ingest.datasets.banding import band_rater_attributes


def raw_schema_statements() -> list[str]:
    """The DDL of raw_common.sql first, then every raw_<source>.sql in name order, then the raw
    tables a source derives from a list (`Source.raw_ddl`)."""
    sql_dir = resources.files("ingest") / "sql"
    names = sorted(p.name for p in sql_dir.iterdir() if p.name.startswith("raw_") and p.name.endswith(".sql"))
    names.remove("raw_common.sql")
    written = [(sql_dir / name).read_text(encoding="utf-8") for name in ["raw_common.sql", *names]]
    return written + [ddl for source in SOURCES for ddl in source.derived_raw_ddl()]


# the columns added to raw tables since warehouses were first made with them, oldest first: (table,
# column as its DDL declares it, last in the table). A warehouse made before has them added.
ADDED_COLUMNS = (
    ("dataset_questions", "meanings varchar[]"),
    ("dataset_rater_attributes", "is_banded boolean"),
    ("dataset_rater_attributes", "band varchar"),
)


def ensure_raw_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create the raw schema and every source's landing tables if they are missing, and add the
    columns added since an earlier version made the warehouse (`ADDED_COLUMNS`), with the meaning
    the landing gives them where it can be decided from the rows already there (the bands)."""
    for ddl in raw_schema_statements():
        con.execute(ddl)
    for table, column in ADDED_COLUMNS:
        con.execute(f"alter table raw.{table} add column if not exists {column}")
    band_rater_attributes(con)


def refuse_foreign_raw_tables(db_path: Path, require_a_load: bool = False) -> None:
    """Refuse a DuckDB file whose `raw` tables of this project's names have other columns (another
    project's database, say), naming the first such table, before anything is copied or written.

    With `require_a_load` (`dwh build`), also refuse a file no `dwh ingest` finished loading (a typo
    in DWH_DB_PATH, say), which would otherwise give a green build of nothing."""
    finished_loads = 0
    if db_path.is_file() and db_path.stat().st_size > 0:
        con = connect_read_only(db_path)
        try:
            found = dict(con.execute(RAW_COLUMNS_SQL).fetchall())
            expected = _expected_raw_columns()
            for table, columns in sorted(found.items()):
                if table in expected and not _of_this_project(table, columns, expected[table]):
                    names = ", ".join(column.split(" ")[0] for column in columns)
                    raise DwhError(
                        f"{db_path}: raw.{table} has columns ({names}) that dwh never wrote: not a warehouse of this "
                        f"project ({warehouse_setting()}); point DWH_DB_PATH at a new file or at a warehouse dwh made"
                    )
            if require_a_load and "ingest_loads" in found:
                finished_loads = con.execute(
                    "select count(*) from raw.ingest_loads where finished_at is not null"
                ).fetchone()[0]
        finally:
            con.close()
    if require_a_load and not finished_loads:
        raise DwhError(
            f"{db_path}: no dwh ingest has loaded this warehouse yet ({warehouse_setting()}); "
            f"run dwh ingest {ingest_options()} first, or point DWH_DB_PATH at the warehouse"
        )


# each raw table's columns as "name type", in order
RAW_COLUMNS_SQL = """
    select table_name, list(column_name || ' ' || data_type order by column_index)
    from duckdb_columns() where database_name = current_database() and schema_name = 'raw'
    group by table_name"""


def _of_this_project(table: str, found: list[str], expected: list[str]) -> bool:
    """Whether a raw table's columns ("name type", in order) are this version's, or an earlier
    version's: this version's without some of the last columns `ADDED_COLUMNS` lists for it."""
    added = [column.split(" ")[0] for name, column in ADDED_COLUMNS if name == table]
    missing = expected[len(found) :]
    return found == expected[: len(found)] and all(column.split(" ")[0] in added for column in missing)


@cache
def _expected_raw_columns() -> dict[str, list[str]]:
    """The raw tables' columns as this project's DDL creates them (in a scratch in-memory database;
    once per process: the DDL is the code's)."""
    con = duckdb.connect()
    try:
        for ddl in raw_schema_statements():
            con.execute(ddl)
        return dict(con.execute(RAW_COLUMNS_SQL).fetchall())
    finally:
        con.close()
