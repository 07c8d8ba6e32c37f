"""What `dwh build` must rebuild: everything, or only what depends on the sources whose data changed.

Every passing build records, in `raw.warehouse_builds`, the state of each source's raw data it was
built from (a digest of its raw tables' rows, load ids left out, and their row count), the latest
load (the load bookkeeping) and a fingerprint of the dbt project. The next `dwh build` compares: a
source whose raw rows differ (a load that brought other data, rows changed by hand) has changed, and
only the models and tests downstream of the changed sources and of the load bookkeeping are
rebuilt, with dbt's own selection (`--select source:redial+ source:ingest+`). Judges are raters of
the spine, but of kind `judge`, which every human figure leaves out: a judges' load rebuilds only
the path from the judges to the judges' marts (`JUDGES_PATH`). Reloading a release with the same
content changes only the bookkeeping (`source:ingest+`, a few nodes). Everything else
in the warehouse was built from the same raw data and the same project, so it is already what a
full build would make. A changed project, no earlier build, or `--full` rebuilds everything."""

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path

import duckdb

from common import __version__
from common.paths import PROJECT_ROOT
from ingest.judges import SOURCE as JUDGES_SOURCE

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
# the bookkeeping tables (dbt source `ingest`) change with every load, whatever it loaded: their
# state is the latest finished load
BOOKKEEPING_SOURCE = "ingest"
# What a judges' load can change: the models between the judges and the judges' marts. The other
# models downstream of the spine (`int_agreement__judgements`) leave every rater of kind judge out
# (`is_judge`), so their rows stay as they were; tests/building/test_build_incremental.py holds the
# warehouse this selection builds to a full build's.
JUDGES_PATH = f"source:{JUDGES_SOURCE}+,+path:models/marts/judges"
# a column every raw table has that says which load landed a row, not what the row holds
LOAD_COLUMN = "load_id"


@dataclass(frozen=True)
class BuildPlan:
    """The selection a default `dwh build` runs, and what it records once it passed."""

    source_loads: dict[str, str]  # source -> "<digest of its raw rows> (<raw rows> rows)"; ingest -> latest load
    fingerprint: str  # the project's, then the build's dbt arguments when it has any (build_fingerprint)
    changed_sources: list[str] | None  # None: rebuild everything
    # the dbt arguments the last recorded build ran with, when they differ from this one's
    other_arguments_before: list[str] | None = None
    # `dwh build --full`: the figures stored from earlier builds are computed again too (dbt's
    # --full-refresh of the incremental models, `agreement_core.memo`)
    recompute: bool = False
    # the source states the last recorded build was built from (None: no build recorded)
    built_from: dict[str, str] | None = None

    def sources_changed_since_last_build(self) -> set[str]:
        """The sources (the bookkeeping too) whose raw rows differ from the last recorded build's:
        every loaded source when none is recorded."""
        if self.built_from is None:
            return set(self.source_loads)
        return {
            source
            for source in self.source_loads.keys() | self.built_from.keys()
            if self.source_loads.get(source) != self.built_from.get(source)
        }

    def keeping_changed(self, sources: set[str]) -> "BuildPlan":
        """This plan recording, for `sources`, the states the last build was built from: what a
        build leaves out of date stays changed for the next one."""
        before = self.built_from or {}
        loads = {
            source: before.get(source, "not built") if source in sources else state
            for source, state in self.source_loads.items()
        }
        return replace(self, source_loads=loads)

    @property
    def is_full(self) -> bool:
        return self.changed_sources is None

    @property
    def has_nothing_to_do(self) -> bool:
        return self.changed_sources == []

    def dbt_selection(self) -> list[str]:
        """`dbt build` arguments for this plan (none for a full build, `--full-refresh` for `--full`)."""
        if self.recompute:
            return ["--full-refresh"]
        if not self.changed_sources:
            return []
        return ["--select", *map(selection_of, [*self.data_sources_changed, BOOKKEEPING_SOURCE])]

    @property
    def data_sources_changed(self) -> list[str]:
        return [source for source in self.changed_sources or [] if source != BOOKKEEPING_SOURCE]

    def describe(self) -> str:
        if self.recompute:
            return "full build, every figure computed again (--full)"
        if self.is_full and self.other_arguments_before:
            return (
                f"full build (the last build ran with the dbt arguments {' '.join(self.other_arguments_before)}: "
                "everything is rebuilt without them)"
            )
        if self.is_full:
            return "full build"
        if self.has_nothing_to_do:
            return "nothing was loaded or changed, and the project is unchanged, since the last build"
        if self.changed_sources == [BOOKKEEPING_SOURCE]:
            return (
                "incremental build: only the load bookkeeping "
                "(what was loaded since the last build holds the same data)"
            )
        return (
            f"incremental build: only what depends on {', '.join(self.data_sources_changed)} "
            "(loaded or changed since the last build)"
        )


