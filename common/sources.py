"""The built-in sources, the releases `dwh ingest` can land: one entry each, with everything the
project knows of a source as data (its names, what it is, how it lands, its properties), the one
list the command line, the loader, the raw schema and the registry read (docs/ADDING_A_SOURCE.md).
common/registry.py adds the datasets a warehouse holds. Each lander is imported only when its
source is landed."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Every lander has this one shape, `land_<source>(ctx, path) -> reports`, and does the same three
# steps: discover the release's files under `path` (refusing a path that holds none, naming it);
# land each file into `raw.<source>_*` inside the load's transaction, its unreadable records to
# `raw.ingest_rejects` and the file to `raw.ingest_files` (ingest/landing.py's writers); return one
# FileReport per file, which `dwh ingest` prints. (`ctx` is an ingest.landing.LoadContext and the
# reports ingest.landing.FileReports: named, not imported, as ingest stands on this module.)
Lander = Callable[[Any, Path], list[Any]]


@dataclass(frozen=True, kw_only=True)
class Source:
    """A built-in dataset: what names it, what it is, how it lands, and its properties, which the
    shared code reads instead of its name. `seeds/warehouse_sources.csv` holds the same rows for dbt
    and for the judges' SQL (tests/ingest/test_source_registry.py keeps the two equal)."""

    # the `--<name>` option, the dbt source, the `raw.<name>_*` tables, `source` in every mart
    name: str
    # how the commands' output names it (the seed's `dataset`), what it holds, its license as its card states it
    title: str
    description: str
    license: str
    # the function that lands it (`module:function`) and what path it takes
    lander: str
    path_help: str
    # whether landing changes a global DuckDB setting, so that the source lands before the others
    lands_alone: bool = False
    # `module:function` giving the DDL of its raw tables where they are derived from a list (a seed)
    # rather than written out in ingest/sql/raw_<name>.sql
    raw_ddl: str | None = None
    # whether a unit of its judgements is a (dialogue, movie, question), not a (dialogue, question):
    # a judge's row then names the movie (`movie_id`), as a form's answers are about one movie
    units_keyed_by_movie: bool = False
    # what its dialogue keys start with other than its name (`dices350:…`): no dataset may be called so
    key_prefixes: tuple[str, ...] = ()

    def load_lander(self) -> Lander:
        return _imported(self.lander)

    def derived_raw_ddl(self) -> list[str]:
        return _imported(self.raw_ddl)() if self.raw_ddl else []


def _imported(reference: str) -> Callable:
    module, function = reference.split(":")
    return getattr(importlib.import_module(module), function)


SOURCES: tuple[Source, ...] = (
    Source(
        name="duo",
        title="DUO",
        description="Dialogues between users and LLM systems (EmpatheticDialogues and Wizard of Wikipedia settings, "
        "English and Japanese), rated by their user and by three annotators",
        license="ed/: CC BY-NC 4.0; wow/: Apache 2.0",
        lander="ingest.releases.duo:land_duo",
        path_help="DUO release tree ({ed,wow}/{en,ja}/*.json) or a zip of it",
        lands_alone=True,
    ),
    Source(
        name="redial",
        title="ReDial",
        description="Movie-recommendation dialogues between a seeker and a recommender, with @id movie mentions and "
        "both workers' movie forms",
        license="CC BY 4.0",
        lander="ingest.releases.redial:land_redial",
        path_help="ReDial release zip, or a folder with train_data.jsonl / test_data.jsonl",
        units_keyed_by_movie=True,
    ),
    Source(
        name="dices",
        title="DICES",
        description="Adversarial conversations with a chatbot rated for safety by a demographically described rater "
        "pool (DICES-350 and DICES-990)",
        license="CC BY 4.0",
        lander="ingest.releases.dices:land_dices",
        path_help="folder with the DICES CSVs (350/, 990/ or side by side), or one CSV",
        raw_ddl="ingest.releases.dices_columns:raw_table_ddl",
        key_prefixes=("dices350", "dices990"),
    ),
)


def lander_for(name: str) -> Lander:
    """The landing function of the source called `name`, imported now."""
    [source] = [source for source in SOURCES if source.name == name]
    return source.load_lander()


def ingest_options() -> str:
    """The built-in sources' options of `dwh ingest`, as a message names them: `--duo/--redial/--dices`."""
    return "/".join(f"--{source.name}" for source in SOURCES)


def movie_keyed_titles() -> str:
    """The titles of the sources whose units are keyed by a movie, as a message names them (`ReDial`)."""
    return " and ".join(source.title for source in sorted(SOURCES, key=lambda s: s.name) if source.units_keyed_by_movie)
