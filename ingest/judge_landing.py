"""Check judges' rows against the last build and land them into raw.judge_judgements.

A unit is known when the warehouse's built marts have it: the dialogue in `marts.dialogues`, the
(source, question) in seeds/judgement_questions.csv or a dataset's questions (raw.dataset_questions),
and for a source whose units are keyed by a movie (`units_keyed_by_movie` of common/sources.py and
seeds/warehouse_sources.csv: ReDial) the (dialogue, movie, question) among `marts.ratings`' form
answers, and the unit (dialogue, question) must have human ratings in `marts.ratings`; the value
must lie on the question's scale (seeds/judgement_labels.csv; a dataset's labels, or its min and max).
Every row that is not a judgement of a known unit goes to raw.ingest_rejects with its file, line
and reason; the rest lands.

The unit of replacement is a judge on a source (judge × source): a load replaces the earlier
judgements of each (judge, source) it lands at least one judgement of, and no other. A judge whose
rows of a source were all rejected keeps its earlier judgements there, and the outcome says so, as
it says what it replaced. A file's earlier rejects are replaced by its new ones (a file is known by
its absolute path). Everything is SQL over the scratch table ingest/judges.py fills.
"""

from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.database import sql_string
from common.errors import DwhError
from common.paths import PROJECT_ROOT
from common.registry import has_raw_table
from common.sources import ingest_options
from ingest.judges import SOURCE, read_judges_files
from ingest.landing import FileReport, LoadContext
from ingest.long_form import LongFormFile
from ingest.long_form.second_values import reject_second_values
from ingest.queries import ingest_query

SEEDS = PROJECT_ROOT / "seeds"
UNKNOWN_DIALOGUE = "not in marts.dialogues (the warehouse's last build)"
UNKNOWN_DIALOGUE_BESIDE_RELEASES = (
    "not in the warehouse's last build: build after loading the release, then load the judges"
)
NEEDED_MARTS = ("dialogues", "ratings", "turns")
# what a reject for a judge's second value for one unit says of the unit (ingest/long_form/second_values.py)
SECOND_VALUE = (
    "'judge ' || quoted(checked.judge) || ': a second value for ' || checked.dialogue_key || ' ' "
    "|| checked.question || coalesce(' movie ' || checked.unit_movie_id, '')"
)
# raw.dataset_questions' columns the reference reads, where the warehouse is older than datasets
NO_DATASET_QUESTIONS = (
    "(select null::varchar as dataset, null::varchar as question, null::varchar as level, null::varchar[] as labels, "
    "null::double as min_value, null::double as max_value, null::varchar as wording, null::varchar[] as meanings "
    "where false)"
)
# raw.dataset_questions of a warehouse older than its `meanings` (read, not written, before a writer adds it)
WITHOUT_MEANINGS = "(select *, null::varchar[] as meanings from raw.dataset_questions)"


@dataclass(frozen=True)
class JudgesOutcome:
    """What a judges load did: per file, the judges and judgements it landed, and per (judge, source)
    the earlier judgements it replaced or kept (`replacements`, one line each)."""

    reports: list[FileReport]
    judges: int
    judgements: int
    rejects: int
    replacements: list[str]

    def summary_line(self) -> str:
        return (
            f"judges: {self.judges:,} judge(s) loaded, {self.judgements:,} judgement(s), "
            f"{self.rejects:,} reject(s)" + (" (see raw.ingest_rejects)" if self.rejects else "")
        )


