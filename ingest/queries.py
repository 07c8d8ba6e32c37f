"""The queries kept in ingest/sql/, read by name."""

import functools
from importlib import resources


@functools.cache
def ingest_query(name: str) -> str:
    """A query kept in ingest/sql/ (e.g. "redial/classify_lines"), read once per process."""
    return (resources.files("ingest") / "sql" / f"{name}.sql").read_text(encoding="utf-8")
