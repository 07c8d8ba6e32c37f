"""`dwh export OUT`: every mart and reference seed as Parquet, with a manifest.json.

The data leaves DuckDB for engines beyond one machine (Spark, Trino, BigQuery, Hugging Face
`datasets`) in an open format, written by DuckDB's own Parquet writer. The large marts are
partitioned by source, Hive-style (`marts/ratings/source=dices/data_0.parquet`), so a reader of
one dataset reads only its files; the others are one file each (`marts/agreement.parquet`).

`manifest.json` lists each table's columns with their DuckDB types and the descriptions dbt wrote
into the warehouse (persist_docs), its row count, and every file with its row count, size and
SHA-256. Everything is read through one connection in one transaction: a `dwh build` that swaps
a new warehouse in meanwhile does not mix two versions into one export. The export is written to
a sibling folder and renamed into place at the end, so OUT is either complete or absent.
"""

import errno
import json
import shutil
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from tqdm import tqdm

from common.database import connect_read_only, sql_string
from common.errors import DwhError
from common.outputs import check_export_folder, readable_by_umask
from dwh.building.freshness import marts_build, say_if_older_than_last_load
from dwh.transfer.fetch import sha256_of

EXPORTED_SCHEMAS = ("marts", "reference")
PARTITION_COLUMN = "source"
# the long marts, one folder per source; an empty one is written as one file (its schema must travel)
PARTITIONED_MARTS = ("ratings", "turns", "dialogues", "raters", "rating_distributions", "rater_agreement")
MANIFEST_NAME = "manifest.json"


def export_warehouse(db_path: Path, out_dir: Path) -> Path:
    """Export the warehouse at `db_path` into `out_dir` (absent or empty, or a symbolic link to an
    empty folder); return the manifest's path. Where it cannot go is said before any work."""
    out_dir = check_export_folder(out_dir, db_path)
    try:
        staging = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".partial", dir=out_dir.parent))
    except OSError as exc:
        raise DwhError(f"{out_dir}: cannot create the export folder there ({exc.strerror or exc})") from exc
    try:
        readable_by_umask(staging)
        con = connect_read_only(db_path)
        try:
            con.execute("begin transaction")  # one snapshot for every table
            build = marts_build(con)
            tables = [
                export_table(con, staging, relation)
                for relation in tqdm(exported_relations(con, db_path), desc="exporting", unit="table", disable=None)
            ]
            con.execute("commit")
        finally:
            con.close()
        say_if_older_than_last_load(build, "dwh export")
        manifest = {
            "format": "parquet",
            "warehouse": str(db_path.resolve()),
            "exported_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "build": build.as_manifest(),
            "partitioning": f"Hive-style by `{PARTITION_COLUMN}` for the tables whose partitioned_by says so; "
            f"the partition column is in the folder names, not in the files",
            "tables": tables,
        }
        (staging / MANIFEST_NAME).write_text(
            json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        move_into_place(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir / MANIFEST_NAME


# what the file system answers when another export (or program) filled OUT while this one ran
FILLED_MEANWHILE = (errno.ENOTEMPTY, errno.EEXIST)


def move_into_place(staging: Path, out_dir: Path) -> None:
    """Rename the finished export onto OUT (absent, or empty as checked before the work). Another
    export that got there first is said in one line; its folder is left as it wrote it."""
    try:
        out_dir.rmdir()
    except FileNotFoundError:
        pass  # absent, or removed meanwhile by another export to the same place
    except OSError as exc:
        if exc.errno not in FILLED_MEANWHILE:
            raise
        raise _another_export_first(out_dir) from exc
    try:
        staging.rename(out_dir)
    except OSError as exc:
        if exc.errno not in FILLED_MEANWHILE:
            raise
        raise _another_export_first(out_dir) from exc


def _another_export_first(out_dir: Path) -> DwhError:
    return DwhError(
        f"{out_dir}: another dwh export (or another program) filled this folder while this export ran, "
        "and got there first; its files are left as they are, this export wrote nothing: use that one, "
        "or choose a new folder"
    )


def exported_relations(con: duckdb.DuckDBPyConnection, db_path: Path) -> list[tuple[str, str, str, str | None]]:
    """(schema, name, kind, description) of every table and view in the exported schemas."""
    relations = con.execute(f"""
        select schema_name, table_name, 'table', comment from duckdb_tables()
        where database_name = current_database() and schema_name in {EXPORTED_SCHEMAS}
        union all
        select schema_name, view_name, 'view', comment from duckdb_views()
        where database_name = current_database() and schema_name in {EXPORTED_SCHEMAS} and not internal
        order by 1, 2
    """).fetchall()
    if not any(schema == "marts" for schema, *_ in relations):
        raise DwhError(f"{db_path}: holds no marts yet; run `dwh ingest …` and `dwh build` first")
    return relations


def export_table(con: duckdb.DuckDBPyConnection, root: Path, relation: tuple[str, str, str, str | None]) -> dict:
    """Write one table or view as Parquet under `root`; return its manifest entry."""
    schema, name, kind, description = relation
    columns = con.execute(
        """
        select column_name, data_type, is_nullable, comment from duckdb_columns()
        where database_name = current_database() and schema_name = ? and table_name = ?
        order by column_index
    """,
        [schema, name],
    ).fetchall()
    row_count = con.execute(f'select count(*) from "{schema}"."{name}"').fetchone()[0]
    partitioned = schema == "marts" and name in PARTITIONED_MARTS and row_count > 0
    relative = Path(schema) / (name if partitioned else f"{name}.parquet")
    target = root / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    options = "format parquet, compression zstd"
    if partitioned:
        options += f", partition_by ({PARTITION_COLUMN})"
    con.execute(f'copy (select * from "{schema}"."{name}") to {sql_string(str(target))} ({options})')
    files = sorted(target.rglob("*.parquet")) if partitioned else [target]
    return {
        "name": name,
        "schema": schema,
        "kind": "mart" if schema == "marts" else "reference seed",
        "materialized_as": kind,
        "description": description,
        "location": relative.as_posix(),
        "partitioned_by": [PARTITION_COLUMN] if partitioned else [],
        "row_count": row_count,
        "columns": [
            {"name": column, "type": data_type, "nullable": nullable, "description": comment}
            for column, data_type, nullable, comment in columns
        ],
        "files": [file_entry(con, root, path) for path in files],
    }


def file_entry(con: duckdb.DuckDBPyConnection, root: Path, path: Path) -> dict:
    """A written file's path (relative to the export), rows (from its footer), size and SHA-256."""
    rows = con.execute("select num_rows from parquet_file_metadata(?)", [str(path)]).fetchone()[0]
    return {
        "path": path.relative_to(root).as_posix(),
        "rows": rows,
        "bytes": path.stat().st_size,
        "sha256": sha256_of(path),
    }
