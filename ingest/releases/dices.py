"""Landing the DICES releases (350 and 990): every CSV record as one raw row of text.

A file's release is recognised from its header alone (never from its name). The records are read
by DuckDB's CSV reader with the columns given explicitly and every value kept as text, so nothing
is sniffed or cast: 15-digit rater ids, multi-line quoted contexts and malformed list strings land
byte for byte. An unquoted empty field lands as NULL, a quoted empty field ("") as ''.

Records the reader cannot split into the header's columns (too few or too many fields, an
unterminated quote, invalid UTF-8, an over-long line) are collected with DuckDB's `store_rejects`
and copied to raw.ingest_rejects with their physical line, row number, reason and raw text,
while the rest of the file lands.

`row_number` is the 1-based index of the record among the file's records (header not counted),
rejected records included; a record may span several physical lines. DuckDB reports no position
for readable records, so it is computed from each row's position in the table (the insert keeps
file order; `number_rows_in_file_order`), and each rejected
record (DuckDB gives its record index) shifts those after it. Blank lines are skipped by the
reader and not counted (DuckDB does count them in a reject's index, so a blank line before a
rejected record would shift the row numbers after that record by one).
"""

import logging
from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.database import identifier, sql_string
from common.errors import DwhError, one_line
from ingest.csv_records import csv_header
from ingest.file_facts import lines_at_offsets, refuse_another_release, refuse_unreadable_file, scanning
from ingest.landing import (
    FileReport,
    LoadContext,
    in_parallel,
    number_rows_in_file_order,
    record_file,
    record_rejects_from,
    replace_source_rows,
    transaction,
)
from ingest.releases.dices_columns import COLUMNS, CONFIGS, RAW_TABLES

