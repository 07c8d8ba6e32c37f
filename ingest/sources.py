"""The datasets `dwh ingest` can land: one entry per source, the one list the command line and
the loader read (docs/ADDING_A_SOURCE.md). Each lander is imported only when its source is landed."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ingest.landing import FileReport, LoadContext

# Every lander has this one shape, `land_<source>(ctx, path) -> reports`, and does the same three
# steps: discover the release's files under `path` (refusing a path that holds none, naming it);
# land each file into `raw.<source>_*` inside the load's transaction, its unreadable records to
# `raw.ingest_rejects` and the file to `raw.ingest_files` (ingest/landing.py's writers); return one
# FileReport per file, which `dwh ingest` prints.
Lander = Callable[["LoadContext", Path], list["FileReport"]]


@dataclass(frozen=True)
class Source:
    """A dataset: its name (the `--<name>` option, the dbt source, the `raw.<name>_*` tables),
    the function that lands it (`module:function`) and what path it takes."""

    name: str
    lander: str
    path_help: str
    # whether landing changes a global DuckDB setting, so that the source lands before the others
    lands_alone: bool = False
    # `module:function` giving the DDL of its raw tables where they are derived from a list (a seed)
    # rather than written out in ingest/sql/raw_<name>.sql
    raw_ddl: str | None = None
    # how the commands' output names it (the registry's title; default its name)
    title: str | None = None

    def load_lander(self) -> Lander:
        return _imported(self.lander)

    def derived_raw_ddl(self) -> list[str]:
        return _imported(self.raw_ddl)() if self.raw_ddl else []


def _imported(reference: str) -> Callable:
    module, function = reference.split(":")
    return getattr(importlib.import_module(module), function)


SOURCES: tuple[Source, ...] = (
    Source(
        "duo",
        "ingest.duo:land_duo",
        "DUO release tree ({ed,wow}/{en,ja}/*.json) or a zip of it",
        lands_alone=True,
        title="DUO",
    ),
    Source(
        "redial",
        "ingest.redial:land_redial",
        "ReDial release zip, or a folder with train_data.jsonl / test_data.jsonl",
        title="ReDial",
    ),
    Source(
        "dices",
        "ingest.dices:land_dices",
        "folder with the DICES CSVs (350/, 990/ or side by side), or one CSV",
        raw_ddl="ingest.dices_columns:raw_table_ddl",
        title="DICES",
    ),
)


def lander_for(name: str) -> Lander:
    """The landing function of the source called `name`, imported now."""
    [source] = [source for source in SOURCES if source.name == name]
    return source.load_lander()
