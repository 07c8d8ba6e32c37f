"""Data tests whose offending rows are rows of a seed the user edits: a failing build's one error
line names the seed's file and the line of each such row, and what to do.

dbt loads a seed without its line numbers, so the test returns the rows' values as written (key
and problem), and the line is found here, in the seed's CSV file."""

import csv
from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.database import connect_read_only
from common.paths import PROJECT_ROOT

SHOWN_KEYS = 5


@dataclass(frozen=True)
class SeedRowTest:
    """A data test returning seed rows: the seed's file (in the project), its key column, and the
    column of the test's rows saying what is wrong with each."""

    seed: str
    key_column: str
    problem_column: str
    remedy: str


SEED_ROW_TESTS = {
    "excluded_raters_name_known_raters": SeedRowTest(
        "seeds/excluded_raters.csv",
        "rater_key",
        "problem",
        "correct the key (rater keys are case-sensitive: as marts.raters writes them) or remove the row",
    ),
}


def seed_row_error(built: Path, test_name: str, compiled_sql: str | None) -> str | None:
    """The one-line answer for a failed seed-row test: each offending key with its seed line and
    problem, and the remedy; None for any other test (or when its rows cannot be read again)."""
    test = SEED_ROW_TESTS.get(test_name)
    if test is None or not compiled_sql:
        return None
    rows = _offending(built, compiled_sql, test)
    if not rows:
        return None
    lines = _seed_lines(PROJECT_ROOT / test.seed, test.key_column)
    found = sorted((lines.get(key, [0]), key, problem) for key, problem in rows)
    named = [f"{_line_of(at)}: {test.key_column} {key!r} {problem}" for at, key, problem in found[:SHOWN_KEYS]]
    more = f"; and {len(rows) - SHOWN_KEYS} more" if len(rows) > SHOWN_KEYS else ""
    return f"{test.seed} {'; '.join(named)}{more}: {test.remedy}, then run dwh build again"


def _offending(built: Path, compiled_sql: str, test: SeedRowTest) -> list[tuple[str, str]]:
    con = connect_read_only(built)
    try:
        return con.execute(
            f"select {test.key_column}, {test.problem_column} from ({compiled_sql}) as failing_rows "
            f"order by {test.key_column}"
        ).fetchall()
    except duckdb.Error:
        return []
    finally:
        con.close()


def _seed_lines(seed: Path, key_column: str) -> dict[str, list[int]]:
    """Each key of the seed, as written, with the lines (1-based, the header is line 1) it is on."""
    lines: dict[str, list[int]] = {}
    with seed.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        _ = reader.fieldnames  # reads the header
        start = reader.line_num + 1
        for row in reader:
            lines.setdefault(row.get(key_column) or "", []).append(start)
            start = reader.line_num + 1
    return lines


def _line_of(found: list[int]) -> str:
    if found == [0]:
        return "(line not found)"
    return ("line " if len(found) == 1 else "lines ") + ", ".join(str(n) for n in found)
