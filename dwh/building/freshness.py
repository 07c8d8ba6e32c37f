"""Which build the marts come from, and whether a load has landed since: `dwh summary`, `dwh report`
and `dwh export` serve the marts of the last build that passed, and say so when a later load (one
whose build failed, or was never run) is not in them yet."""

import sys
from dataclasses import dataclass
from datetime import datetime

import duckdb


@dataclass(frozen=True)
class MartsBuild:
    """The build the marts come from (None: none recorded) and the last load that finished."""

    built_at: datetime | None
    last_load_at: datetime | None

    @property
    def older_than_last_load(self) -> bool:
        if self.last_load_at is None:
            return False
        return self.built_at is None or self.built_at < self.last_load_at

    def as_manifest(self) -> dict:
        """What an export's manifest.json says of the build its marts came from."""
        return {
            "built_at": _iso(self.built_at),
            "last_load_at": _iso(self.last_load_at),
            "marts_older_than_last_load": self.older_than_last_load,
        }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat(timespec="seconds") if moment else None


def _has_raw_table(con: duckdb.DuckDBPyConnection, name: str) -> bool:
    return bool(
        con.execute(
            "select count(*) from duckdb_tables() where database_name = current_database() "
            "and schema_name = 'raw' and table_name = ?",
            [name],
        ).fetchone()[0]
    )


def marts_build(con: duckdb.DuckDBPyConnection) -> MartsBuild:
    """The last recorded build and the last finished load of the warehouse `con` reads."""
    built_at = last_load_at = None
    if _has_raw_table(con, "warehouse_builds"):
        built_at = con.execute("select max(built_at) from raw.warehouse_builds").fetchone()[0]
    if _has_raw_table(con, "ingest_loads"):
        last_load_at = con.execute("select max(finished_at) from raw.ingest_loads").fetchone()[0]
    return MartsBuild(built_at, last_load_at)


def say_if_older_than_last_load(build: MartsBuild, command: str) -> None:
    """One line on standard error when the marts served predate the last load."""
    if not build.older_than_last_load:
        return
    built = f"built {_iso(build.built_at)}" if build.built_at else "from a build dwh did not record"
    print(
        f"dwh: warning: the marts are older than the last load ({built}; last load {_iso(build.last_load_at)}): "
        f"{command} serves them as they are; run dwh build to bring the load in",
        file=sys.stderr,
    )
