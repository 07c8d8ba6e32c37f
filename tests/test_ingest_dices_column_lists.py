"""The DICES column layouts have one definition, `ingest/dices_columns.py` (copied from the released
headers). Staging and the wide mart select the question columns by pattern, so only files that must
name each column do: the raw DDL, the dbt source, the staging and wide-mart YAML (their
descriptions and the mart's contract) and the question seed. This one test holds them all to it."""

import csv
import re
from pathlib import Path

import yaml

from ingest.dices_columns import ANSWERS, COLUMNS, CONFIGS, HARM_TYPES, Q1_ANSWERS, Q1_COLUMN, QUESTIONS
from tests.helpers import PROJECT_ROOT

LANDING_COLUMNS = ["load_id", "file_path", "row_number"]
RAW_TABLE = {"350": "dices_350", "990": "dices_990"}
SOURCE_TABLE = {"350": "ratings_350", "990": "ratings_990"}


def yaml_columns(path: Path, kind: str, name: str) -> list[str]:
    """The column names a dbt YAML file lists for one model or one source table."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    if kind == "source":
        [entry] = [t for s in document["sources"] for t in s["tables"] if t["name"] == name]
    else:
        [entry] = [m for m in document[kind] if m["name"] == name]
    return [column["name"] for column in entry["columns"]]


def raw_ddl_columns(table: str) -> list[str]:
    ddl = (PROJECT_ROOT / "ingest" / "sql" / "raw_dices.sql").read_text(encoding="utf-8")
    body = re.search(rf"create table if not exists raw\.{table} \((.*?)\n\);", ddl, re.S)
    assert body, f"raw_dices.sql has no table raw.{table}"
    return re.findall(r'^\s+"?(\w+)"? (?:varchar|bigint)', body.group(1), re.M)


def read_seed(name: str) -> list[dict[str, str]]:
    with (PROJECT_ROOT / "seeds" / f"{name}.csv").open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_raw_tables_and_the_dbt_source_list_every_released_column_in_order() -> None:
    for config in CONFIGS:
        assert raw_ddl_columns(RAW_TABLE[config]) == LANDING_COLUMNS + list(COLUMNS[config])
        source = yaml_columns(
            PROJECT_ROOT / "models" / "staging" / "dices" / "_dices__sources.yml", "source", SOURCE_TABLE[config]
        )
        assert source == LANDING_COLUMNS + list(COLUMNS[config])


def test_staging_and_the_wide_mart_describe_every_question_column() -> None:
    for config in CONFIGS:
        staging = yaml_columns(
            PROJECT_ROOT / "models" / "staging" / "dices" / f"stg_dices__ratings_{config}.yml",
            "models",
            f"stg_dices__ratings_{config}",
        )
        assert [c for c in staging if c.startswith("Q")] == list(QUESTIONS[config])
    wide = yaml_columns(PROJECT_ROOT / "models" / "marts" / "dices_ratings_wide.yml", "models", "dices_ratings_wide")
    both_releases = list(dict.fromkeys(QUESTIONS["350"] + QUESTIONS["990"]))
    assert [c for c in wide if c.startswith("Q")] == both_releases


def test_the_question_seed_and_the_vocabularies_are_the_release_layout() -> None:
    questions = read_seed("dices_questions")
    for config in CONFIGS:
        rows = [r for r in questions if r["dataset_config"] == config]
        assert [r["question"] for r in rows] == list(QUESTIONS[config])
        assert [int(r["column_position"]) for r in rows] == [COLUMNS[config].index(q) + 1 for q in QUESTIONS[config]]
        assert {r["question"] for r in rows if r["answer_vocabulary"] == "q1_sentences"} == {Q1_COLUMN}
    vocabularies = [r for r in read_seed("vocabularies") if r["source"] == "dices"]
    labels = lambda name: [r["label"] for r in vocabularies if r["vocabulary"] == name]  # noqa: E731
    assert labels("yes_no_unsure") == list(ANSWERS)
    assert labels("q1_sentences") == list(Q1_ANSWERS)
    assert labels("harm_type") == list(HARM_TYPES)
