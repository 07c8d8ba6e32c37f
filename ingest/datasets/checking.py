"""A recognised dataset folder read and checked in scratch tables, before anything of it lands:
its questions (`temp.dataset_question_rows` and the reference tables of
ingest/sql/datasets/reference.sql), its judgements (`temp.dataset_judgement_checked`), raters
(`temp.dataset_rater_checked`, `temp.dataset_attribute_values`) and units
(`temp.dataset_unit_checked`), every row with the reason it cannot land (null when it lands).
"""

from collections.abc import Callable
from dataclasses import dataclass

import duckdb

from common.database import identifier, sql_string
from ingest.datasets.folder import KNOWN, DatasetFolder
from ingest.datasets.trimming import Trimmed, trimmed_ids
from ingest.file_facts import FileFacts, scanning
from ingest.landing import FileReport
from ingest.long_form import LongFormFile
from ingest.long_form.reading import create_input_table, read_rows
from ingest.long_form.second_values import reject_second_values
from ingest.queries import ingest_query

# what a reject for a rater's second value for one (unit, question, round) says of it
# (ingest/long_form/second_values.py): the round as given, 1 when empty
SECOND_VALUE = (
    "'a second value for unit ' || quoted(checked.unit_id) || ', rater ' || quoted(checked.rater_id) "
    "|| ', question ' || checked.question_key || ', round ' || coalesce(nullif(trim(checked.round), ''), '1')"
)


@dataclass(frozen=True)
class CheckedFile:
    """One data file, read and checked: its counts and its bytes' facts (sha256, size)."""

    found: LongFormFile
    report: FileReport
    facts: FileFacts


@dataclass(frozen=True)
class Checked:
    """What a dataset folder holds, checked: per file, the dataset's dimensions resolved, and the ids
    given with blanks around them (trimmed)."""

    files: list[CheckedFile]
    dimensions: list[str]
    trimmed: list[Trimmed]


def check_dataset(con: duckdb.DuckDBPyConnection, folder: DatasetFolder, step: Callable[[str], None]) -> Checked:
    """Read and check every file of the folder into the scratch tables; `step(part)` as each is done."""
    _question_tables(con, folder)
    step("questions")
    trimmed: list[Trimmed] = []
    files = _check_judgements(con, folder, trimmed)
    step("judgements")
    dimensions: list[str] = []
    if folder.raters:
        files += _check_raters(con, folder, folder.raters, trimmed)
        dimensions = _attribute_values(con, folder)
    step("raters")
    if folder.units:
        files += _check_units(con, folder, folder.units, trimmed)
    step("units")
    return Checked(files, dimensions, trimmed)


def _question_tables(con: duckdb.DuckDBPyConnection, folder: DatasetFolder) -> None:
    con.execute(
        "create or replace temp table dataset_question_rows (line_number bigint, question varchar, level varchar, "
        "labels varchar[], min_value double, max_value double, missing varchar[], wording varchar, meanings varchar[])"
    )
    for question in folder.questions:
        con.execute(
            "insert into temp.dataset_question_rows "
            "values (?, ?, ?, ?::varchar[], ?, ?, ?::varchar[], ?, ?::varchar[])",
            [
                question.line_number,
                question.question,
                question.level,
                list(question.labels) if question.labels else None,
                question.min_value,
                question.max_value,
                list(question.missing),
                question.wording,
                list(question.meanings) if question.meanings else None,
            ],
        )
    run_script(con, ingest_query("reason_text"))
    run_script(con, ingest_query("datasets/reference"))


def _read_all(
    con: duckdb.DuckDBPyConnection, files: list[LongFormFile], fields: tuple[str, ...], table: str
) -> list[FileFacts]:
    """Every file into `temp.<table>`, each hashed while DuckDB reads it."""
    create_input_table(con, table, fields)
    facts = []
    for file_order, found in enumerate(files):
        with scanning(found.path, str(found.path), count_lines=False) as scanned:
            read_rows(con, found, fields, table, file_order)
            facts.append(scanned.result())
    return facts


def _check_judgements(
    con: duckdb.DuckDBPyConnection, folder: DatasetFolder, trimmed: list[Trimmed]
) -> list[CheckedFile]:
    facts = _read_all(con, folder.judgements, KNOWN["judgements"], "dataset_judgement_input")
    trimmed += trimmed_ids(con, "dataset_judgement_input", ("unit_id", "rater_id", "question"))
    con.execute(ingest_query("datasets/check_judgements"))
    con.execute("drop table temp.dataset_judgement_input")
    reject_second_values(
        con, "dataset_judgement_checked", ("unit_id", "rater_id", "question_key", "round_key"), SECOND_VALUE
    )
    return _checked_files(con, folder.name, folder.judgements, facts, "dataset_judgement_checked")


