"""Land one recognised dataset folder into the `raw.dataset_*` tables (ingest/sql/raw_dataset.sql):
read and checked first in scratch tables (ingest/datasets/checking.py), then written in one
transaction, replacing every earlier row of that dataset and no other's: all of it or nothing.

A row that cannot land goes to raw.ingest_rejects with its file, line and reason (source: the
dataset's name). An empty or missing value lands as a row flagged `is_missing`: not a judgement,
counted.
"""

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace as replace_outcome
from pathlib import Path

from ingest.datasets.banding import band_rater_attributes
from ingest.datasets.checking import Checked, CheckedFile, check_dataset, drop_scratch_tables
from ingest.datasets.folder import DatasetFolder
from ingest.datasets.manifest import bands
from ingest.datasets.replacing import held_dataset, refuse_a_namesake, refuse_emptying, replaced_line
from ingest.datasets.trimming import trimmed_line
from ingest.landing import FileReport, LoadContext, transaction

TABLES = (
    "raw.dataset_manifests",
    "raw.dataset_bins",
    "raw.dataset_questions",
    "raw.dataset_judgements",
    "raw.dataset_raters",
    "raw.dataset_rater_attributes",
    "raw.dataset_units",
    "raw.dataset_files",
)
# how many raters without a row in raters.csv the ingest names
NAMED_RATERS = 5


@dataclass(frozen=True)
class DatasetOutcome:
    """What landed of one dataset: per file, and in all."""

    name: str
    folder: Path
    reports: list[FileReport]
    judgements: int  # landed rows that are judgements
    missing: int  # landed rows whose value is empty or missing: counted, not judgements
    rejects: int
    raters: int  # distinct raters of the landed rows
    units: int  # distinct units of the landed rows
    listed_raters: int | None  # rows landed from raters.csv (None: no raters.csv)
    unlisted_raters: int  # raters of the landed rows without a row in raters.csv
    unlisted_examples: list[str]  # the first few of them, by rater_id
    listed_units: int | None  # rows landed from the units file (None: no units file)
    unlisted_units: int  # units of the landed rows without a row in the units file
    unbanded: list[tuple[str, int, list[str]]]  # per binned column: raters whose value is no finite number, examples
    replaced: str | None = None  # what the load replaced of the dataset of this name (None: none)
    trimmed: str | None = None  # the ids given with blanks around them, trimmed (None: none)
    second_values: int = 0  # rejects that are a second value for one unit, rater, question and round

    def summary_lines(self) -> list[str]:
        """What `dwh ingest` prints for the dataset."""
        rejects = f"{self.rejects:,} reject(s)" + (" (see raw.ingest_rejects)" if self.rejects else "")
        raters = f"{self.raters:,} rater(s)" + (
            f" ({self.listed_raters:,} in raters.csv)" if self.listed_raters is not None else ""
        )
        units = f"{self.units:,} unit(s)" + (
            f" ({self.listed_units:,} in the units file)" if self.listed_units is not None else ""
        )
        lines = [
            f"dataset {self.name}: {self.judgements:,} judgement(s), {self.missing:,} missing value(s), "
            f"{rejects}, {raters}, {units}"
        ]
        lines += [line for line in (self.replaced, self.trimmed) if line]
        if self.rejects and self.second_values * 2 > self.rejects:
            lines.append(
                f"dataset {self.name}: {self.second_values:,} of the {self.rejects:,} reject(s) are a second value for "
                "one unit, rater, question and round: unit ids are unique in a dataset (docs/DATASETS.md), so a "
                "release whose ids restart in each split (train, dev, test) needs them made unique, e.g. <split>:<id>"
            )
        if self.unlisted_raters:
            more = ", …" if self.unlisted_raters > len(self.unlisted_examples) else ""
            lines.append(
                f"dataset {self.name}: {self.unlisted_raters:,} rater(s) of the judgements have no row in "
                f"raters.csv and load without attributes: {', '.join(map(shown_id, self.unlisted_examples))}{more}"
            )
        if self.unlisted_units:
            lines.append(
                f"dataset {self.name}: {self.unlisted_units:,} unit(s) of the judgements have no row in the units file"
            )
        for attribute, n_raters, texts in self.unbanded:
            lines.append(
                f"dataset {self.name}: raters.csv column {attribute!r} is banded (bins) but {n_raters:,} rater(s) give "
                f"no finite number there ({', '.join(repr(text) for text in texts)}): they are in no band of it; "
                "name a text that means no answer in rater_missing"
            )
        return lines


