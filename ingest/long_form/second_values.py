"""A second value for one key of a long-form file's checked rows (a judge's unit, a dataset rater's
unit, question and round): the first in file and line order counts, the others become rejects
naming it (ingest/sql/long_form/second_values.sql), on either side alike."""

import duckdb

from common.database import identifier
from ingest.queries import ingest_query


def reject_second_values(con: duckdb.DuckDBPyConnection, checked: str, keys: tuple[str, ...], unit: str) -> None:
    """In `temp.<checked>` (a scratch table of ingest/long_form/reading.py's rows with a `reason`,
    null where the row lands), every landing row whose `keys` an earlier landing row has becomes a
    reject: `unit` (an SQL text over `checked`'s columns naming the key) and where the first is."""
    columns = [identifier(name) for name in keys]
    script = ingest_query("long_form/second_values").format(
        checked=identifier(checked),
        keys=", ".join(columns),
        same_key=" and ".join(f"checked.{name} is not distinct from repeated.{name}" for name in columns),
        unit=unit,
    )
    for statement in filter(str.strip, script.split(";\n")):
        con.execute(statement)
