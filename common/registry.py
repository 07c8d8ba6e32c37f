"""The one list of sources every command reads: the built-in releases (common/sources.py, where each
is described once, with its properties) and the datasets a warehouse holds (`raw.dataset_manifests`,
docs/DATASETS.md). A loaded dataset is a source wherever a source is named: `dwh tasks --source`,
the judges' units, the summary, the report, the export and load_reconciliation."""

from dataclasses import dataclass
from typing import TYPE_CHECKING

from common.sources import SOURCES

if TYPE_CHECKING:
    import duckdb


@dataclass(frozen=True)
class KnownSource:
    """A source as the marts name it (`source`), its title, and whether it is a dataset."""

    name: str
    title: str
    is_dataset: bool


def built_in_sources() -> tuple[KnownSource, ...]:
    """The releases `dwh ingest` has a lander for, in their order."""
    return tuple(KnownSource(source.name, source.title, False) for source in SOURCES)


def built_in_names() -> tuple[str, ...]:
    return tuple(source.name for source in built_in_sources())


def loaded_datasets(con: "duckdb.DuckDBPyConnection") -> tuple[KnownSource, ...]:
    """The datasets the warehouse on `con` holds (none where no dataset was ever loaded), by name."""
    if not has_raw_table(con, "dataset_manifests"):
        return ()
    rows = con.execute("select dataset, title from raw.dataset_manifests order by dataset").fetchall()
    return tuple(KnownSource(name, title, True) for name, title in rows)


def known_sources(con: "duckdb.DuckDBPyConnection | None" = None) -> tuple[KnownSource, ...]:
    """The built-in sources, then the datasets of the warehouse on `con` (if given)."""
    return built_in_sources() + (loaded_datasets(con) if con is not None else ())


def source_names(con: "duckdb.DuckDBPyConnection | None" = None) -> tuple[str, ...]:
    return tuple(source.name for source in known_sources(con))


def has_raw_table(con: "duckdb.DuckDBPyConnection", table: str) -> bool:
    """Whether the warehouse's raw schema holds `table` (a warehouse older than it does not)."""
    return bool(
        con.execute(
            "select count(*) from duckdb_tables() where database_name = current_database() "
            "and schema_name = 'raw' and table_name = ?",
            [table],
        ).fetchone()[0]
    )
