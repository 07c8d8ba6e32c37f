"""The sample's dataset folder (`datasets/chatbot_study/`, for `dwh ingest --dataset`): a small
synthetic annotation study of a chatbot in the long form of docs/DATASETS.md.

- 40 units, each a user's message and the chatbot's reply (units.jsonl, `turns`), in two splits;
- 12 raters: raters.csv with age (a number, in bins 25/35/45/55; one "Prefer not to say"),
  gender and country; r11 an expert; r12 judges without a row in raters.csv;
- three questions at three levels: `safe` nominal (yes|no|unsure, `skip` missing), `quality`
  ordinal (bad|poor|fair|good|excellent), `engagement` interval (0 to 100);
- each unit judged by 6 raters on the three questions (judgements.csv), a few values skipped or
  left empty; raters r01-r03 judge their first 5 units again as round 2 (judgements_repeat.jsonl);
- each unit has a hidden quality the judgements follow with noise, so that raters agree in part;
  raters under 25 find replies more engaging.

Fixed size (the `--scale` of the releases does not apply); `random.Random(seed)`: the same seed
writes the same bytes.
"""

import csv
import io
import json
import random
from pathlib import Path

from common.outputs import replacing

NAME = "chatbot_study"
UNITS = 40
RATERS_PER_UNIT = 6
REPEATERS = ("r01", "r02", "r03")
REPEATED_UNITS = 5
QUALITY = ("bad", "poor", "fair", "good", "excellent")
GENDERS = ("woman", "man", "non-binary")
COUNTRIES = ("UK", "US", "IN", "DE")
TOPICS = (
    ("How do I reset my password?", "Open Settings, choose Account, then Reset password."),
    ("Can you recommend a book about space?", "Try 'Cosmos' by Carl Sagan."),
    ("What is 17 times 23?", "17 times 23 is 391."),
    ("Write a haiku about rain.", "Soft rain on the roof / the gutters hum their one note / night drinks it all in."),
    ("Is it safe to mix bleach and vinegar?", "No: mixing them releases chlorine gas. Keep them apart."),
    ("Tell me a joke.", "Why did the scarecrow win an award? He was outstanding in his field."),
    ("How do I make my code faster?", "Measure first: profile it, then fix the slowest part."),
    ("What's the capital of Australia?", "Canberra."),
)

MANIFEST = f"""\
name: {NAME}
title: A synthetic chatbot study (dwh sample)
license: CC0 1.0
citation: Synthetic data written by `dwh sample` (conv-eval-warehouse); no real people or conversations.
description: >
  Replies of a chatbot judged for safety, quality and engagement by twelve raters, some twice.
  A worked example of a dataset folder (docs/DATASETS.md).
rater_missing: [Prefer not to say]
bins:
  age: [25, 35, 45, 55]
"""

QUESTIONS = """\
question,level,labels,min,max,missing,wording
safe,nominal,yes|no|unsure,,,skip,Is the reply safe?
quality,ordinal,bad|poor|fair|good|excellent,,,,How good is the reply?
engagement,interval,,0,100,,How engaging is the reply (0 not at all - 100 very)?
"""

FILES = ("dataset.yml", "questions.csv", "judgements.csv", "judgements_repeat.jsonl", "raters.csv", "units.jsonl")


def datasets_files(out_dir: Path) -> list[Path]:
    """The files `write_datasets_sample` writes."""
    return [out_dir / "datasets" / NAME / name for name in FILES]


def write_datasets_sample(out_dir: Path, seed: int = 0) -> list[Path]:
    """Write `out_dir/datasets/chatbot_study/`; returns its files."""
    rng = random.Random(f"datasets-{seed}")
    raters = _raters(rng)
    units = _units(rng)
    rows, repeats = _judgements(rng, units, raters)
    texts = {
        "dataset.yml": MANIFEST,
        "questions.csv": QUESTIONS,
        "judgements.csv": _csv(["unit_id", "rater_id", "question", "value", "round"], rows),
        "judgements_repeat.jsonl": "".join(json.dumps(row) + "\n" for row in repeats),
        "raters.csv": _csv(["rater_id", "rater_kind", "age", "gender", "country"], raters),
        "units.jsonl": "".join(
            json.dumps({key: unit[key] for key in ("unit_id", "split", "language", "turns")}) + "\n" for unit in units
        ),
    }
    paths = datasets_files(out_dir)
    for path in paths:
        with replacing(path) as partial:
            partial.write_text(texts[path.name], encoding="utf-8")
    return paths


def _raters(rng: random.Random) -> list[dict]:
    """r01-r11 (r12 judges without a row); r11 the expert; r07's age not given."""
    rows = []
    for number in range(1, 12):
        age = rng.randint(19, 64)
        rows.append(
            {
                "rater_id": f"r{number:02d}",
                "rater_kind": "expert" if number == 11 else "crowd",
                "age": "Prefer not to say" if number == 7 else str(age),
                "gender": GENDERS[0 if number % 2 else 1] if number != 9 else GENDERS[2],
                "country": rng.choice(COUNTRIES),
            }
        )
    return rows


def _units(rng: random.Random) -> list[dict]:
    units = []
    for number in range(1, UNITS + 1):
        message, reply = TOPICS[(number - 1) % len(TOPICS)]
        units.append(
            {
                "unit_id": f"c{number:03d}",
                "split": "pilot" if number <= 10 else "main",
                "language": "en",
                "turns": [{"speaker_role": "user", "text": message}, {"speaker_role": "assistant", "text": reply}],
                "quality": rng.random(),  # hidden: what the judgements follow
            }
        )
    return units


def _judgements(rng: random.Random, units: list[dict], raters: list[dict]) -> tuple[list[dict], list[dict]]:
    """Round 1 rows (judgements.csv) and the repeaters' round 2 rows (judgements_repeat.jsonl)."""
    ids = [rater["rater_id"] for rater in raters] + ["r12"]
    young = {rater["rater_id"] for rater in raters if rater["age"].isdigit() and int(rater["age"]) < 25}
    rows, repeats, seen = [], [], {rater_id: 0 for rater_id in REPEATERS}
    for unit in units:
        for rater_id in sorted(rng.sample(ids, RATERS_PER_UNIT)):
            answers = _answers(rng, unit["quality"], rater_id in young)
            rows += [{"unit_id": unit["unit_id"], "rater_id": rater_id, **answer, "round": "1"} for answer in answers]
            if rater_id in seen and seen[rater_id] < REPEATED_UNITS:
                seen[rater_id] += 1
                again = _answers(rng, unit["quality"], rater_id in young)
                repeats += [
                    {"unit_id": unit["unit_id"], "rater_id": rater_id, **answer, "round": 2} for answer in again
                ]
    return rows, repeats


def _answers(rng: random.Random, quality: float, young: bool) -> list[dict]:
    """One rater's three answers on a unit of this hidden quality (a few skipped or left empty)."""
    seen = min(max(quality + rng.gauss(0, 0.15), 0.0), 0.999)
    safe = "unsure" if rng.random() < 0.1 else ("yes" if seen > 0.25 else "no")
    engagement = round(min(max(100 * seen + rng.gauss(12 if young else 0, 10), 0), 100))
    answers = [
        {"question": "safe", "value": "skip" if rng.random() < 0.04 else safe},
        {"question": "quality", "value": "" if rng.random() < 0.03 else QUALITY[int(seen * len(QUALITY))]},
        {"question": "engagement", "value": str(engagement)},
    ]
    return answers


def _csv(columns: list[str], rows: list[dict]) -> str:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()
