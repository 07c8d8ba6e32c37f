"""`dwh ingest`: land the given sources into a staged copy of the warehouse, then publish it."""

from collections.abc import Callable
from pathlib import Path

from dwh.publish import answering_a_full_disk, publish, refuse_unusable_warehouse, staged_copy, writer_lock
from ingest.errors import DwhError
from ingest.landing import FileReport
from ingest.loading import SourceRequest, land_into
from ingest.sources import SOURCES


def run_ingest(db_path: Path, requests: list[SourceRequest], progress: Callable[[str], None]) -> list[FileReport]:
    """Land every requested source into a staged copy, then publish it: all or nothing."""
    if not requests:
        raise DwhError("nothing to ingest: give " + " and/or ".join(f"--{s.name}" for s in SOURCES))
    refuse_unusable_warehouse(db_path)
    with writer_lock(db_path), staged_copy(db_path) as staged, answering_a_full_disk(db_path):
        reports = land_into(staged, requests, progress)
        publish(staged, db_path)
    return reports
