"""The built-in sources are described once, in common/sources.py's registry, and the shared code reads
their properties rather than their names: seeds/warehouse_sources.csv, which dbt and the judges' SQL
read, holds the registry's rows (a new entry without its row, or a title, license or property
changed on one side only, fails here), and a built-in source's name is written as a literal only in
its own modules and the few shared ones listed below, each with why. Reads files only."""

import csv
import re
from pathlib import Path

from common.sources import SOURCES, ingest_options, movie_keyed_titles
from ingest.datasets.manifest import RESERVED_NAMES
from ingest.releases.dices_columns import CONFIGS
from tests.helpers import PROJECT_ROOT

SEED = PROJECT_ROOT / "seeds" / "warehouse_sources.csv"
SEED_COLUMNS = ["source", "dataset", "description", "license", "units_keyed_by_movie"]
NAMES = [source.name for source in SOURCES]
# a built-in source's name as a literal: 'redial' or "redial"
NAME_LITERAL = re.compile("|".join(rf"'{name}'|\"{name}\"" for name in NAMES))
# shared modules that name a built-in source, and why that is not a fact for the registry
NAMED_ELSEWHERE = {
    "dwh/reporting/report.py": "the report's DUO, ReDial and DICES sections: figures of each release's own structure",
    "dwh/reporting/report_uncertainty.py": "the ReDial section's chart of α (seeker against recommender) per split",
    "dwh/reporting/report_judges.py": "the judges' DICES table: the rater groups each judge sides with",
    "dwh/transfer/fetch.py": "the published release files to download, each with its size and checksum",
}


def registry_rows() -> list[dict[str, str]]:
    """The registry's entries as the seed writes them."""
    return [
        {
            "source": source.name,
            "dataset": source.title,
            "description": source.description,
            "license": source.license,
            "units_keyed_by_movie": str(source.units_keyed_by_movie).lower(),
        }
        for source in SOURCES
    ]


def seed_differences(seed: Path) -> list[str]:
    """How the seed at `seed` differs from the registry, one line each (none: it holds its rows)."""
    with seed.open(encoding="utf-8", newline="") as file:
        reader = csv.DictReader(file)
        rows = list(reader)
    if reader.fieldnames != SEED_COLUMNS:
        return [f"columns {reader.fieldnames}, not {SEED_COLUMNS}"]
    in_seed = {row["source"]: row for row in rows}
    in_registry = {row["source"]: row for row in registry_rows()}
    differences = [f"{name}: in the seed twice" for name in in_seed if [r["source"] for r in rows].count(name) > 1]
    differences += [f"{name}: in the registry, not in the seed" for name in in_registry if name not in in_seed]
    differences += [f"{name}: in the seed, not in the registry" for name in in_seed if name not in in_registry]
    for name in in_registry.keys() & in_seed.keys():
        differences += [
            f"{name}: {column} is {in_seed[name][column]!r} in the seed, {value!r} in the registry"
            for column, value in in_registry[name].items()
            if in_seed[name][column] != value
        ]
    return sorted(differences)


def test_the_seed_holds_the_registrys_rows() -> None:
    assert seed_differences(SEED) == []


def test_a_seed_that_differs_from_the_registry_is_told(tmp_path: Path) -> None:
    seed = tmp_path / "warehouse_sources.csv"
    text = SEED.read_text(encoding="utf-8")
    keyed = [row["source"] for row in registry_rows() if row["units_keyed_by_movie"] == "true"][0]
    changed = text.replace(f"{keyed},", f"{keyed}_renamed,", 1) + "toy,Toy,A made-up dataset,CC0 1.0,false\n"
    seed.write_text(changed, encoding="utf-8")
    assert seed_differences(seed) == [
        f"{keyed}: in the registry, not in the seed",
        f"{keyed}_renamed: in the seed, not in the registry",
        "toy: in the seed, not in the registry",
    ]
    seed.write_text(text.replace(",true\n", ",false\n"), encoding="utf-8")
    assert seed_differences(seed) == [f"{keyed}: units_keyed_by_movie is 'false' in the seed, 'true' in the registry"]


def test_what_the_messages_say_of_the_sources_comes_from_the_registry() -> None:
    assert ingest_options() == "--duo/--redial/--dices"
    assert movie_keyed_titles() == "ReDial"
    assert {"duo", "redial", "dices", "dices350", "dices990"} <= RESERVED_NAMES
    [dices] = [source for source in SOURCES if source.raw_ddl]
    # what macros/dices_keys.sql starts a DICES dialogue key with: 'dices' || its release's config
    assert dices.key_prefixes == tuple(f"{dices.name}{config}" for config in CONFIGS)


def named_sources(path: Path) -> list[str]:
    """The lines of `path` that write a built-in source's name as a literal, as `line: text`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{number}: {line.strip()}" for number, line in enumerate(lines, 1) if NAME_LITERAL.search(line)]


def is_the_sources_own(path: str) -> bool:
    """A module of one source: the registry, `ingest/releases/<source>*.py`, `ingest/sql/<source>/`,
    `ingest/sql/raw_<source>.sql`, and the sample writers (sample_data/, one module per source)."""
    own = [f"ingest/releases/{name}" for name in NAMES] + [f"ingest/sql/{name}/" for name in NAMES]
    own += [f"ingest/sql/raw_{name}.sql" for name in NAMES] + ["common/sources.py", "sample_data/"]
    return any(path.startswith(prefix) for prefix in own)


def test_a_built_in_sources_name_is_a_literal_only_in_its_own_modules() -> None:
    """The shared Python and SQL of common/, ingest/ and dwh/ read a source's properties (units_keyed_by_movie,
    lands_alone, raw_ddl, key_prefixes), not its name; NAMED_ELSEWHERE lists the few shared modules
    that do name one, and each of them still does."""
    folders = [PROJECT_ROOT / "common", PROJECT_ROOT / "ingest", PROJECT_ROOT / "dwh"]
    files = sorted(path for folder in folders for path in folder.rglob("*") if path.suffix in {".py", ".sql"})
    named = {path.relative_to(PROJECT_ROOT).as_posix(): named_sources(path) for path in files}
    shared = {path: lines for path, lines in named.items() if lines and not is_the_sources_own(path)}
    assert set(shared) == set(NAMED_ELSEWHERE), {path: shared.get(path) for path in set(shared) ^ set(NAMED_ELSEWHERE)}
    assert named["ingest/sql/judges/check_rows.sql"] == []  # the judges' checks read units_keyed_by_movie
