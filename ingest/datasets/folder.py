"""A dataset folder's files, recognised before anything lands: dataset.yml, questions.csv, the
judgements files (`judgements*.csv|.jsonl|.parquet`), and optionally raters.csv and units.csv or
units.jsonl, each with the columns it needs. A folder that lacks one, or a file that lacks a needed
column, is one line naming the file (and column): nothing of the dataset is loaded.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.errors import DwhError
from ingest.datasets.manifest import Manifest, read_manifest
from ingest.datasets.questions import Question, read_questions
from ingest.file_facts import refuse_unreadable_file
from ingest.long_form import FORMATS, NOTHING, FileKind, LongFormFile
from ingest.long_form.columns import recognise

LAYOUT = (
    "a dataset folder holds dataset.yml, questions.csv and judgements.csv|.jsonl|.parquet "
    "(or several judgements* files), and optionally raters.csv and units.csv|.jsonl"
)
# each kind of file: the columns it needs (ingest/long_form/columns.py answers a file without one;
# a dataset's CSV header is read trimmed), and those it may have (a file's other columns are kept:
# a rater's attributes, a unit's other_columns; a judgements file's are ignored)
KINDS = {
    "judgements": FileKind(
        name="judgements",
        needed=("unit_id", "rater_id", "question", "value"),
        hint="a judgements file has the columns unit_id, rater_id, question, value and optionally round",
        csv_name="a judgements CSV",
        trims_header=True,
    ),
    "raters": FileKind(
        name="raters",
        needed=("rater_id",),
        hint="raters.csv has the column rater_id, optionally rater_kind, and the raters' attributes",
        csv_name="raters.csv",
        trims_header=True,
    ),
    "units": FileKind(
        name="units",
        needed=("unit_id",),
        hint="a units file has the column unit_id and optionally scope, split, language, turns, text",
        csv_name="a units CSV",
        trims_header=True,
    ),
}
KNOWN = {
    "judgements": ("unit_id", "rater_id", "question", "value", "round"),
    "raters": ("rater_id", "rater_kind"),
    "units": ("unit_id", "scope", "split", "language", "turns", "text"),
}


@dataclass(frozen=True)
class DatasetFolder:
    """A dataset folder whose files and columns are all there."""

    path: Path
    manifest: Manifest
    questions: list[Question]
    judgements: list[LongFormFile]
    raters: LongFormFile | None
    units: LongFormFile | None

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def attributes(self) -> tuple[str, ...]:
        """raters.csv's attribute columns (all but rater_id and rater_kind)."""
        if self.raters is None:
            return ()
        return tuple(column for column in self.raters.columns if column not in KNOWN["raters"])


def recognise_dataset(con: duckdb.DuckDBPyConnection, path: Path) -> DatasetFolder:
    """The folder's files, checked as far as can be before reading their rows."""
    refuse_unreadable_file(path, f"give a dataset folder ({LAYOUT})")
    if not path.is_dir():
        what = "no such folder" if not path.exists() else "not a folder"
        raise DwhError(f"{path}: {what} ({LAYOUT}); {NOTHING}")
    manifest = read_manifest(_needed_file(path, "dataset.yml"))
    questions = read_questions(_needed_file(path, "questions.csv"))
    judgements = [_data_file(con, path, file, "judgements") for file in _judgements_files(path)]
    raters_path = path / "raters.csv"
    raters = _data_file(con, path, raters_path, "raters") if raters_path.exists() else None
    units_paths = [path / name for name in ("units.csv", "units.jsonl") if (path / name).exists()]
    if len(units_paths) > 1:
        raise DwhError(f"{path}: both units.csv and units.jsonl; keep one; {NOTHING}")
    units = _data_file(con, path, units_paths[0], "units") if units_paths else None
    folder = DatasetFolder(path, manifest, questions, judgements, raters, units)
    _refuse_unknown_rater_columns(folder)
    return folder


def _needed_file(folder: Path, name: str) -> Path:
    path = folder / name
    refuse_unreadable_file(path, f"a dataset's {name} is a regular file ({LAYOUT}); {NOTHING}")
    if not path.is_file():
        what = "a folder, not a file" if path.is_dir() else "no such file"
        raise DwhError(f"{path}: {what} ({LAYOUT}); {NOTHING}")
    return path


# how a second copy of a file is named by browsers and file managers: `judgements (1).csv`,
# `judgements copy.csv`, `judgements - Copy.csv`
COPY_SUFFIX = re.compile(r"(\s*\(\d+\)|\s*-?\s*copy(\s*\d+)?)$", re.IGNORECASE)


def _judgements_files(folder: Path) -> list[Path]:
    """Every judgements* file (a FIFO or other non-file among them is refused when it is read); one
    that looks like a second copy of another (`judgements (1).csv` beside `judgements.csv`) is refused."""
    found = sorted(
        path
        for path in folder.iterdir()
        if path.name.startswith("judgements") and path.suffix.lower() in FORMATS and not path.is_dir()
    )
    if not found:
        raise DwhError(f"{folder / 'judgements.csv'}: no such file, nor any judgements* file ({LAYOUT}); {NOTHING}")
    names = {path.name for path in found}
    for path in found:
        original = COPY_SUFFIX.sub("", path.stem) + path.suffix
        if original != path.name and original in names:
            raise DwhError(
                f"{path}: looks like a second copy of {original} (a download or file manager names copies so); "
                f"every judgements* file of the folder loads, so both would, their rows twice; remove or rename "
                f"one; {NOTHING}"
            )
    return found


def _data_file(con: duckdb.DuckDBPyConnection, folder: Path, path: Path, kind: str) -> LongFormFile:
    refuse_unreadable_file(path, f"remove it from the dataset folder ({LAYOUT}); {NOTHING}")
    file_format = FORMATS[path.suffix.lower()]
    if kind != "judgements" and file_format == "parquet":
        raise DwhError(f"{path}: {kind} are read from CSV (or JSONL for units), not Parquet; {NOTHING}")
    return recognise(con, path, path.relative_to(folder).as_posix(), file_format, KINDS[kind])


def _refuse_unknown_rater_columns(folder: DatasetFolder) -> None:
    """Every dimension and binned column dataset.yml names is a column of raters.csv."""
    manifest = folder.manifest
    named = [("dimensions", name) for name in manifest.dimensions or ()]
    named += [("bins", name) for name in manifest.bins]
    for key, name in named:
        if name not in folder.attributes:
            offered = ", ".join(folder.attributes) if folder.raters else "there is no raters.csv"
            raise DwhError(
                f"{manifest.path}: {key}: {name!r} is no attribute column of raters.csv ({offered}); {NOTHING}"
            )


def recognise_datasets(con: duckdb.DuckDBPyConnection, paths: Sequence[Path]) -> list[DatasetFolder]:
    """Every dataset folder given, recognised; two folders of one name are refused."""
    folders: list[DatasetFolder] = []
    for path in paths:
        folder = recognise_dataset(con, path)
        twin = next((other for other in folders if other.name == folder.name), None)
        if twin:
            raise DwhError(
                f"{folder.manifest.path}: name {folder.name!r} is also the name of {twin.manifest.path}; "
                f"a dataset is loaded from one folder; {NOTHING}"
            )
        folders.append(folder)
    return folders