def shown_id(rater_id: str) -> str:
    """A rater id as a line names it: as given, or quoted and said so where it holds a blank or
    another character that does not show (a no-break space at its end, say)."""
    if rater_id.isprintable() and rater_id == rater_id.strip():
        return rater_id
    return f"{rater_id!r} (with an invisible character)"


def land_dataset(
    ctx: LoadContext, folder: DatasetFolder, step: Callable[[str], None], replace: bool = False
) -> DatasetOutcome:
    """Check the folder's rows, then land them in one transaction; `step(part)` as each part is
    checked. A namesake from another folder with another title, or a reload that would empty the
    dataset, is refused without `replace` (ingest/datasets/replacing.py)."""
    held = held_dataset(ctx.con, folder.name)
    refuse_a_namesake(held, folder, replace)
    checked = check_dataset(ctx.con, folder, step)
    with transaction(ctx.con):
        _forget(ctx, folder.name)
        _land_manifest(ctx, folder, checked.dimensions)
        _land_rows(ctx, folder)
        for checked_file in checked.files:
            _record_file(ctx, checked_file)
    outcome = _outcome(ctx, folder, checked)
    drop_scratch_tables(ctx.con)
    landed_rows = outcome.judgements + outcome.missing
    read_rows = sum(c.report.records_read for c in checked.files if c.found.kind == "judgements")
    refuse_emptying(held, folder, landed_rows, read_rows, replace)
    return replace_outcome(
        outcome, replaced=replaced_line(held, landed_rows), trimmed=trimmed_line(folder.name, checked.trimmed)
    )


def _forget(ctx: LoadContext, name: str) -> None:
    """Every earlier row of this dataset, and its rejects."""
    for table in TABLES:
        ctx.con.execute(f"delete from {table} where dataset = ?", [name])
    ctx.con.execute("delete from raw.ingest_rejects where source = ?", [name])


def _land_manifest(ctx: LoadContext, folder: DatasetFolder, dimensions: list[str]) -> None:
    manifest = folder.manifest
    ctx.con.execute(
        "insert into raw.dataset_manifests values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::varchar[], ?::varchar[], ?)",
        [
            ctx.load_id,
            manifest.name,
            str(folder.path),
            manifest.text,
            manifest.title,
            manifest.license,
            manifest.citation,
            manifest.url,
            manifest.description,
            list(manifest.rater_missing),
            dimensions,
            manifest.dimensions is not None,
        ],
    )
    for attribute, cut_points in manifest.bins.items():
        for band in bands(cut_points):
            ctx.con.execute(
                "insert into raw.dataset_bins values (?, ?, ?, ?, ?, ?, ?)",
                [ctx.load_id, manifest.name, attribute, band.order, band.lower, band.upper, band.label],
            )


# what lands from each scratch table of checking.py (raw table, scratch table, query): the rows
# without a reason; a scratch table that is not there (no raters.csv, say) lands nothing
LANDING = (
    (
        "raw.dataset_questions",
        "dataset_question_rows",
        """
        select $load_id, $dataset, line_number, question, level, labels, min_value, max_value, missing, wording,
            meanings
        from temp.dataset_question_rows order by line_number""",
    ),
    (
        "raw.dataset_judgements",
        "dataset_judgement_checked",
        """
        select $load_id, $dataset, checked._file_path, checked._line, checked.unit_id, checked.rater_id,
            trim(checked.question), checked.value, checked.is_missing, checked.label_position, checked.value_number,
            checked.round, ranks.round_rank
        from temp.dataset_judgement_checked as checked
        inner join temp.dataset_round_ranks as ranks on checked.round_key = ranks.round_key
        where checked.reason is null
        order by checked._file_order, checked._line""",
    ),
    (
        "raw.dataset_raters",
        "dataset_rater_checked",
        """
        select $load_id, $dataset, _line, rater_id, kind from temp.dataset_rater_checked
        where reason is null order by _line""",
    ),
    (
        "raw.dataset_rater_attributes",
        "dataset_attribute_values",
        """
        select $load_id, $dataset, rater_id, attribute, value, is_missing,
            list_contains((select dimensions from raw.dataset_manifests where dataset = $dataset), attribute),
            null as is_banded, null as band  -- banded once landed (banding.py)
        from temp.dataset_attribute_values""",
    ),
    (
        "raw.dataset_units",
        "dataset_unit_checked",
        """
        select $load_id, $dataset, _file_path, _line, unit_id, coalesce(nullif(trim(scope), ''), 'all'), split,
            language, turns, text, other_columns
        from temp.dataset_unit_checked where reason is null order by _line""",
    ),
)
ROUND_RANKS_SQL = """
    create or replace temp table dataset_round_ranks as
    select round_key, dense_rank() over (order by raw.round_order(round_key), round_key) as round_rank
    from (select distinct round_key from temp.dataset_judgement_checked where reason is null)"""
