"""`dwh tasks OUT [--source S]`: what a judge needs, one JSON object a line per unit to judge.

A unit is every (dialogue_key, question[, movie_id]) with human ratings in the built marts: DUO
one per dialogue and metric (whatever the rating kind), DICES per item and question column,
ReDial per conversation, movie and form question, a dataset (`dwh ingest --dataset`) per unit and
question. `--source` is any source of the registry (common/registry.py): a built-in one or a
loaded dataset's name. Each line carries the question's wording (seeds/judgement_questions.csv, a
dataset's questions.csv), its scale (`{"min": 1, "max": 5}`, interval and ratio questions) or its
labels (the label texts that are judgements, in the label set's order), and the conversation's
turns in order (a dataset unit's turns, or its text as one turn); a ReDial unit also the movie's
title and what its labels mean (0 no, 1 yes). The
JSON text is made by DuckDB and streamed to the file in batches, so memory stays flat; `dwh ingest
--judges` loads a judge's answers back.

`OUT` may be new or an earlier task file dwh wrote (its first line a task), nothing else: a judge's
answers, a release or any other file there is never replaced, as `dwh report` and `dwh export`
never replace what they did not write.
"""

from pathlib import Path

import duckdb
from tqdm import tqdm

from common.database import connect_read_only, memory_limit, sql_string
from common.errors import DwhError
from common.outputs import refuse_file_as_folder, refuse_non_regular_file, refuse_warehouse_files, replacing
from common.registry import source_names
from ingest.judge_landing import has_built_marts, reference_tables
from ingest.queries import ingest_query

BATCH_ROWS = 5_000


def write_tasks(db_path: Path, out: Path, source: str | None = None) -> int:
    """Write the units to judge (of `source`, or all) to `out`, one JSON object a line; returns how many."""
    refuse_warehouse_files(out, db_path, "dwh tasks")
    if out.is_dir():
        raise DwhError(f"{out}: is a folder; dwh tasks writes one file: name it, e.g. {out / 'tasks.jsonl'}")
    refuse_non_regular_file(out, "dwh tasks")
    refuse_file_as_folder(out, "dwh tasks")
    refuse_other_files(out)
    if not db_path.is_file():
        raise DwhError(f"{db_path}: no warehouse yet (run dwh ingest and dwh build)")
    con = connect_read_only(db_path)
    try:
        refuse_unknown_source(con, source)
        if not has_built_marts(con):
            raise DwhError(f"{db_path}: the marts are not built yet (run dwh build), so there are no units to judge")
        con.execute(f"set memory_limit = {sql_string(memory_limit())}")
        reference_tables(con, with_units=False)
        return _stream_units(con, out, source)
    finally:
        con.close()


TASK_START = b'{"dialogue_key":'


def refuse_other_files(out: Path) -> None:
    """An existing file at `out` is replaced only when it is empty or a task file dwh wrote."""
    if not out.is_file():
        return
    with out.open("rb") as handle:
        start = handle.read(len(TASK_START))
    if start and start != TASK_START:
        raise DwhError(
            f"{out}: already exists and is not a task file dwh wrote; dwh tasks replaces only its own earlier "
            "task file: choose another path, or remove this file first"
        )


def refuse_unknown_source(con: duckdb.DuckDBPyConnection, source: str | None) -> None:
    """`--source` names a built-in source or a dataset the warehouse holds (common/registry.py)."""
    names = source_names(con)
    if source is not None and source not in names:
        raise DwhError(
            f"--source: unknown source {source!r}; choose a built-in source or a loaded dataset: {', '.join(names)}"
        )


def _stream_units(con: duckdb.DuckDBPyConnection, out: Path, source: str | None) -> int:
    """The units as JSON text, batch by batch, into a new file renamed onto `out` when complete."""
    only = "" if source is None else f"where ratings.source = {sql_string(source)}"
    statements = [
        statement for statement in ingest_query("judges/tasks").format(only=only).split(";\n") if statement.strip()
    ]
    for statement in statements[:-1]:
        con.execute(statement)
    total = con.execute("select count(*) from temp.task_units").fetchone()[0]
    # one thread joins the sorted units to their turns in order, without a sort that would carry the turns
    con.execute("set threads = 1")
    cursor = con.execute(statements[-1])
    written = 0
    with replacing(out) as partial, partial.open("w", encoding="utf-8") as handle:
        with tqdm(total=total, desc="tasks", unit="unit", disable=None) as bar:
            while rows := cursor.fetchmany(BATCH_ROWS):
                handle.write("".join(row[0] + "\n" for row in rows))
                written += len(rows)
                bar.update(len(rows))
    return written
