"""What a dataset's reload replaces (issue 63, case 4): the dataset of that name the warehouse holds,
named with its title, folder and counts whenever a load replaces it. A namesake from another folder
with another title is another study: refused unless the user says `--replace`, as is a reload whose
files land no row at all, which would empty the dataset.
"""

from dataclasses import dataclass
from pathlib import Path

import duckdb

from common.errors import DwhError
from ingest.datasets.folder import DatasetFolder

NOTHING = "nothing was loaded"


@dataclass(frozen=True)
class Held:
    """The dataset of a name the warehouse holds before a load: what a reload replaces."""

    name: str
    title: str
    folder: str
    rows: int  # judgement rows, missing values included
    judgements: int
    raters: int
    units: int

    def described(self) -> str:
        """`'A small chatbot study' from /data/study (12 judgement(s), 5 rater(s), 3 unit(s))`"""
        return (
            f"{self.title!r} from {self.folder} ({self.judgements:,} judgement(s), {self.raters:,} rater(s), "
            f"{self.units:,} unit(s))"
        )


def held_dataset(con: duckdb.DuckDBPyConnection, name: str) -> Held | None:
    """The dataset called `name` as the warehouse holds it (None: none of that name)."""
    manifest = con.execute("select title, folder from raw.dataset_manifests where dataset = ?", [name]).fetchone()
    if manifest is None:
        return None
    rows, judgements, raters, units = con.execute(
        "select count(*), count(*) filter (where not is_missing), count(distinct rater_id), count(distinct unit_id) "
        "from raw.dataset_judgements where dataset = ?",
        [name],
    ).fetchone()
    return Held(name, manifest[0], manifest[1], int(rows), int(judgements), int(raters), int(units))


def _same_folder(held: Held, path: Path) -> bool:
    try:
        return Path(held.folder).resolve() == path.resolve()
    except OSError:
        return held.folder == str(path)


def refuse_a_namesake(held: Held | None, folder: DatasetFolder, replace: bool) -> None:
    """A folder elsewhere whose dataset.yml reuses a loaded dataset's name under another title is
    another study, refused without `--replace` (the same folder, or the same title, is a reload)."""
    if held is None or replace or _same_folder(held, folder.path) or held.title == folder.manifest.title:
        return
    raise DwhError(
        f"{folder.manifest.path}: name {folder.name!r} is the dataset {held.described()}, and this folder is "
        f"another, titled {folder.manifest.title!r}: loading it would replace that study; give --replace to replace "
        f"it, or another name in dataset.yml; {NOTHING}"
    )


def refuse_emptying(held: Held | None, folder: DatasetFolder, landed_rows: int, read_rows: int, replace: bool) -> None:
    """A reload whose judgements files land no row (a header-only file, say) would empty a dataset
    that held judgements: refused without `--replace`."""
    if held is None or replace or landed_rows or not held.rows:
        return
    files = ", ".join(str(found.path) for found in folder.judgements)
    hold = "holds" if len(folder.judgements) == 1 else "hold"
    why = f"{hold} no row (only a header)" if not read_rows else f"{hold} {read_rows:,} row(s), all rejected"
    raise DwhError(
        f"{files}: {why}: loading it would empty the dataset {folder.name!r}, {held.described()}; "
        f"give --replace to empty it; {NOTHING}"
    )


def replaced_line(held: Held | None, landed_rows: int) -> str | None:
    """What `dwh ingest` says of the dataset a load replaced (None: it replaced none)."""
    if held is None:
        return None
    if not landed_rows and held.rows:
        return f"dataset {held.name}: emptied (--replace): its files land no judgement; it was {held.described()}"
    return f"dataset {held.name}: replaces the dataset {held.described()}"