CHECKED_TABLES = ("dataset_judgement_checked", "dataset_rater_checked", "dataset_unit_checked")


def _land_rows(ctx: LoadContext, folder: DatasetFolder) -> None:
    """Every checked row that lands, and every reject, in file and line order."""
    con = ctx.con
    con.execute(ROUND_RANKS_SQL)
    present = {name for (name,) in con.execute("select table_name from duckdb_tables() where temporary").fetchall()}
    parameters = {"load_id": ctx.load_id, "dataset": folder.name}
    for raw_table, scratch, query in LANDING:
        if scratch in present:
            con.execute(f"insert into {raw_table} {query}", parameters)
    band_rater_attributes(con)
    for checked in CHECKED_TABLES:
        if checked in present:
            con.execute(
                "insert into raw.ingest_rejects select $load_id, $dataset, _file_path, _line, reason, _raw_text "
                f"from temp.{checked} where reason is not null order by _file_order, _line",
                parameters,
            )


def _record_file(ctx: LoadContext, checked_file: CheckedFile) -> None:
    report, found = checked_file.report, checked_file.found
    ctx.con.execute(
        "insert into raw.dataset_files values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            ctx.load_id,
            report.source,
            report.file_path,
            found.kind,
            found.file_format,
            checked_file.facts.sha256,
            checked_file.facts.size_bytes,
            report.records_read,
            report.records_landed,
            report.records_rejected,
        ],
    )


def _outcome(ctx: LoadContext, folder: DatasetFolder, checked: Checked) -> DatasetOutcome:
    con, name = ctx.con, folder.name
    judgements, missing, raters, units = con.execute(
        "select count(*) filter (where not is_missing), count(*) filter (where is_missing), count(distinct rater_id), "
        "count(distinct unit_id) from raw.dataset_judgements where dataset = ?",
        [name],
    ).fetchone()
    listed_raters, unlisted_raters, examples = con.execute(
        f"""
        select (select count(*) from raw.dataset_raters where dataset = $1), count(*),
            list(rater_id order by rater_id)[1:{NAMED_RATERS}]
        from (
            select distinct rater_id from raw.dataset_judgements where dataset = $1
            except
            select rater_id from raw.dataset_raters where dataset = $1
        )
        """,
        [name],
    ).fetchone()
    listed_units, unlisted_units = con.execute(
        """
        select (select count(*) from raw.dataset_units where dataset = $1), count(*)
        from (
            select distinct unit_id from raw.dataset_judgements where dataset = $1
            except
            select unit_id from raw.dataset_units where dataset = $1
        )
        """,
        [name],
    ).fetchone()
    reports = [checked_file.report for checked_file in checked.files]
    (second_values,) = con.execute(
        "select count(*) from raw.ingest_rejects where source = ? and starts_with(reason, 'a second value for ')",
        [name],
    ).fetchone()
    unbanded = con.execute(
        f"""
        select attribute, count(*), list(distinct value order by value)[1:{NAMED_RATERS}]
        from raw.dataset_rater_attributes
        where dataset = $1 and is_banded and band is null and not is_missing
        group by attribute
        order by attribute
        """,
        [name],
    ).fetchall()
    return DatasetOutcome(
        name=name,
        folder=folder.path,
        reports=reports,
        judgements=int(judgements),
        missing=int(missing),
        rejects=sum(report.records_rejected for report in reports),
        raters=int(raters),
        units=int(units),
        listed_raters=int(listed_raters) if folder.raters else None,
        unlisted_raters=int(unlisted_raters) if folder.raters else 0,
        unlisted_examples=list(examples or []) if folder.raters else [],
        listed_units=int(listed_units) if folder.units else None,
        unlisted_units=int(unlisted_units) if folder.units else 0,
        unbanded=[(attribute, int(n), list(texts)) for attribute, n, texts in unbanded],
        second_values=int(second_values),
    )
