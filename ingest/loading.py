"""Land the requested sources into a database, and report per file (`dwh ingest` runs it on a staged copy)."""

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from tqdm import tqdm

from common import __version__
from common.database import connect, out_of_memory
from common.sources import SOURCES, lander_for
from ingest.datasets import SOURCE as DATASET_SOURCE
from ingest.datasets.folder import DatasetFolder, recognise_datasets
from ingest.datasets.landing import DatasetOutcome, land_dataset
from ingest.judge_files import SkippedFile, recognise_judges_files
from ingest.judge_landing import JudgesOutcome, land_judges
from ingest.judges import SOURCE as JUDGES_SOURCE
from ingest.landing import FileReport, LoadContext, in_parallel
from ingest.long_form import LongFormFile
from ingest.raw_schema import ensure_raw_schema


@dataclass(frozen=True)
class SourceRequest:
    """One source to land, from one path."""

    source: str
    path: Path


@dataclass(frozen=True)
class IngestRequest:
    """What one `dwh ingest` lands: releases (`--duo`, `--redial`, `--dices`), dataset folders
    (`--dataset`) and judges' files or folders (`--judges`). `replace`: a dataset may replace a
    namesake from another folder with another title, or be emptied by its reload
    (ingest/datasets/replacing.py)."""

    sources: tuple[SourceRequest, ...] = ()
    datasets: tuple[Path, ...] = ()
    judges: tuple[Path, ...] = ()
    replace: bool = False

    def is_empty(self) -> bool:
        return not (self.sources or self.datasets or self.judges)


def new_load_id() -> str:
    """Sortable by time, unique across machines."""
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ-") + uuid.uuid4().hex[:8]


@dataclass(frozen=True)
class IngestOutcome:
    """What one `dwh ingest` landed: a report per release file, what the judges load did (if any),
    the files under the judges' folders it did not load, and what landed of each dataset
    (`--dataset`)."""

    reports: list[FileReport]
    judges: JudgesOutcome | None
    judges_skipped: list[SkippedFile] = field(default_factory=list)
    datasets: list[DatasetOutcome] = field(default_factory=list)


def land_into(db_path: Path, request: IngestRequest, progress: Callable[[str], None]) -> IngestOutcome:
    """Land the request's releases, then its datasets, then its judges, into the database at db_path
    (`dwh ingest` gives a staged copy), statement by statement.

    No enclosing transaction: the staged copy is what makes a load all or nothing (it is only
    published when every source landed), and committing as it goes lets DuckDB write large
    releases out instead of holding them all as one uncommitted transaction. Each dataset lands in
    a transaction of its own.
    """
    con = connect(db_path)
    try:
        ensure_raw_schema(con)
        # a dataset folder or a judges file without a needed file or column stops the load before
        # the releases land
        folders = recognise_datasets(con, request.datasets)
        found = recognise_judges_files(con, request.judges)
        load_id = new_load_id()
        sources = [r.source for r in request.sources] + ([DATASET_SOURCE] if folders else [])
        sources += [JUDGES_SOURCE] if request.judges else []
        con.execute(
            "insert into raw.ingest_loads values (?, current_timestamp, null, string_split(?, ','), ?)",
            [load_id, ",".join(sources), __version__],
        )
        reports = _land_all(con, load_id, request.sources, progress)
        landed = [_land_dataset(con, load_id, folder, progress, request.replace) for folder in folders]
        outcome = None
        if request.judges:
            outcome = _land_judges(con, load_id, request.judges, found.files, bool(request.sources), progress)
        con.execute("update raw.ingest_loads set finished_at = current_timestamp where load_id = ?", [load_id])
        return IngestOutcome(reports, outcome, found.skipped, landed)
    finally:
        con.close()


# Sources whose landing changes a global DuckDB setting (DUO turns insertion order off while it
# reads thousands of small files), so they land alone, before the others.
LANDS_ALONE = {source.name for source in SOURCES if source.lands_alone}


def _land_all(
    con: duckdb.DuckDBPyConnection, load_id: str, requests: Sequence[SourceRequest], progress: Callable[[str], None]
) -> list[FileReport]:
    """Land every request: those in LANDS_ALONE first, then the others side by side (`in_parallel`).

    The sources touch different raw tables; the shared bookkeeping tables only get appends and
    deletes of each source's own rows.
    """
    reports: dict[SourceRequest, list[FileReport]] = {}
    with tqdm(total=len(requests), desc="landing", unit="source", disable=None) as bar:
        for request in [r for r in requests if r.source in LANDS_ALONE]:
            reports[request] = _land_source(con, load_id, request, progress)
            bar.update()
        side_by_side = [r for r in requests if r.source not in LANDS_ALONE]
        landed = in_parallel(
            con, lambda cursor, request: _land_source(cursor, load_id, request, progress), side_by_side, bar.update
        )
        reports.update(zip(side_by_side, landed))
    return [report for request in requests for report in reports[request]]


def _land_source(
    con: duckdb.DuckDBPyConnection, load_id: str, request: SourceRequest, progress: Callable[[str], None]
) -> list[FileReport]:
    progress(f"{request.source}: {request.path}")
    try:
        return lander_for(request.source)(LoadContext(con, load_id), request.path)
    except duckdb.OutOfMemoryException as exc:
        raise out_of_memory(request.path) from exc


def _land_dataset(
    con: duckdb.DuckDBPyConnection,
    load_id: str,
    folder: DatasetFolder,
    progress: Callable[[str], None],
    replace: bool,
) -> DatasetOutcome:
    progress(f"dataset {folder.name}: {folder.path}")
    steps = ("questions", "judgements", "raters", "units")
    try:
        with tqdm(total=len(steps), desc=f"dataset {folder.name}", unit="part", disable=None) as bar:
            return land_dataset(LoadContext(con, load_id), folder, lambda _part: bar.update(), replace)
    except duckdb.OutOfMemoryException as exc:
        raise out_of_memory(folder.path) from exc


def _land_judges(
    con: duckdb.DuckDBPyConnection,
    load_id: str,
    paths: Sequence[Path],
    files: list[LongFormFile],
    beside_releases: bool,
    progress: Callable[[str], None],
) -> JudgesOutcome:
    progress(f"judges: {', '.join(map(str, paths))}")
    try:
        return land_judges(LoadContext(con, load_id), files, beside_releases)
    except duckdb.OutOfMemoryException as exc:
        raise out_of_memory(paths[0]) from exc


def format_reports(reports: list[FileReport]) -> str:
    """The end-of-ingest summary: one line per file (DUO: per folder)."""
    if not reports:
        return ""
    width = max([len(f"{r.source} {r.file_path}") for r in reports] + [20])
    lines = [f"{'file':<{width}}  {'read':>9}  {'landed':>9}  {'rejected':>9}"]
    for r in reports:
        lines.append(
            f"{r.source + ' ' + r.file_path:<{width}}  {r.records_read:>9,}  "
            f"{r.records_landed:>9,}  {r.records_rejected:>9,}"
        )
    rejected = sum(r.records_rejected for r in reports)
    if rejected:
        lines.append(f"{rejected:,} record(s) rejected: see raw.ingest_rejects (file, line, reason, raw text)")
    return "\n".join(lines)
