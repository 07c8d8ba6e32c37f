"""Recipes: a published multi-rater release turned into a dataset folder in the contract's long
form (`dwh recipe NAME SRC OUT`; docs/DATASETS.md), which `dwh ingest --dataset OUT` lands with no
code. One small module per release in this folder, each with:

- `DESCRIPTION`: one line for `dwh recipe --list`;
- `write(src, out) -> list[Path]`: read the release under `src` (one clear line when it is not
  there) and write dataset.yml, questions.csv, judgements, raters and units into `out`.

ingest/recipes/writing.py holds what they share: the output folder, dataset.yml, CSV and JSONL by DuckDB.
"""

import importlib
from pathlib import Path
from types import ModuleType

from common.errors import DwhError

RECIPES = ("convabuse", "lewidi", "multipico")


def recipe_module(name: str) -> ModuleType:
    """The recipe called `name`, imported now; an unknown name is one line listing the recipes."""
    if name not in RECIPES:
        raise DwhError(f"no recipe {name!r}; the recipes are {', '.join(RECIPES)} (dwh recipe --list)")
    return importlib.import_module(f"ingest.recipes.{name}")


def recipe_list() -> list[str]:
    """One line per recipe: its name and what it reads."""
    width = max(len(name) for name in RECIPES)
    return [f"{name:<{width}}  {recipe_module(name).DESCRIPTION}" for name in RECIPES]


def run_recipe(name: str, src: Path, out: Path) -> list[Path]:
    """Write the dataset folder of recipe `name` from the release at `src` into `out`."""
    return recipe_module(name).write(src, out)
