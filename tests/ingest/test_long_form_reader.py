"""The long-form reader exists once (ingest/long_form/): `dwh ingest --judges` and `dwh ingest
--dataset` recognise and read their files through it and read no file themselves, and common/ and
ingest/ have one identifier(), one one_line() and one second_values.sql. Reads the source only; what the reader
answers either side is tested in tests/judges/test_bad_input_judges.py and tests/datasets/test_bad_input_datasets.py."""

import ast
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT

INGEST = PROJECT_ROOT / "ingest"
JUDGES_SIDE = [INGEST / "judges.py", INGEST / "judge_files.py", INGEST / "judge_landing.py"]
DATASETS_SIDE = sorted((INGEST / "datasets").glob("*.py"))
# what reading a long-form file takes, which only ingest/long_form/ may do
READING_CALLS = ("read_csv(", "read_parquet(", "read_json", "json_keys(", "json_extract", "land_csv_records(")


def imported(paths: list[Path]) -> set[tuple[str, str]]:
    """(module, name) of every `from module import name` in the files."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                found |= {(node.module, alias.name) for alias in node.names}
    return found


@pytest.mark.parametrize("side", [JUDGES_SIDE, DATASETS_SIDE], ids=["judges", "datasets"])
def test_each_side_recognises_reads_and_checks_second_values_through_the_one_long_form_reader(
    side: list[Path],
) -> None:
    assert {
        ("ingest.long_form.columns", "recognise"),
        ("ingest.long_form.reading", "create_input_table"),
        ("ingest.long_form.reading", "read_rows"),
        ("ingest.long_form.second_values", "reject_second_values"),
    } <= imported(side)


@pytest.mark.parametrize("path", JUDGES_SIDE + DATASETS_SIDE, ids=lambda path: path.relative_to(INGEST).as_posix())
def test_neither_side_reads_a_long_form_file_itself(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert [call for call in READING_CALLS if call in text] == []


def test_ingest_has_one_identifier_one_one_line_and_one_second_values_sql() -> None:
    """identifier() and one_line() are common/'s (what every layer uses), with no copy in ingest/."""
    files = sorted(path for folder in (PROJECT_ROOT / "common", INGEST) for path in folder.rglob("*.py"))
    defined: dict[str, list[str]] = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.lstrip("_") in ("identifier", "one_line"):
                defined.setdefault(node.name.lstrip("_"), []).append(path.relative_to(PROJECT_ROOT).as_posix())
    assert defined == {"identifier": ["common/database.py"], "one_line": ["common/errors.py"]}
    copies = [
        path.relative_to(PROJECT_ROOT).as_posix()
        for path in files
        if "replace('\"', '\"\"')" in path.read_text(encoding="utf-8")
        or '" ".join(str(exc).split())' in path.read_text(encoding="utf-8")
    ]
    assert copies == ["common/database.py", "common/errors.py"]  # no inline copy of either under another name
    assert [path.relative_to(INGEST).as_posix() for path in INGEST.rglob("second_values.sql")] == [
        "sql/long_form/second_values.sql"
    ]