def selection_of(source: str) -> str:
    """The dbt selection of what a change of `source`'s raw rows can change."""
    return JUDGES_PATH if source == JUDGES_SOURCE else f"source:{source}+"


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


LOADED_SOURCES_SQL = """
    select distinct unnest(sources) as source from raw.ingest_loads where finished_at is not null order by source"""

LAST_BUILD_SQL = """
    select project_fingerprint, source_loads from raw.warehouse_builds order by built_at desc limit 1"""


def source_states(con: duckdb.DuckDBPyConnection) -> dict[str, str]:
    """Per loaded source: a digest of its raw tables' rows (`raw.<source>_*`, whoever landed them)
    and their count; and the latest finished load, the state of the load bookkeeping."""
    tables = [
        name
        for (name,) in con.execute(
            "select table_name from duckdb_tables() where schema_name = 'raw' order by table_name"
        ).fetchall()
    ]
    states = {}
    for (source,) in con.execute(LOADED_SOURCES_SQL).fetchall():
        digests = [table_digest(con, table) for table in tables if table.startswith(source + "_")]
        digest = hashlib.sha256(" ".join(text for text, _ in digests).encode()).hexdigest()[:32]
        states[source] = f"{digest} ({sum(rows for _, rows in digests)} rows)"
    latest = con.execute(
        "select arg_max(load_id, finished_at) from raw.ingest_loads where finished_at is not null"
    ).fetchone()
    if latest and latest[0]:
        states[BOOKKEEPING_SOURCE] = latest[0]
    return states


def table_digest(con: duckdb.DuckDBPyConnection, table: str) -> tuple[str, int]:
    """A raw table's rows, in any order, as a sum of DuckDB's hashes of every column but the load's
    id (a reload of the same data digests the same), and their count."""
    columns = [
        name
        for (name,) in con.execute(
            "select column_name from duckdb_columns() where schema_name = 'raw' and table_name = ? "
            "and column_name <> ? order by column_index",
            [table, LOAD_COLUMN],
        ).fetchall()
    ]
    hashed = ", ".join(f'"{column}"' for column in columns)
    rows, total = con.execute(
        f'select count(*), coalesce(sum(hash({hashed})::hugeint) % 18446744073709551616, 0) from raw."{table}"'
    ).fetchone()
    return f"{table}:{rows}:{total}", rows


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
    built_from = dict(last[1]) if last else None
    if full or last is None or last[0] != fingerprint:
        before = arguments_of(last[0]) if last else []
        other = before if before != (dbt_args or []) else None
        return BuildPlan(source_loads, fingerprint, None, other, full, built_from)
    changed = sorted(
        source
        for source in source_loads.keys() | built_from.keys()
        if source_loads.get(source) != built_from.get(source)
    )
    return BuildPlan(source_loads, fingerprint, changed, built_from=built_from)


def record_build(con: duckdb.DuckDBPyConnection, plan: BuildPlan) -> None:
    """Remember what the warehouse is now built from (in the staged copy, before it is published)."""
    rebuilt = sorted(plan.source_loads) if plan.is_full or not plan.changed_sources else plan.changed_sources
    con.execute(
        "insert into raw.warehouse_builds values (current_timestamp, ?, map(?, ?), ?, ?)",
        [plan.fingerprint, list(plan.source_loads), list(plan.source_loads.values()), rebuilt, __version__],
    )
