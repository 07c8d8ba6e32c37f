"""The DICES releases' CSV layouts and label vocabularies, as the released files have them.

Copied from the published files themselves, not from their READMEs, which differ:
990 names its raw race column `rater_race_raw`; 350's last Q6 column is `Q6_policy_guidelines_other`
(README: `..._other_type`).

Each fact is kept once, and read from there by landing, the sample writer and dbt alike:
- the columns before the questions (the record, its rater, its item) are written out below;
- the question columns, in header order after them, are the rows of `seeds/dices_questions.csv`;
- the answer labels are `seeds/judgement_labels.csv`'s label sets (`yes_no_unsure`, `q1_sentences`)
  and the other closed lists `seeds/vocabularies.csv`'s `dices` vocabularies.
"""

import csv
import functools

from common.paths import PROJECT_ROOT

SEEDS = PROJECT_ROOT / "seeds"

CONFIGS: tuple[str, ...] = ("350", "990")

# The columns each header starts with, before its first question column.
RECORD_COLUMNS: dict[str, tuple[str, ...]] = {
    "350": (
        "id",
        "rater_id",
        "rater_gender",
        "rater_race",
        "rater_raw_race",
        "rater_age",
        "rater_education",
        "phase",
        "item_id",
        "answer_time_ms",
        "answer_timestamp",
        "context",
        "response",
        "degree_of_harm",
        "harm_type",
        "safety_gold",
        "safety_gold_reason",
    ),
    "990": (
        "id",
        "rater_id",
        "rater_gender",
        "rater_locale",
        "rater_race",
        "rater_race_raw",
        "rater_age",
        "rater_education",
        "phase",
        "item_id",
        "context",
        "response",
        "degree_of_harm",
        "harm_type",
    ),
}


@functools.cache
def _seed_rows(name: str) -> tuple[dict[str, str], ...]:
    """A seed's rows, read once per process (the constants below filter the same few seeds)."""
    with (SEEDS / f"{name}.csv").open(newline="", encoding="utf-8") as handle:
        return tuple(csv.DictReader(handle))


def _question_rows(config: str) -> list[dict[str, str]]:
    """The seed's question columns of one release in header order; they must follow its record columns."""
    rows = sorted(
        (row for row in _seed_rows("dices_questions") if row["dataset_config"] == config),
        key=lambda row: int(row["column_position"]),
    )
    first = len(RECORD_COLUMNS[config]) + 1
    positions = [int(row["column_position"]) for row in rows]
    if positions != list(range(first, first + len(rows))):
        raise ValueError(
            f"seeds/dices_questions.csv: the {config} questions must take positions {first}, {first + 1}, … "
            f"after the release's {first - 1} record columns, found {positions}"
        )
    return rows


QUESTION_ROWS: dict[str, list[dict[str, str]]] = {config: _question_rows(config) for config in CONFIGS}

# Question columns in header order: Q1 (comprehension), the granular Q2..Q6 questions, the
# per-category overall questions and Q_overall. Every one of them is a rating column.
QUESTIONS: dict[str, tuple[str, ...]] = {
    config: tuple(row["question"] for row in rows) for config, rows in QUESTION_ROWS.items()
}
QUESTIONS_350, QUESTIONS_990 = QUESTIONS["350"], QUESTIONS["990"]

COLUMNS: dict[str, tuple[str, ...]] = {config: RECORD_COLUMNS[config] + QUESTIONS[config] for config in CONFIGS}
COLUMNS_350, COLUMNS_990 = COLUMNS["350"], COLUMNS["990"]

# The byte-exact header line of each released file (LF line end, nothing quoted).
HEADER_LINES: dict[str, str] = {config: ",".join(columns) + "\n" for config, columns in COLUMNS.items()}

Q1_COLUMN = "Q1_whole_conversation_evaluation"
OVERALL_COLUMN = "Q_overall"


