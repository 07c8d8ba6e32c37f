"""The agreement spine stays one short path (docs/AGREEMENT.md, "Where the figures come from"): read from
dbt's manifest, `agreement` stands within a budget of hops and models from the sources; the page's table
names every model of the spine and only models that exist; each rule of the spine is written in one model."""

import re
from functools import cache

import pytest

from tests.helpers import PROJECT_ROOT

pytestmark = pytest.mark.slow  # the manifest comes from the run's one dbt parse

AGREEMENT_PAGE = PROJECT_ROOT / "docs" / "AGREEMENT.md"
SPINE_FOLDERS = ("models/intermediate/agreement/", "models/intermediate/judges/")
# where the chain stands (issue "One long form inside": 15 hops and 52 models at filing, 8 and 30 asked);
# the 31st is the judges' staging, since judges are raters of the spine (of kind judge)
MAX_HOPS_TO_AGREEMENT = 7
MAX_MODELS_UPSTREAM_OF_AGREEMENT = 31


def lineage_of(manifest: dict, mart: str) -> tuple[int, set[str]]:
    """The most hops from a source to `mart` and the models upstream of it."""
    parents = manifest["parent_map"]
    counted = ("model.", "seed.", "source.")

    @cache
    def depth(node: str) -> int:
        upstream = [parent for parent in parents.get(node, []) if parent.startswith(counted)]
        return 0 if node.startswith("source.") or not upstream else 1 + max(map(depth, upstream))

    [node] = [key for key in manifest["nodes"] if key.startswith("model.") and key.endswith(f".{mart}")]
    seen, stack = set(), [node]
    while stack:
        for parent in parents.get(stack.pop(), []):
            if parent.startswith(counted) and parent not in seen:
                seen.add(parent)
                stack.append(parent)
    return depth(node), {key for key in seen if key.startswith("model.")}


def test_agreement_stands_within_its_budget_of_hops_and_models(project_manifest: dict) -> None:
    hops, upstream = lineage_of(project_manifest, "agreement")
    assert hops <= MAX_HOPS_TO_AGREEMENT, hops
    assert len(upstream) <= MAX_MODELS_UPSTREAM_OF_AGREEMENT, sorted(upstream)


def test_the_lineage_of_the_agreement_page_names_every_spine_model_and_only_real_ones(project_manifest: dict) -> None:
    text = AGREEMENT_PAGE.read_text()
    table = text[text.index("## Where the figures come from") : text.index("Where each formula lives")]
    named = set(re.findall(r"`((?:int|stg)_[a-z0-9_]+)`", table))
    models = {node["name"]: node for node in project_manifest["nodes"].values() if node["resource_type"] == "model"}
    assert named - set(models) == set(), "the page names models the project does not have"
    upstream = lineage_of(project_manifest, "agreement")[1] | lineage_of(project_manifest, "judge_agreement")[1]
    spine = {
        name
        for name, node in models.items()
        if node["original_file_path"].startswith(SPINE_FOLDERS) and node["unique_id"] in upstream
    }
    assert len(spine) >= 12  # the page is checked against the spine, not against an empty set
    assert spine - named == set(), "models the figures depend on that the page does not name"


def model_files_containing(pattern: str) -> set[str]:
    return {path.stem for path in (PROJECT_ROOT / "models").rglob("*.sql") if re.search(pattern, path.read_text())}


def test_each_rule_of_the_spine_is_written_in_one_model() -> None:
    # who is excluded, and which judgement of a rater's repeats counts
    assert model_files_containing(r"ref\('excluded_raters'\)") == {"int_agreement__raters"}
    assert model_files_containing(r"as is_excluded\b") == {"int_agreement__raters", "int_agreement__judgements"}
    assert model_files_containing(r"as is_first\b") == {"int_agreement__judgements"}
    # the numbering of questions and units
    assert model_files_containing(r"as integer\) as (question_id|unit_id)\b") == {"int_agreement__units"}


def unit_tests_declared_in(text: str) -> set[str]:
    """The names of the unit tests of a top-level `unit_tests:` block of a YAML file."""
    if "\nunit_tests:" not in text:
        return set()
    return set(re.findall(r"^  - name: (\w+)", text[text.index("\nunit_tests:") :], re.M))


def test_every_dbt_unit_test_is_declared_where_dbt_reads_it(project_manifest: dict) -> None:
    """A `unit_tests:` block nested under a model is ignored by dbt without a word (one was, for the
    first-judgement rule): every block is a top-level key, and dbt knows each test it declares."""
    declared = set()
    for path in (PROJECT_ROOT / "models").rglob("*.yml"):
        text = path.read_text()
        assert not re.search(r"^[ \t]+unit_tests:", text, re.M), f"{path}: unit_tests nested under a model"
        declared |= unit_tests_declared_in(text)
    known = {node["name"] for node in project_manifest["unit_tests"].values()}
    assert len(declared) >= 13 and declared <= known


def sql_files_containing(pattern: str) -> set[str]:
    folders = ("ingest", "models", "macros", "tests_dbt")
    return {
        str(path.relative_to(PROJECT_ROOT))
        for folder in folders
        for path in (PROJECT_ROOT / folder).rglob("*.sql")
        if re.search(pattern, path.read_text(encoding="utf-8"))
    }


def test_how_a_value_matches_a_label_and_how_rounds_order_are_written_once_for_ingest_and_build() -> None:
    """A value's key (trimmed, a number by its value) and the rounds' natural order are DuckDB
    macros of the raw schema, which ingest's checks and dbt's models call alike."""
    assert sql_files_containing(r"try_cast\(trim\([^)]*\) as double\) as varchar\), trim\(") == {
        "ingest/sql/raw_common.sql"
    }
    assert sql_files_containing(r"regexp_extract_all\([^,]+, '\\d\+\|\\D\+'\)") == {"ingest/sql/raw_common.sql"}
    assert sql_files_containing(r"raw\.round_order\(") == {"ingest/sql/raw_common.sql", "macros/judgement_order.sql"}
    assert "raw.round_order(" in (PROJECT_ROOT / "ingest" / "datasets" / "landing.py").read_text(encoding="utf-8")
