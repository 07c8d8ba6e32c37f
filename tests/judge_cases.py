"""Judges' cases the judges' tests share: a judges' file written as a user writes one (CSV, JSONL or
Parquet); a case (a question, raters with genders, their values and a judge's) as the inputs
`judge_references.judge_question` reads; and a DICES-like case with a planted view of the women's
that a sided judge copies."""

import csv
import json
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from agreement_core.questions import Question
from agreement_core.settings import MonteCarloSettings

NO_MONTE_CARLO = MonteCarloSettings(False, 1, 1, 1, ("*",))
GENDERS = ["Man", "Woman"]
# the columns of a judges' file, as the tests write them
FIELDS = ["judge", "dialogue_key", "question", "movie_id", "value"]


def write_judges(path: Path, rows: list[dict], columns: list[str] = FIELDS) -> Path:
    """Write `rows` as the file's extension says: CSV with a header, JSONL, or Parquet (via DuckDB)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix == ".csv":
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(columns)
            writer.writerows([["" if row.get(c) is None else row[c] for c in columns] for row in rows])
    elif path.suffix == ".jsonl":
        path.write_text("".join(json.dumps({c: row.get(c) for c in columns}) + "\n" for row in rows))
    else:
        jsonl = path.with_suffix(".tmp.jsonl")
        write_judges(jsonl, rows, columns)
        with duckdb.connect() as con:
            types = ", ".join(f"'{c}': 'VARCHAR'" for c in columns)
            con.execute(
                f"copy (select * from read_json('{jsonl}', columns = {{{types}}})) to '{path}' (format parquet)"
            )
        jsonl.unlink()
    return path


def inputs(case: dict) -> tuple[Question, pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """A case as `judge_question` reads it: DICES 350's Q_overall at the case's level, the references'
    values, the judges' values, and each rater in the group `all` and in its gender's group."""
    question = Question(7, "dices", "350", "safety", "Q_overall", np.array(case["codes"], dtype=float), case["level"])
    references = pd.DataFrame(case["rows"], columns=["unit_id", "rater_id", "ceiling_rater", "reference", "value_code"])
    judge_values = pd.DataFrame(case["judge_rows"], columns=["judge", "unit_id", "value"])
    groups = pd.DataFrame(
        [
            {"group_id": 1 + GENDERS.index(gender), "group_dimension": "gender", "group_value": gender, "rater_id": r}
            for r, gender in enumerate(case["genders"])
        ]
        + [
            {"group_id": 0, "group_dimension": "all", "group_value": "all", "rater_id": r}
            for r in range(len(case["genders"]))
        ]
    )
    return question, references, judge_values, groups


def planted_case(rng: np.random.Generator, n_units: int, sided: bool, women_differ: bool = True) -> dict:
    """20 raters (10 men, 10 women) on 3 labels, the women with a view of their own (or not); a judge
    that copies the women's view (sided) or draws its own labels."""
    genders = ["Man"] * 10 + ["Woman"] * 10
    leaning = rng.integers(1, 4, n_units)
    women_view = rng.integers(1, 4, n_units) if women_differ else leaning
    rows = []
    for rater, gender in enumerate(genders):
        view = women_view if gender == "Woman" else leaning
        values = np.where(rng.random(n_units) < 0.6, view, rng.integers(1, 4, n_units))
        rows += [
            {"unit_id": u, "rater_id": rater, "ceiling_rater": f"r{rater}", "reference": "raters", "value_code": int(v)}
            for u, v in enumerate(values)
        ]
    judge_values = women_view if sided else rng.integers(1, 4, n_units)
    judge_rows = [{"judge": "j", "unit_id": u, "value": float(v)} for u, v in enumerate(judge_values)]
    return {"level": "nominal", "codes": [1, 2, 3], "rows": rows, "judge_rows": judge_rows, "genders": genders}