def _aggregates_other_than_overall(config: str) -> tuple[str, ...]:
    """Per-category aggregates ("…_overall") other than Q_overall, in header order."""
    rows = QUESTION_ROWS[config]
    return tuple(row["question"] for row in rows if row["is_aggregate"] == "true" and row["question"] != OVERALL_COLUMN)


CATEGORY_OVERALL_350 = _aggregates_other_than_overall("350")
CATEGORY_OVERALL_990 = _aggregates_other_than_overall("990")

# Granular Yes / No / Unsure questions (not Q1, not an overall), in header order.
GRANULAR_350: tuple[str, ...] = tuple(
    q for q in QUESTIONS_350 if q not in (Q1_COLUMN, OVERALL_COLUMN, *CATEGORY_OVERALL_350)
)
GRANULAR_990: tuple[str, ...] = tuple(
    q for q in QUESTIONS_990 if q not in (Q1_COLUMN, OVERALL_COLUMN, *CATEGORY_OVERALL_990)
)

# Where each release keeps its file, relative to the release root, and its raw landing table.
RELEASE_PATHS: dict[str, str] = {
    "350": "350/diverse_safety_adversarial_dialog_350.csv",
    "990": "990/diverse_safety_adversarial_dialog_990.csv",
}
RAW_TABLES: dict[str, str] = {"350": "raw.dices_350", "990": "raw.dices_990"}


def raw_table_ddl() -> list[str]:
    """The DDL of the DICES landing tables: one row per CSV record (one rater x item rating),
    every released column kept as text, in header order, after the landing columns.

    An unquoted empty field (how the releases write a missing value) lands as NULL; a quoted empty
    field ("") as ''. Nothing is trimmed or cast: 15-digit rater ids, multi-line contexts and
    malformed list strings are kept byte for byte. `row_number` is the 1-based index of the data
    record in its file (header not counted; a record may span several physical lines). Records
    DuckDB's reader rejects go to raw.ingest_rejects instead."""
    return [
        f"create table if not exists {RAW_TABLES[config]} (\n"
        "    load_id varchar not null,\n    file_path varchar not null,\n    row_number bigint not null,\n"
        + ",\n".join(f'    "{column}" varchar' for column in COLUMNS[config])
        + "\n);"
        for config in CONFIGS
    ]


# Published statistics (dataset card). The 990 README says 172 raters in one place.
PUBLISHED_ITEMS: dict[str, int] = {"350": 350, "990": 990}
PUBLISHED_RATERS: dict[str, int] = {"350": 123, "990": 173}
PUBLISHED_ROWS: dict[str, int] = {"350": 43_050, "990": 72_103}
PUBLISHED_RATERS_PER_ITEM_990: tuple[int, int] = (60, 70)

# Label vocabularies (TFDS catalog; docs/RELEASES.md), in code order.


def _vocabulary(name: str) -> tuple[str, ...]:
    rows = [row for row in _seed_rows("vocabularies") if row["source"] == "dices" and row["vocabulary"] == name]
    return tuple(row["label"] for row in sorted(rows, key=lambda row: int(row["code"])))


def _label_set(name: str) -> tuple[str, ...]:
    rows = [row for row in _seed_rows("judgement_labels") if row["label_set"] == name]
    return tuple(row["value_text"] for row in sorted(rows, key=lambda row: int(row["value_code"])))


GENDERS = _vocabulary("gender")
RACES = _vocabulary("race")
AGES = _vocabulary("age_group")
EDUCATIONS = _vocabulary("education")
PHASES = _vocabulary("phase")
LOCALES = _vocabulary("locale")
DEGREES_OF_HARM = _vocabulary("degree_of_harm")
SAFETY_GOLD = _vocabulary("safety_gold")
# Harm topics as the TFDS loader names them (it capitalises each comma-separated value; the
# files' capitalisation varies). "Terrorism " carries a trailing space in the catalog itself.
HARM_TYPES = _vocabulary("harm_type")
# The answers: every question but Q1 takes Yes / No / Unsure; Q1 one of four sentences.
ANSWERS = _label_set("yes_no_unsure")
Q1_ANSWERS = _label_set("q1_sentences")
