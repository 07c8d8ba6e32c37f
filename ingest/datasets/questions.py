"""A dataset's questions.csv: each question's level of measurement, its labels or its scale, and
the values that mean "no judgement". A small file read in Python; every problem is one line naming
the file and line, and nothing of the dataset is loaded.
"""

import csv
import math
from dataclasses import dataclass
from pathlib import Path

from common.errors import DwhError

LEVELS = ("nominal", "ordinal", "interval", "ratio")
LABELLED = ("nominal", "ordinal")
NEEDED_COLUMNS = ("question", "level")
COLUMNS_HINT = (
    "questions.csv has the columns question, level and optionally labels, min, max, missing, wording, meanings"
)
NOTHING = "nothing was loaded"


@dataclass(frozen=True)
class Question:
    """One row of questions.csv, checked."""

    line_number: int
    question: str
    level: str
    labels: tuple[str, ...] | None
    min_value: float | None
    max_value: float | None
    missing: tuple[str, ...]
    wording: str | None
    meanings: tuple[str, ...] | None = None  # what each label means, in the labels' order


def value_key(text: str) -> str:
    """How a value is matched against labels and missing values (as ingest/sql/datasets/ does it):
    trimmed, and a number by its value (`1`, `1.0` and ` 1 ` are one label)."""
    stripped = text.strip()
    try:
        number = float(stripped)
    except ValueError:
        return stripped
    return repr(number) if math.isfinite(number) else stripped


def read_questions(path: Path) -> list[Question]:
    """Every question of questions.csv, in file order."""
    rows = _rows(path)
    questions: list[Question] = []
    seen: dict[str, int] = {}
    for line_number, row in rows:
        question = _question(path, line_number, row)
        if question.question in seen:
            raise DwhError(
                f"{path}: line {line_number}: question {question.question!r} again (first on line "
                f"{seen[question.question]}); {NOTHING}"
            )
        seen[question.question] = line_number
        questions.append(question)
    if not questions:
        raise DwhError(f"{path}: no questions ({COLUMNS_HINT}); {NOTHING}")
    return questions


def _rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """(line, row) of every record, the header on line 1; a record on a line of its own."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.reader(handle)
            header = [name.strip() for name in next(reader, [])]
            _check_header(path, header)
            rows = []
            line_number = reader.line_num
            for record in reader:
                line_number, start = reader.line_num, line_number + 1
                if not any(cell.strip() for cell in record):
                    continue
                if len(record) != len(header):
                    raise DwhError(
                        f"{path}: line {start}: {len(record)} fields where the header has {len(header)}; {NOTHING}"
                    )
                rows.append((start, dict(zip(header, record))))
            return rows
    except UnicodeDecodeError as exc:
        raise DwhError(f"{path}: not UTF-8 text (byte {exc.start}); {NOTHING}") from exc
    except csv.Error as exc:
        raise DwhError(f"{path}: not a CSV file ({exc}); {NOTHING}") from exc
    except OSError as exc:
        raise DwhError(f"{path}: cannot be read ({exc.strerror or exc}); {NOTHING}") from exc


def _check_header(path: Path, header: list[str]) -> None:
    if not any(header):
        raise DwhError(f"{path}: empty file or empty first line; {COLUMNS_HINT}; {NOTHING}")
    for name in NEEDED_COLUMNS:
        if name not in header:
            raise DwhError(f"{path}: no column {name!r} ({COLUMNS_HINT}); {NOTHING}")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise DwhError(f"{path}: line 1 (header) repeats column(s) {', '.join(repeated)}; {NOTHING}")


def _question(path: Path, line_number: int, row: dict[str, str]) -> Question:
    where = f"{path}: line {line_number}"
    name = row["question"].strip()
    if not name:
        raise DwhError(f"{where}: empty question; {NOTHING}")
    level = row["level"].strip().lower()
    if level not in LEVELS:
        raise DwhError(f"{where}: level {row['level']!r} of {name!r} is not one of {', '.join(LEVELS)}; {NOTHING}")
    labels = _split(where, row.get("labels"), "labels")
    if level in LABELLED and not labels:
        raise DwhError(
            f"{where}: the {level} question {name!r} has no labels (give them |-separated, in order); {NOTHING}"
        )
    if level not in LABELLED and labels:
        raise DwhError(
            f"{where}: labels on the {level} question {name!r}; an {level} question takes numbers "
            f"(between min and max when given), not labels; {NOTHING}"
        )
    missing = _split(where, row.get("missing"), "missing")
    _refuse_repeats(where, name, labels, missing)
    low, high = _number(where, row, "min"), _number(where, row, "max")
    if low is not None and high is not None and low > high:
        raise DwhError(f"{where}: min {low:g} is above max {high:g} for {name!r}; {NOTHING}")
    if level == "ratio" and ((low is not None and low < 0) or (high is not None and high < 0)):
        raise DwhError(
            f"{where}: the ratio question {name!r} has a scale below 0; a ratio question takes numbers from 0 "
            f"(its distance compares two values as a share of their sum); {NOTHING}"
        )
    wording = (row.get("wording") or "").strip() or None
    meanings = _meanings(where, name, labels, row.get("meanings"))
    return Question(line_number, name, level, labels or None, low, high, missing, wording, meanings)


def _meanings(where: str, name: str, labels: tuple[str, ...], cell: str | None) -> tuple[str, ...] | None:
    """What coded labels mean (`meanings`: |-separated, one per label, in the labels' order: `no|yes`
    for `0|1`), which `dwh tasks` gives a judge beside the labels; None where not given."""
    meanings = _split(where, cell, "meanings")
    if not meanings:
        return None
    if not labels:
        raise DwhError(
            f"{where}: meanings on {name!r}, which has no labels; meanings name what each label means; {NOTHING}"
        )
    if len(meanings) != len(labels):
        raise DwhError(
            f"{where}: {len(meanings)} meanings for the {len(labels)} labels of {name!r}; give one meaning per label, "
            f"in the labels' order; {NOTHING}"
        )
    return meanings


def _split(where: str, cell: str | None, column: str) -> tuple[str, ...]:
    """A |-separated list, each item trimmed ('' or absent: none)."""
    if cell is None or not cell.strip():
        return ()
    items = tuple(item.strip() for item in cell.split("|"))
    if not all(items):
        raise DwhError(f"{where}: {column} {cell!r} holds an empty item; {NOTHING}")
    return items


def _refuse_repeats(where: str, name: str, labels: tuple[str, ...], missing: tuple[str, ...]) -> None:
    keys = [value_key(label) for label in labels]
    repeated = [label for label, key in zip(labels, keys) if keys.count(key) > 1]
    if repeated:
        raise DwhError(f"{where}: {name!r} has the label {repeated[0]!r} twice; {NOTHING}")
    both = [value for value in missing if value_key(value) in keys]
    if both:
        raise DwhError(f"{where}: {both[0]!r} of {name!r} is both a label and a missing value; {NOTHING}")


def _number(where: str, row: dict[str, str], column: str) -> float | None:
    text = (row.get(column) or "").strip()
    if not text:
        return None
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise DwhError(f"{where}: {column} {text!r} is not a number; {NOTHING}")
    return number
