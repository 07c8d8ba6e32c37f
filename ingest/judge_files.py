"""Which judges files `dwh ingest --judges PATH …` loads, and what it leaves: every file under each
given path, recognised by extension (ingest/long_form/'s FORMATS), with the columns it offers.

A file under a folder that is not loaded is named with the reason (another extension, a hidden
file, a compressed file, a folder reached through a symbolic link), never skipped without a word.
A file without a needed column is one error naming the file, the column and, where it shows, the
cause (ingest/long_form/columns.py: a header in another case, another delimiter, columns inside a
Parquet struct); nothing is loaded. A file is recorded by its absolute path: two files of one name
in two folders are two files.
"""

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.errors import DwhError
from ingest.file_facts import refuse_unreadable_file
from ingest.judges import FILES_HINT, JUDGES_FILE
from ingest.long_form import FORMATS, LongFormFile
from ingest.long_form.columns import recognise

# what a file of another extension is, and what to do with it
OTHER_EXTENSIONS = {
    ".json": "a .json file is not read (a JSON array or object); write one JSON object a line as .jsonl",
    ".gz": "a compressed file is not read; decompress it (gunzip) and load the .csv / .jsonl",
    ".zip": "a compressed file is not read; unzip it and load what it holds",
    ".tsv": "a .tsv file is not read; a judges CSV is comma-separated: save it as .csv with commas",
    ".txt": "a .txt file is not read; a judges file is .csv, .jsonl or .parquet",
}


@dataclass(frozen=True)
class SkippedFile:
    """A file (or linked folder) under a given folder that is not loaded, and why."""

    path: Path
    reason: str

    def line(self) -> str:
        return f"judges: not loaded: {self.path}: {self.reason}"


@dataclass(frozen=True)
class FoundFiles:
    """The judges files of every given path (each once), and what their folders hold that is not loaded."""

    files: list[LongFormFile]
    skipped: list[SkippedFile]


def recognise_judges_files(con: duckdb.DuckDBPyConnection, given: Sequence[Path]) -> FoundFiles:
    """Every judges file under the given paths with its columns; one without a needed column stops the load."""
    files: dict[str, LongFormFile] = {}
    skipped: list[SkippedFile] = []
    for path in given:
        found, left = find_judges_files(path)
        skipped.extend(left)
        for candidate in found:
            file_path = Path(os.path.abspath(candidate)).as_posix()
            if file_path not in files:
                file_format = FORMATS[candidate.suffix.lower()]
                files[file_path] = recognise(con, candidate, file_path, file_format, JUDGES_FILE)
    return FoundFiles(list(files.values()), skipped)


def find_judges_files(path: Path) -> tuple[list[Path], list[SkippedFile]]:
    """The file itself, or the judges files in the folder and below (path order) and what is left."""
    refuse_unreadable_file(path, f"give a judges file or a folder of them ({FILES_HINT})")
    if not path.exists():
        raise DwhError(f"{path}: no such file or folder ({FILES_HINT})")
    if path.is_file():
        if path.suffix.lower() not in FORMATS:
            hint = OTHER_EXTENSIONS.get(path.suffix.lower(), FILES_HINT)
            raise DwhError(f"{path}: not a judges file by its extension; {hint}")
        return [path], []
    found, skipped = walk(path)
    for candidate in found:
        refuse_unreadable_file(candidate, "remove it from the folder or replace it with a judges file")
    if not found:
        named = "; ".join(f"{s.path.name}: {s.reason}" for s in skipped[:3])
        raise DwhError(f"{path}: no judges file found ({FILES_HINT})" + (f"; it holds {named}" if named else ""))
    return found, skipped


def walk(folder: Path) -> tuple[list[Path], list[SkippedFile]]:
    """Every file below `folder`, sorted: those to load and those left, each with its reason."""
    found, skipped = [], []
    for root, folders, names in os.walk(folder):
        here = Path(root)
        for name in sorted(folders):
            if (here / name).is_symlink():
                skipped.append(
                    SkippedFile(here / name, "a symbolic link to a folder is not followed; give it as its own --judges")
                )
            elif name.startswith("."):
                skipped.append(SkippedFile(here / name, "a hidden folder is not read; give it as its own --judges"))
        folders[:] = [n for n in folders if not n.startswith(".") and not (here / n).is_symlink()]
        for name in names:
            reason = skip_reason(here / name)
            (skipped.append(SkippedFile(here / name, reason)) if reason else found.append(here / name))
    return sorted(found), sorted(skipped, key=lambda s: s.path)


def skip_reason(path: Path) -> str | None:
    """Why a file in a given folder is not loaded (None: it is)."""
    if path.name.startswith("."):
        return "a hidden file is not read; rename it, or give it as its own --judges"
    suffix = path.suffix.lower()
    if suffix in FORMATS:
        return None
    return OTHER_EXTENSIONS.get(suffix, f"{FILES_HINT}; this one is not")