SOURCE = "dices"
REJECT_ERRORS = "dices_reject_errors"
REJECT_SCANS = "dices_reject_scans"
REJECT_LINES = "dices_reject_lines"
LAYOUT_HINT = (
    "expected 350/diverse_safety_adversarial_dialog_350.csv and/or "
    "990/diverse_safety_adversarial_dialog_990.csv, the CSVs side by side, or one CSV file"
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DicesFile:
    """A CSV found under the given path, with the release its header belongs to."""

    path: Path
    file_path: str
    config: str
    header: tuple[str, ...]


def land_dices(ctx: LoadContext, path: Path) -> list[FileReport]:
    """Land the DICES CSVs at PATH (a release folder, a folder of CSVs, or one CSV file).

    Replaces whatever DICES rows earlier loads left; the caller stages and publishes the database.
    Returns one FileReport per file, in path order.
    """
    files = [recognise_file(csv_path, _relative_name(csv_path, path)) for csv_path in find_csv_files(path)]
    _check_one_file_per_config(files, path)
    replace_source_rows(ctx, SOURCE, list(RAW_TABLES.values()))
    return in_parallel(
        ctx.con, lambda cursor, found: _land_and_record(LoadContext(cursor, ctx.load_id), found, path), files
    )


def _land_and_record(ctx: LoadContext, found: DicesFile, given: Path) -> FileReport:
    """Land one file and record it in raw.ingest_files."""
    report, sha256, size_bytes = _land_file(ctx, found)
    record_file(ctx, report, str(given), sha256, size_bytes)
    return report


def find_csv_files(path: Path) -> list[Path]:
    """The CSV file itself, or the `*.csv` files in the folder and one level down, in path order."""
    refuse_unreadable_file(path, f"give the release CSV or its folder ({LAYOUT_HINT})")
    if not path.exists():
        raise DwhError(f"{path}: no such file or folder ({LAYOUT_HINT})")
    if path.is_file():
        return [path]
    found = sorted(
        candidate
        for candidate in [*path.glob("*"), *path.glob("*/*")]
        if candidate.suffix.lower() == ".csv" and not candidate.name.startswith(".") and not candidate.is_dir()
    )
    for candidate in found:
        refuse_unreadable_file(candidate, "remove it from the folder or replace it with the release CSV")
    if not found:
        raise DwhError(f"{path}: no CSV file found ({LAYOUT_HINT})")
    return found


def read_header(path: Path) -> tuple[str, ...]:
    """The column names of a CSV's first line (a UTF-8 byte order mark is skipped)."""
    return csv_header(
        path,
        "a DICES CSV starts with its header",
        before_bad_text=lambda: refuse_another_release(path, "a DICES CSV", own_kind="DICES CSV"),
    )


def recognise_file(path: Path, file_path: str) -> DicesFile:
    """Match a CSV's header against both releases; a header that matches neither is an error."""
    header = read_header(path)
    return DicesFile(path=path, file_path=file_path, config=recognise_header(header, path), header=header)


def recognise_header(header: tuple[str, ...], path: Path) -> str:
    """The release ("350" or "990") whose columns the header holds, in the released or another order."""
    for config in CONFIGS:
        if header == COLUMNS[config]:
            return config
    # not a release's header as released: is it another release's file altogether?
    refuse_another_release(path, "a DICES CSV", own_kind="DICES CSV")
    duplicates = sorted({name for name in header if header.count(name) > 1})
    if duplicates:
        raise DwhError(f"{path}: line 1 (header) repeats column(s) {', '.join(duplicates)}")
    for config in CONFIGS:
        if set(header) == set(COLUMNS[config]):
            log.warning("%s: DICES %s columns in a different order than the release; landing by name", path, config)
            return config
    raise DwhError(_header_mismatch_message(header, path))


def _header_mismatch_message(header: tuple[str, ...], path: Path) -> str:
    """Name the closest release and the columns that are unexpected or missing against it."""
    names = set(header)
    closest = max(CONFIGS, key=lambda c: (len(names & set(COLUMNS[c])), -len(names ^ set(COLUMNS[c]))))
    expected = COLUMNS[closest]
    unexpected = [name for name in header if name not in expected]
    missing = [name for name in expected if name not in header]
    return (
        f"{path}: line 1 (header) matches neither DICES release; closest is DICES {closest} "
        f"({len(expected)} columns): unexpected columns [{', '.join(unexpected) or 'none'}]; "
        f"missing columns [{', '.join(missing) or 'none'}]"
    )


def _check_one_file_per_config(files: list[DicesFile], given: Path) -> None:
    """Two files of one release (e.g. a copy beside the original) would land it twice."""
    for config in CONFIGS:
        same = [found.file_path for found in files if found.config == config]
        if len(same) > 1:
            raise DwhError(f"{given}: more than one DICES {config} file: {', '.join(same)}; give one of them")


def _relative_name(csv_path: Path, given: Path) -> str:
    """How a file is recorded: its path under the given folder (POSIX), or its name."""
    if given.is_dir():
        return csv_path.relative_to(given).as_posix()
    return csv_path.name


def _land_file(ctx: LoadContext, found: DicesFile) -> tuple[FileReport, str, int]:
    """Insert one file's readable records, then its rejects; returns the report, sha256 and size.

    The file is hashed in a background thread while DuckDB reads it.
    """
    con = ctx.con
    _drop_scratch_tables(con)
    with scanning(found.path, str(found.path), count_lines=False) as scan:
        with transaction(con):
            _insert_records(ctx, found)
            landed = number_rows_in_file_order(ctx, RAW_TABLES[found.config], "row_number", found.file_path)
            reject_offsets = [
                row[0]
                for row in con.execute(f"select distinct line_byte_position from temp.{REJECT_ERRORS}").fetchall()
            ]
            if reject_offsets:
                _shift_row_numbers(ctx, found)
        facts = scan.result()
    rejected = _insert_rejects(ctx, found, lines_at_offsets(found.path, reject_offsets)) if reject_offsets else 0
    _drop_scratch_tables(con)
    report = FileReport(SOURCE, found.file_path, landed + rejected, landed, rejected)
    return report, facts.sha256, facts.size_bytes


def _drop_scratch_tables(con: duckdb.DuckDBPyConnection) -> None:
    """Forget the reader's reject tables of an earlier file (they would otherwise accumulate)."""
    for table in (REJECT_ERRORS, REJECT_SCANS, REJECT_LINES):
        con.execute(f"drop table if exists temp.{table}")


def _read_csv_sql(found: DicesFile) -> str:
    """DuckDB's CSV reader for one file: the header's columns, all text, rejects stored."""
    columns = ", ".join(f"{sql_string(name)}: 'VARCHAR'" for name in found.header)
    return (
        "read_csv(?, header = true, all_varchar = true, auto_detect = false, "
        f"columns = {{{columns}}}, delim = ',', quote = '\"', escape = '\"', "
        "allow_quoted_nulls = false, encoding = 'utf-8', "
        f"store_rejects = true, rejects_table = '{REJECT_ERRORS}', rejects_scan = '{REJECT_SCANS}')"
    )


def _insert_records(ctx: LoadContext, found: DicesFile) -> None:
    """Land every readable record with row_number 0, numbered afterwards by `number_rows_in_file_order`."""
    quoted = ", ".join(identifier(name) for name in found.header)
    sql = (
        f"insert into {RAW_TABLES[found.config]} (load_id, file_path, row_number, {quoted}) "
        f"select ?, ?, 0, {quoted} from {_read_csv_sql(found)}"
    )
    try:
        ctx.con.execute(sql, [ctx.load_id, found.file_path, str(found.path)])
    except duckdb.Error as exc:
        raise DwhError(f"{found.path}: cannot read as a DICES {found.config} CSV ({one_line(exc)})") from exc


def _shift_row_numbers(ctx: LoadContext, found: DicesFile) -> None:
    """Turn the k-th readable record (row_number k) into its record index in the file, counting rejected records.

    A rejected record j (in file order) precedes the k-th readable one when fewer than k readable
    records come before it, i.e. when (its record index - j) < k.
    """
    ctx.con.execute(
        f"""
        update {RAW_TABLES[found.config]} as landed
        set row_number = landed.row_number + (
            select count(*) from (
                select record - row_number() over (order by record) as readable_before
                from (select distinct line - 1 as record from temp.{REJECT_ERRORS})
            ) as rejected
            where rejected.readable_before < landed.row_number
        )
        where landed.load_id = ? and landed.file_path = ?
        """,
        [ctx.load_id, found.file_path],
    )


def _insert_rejects(ctx: LoadContext, found: DicesFile, physical_lines: dict[int, int]) -> int:
    """Copy the reader's rejects (one row per rejected record) into raw.ingest_rejects."""
    con = ctx.con
    con.execute(
        f"create or replace temp table {REJECT_LINES} as "
        "select unnest(?::ubigint[]) as line_byte_position, unnest(?::bigint[]) as physical_line",
        [list(physical_lines), list(physical_lines.values())],
    )
    record_rejects_from(
        ctx,
        SOURCE,
        found.file_path,
        f"""
        select any_value(lines.physical_line) as line_number,
            'row ' || (errors.line - 1) || ': ' || string_agg(distinct errors.problem, '; ' order by errors.problem)
                as reason,
            ltrim(any_value(errors.csv_line), chr(13) || chr(10)) as raw_text
        from (
            select *, lower(error_type::varchar) || coalesce(' (column ' || column_name || ')', '')
                || ': ' || error_message as problem
            from temp.{REJECT_ERRORS}
        ) as errors
        left join temp.{REJECT_LINES} as lines using (line_byte_position)
        group by errors.line
        order by errors.line
        """,
    )
    return int(con.execute(f"select count(distinct line) from temp.{REJECT_ERRORS}").fetchone()[0])
