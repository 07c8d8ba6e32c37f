"""The agreement models stay SQL a reader can follow and a new source can join (issue 33): no
source names, levels or label counts written in them, no packed counts, no Jinja loops or linter
switched off, models of about 150 lines with at most 6 parents, reading the feed and the raters'
models rather than marts."""

import re
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT

AGREEMENT_INTERMEDIATE = sorted((PROJECT_ROOT / "models" / "intermediate" / "agreement").glob("*.sql"))
AGREEMENT_MARTS = sorted((PROJECT_ROOT / "models" / "marts" / "agreement").glob("*.sql"))
# GRASP published figures for DICES-350's Q_overall alone: comparing with them is DICES's by nature
SOURCE_SPECIFIC_MARTS = {"grasp_comparison.sql"}
SHARED_AGREEMENT_SQL = AGREEMENT_INTERMEDIATE + [p for p in AGREEMENT_MARTS if p.name not in SOURCE_SPECIFIC_MARTS]
SOURCE_NAMES = ("duo", "redial", "dices")


def parents(sql: str) -> set[str]:
    """The models and seeds a model selects from (its ref() and source() calls)."""
    return set(re.findall(r"ref\('(\w+)'\)", sql)) | set(re.findall(r"source\('(\w+)', '(\w+)'\)", sql))


def code_lines(path: Path) -> list[str]:
    """The model's lines without its `--` comments (the comments may name sources as examples)."""
    return [line.split("--")[0] for line in path.read_text(encoding="utf-8").splitlines()]


def test_there_are_agreement_models_to_check() -> None:
    assert len(AGREEMENT_INTERMEDIATE) >= 10 and len(AGREEMENT_MARTS) >= 5


@pytest.mark.parametrize("path", SHARED_AGREEMENT_SQL, ids=lambda p: p.name)
def test_no_source_name_level_or_label_count_is_written_in_shared_agreement_sql(path: Path) -> None:
    code = "\n".join(code_lines(path)).lower()
    named = [name for name in SOURCE_NAMES if f"'{name}'" in code]
    assert not named, f"{path.name} names sources {named}: per-source facts belong in seeds or int_<source>__ models"
    assert not re.search(r"when\s+'[a-z_]+'\s+then\s+\d", code), f"{path.name} maps a name to a number in SQL"


@pytest.mark.parametrize("path", SHARED_AGREEMENT_SQL, ids=lambda p: p.name)
def test_no_packing_loops_or_linter_switched_off(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    code = "\n".join(code_lines(path))
    assert "noqa" not in text, f"{path.name} switches the linter off"
    assert "{% for" not in text and "{%- for" not in text, f"{path.name} writes SQL in a Jinja loop"
    assert not re.search(r">>|<<|\bhugeint\b|\s&\s", code), f"{path.name} packs or unpacks bits"


@pytest.mark.parametrize("path", SHARED_AGREEMENT_SQL, ids=lambda p: p.name)
def test_models_are_short_with_few_parents(path: Path) -> None:
    sql = path.read_text(encoding="utf-8")
    assert len(sql.splitlines()) <= 170, f"{path.name}: {len(sql.splitlines())} lines"
    assert len(parents(sql)) <= 6, f"{path.name} has {len(parents(sql))} parents: {sorted(parents(sql))}"


@pytest.mark.parametrize("path", AGREEMENT_INTERMEDIATE, ids=lambda p: p.name)
def test_intermediate_agreement_models_read_no_mart_and_no_other_sources_models(path: Path) -> None:
    mart_names = {p.stem for p in (PROJECT_ROOT / "models" / "marts").rglob("*.sql")}
    read = parents(path.read_text(encoding="utf-8"))
    assert not read & mart_names, f"{path.name} reads marts {sorted(read & mart_names)}"
    foreign = {name for name in read if isinstance(name, str) and re.match(r"(stg|int)_(duo|redial|dices)__", name)}
    assert not foreign, f"{path.name} reads a source's own models {sorted(foreign)}"
