"""What `dwh build` must rebuild: everything, or only what depends on the sources loaded since.

Every passing build records, in `raw.warehouse_builds`, the load each
source was built from (with its raw tables' row counts, so that rows changed by hand are noticed
too) and a fingerprint of the dbt project. The next `dwh build` compares: a source whose latest
finished load is another one, or whose raw tables hold another number of rows, has changed, and only the models
and tests downstream of the changed sources (and of the load bookkeeping every load changes) are rebuilt,
with dbt's own selection (`--select source:redial+ source:ingest+`). Everything else in the
warehouse was built from the same raw data and the same project, so it is already what a full
build would make. A changed project, no earlier build, or `--full` rebuilds everything."""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import duckdb

from ingest import __version__
from ingest.settings import PROJECT_ROOT

# what dbt reads to build the warehouse: a change to any of it can change any model
PROJECT_PARTS = (
    "dbt_project.yml",
    "profiles.yml",
    "models",
    "macros",
    "seeds",
    "tests_dbt",
    # the statistics the agreement models' Python runs
    "agreement_core",
)
# the bookkeeping tables (dbt source `ingest`) change with every load, whatever it loaded
BOOKKEEPING_SOURCE = "ingest"


@dataclass(frozen=True)
class BuildPlan:
    """The selection a default `dwh build` runs, and what it records once it passed."""

    source_loads: dict[str, str]  # source -> "<latest finished load that landed it> (<raw rows> rows)"
    fingerprint: str  # the project's, then the build's dbt arguments when it has any (build_fingerprint)
    changed_sources: list[str] | None  # None: rebuild everything
    # the dbt arguments the last recorded build ran with, when they differ from this one's
    other_arguments_before: list[str] | None = None

    @property
    def is_full(self) -> bool:
        return self.changed_sources is None

    @property
    def has_nothing_to_do(self) -> bool:
        return self.changed_sources == []

    def dbt_selection(self) -> list[str]:
        """`dbt build` arguments for this plan (none for a full build)."""
        if not self.changed_sources:
            return []
        return ["--select", *(f"source:{source}+" for source in [*self.changed_sources, BOOKKEEPING_SOURCE])]

    def describe(self) -> str:
        if self.is_full and self.other_arguments_before:
            return (
                f"full build (the last build ran with the dbt arguments {' '.join(self.other_arguments_before)}: "
                "everything is rebuilt without them)"
            )
        if self.is_full:
            return "full build"
        if self.has_nothing_to_do:
            return "nothing was loaded or changed, and the project is unchanged, since the last build"
        return (
            f"incremental build: only what depends on {', '.join(self.changed_sources)} "
            "(loaded or changed since the last build)"
        )


def project_fingerprint(root: Path = PROJECT_ROOT) -> str:
    """A hash of every file dbt reads to build the warehouse, and of dwh's version."""
    digest = hashlib.sha256(__version__.encode())
    for part in PROJECT_PARTS:
        path = root / part
        files = sorted(p for p in path.rglob("*") if p.is_file() and not is_compiled(p)) if path.is_dir() else [path]
        for file in files:
            if file.exists():
                digest.update(str(file.relative_to(root)).encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def is_compiled(path: Path) -> bool:
    """Python's bytecode cache: written when the models import agreement_core, never read by dbt as such."""
    return "__pycache__" in path.parts or path.suffix == ".pyc"


LATEST_LOADS_SQL = """
    select source, arg_max(load_id, finished_at)
    from (select load_id, finished_at, unnest(sources) as source from raw.ingest_loads where finished_at is not null)
    group by source"""

LAST_BUILD_SQL = """
    select project_fingerprint, source_loads from raw.warehouse_builds order by built_at desc limit 1"""


def source_states(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Per loaded source: its latest finished load and the rows of its raw tables (`raw.<source>_*`)."""
    tables = [
        name
        for (name,) in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw' order by table_name"
        ).fetchall()
    ]
    states = {}
    for source, load_id in con.execute(LATEST_LOADS_SQL).fetchall():
        rows = sum(
            con.execute(f'select count(*) from raw."{table}"').fetchone()[0]
            for table in tables
            if table.startswith(source + "_")
        )
        states[source] = f"{load_id} ({rows} rows)"
    return states


def build_fingerprint(project: str, dbt_args: list[str]) -> str:
    """What a build is recorded as built with: the project's fingerprint, then, for a build given dbt
    arguments (`--vars`, a selection, flags: anything may change what is built), those arguments as
    JSON. A build with other arguments than the last one is never taken for up to date."""
    return f"{project} {json.dumps(dbt_args)}" if dbt_args else project


def arguments_of(fingerprint: str) -> list[str]:
    """The dbt arguments a recorded build's fingerprint holds ([] for a build without any)."""
    _, _, arguments = fingerprint.partition(" ")
    return json.loads(arguments) if arguments else []


def plan_build(con: duckdb.DuckDBPyConnection, full: bool = False, dbt_args: list[str] | None = None) -> BuildPlan:
    """Compare the warehouse's loads, the project and the dbt arguments with what its last recorded
    build used."""
    source_loads = source_states(con)
    fingerprint = build_fingerprint(project_fingerprint(), dbt_args or [])
    recorded = con.execute(
        "select 1 from duckdb_tables() where schema_name = 'raw' and table_name = 'warehouse_builds'"
    ).fetchone()
    # a warehouse from before builds were recorded has no such table: built in full
    last = con.execute(LAST_BUILD_SQL).fetchone() if recorded else None
    if full or last is None or last[0] != fingerprint:
        before = arguments_of(last[0]) if last else []
        return BuildPlan(source_loads, fingerprint, None, before if before != (dbt_args or []) else None)
    built_from = dict(last[1])
    changed = sorted(
        source
        for source in source_loads.keys() | built_from.keys()
        if source_loads.get(source) != built_from.get(source)
    )
    return BuildPlan(source_loads, fingerprint, changed)


def record_build(con: duckdb.DuckDBPyConnection, plan: BuildPlan) -> None:
    """Remember what the warehouse is now built from (in the staged copy, before it is published)."""
    rebuilt = sorted(plan.source_loads) if plan.is_full or not plan.changed_sources else plan.changed_sources
    con.execute(
        "insert into raw.warehouse_builds values (current_timestamp, ?, map(?, ?), ?, ?)",
        [plan.fingerprint, list(plan.source_loads), list(plan.source_loads.values()), rebuilt, __version__],
    )
