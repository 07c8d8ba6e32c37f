"""One convention each for what every model decides: a mart's select list is its YAML contract
(`contract_columns()` in its final CTE), and a model's materialization is set in one place (the
folder's default in dbt_project.yml, an exception in the model's own file), never in its YAML."""

import re
from pathlib import Path

import pytest
import yaml

from tests.helpers import PROJECT_ROOT

MARTS = sorted((PROJECT_ROOT / "models" / "marts").rglob("*.sql"))
MODEL_YAMLS = sorted((PROJECT_ROOT / "models").rglob("*.yml"))
FINAL_CTE = re.compile(
    r"\nfinal as \(\s*select\s+\{\{ contract_columns\(\) \}\}\s+from \w+\s*\)\s*select \* from final\s*$"
)


def test_there_are_marts_and_model_yamls_to_check() -> None:
    assert len(MARTS) >= 20 and len(MODEL_YAMLS) >= 50


@pytest.mark.parametrize("path", MARTS, ids=lambda path: path.stem)
def test_a_marts_select_list_is_its_contract(path: Path) -> None:
    assert FINAL_CTE.search(path.read_text(encoding="utf-8")), (
        f"{path.name}: end with `final as (select {{{{ contract_columns() }}}} from <cte>)` and `select * from final`"
    )


@pytest.mark.parametrize("path", MODEL_YAMLS, ids=lambda path: path.stem)
def test_no_model_yaml_sets_a_materialization_or_a_contract(path: Path) -> None:
    document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for model in document.get("models", []):
        config = model.get("config", {})
        assert "materialized" not in config and "contract" not in config, f"{path.name}: {model['name']}"