def _check_raters(
    con: duckdb.DuckDBPyConnection, folder: DatasetFolder, raters: LongFormFile, trimmed: list[Trimmed]
) -> list[CheckedFile]:
    fields = tuple(dict.fromkeys((*raters.columns, "rater_kind")))  # rater_kind null where not given
    facts = _read_all(con, [raters], fields, "dataset_rater_input")
    trimmed += trimmed_ids(con, "dataset_rater_input", ("rater_id",))
    con.execute(ingest_query("datasets/check_raters"))
    con.execute("drop table temp.dataset_rater_input")
    return _checked_files(con, folder.name, [raters], facts, "dataset_rater_checked")


def _attribute_values(con: duckdb.DuckDBPyConnection, folder: DatasetFolder) -> list[str]:
    """raters.csv's other columns in long form (`temp.dataset_attribute_values`), each value flagged
    missing or not; returns the dataset's dimensions."""
    attributes = folder.attributes
    if not attributes:
        return []
    rater_missing = "[" + ", ".join(sql_string(text) for text in folder.manifest.rater_missing) + "]::varchar[]"
    columns = ", ".join(identifier(name) for name in attributes)
    con.execute(
        f"""
        create or replace temp table dataset_attribute_values as
        select rater_id, attribute, value,
            nullif(trim(value), '') is null or list_contains({rater_missing}, trim(value)) as is_missing
        from (
            select _line, rater_id, {columns} from temp.dataset_rater_checked where reason is null
        ) unpivot include nulls (value for attribute in ({columns}))
        order by _line
        """
    )
    return _dimensions(con, folder)


def _dimensions(con: duckdb.DuckDBPyConnection, folder: DatasetFolder) -> list[str]:
    """The dataset's dimensions: as dataset.yml gives them, or every attribute that has bins or
    holds a text that is no number (a missing value aside)."""
    manifest = folder.manifest
    if manifest.dimensions is not None:
        return list(manifest.dimensions)
    texts = {
        attribute
        for (attribute,) in con.execute(
            "select distinct attribute from temp.dataset_attribute_values "
            "where not is_missing and try_cast(trim(value) as double) is null"
        ).fetchall()
    }
    return [name for name in folder.attributes if name in texts or name in manifest.bins]


def _check_units(
    con: duckdb.DuckDBPyConnection, folder: DatasetFolder, units: LongFormFile, trimmed: list[Trimmed]
) -> list[CheckedFile]:
    facts = _read_all(con, [units], units.columns, "dataset_unit_input")
    trimmed += trimmed_ids(con, "dataset_unit_input", ("unit_id",))
    others = [name for name in units.columns if name not in KNOWN["units"]]
    other_columns = (
        "json_object(" + ", ".join(f"{sql_string(name)}, {identifier(name)}" for name in others) + ")::varchar"
        if others
        else "null::varchar"
    )
    fields = ", ".join(
        f"{identifier(name) if name in units.columns else 'null'}::varchar as {name}" for name in KNOWN["units"]
    )
    con.execute(ingest_query("datasets/check_units").format(fields=fields, other_columns=other_columns))
    con.execute("drop table temp.dataset_unit_input")
    return _checked_files(con, folder.name, [units], facts, "dataset_unit_checked")


def _checked_files(
    con: duckdb.DuckDBPyConnection, name: str, files: list[LongFormFile], facts: list[FileFacts], checked: str
) -> list[CheckedFile]:
    counts = {
        order: (int(read), int(landed))
        for order, read, landed in con.execute(
            f"select _file_order, count(*), count(*) filter (where reason is null) from temp.{checked} group by all"
        ).fetchall()
    }
    result = []
    for order, (found, fact) in enumerate(zip(files, facts)):
        read, kept = counts.get(order, (0, 0))
        result.append(CheckedFile(found, FileReport(name, found.file_path, read, kept, read - kept), fact))
    return result


def run_script(con: duckdb.DuckDBPyConnection, script: str) -> None:
    """Run the statements of a script of ingest/sql/ one by one."""
    for statement in filter(str.strip, script.split(";\n")):
        con.execute(statement)


def drop_scratch_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Every scratch table of a dataset's check."""
    for (table,) in con.execute(
        "select table_name from duckdb_tables() where temporary and table_name like 'dataset\\_%' escape '\\'"
    ).fetchall():
        con.execute(f"drop table temp.{table}")
