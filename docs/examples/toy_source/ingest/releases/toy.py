"""Toy: a folder with toy.jsonl, one dialogue per line ({"id", "user", "turns", "rating", "reviews"}),
and toy_reviews.csv, the reviews of later rounds (one row per dialogue and round, one column per reviewer)."""

from pathlib import Path

import duckdb

from common.errors import DwhError
from ingest.landing import (
    FileReport,
    LoadContext,
    number_rows_in_file_order,
    record_file,
    replace_source_rows,
    transaction,
)

SOURCE = "toy"

READ_LINES_SQL = r"""
create or replace temp table toy_lines as
select row_number() over () as line_number, line
from read_csv(?, columns = {'line': 'varchar'}, header = false, delim = '\x1f', quote = '', escape = '')
"""

# each field the models read, with the JSON types it may have (json_type's names) and their words
FIELDS = {
    "id": (["VARCHAR"], "a string"),
    "user": (["VARCHAR"], "a string"),
    "turns": (["ARRAY"], "a list"),
    "rating": (["UBIGINT", "BIGINT", "DOUBLE"], "a number"),
    "reviews": (["OBJECT"], "an object"),
}
JSON_TYPE_WORDS = "map {'ARRAY': 'a list', 'OBJECT': 'an object', 'VARCHAR': 'a string', 'NULL': 'null'}"

REVIEW_HEADER = ["id", "review_round", "reviewer_r1", "reviewer_r2", "reviewer_r3"]
REVIEW_COLUMNS = ", ".join(REVIEW_HEADER)
READ_REVIEWS = (
    "read_csv(?, header = true, all_varchar = true, auto_detect = false, "
    "columns = {" + ", ".join(f"'{name}': 'VARCHAR'" for name in REVIEW_HEADER) + "})"
)


def land_toy(ctx: LoadContext, path: Path) -> list[FileReport]:
    """Land the toy release: a folder (its *.jsonl dialogues, its *.csv reviews) or one such file."""
    files = sorted(path.iterdir()) if path.is_dir() else [path]
    dialogues = [file for file in files if file.suffix == ".jsonl"]
    reviews = [file for file in files if file.suffix == ".csv"]
    if not dialogues + reviews:
        raise DwhError(f"{path}: no toy file here (toy.jsonl, toy_reviews.csv)")
    replace_source_rows(ctx, SOURCE, ["raw.toy_dialogues", "raw.toy_reviews"])
    return [land_dialogues(ctx, file) for file in dialogues] + [land_reviews(ctx, file) for file in reviews]


def shape_problem_sql() -> str:
    """Why a line of toy_lines is not a toy dialogue, as SQL (null when it is one)."""
    checks = []
    for name, (types, expected) in FIELDS.items():
        found = f"json_type(line, '$.{name}')"
        allowed = ", ".join(f"'{t}'" for t in types)
        checks.append(
            f"when {found} is null then 'missing \"{name}\"' "
            f"when {found} not in ({allowed}) then '\"{name}\" is ' "
            f"|| coalesce({JSON_TYPE_WORDS}[{found}], 'a ' || lower({found})) || ', where {expected} belongs'"
        )
    return f"case when coalesce(try(json_type(line)) <> 'OBJECT', true) then 'not a JSON object' {' '.join(checks)} end"


def land_dialogues(ctx: LoadContext, path: Path) -> FileReport:
    """Land a toy.jsonl; a line of the wrong shape goes to raw.ingest_rejects with its line and why."""
    ctx.con.execute(READ_LINES_SQL, [str(path)])
    checked = f"select *, {shape_problem_sql()} as problem from toy_lines"
    ctx.con.execute(f"create or replace temp table toy_checked as {checked}")
    ctx.con.execute(
        "insert into raw.toy_dialogues select ?, ?, line_number, line from toy_checked where problem is null",
        [ctx.load_id, path.name],
    )
    ctx.con.execute(
        "insert into raw.ingest_rejects select ?, ?, ?, line_number, problem, line "
        "from toy_checked where problem is not null",
        [ctx.load_id, SOURCE, path.name],
    )
    counts = "select count(*), count(*) filter (where problem is null) from toy_checked"
    read, landed = ctx.con.execute(counts).fetchone()
    report = FileReport(SOURCE, path.name, read, landed, read - landed)
    record_file(ctx, report, str(path), None, path.stat().st_size)
    return report


def land_reviews(ctx: LoadContext, path: Path) -> FileReport:
    """Land a toy_reviews.csv as it is, one raw row per record, every field as text. Another header
    (another set of reviewers, say), or a record of another width, is one error line naming the file."""
    with path.open(encoding="utf-8", newline="") as file:
        header = file.readline().rstrip("\r\n")
    if header != ",".join(REVIEW_HEADER):
        raise DwhError(f"{path}: line 1 (header) is {header!r}, not {','.join(REVIEW_HEADER)!r}")
    try:
        with transaction(ctx.con):  # the insert and its numbering in one transaction
            ctx.con.execute(
                f"insert into raw.toy_reviews (load_id, file_path, row_number, {REVIEW_COLUMNS}) "
                f"select ?, ?, 0, {REVIEW_COLUMNS} from {READ_REVIEWS}",
                [ctx.load_id, path.name, str(path)],
            )
            landed = number_rows_in_file_order(ctx, "raw.toy_reviews", "row_number", path.name)
    except duckdb.Error as exc:  # DuckDB's reason starts with the line: "CSV Error on Line: 3 …"
        raise DwhError(f"{path}: {'; '.join(str(exc).splitlines()[:3])}") from exc
    report = FileReport(SOURCE, path.name, landed, landed, 0)
    record_file(ctx, report, str(path), None, path.stat().st_size)
    return report
