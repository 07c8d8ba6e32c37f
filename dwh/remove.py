"""`dwh remove --dataset NAME` / `--judge NAME`: take a dataset, or a judge, out of the warehouse's
raw tables, on a staged copy published whole (as `dwh ingest` writes): all of it or nothing. The
next `dwh build` sees the raw rows change and takes it out of the marts.

A dataset's rows are those of every `raw.dataset_*` table, its rejects, and the judges'
judgements of its units (which cannot stand without them); a judge's are its judgements of every
source. An unknown name is one line naming those the warehouse holds.
"""

from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.database import connect, connect_read_only
from common.errors import DwhError
from dwh.building.publish import answering_a_full_disk, publish, refuse_unusable_warehouse, staged_copy, writer_lock
from ingest.datasets.landing import TABLES as DATASET_TABLES
from ingest.landing import transaction

# per kind: the raw tables holding its rows, each with the condition on the name
KINDS = {
    "dataset": (
        *((table, "dataset = $name") for table in DATASET_TABLES),
        ("raw.ingest_rejects", "source = $name"),
        ("raw.judge_judgements", "source = $name"),
    ),
    "judge": (("raw.judge_judgements", "judge = $name"),),
}
# what names a warehouse holds, per kind
HELD_SQL = {
    "dataset": "select distinct dataset from raw.dataset_manifests order by 1",
    "judge": "select distinct judge from raw.judge_judgements order by 1",
}


@dataclass(frozen=True)
class Removed:
    """What `dwh remove` took out: per raw table, its rows."""

    kind: str
    name: str
    rows: list[tuple[str, int]]

    def lines(self) -> list[str]:
        width = max(len(table) for table, _ in self.rows)
        total = sum(count for _, count in self.rows)
        return [
            f"removed {self.kind} {self.name}: {total:,} row(s)",
            *(f"  {table:<{width}}  {count:>9,}" for table, count in self.rows),
            "dwh build takes it out of the marts",
        ]


def remove(db_path: Path, kind: str, name: str) -> Removed:
    """Remove the dataset or judge `name` (kind: `dataset` or `judge`) from the warehouse at db_path."""
    refuse_unusable_warehouse(db_path, require_a_load=True)
    _refuse_unknown(db_path, kind, name)
    with writer_lock(db_path), staged_copy(db_path) as staged, answering_a_full_disk(db_path):
        con = connect(staged)
        try:
            with transaction(con):
                rows = [(table, _delete(con, table, condition, name)) for table, condition in KINDS[kind]]
        finally:
            con.close()
        publish(staged, db_path)
    return Removed(kind, name, rows)


def _present(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    schema, _, name = table.partition(".")
    return bool(
        con.execute(
            "select count(*) from duckdb_tables() where schema_name = ? and table_name = ?", [schema, name]
        ).fetchone()[0]
    )


def _delete(con: duckdb.DuckDBPyConnection, table: str, condition: str, name: str) -> int:
    if not _present(con, table):
        return 0
    return int(con.execute(f"delete from {table} where {condition}", {"name": name}).fetchone()[0])


def _refuse_unknown(db_path: Path, kind: str, name: str) -> None:
    """A name the warehouse holds no such rows of is one line, naming those it holds."""
    con = connect_read_only(db_path)
    try:
        table = KINDS[kind][0][0]
        held = [held for (held,) in con.execute(HELD_SQL[kind]).fetchall()] if _present(con, table) else []
    finally:
        con.close()
    if name not in held:
        holds = f"it holds {', '.join(held)}" if held else f"it holds no {kind}"
        raise DwhError(f"{db_path}: no {kind} {name!r} to remove ({holds}); nothing was removed")
