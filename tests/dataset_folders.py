"""Dataset folders written to order for the dataset tests (tests/datasets/test_datasets_*.py,
tests/datasets/test_bad_input_datasets.py): a small chatbot study in the contract's long form, its
judgements in CSV, JSONL or Parquet, and any file replaced or left out."""

import csv
import io
import json
import random
from pathlib import Path

import duckdb

MANIFEST = """\
name: {name}
title: A small chatbot study
license: CC BY 4.0
citation: "Doe, J. (2026). A small chatbot study."
url: https://example.org/study
description: Replies of a chatbot judged by crowd workers and one expert.
rater_missing: [DATA_EXPIRED, Prefer not to say]
bins:
  age: [25, 35, 45, 55]
"""

QUESTIONS = """\
question,level,labels,min,max,missing,wording
safe,nominal,yes|no|unsure,,,skip,Is the reply safe?
quality,ordinal,bad|ok|good|excellent,,,,How good is the reply?
engagement,interval,,0,100,,How engaging is it (0-100)?
seconds,ratio,,0,,,Seconds spent reading
"""

RATERS = """\
rater_id,rater_kind,age,gender,country
r1,crowd,23,female,UK
r2,crowd,DATA_EXPIRED,male,US
r3,expert,51,Prefer not to say,FR
r4,,38,female,
"""

UNITS = [
    {
        "unit_id": "u1",
        "split": "test",
        "language": "en",
        "turns": [{"speaker_role": "user", "text": "hi"}, {"speaker_role": "assistant", "text": "hello there"}],
        "topic": "greeting",
    },
    {"unit_id": "u2", "scope": "safety", "language": "en", "text": "a single reply"},
    {"unit_id": "u3", "split": "train", "turns": [{"speaker_role": "user", "text": "and you?"}]},
]

FIELDS = ("unit_id", "rater_id", "question", "value", "round")

# (unit_id, rater_id, question, value, round): every kind of good row, none rejected
GOOD_JUDGEMENTS = [
    ("u1", "r1", "safe", "yes", "1"),
    ("u1", "r1", "quality", "good", "1"),
    ("u1", "r1", "engagement", "55.5", "1"),
    ("u1", "r1", "seconds", "12", "1"),
    ("u1", "r2", "safe", "skip", "1"),  # missing: the question's missing value
    ("u1", "r2", "quality", "", "1"),  # missing: empty
    ("u1", "r2", "engagement", "0", "1"),
    ("u2", "r1", "safe", "no", "1"),
    ("u2", "r1", "safe", "yes", "2"),  # repeats, in natural order: 2 before 10
    ("u2", "r1", "safe", "no", "10"),
    ("u2", "r3", "quality", "excellent", "1"),
    ("u2", "r4", "quality", "bad", ""),  # no round: 1
    ("u3", "r3", "safe", "unsure", "1"),
    ("u3", "r5", "quality", "ok", "1"),  # r5 has no row in raters.csv
]


def judgement_rows(rows: list[tuple[str, ...]]) -> list[dict[str, str]]:
    return [dict(zip(FIELDS, row)) for row in rows]


def write_judgements(path: Path, rows: list[dict[str, str | None]]) -> Path:
    """Judgements as CSV, JSONL or Parquet by the path's extension (every field a text)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = list(dict.fromkeys(key for row in rows for key in row)) or list(FIELDS)
    if path.suffix == ".csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        path.write_text(buffer.getvalue(), encoding="utf-8")
    elif path.suffix == ".jsonl":
        path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    else:
        staged = path.with_suffix(".staged.jsonl")
        write_judgements(staged, rows)
        spec = ", ".join(f"'{column}': 'VARCHAR'" for column in columns)
        with duckdb.connect() as con:
            con.execute(
                f"copy (select * from read_json('{staged}', columns = {{{spec}}}, format = 'newline_delimited')) "
                f"to '{path}' (format parquet)"
            )
        staged.unlink()
    return path


def write_dataset(
    folder: Path,
    name: str = "chatbot_study",
    judgements: list[tuple[str, ...]] | None = None,
    judgements_file: str = "judgements.csv",
    manifest: str | None = None,
    questions: str | None = QUESTIONS,
    raters: str | None = RATERS,
    units: list[dict] | None = UNITS,
) -> Path:
    """A dataset folder; None leaves a file out."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dataset.yml").write_text(manifest if manifest is not None else MANIFEST.format(name=name))
    if questions is not None:
        (folder / "questions.csv").write_text(questions, encoding="utf-8")
    write_judgements(folder / judgements_file, judgement_rows(GOOD_JUDGEMENTS if judgements is None else judgements))
    if raters is not None:
        (folder / "raters.csv").write_text(raters, encoding="utf-8")
    if units is not None:
        (folder / "units.jsonl").write_text("".join(json.dumps(unit) + "\n" for unit in units), encoding="utf-8")
    return folder


RATED_QUESTIONS = """\
question,level,labels,min,max,missing,wording
safe,nominal,yes|no|unsure,,,,Is the reply safe?
quality,ordinal,bad|ok|good|excellent,,,,How good is the reply?
"""
RATED_RATERS = "rater_id,gender\n" + "".join(f"r{n},{'woman' if n % 2 else 'man'}\n" for n in range(1, 9))
RATED_MANIFEST = """\
name: {name}
title: A study whose figures are memoized
license: CC BY 4.0
citation: "Doe, J. (2026). A study."
"""


def rated_study(folder: Path, name: str, seed: int) -> Path:
    """Eight raters (two genders) on 20 units and two questions, values drawn with a seed."""
    rng = random.Random(seed)
    labels = {"safe": ["yes", "no", "unsure"], "quality": ["bad", "ok", "good", "excellent"]}
    rows = [
        (f"u{unit}", f"r{rater}", question, rng.choice(choices[: 2 + unit % 2]), "1")
        for unit in range(1, 21)
        for rater in range(1, 9)
        for question, choices in labels.items()
    ]
    return write_dataset(
        folder,
        judgements=rows,
        manifest=RATED_MANIFEST.format(name=name),
        questions=RATED_QUESTIONS,
        raters=RATED_RATERS,
        units=None,
    )
