"""`dwh ingest`: land the given sources into a staged copy of the warehouse, then publish it."""

from collections.abc import Callable
from pathlib import Path

from common.database import connect_read_only
from common.errors import DwhError
from common.sources import SOURCES
from dwh.building.publish import answering_a_full_disk, publish, refuse_unusable_warehouse, staged_copy, writer_lock
from ingest.judge_landing import has_built_marts, no_marts_error
from ingest.loading import IngestOutcome, IngestRequest, land_into


def run_ingest(db_path: Path, request: IngestRequest, progress: Callable[[str], None]) -> IngestOutcome:
    """Land the request (its releases, datasets, then judges) into a staged copy, then publish it:
    all or nothing."""
    if request.is_empty():
        options = [f"--{s.name}" for s in SOURCES] + ["--dataset", "--judges"]
        raise DwhError("nothing to ingest: give " + " and/or ".join(options))
    refuse_unusable_warehouse(db_path)
    if request.judges:
        refuse_judges_without_marts(db_path)
    with writer_lock(db_path), staged_copy(db_path) as staged, answering_a_full_disk(db_path):
        outcome = land_into(staged, request, progress)
        publish(staged, db_path)
    return outcome


def refuse_judges_without_marts(db_path: Path) -> None:
    """Judges are checked against the marts of the last build: a warehouse never built has none."""
    if not db_path.is_file() or db_path.stat().st_size == 0:
        raise no_marts_error(db_path)
    con = connect_read_only(db_path)
    try:
        if not has_built_marts(con):
            raise no_marts_error(db_path)
    finally:
        con.close()