def has_built_marts(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether the warehouse holds the marts a judges load is checked against (a `dwh build` ran)."""
    found = con.execute(
        "select count(distinct table_name) from duckdb_tables() where database_name = current_database() "
        f"and schema_name = 'marts' and table_name in ({', '.join(map(sql_string, NEEDED_MARTS))})"
    ).fetchone()[0]
    views = con.execute(
        "select count(distinct view_name) from duckdb_views() where database_name = current_database() "
        f"and schema_name = 'marts' and view_name in ({', '.join(map(sql_string, NEEDED_MARTS))})"
    ).fetchone()[0]
    return found + views == len(NEEDED_MARTS)


def no_marts_error(db_path: Path) -> DwhError:
    return DwhError(
        f"{db_path}: the warehouse has no built marts to check judges against; load the releases "
        f"(dwh ingest {ingest_options()}) and run dwh build first, then dwh ingest --judges"
    )


def land_judges(ctx: LoadContext, files: list[LongFormFile], beside_releases: bool) -> JudgesOutcome:
    """Read the judges files (`recognise_judges_files`), check their rows, land the judgements and
    reject the rest.

    `beside_releases`: releases were loaded in the same command, so the marts are those of the build
    before them, and a reject for an unknown dialogue says so."""
    con = ctx.con
    read_judges_files(con, files)
    _check_rows(con, beside_releases)
    replacements = _replacement_lines(con)
    _replace_judges(ctx, [found.file_path for found in files])
    _land_checked_rows(ctx)
    reports = _file_reports(con, [found.file_path for found in files])
    judges, judgements = con.execute(
        "select count(distinct judge), count(*) from temp.judge_checked where reason is null"
    ).fetchone()
    con.execute("drop table temp.judge_checked")
    con.execute("drop table temp.judge_input")
    rejects = sum(r.records_rejected for r in reports)
    return JudgesOutcome(reports, int(judges), int(judgements), rejects, replacements)


def reference_tables(con: duckdb.DuckDBPyConnection, with_units: bool = True) -> None:
    """The questions and label sets judgements are checked against, as temp tables: the seeds' (the
    built-in sources', with their properties: seeds/warehouse_sources.csv) and those of every dataset
    the warehouse holds (ingest/sql/judges/reference.sql), and with `with_units` the units the last
    build has human ratings of."""
    reference = ingest_query("judges/reference").format(
        sources=sql_string(str(SEEDS / "warehouse_sources.csv")),
        questions=sql_string(str(SEEDS / "judgement_questions.csv")),
        labels=sql_string(str(SEEDS / "judgement_labels.csv")),
        dataset_questions=dataset_questions(con),
    )
    for statement in filter(str.strip, (ingest_query("reason_text") + reference).split(";\n")):
        if with_units or "judge_units" not in statement:
            con.execute(statement)


def dataset_questions(con: duckdb.DuckDBPyConnection) -> str:
    """The relation the reference reads the datasets' questions from: raw.dataset_questions, with
    null meanings where an earlier version made it (`dwh tasks` reads a warehouse it does not write)."""
    if not has_raw_table(con, "dataset_questions"):
        return NO_DATASET_QUESTIONS
    has_meanings = con.execute(
        "select count(*) from duckdb_columns() where database_name = current_database() and schema_name = 'raw' "
        "and table_name = 'dataset_questions' and column_name = 'meanings'"
    ).fetchone()[0]
    return "raw.dataset_questions" if has_meanings else WITHOUT_MEANINGS


def _check_rows(con: duckdb.DuckDBPyConnection, beside_releases: bool) -> None:
    """temp.judge_checked: every input row with its source, value number and reason (null: it lands)."""
    reference_tables(con)
    unknown = UNKNOWN_DIALOGUE_BESIDE_RELEASES if beside_releases else UNKNOWN_DIALOGUE
    con.execute(ingest_query("judges/check_rows").format(unknown_dialogue=sql_string(unknown)))
    reject_second_values(con, "judge_checked", ("judge", "dialogue_key", "question", "unit_movie_id"), SECOND_VALUE)


def _replacement_lines(con: duckdb.DuckDBPyConnection) -> list[str]:
    """One line per (judge, source) whose earlier judgements this load replaces or keeps though it
    named them, and one per judge none of whose rows landed (its earlier judgements all kept)."""
    rows = con.execute(ingest_query("judges/replacements")).fetchall()
    lines, untouched = [], {}
    for judge, source, earlier, landed, given, landed_any, judge_rows in rows:
        if landed:
            lines.append(
                f"judges: {judge!r} on {source}: its {earlier:,} earlier judgement(s) replaced by this load's "
                f"{landed:,}"
            )
        elif landed_any:
            lines.append(
                f"judges: {judge!r} on {source}: its {earlier:,} earlier judgement(s) kept, as none of its "
                f"{given:,} row(s) on {source} in this load landed (see raw.ingest_rejects)"
            )
        else:
            untouched.setdefault((judge, judge_rows), []).append(f"{source} {earlier:,}")
    for (judge, judge_rows), kept in untouched.items():
        lines.append(
            f"judges: {judge!r}: none of its {judge_rows:,} row(s) in this load landed (see raw.ingest_rejects); "
            f"its earlier judgements are kept ({', '.join(kept)})"
        )
    return lines


def _replace_judges(ctx: LoadContext, file_paths: list[str]) -> None:
    """Forget the earlier rows of each (judge, source) this load lands a judgement of, and the earlier
    rejects of these files."""
    ctx.con.execute(
        "delete from raw.judge_judgements where (judge, source) in "
        "(select distinct (judge, source) from temp.judge_checked where reason is null)"
    )
    ctx.con.execute(
        f"delete from raw.ingest_rejects where source = ? and file_path in ({', '.join(map(sql_string, file_paths))})",
        [SOURCE],
    )


def _land_checked_rows(ctx: LoadContext) -> None:
    ctx.con.execute(
        """
        insert into raw.judge_judgements
        select ?, judge, source, dialogue_key, question, unit_movie_id, value,
            value_number, _file_path, _line
        from temp.judge_checked
        where reason is null
        order by _file_order, _line
        """,
        [ctx.load_id],
    )
    ctx.con.execute(
        """
        insert into raw.ingest_rejects
        select ?, ?, _file_path, _line, reason, _raw_text
        from temp.judge_checked
        where reason is not null
        order by _file_order, _line
        """,
        [ctx.load_id, SOURCE],
    )


def _file_reports(con: duckdb.DuckDBPyConnection, file_paths: list[str]) -> list[FileReport]:
    counts = {
        file_path: (int(read), int(landed))
        for file_path, read, landed in con.execute(
            "select _file_path, count(*), count(*) filter (where reason is null) from temp.judge_checked "
            "group by _file_path"
        ).fetchall()
    }
    reports = []
    for file_path in file_paths:
        read, landed = counts.get(file_path, (0, 0))
        reports.append(FileReport(SOURCE, file_path, read, landed, read - landed))
    return reports
