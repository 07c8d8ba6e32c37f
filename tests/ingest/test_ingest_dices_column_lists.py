"""The DICES question columns are listed once, in `seeds/dices_questions.csv`: landing makes the raw
tables and the expected headers from it (ingest/releases/dices_columns.py), staging and the wide mart select
the columns by pattern. The one copy left is the wide mart's contract, which dbt cannot take from a
seed; these tests hold it and the dbt source's record columns to the one list."""

from pathlib import Path

import duckdb
import yaml

from ingest.raw_schema import ensure_raw_schema
from ingest.releases.dices_columns import COLUMNS, CONFIGS, QUESTIONS, RAW_TABLES, RECORD_COLUMNS
from tests.helpers import PROJECT_ROOT

LANDING_COLUMNS = ["load_id", "file_path", "row_number"]
SOURCE_TABLE = {"350": "ratings_350", "990": "ratings_990"}


def yaml_columns(path: Path, kind: str, name: str) -> list[str]:
    """The column names a dbt YAML file lists for one model or one source table."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    if kind == "source":
        [entry] = [t for s in document["sources"] for t in s["tables"] if t["name"] == name]
    else:
        [entry] = [m for m in document[kind] if m["name"] == name]
    return [column["name"] for column in entry["columns"]]


def test_a_new_warehouse_gets_raw_tables_of_every_released_column_in_header_order() -> None:
    con = duckdb.connect()
    ensure_raw_schema(con)
    for config in CONFIGS:
        schema, table = RAW_TABLES[config].split(".")
        found = con.execute(
            "select column_name, data_type from duckdb_columns() where schema_name = ? and table_name = ? "
            "order by column_index",
            [schema, table],
        ).fetchall()
        assert [name for name, _ in found] == LANDING_COLUMNS + list(COLUMNS[config])
        assert {data_type for name, data_type in found if name not in LANDING_COLUMNS} == {"VARCHAR"}


def test_the_dbt_source_describes_the_record_columns_and_leaves_the_questions_to_the_seed() -> None:
    sources = PROJECT_ROOT / "models" / "staging" / "dices" / "_dices__sources.yml"
    for config in CONFIGS:
        assert yaml_columns(sources, "source", SOURCE_TABLE[config]) == LANDING_COLUMNS + list(RECORD_COLUMNS[config])


def test_the_wide_marts_contract_lists_every_seeded_question_of_both_releases_in_order() -> None:
    wide = yaml_columns(PROJECT_ROOT / "models" / "marts" / "dices_ratings_wide.yml", "models", "dices_ratings_wide")
    both_releases = list(dict.fromkeys(QUESTIONS["350"] + QUESTIONS["990"]))
    assert [c for c in wide if c.startswith("Q")] == both_releases
