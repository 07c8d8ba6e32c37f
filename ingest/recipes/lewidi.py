"""The Learning-with-Disagreements (LeWiDi) shared tasks' JSON form, both editions, as a dataset
folder (`dwh recipe lewidi SRC OUT`), one scope (`all`). SRC holds `<X>_train.json`,
`<X>_dev.json` and / or `<X>_test.json` (one object keyed by item id each) and, optionally,
`<X>_annotators_meta.json`:

- 2023 (SemEval Task 11: HS-Brexit, MD-Agreement, ArMIS, ConvAbuse): an item's `annotators` and
  `annotations` are comma-separated texts, read in parallel (`Ann1,Ann2` / `0,1`);
- 2025 (CSC, Paraphrase, VariErrNLI, MultiPICo): `annotations` is an object keyed `Ann<N>`.

Item ids restart in each split, so a unit is `<split>:<id>`; its text the item's `text` (an object of
texts, such as a post and its reply, becomes its turns, keyed by role); its language `lang`. The
one question, `label`, is nominal over the values given (numbers in numeric order); its wording is
the items' `annotation task` where they give one. Raters are `Ann<N>`; the metadata, keyed `<N>` or
`Ann<N>`, gives their attributes (its keys as column names, lower case). The manifest names the
release and the shared task: check the release's own license before redistributing.
"""

import re
from pathlib import Path

import duckdb

from common.database import sql_string
from common.errors import DwhError
from ingest.recipes.writing import (
    copy_to,
    output_folder,
    refuse_invalid_json,
    refusing_unreadable,
    scratch_database,
    write_manifest,
    write_questions,
)

DESCRIPTION = (
    "LeWiDi's JSON, 2023 (HS-Brexit, MD-Agreement, ArMIS, ConvAbuse) or 2025 (CSC, Paraphrase, VariErrNLI, "
    "MultiPICo): SRC holds <X>_train|dev|test.json and optionally <X>_annotators_meta.json"
)
RELEASE = "a LeWiDi release"
SPLITS = ("train", "dev", "test")
META_SUFFIX = "_annotators_meta.json"
SPLIT_FILE = re.compile(r"(?P<prefix>.+)_(?P<split>train|dev|test)\.json$")


def release_files(src: Path) -> tuple[str, dict[str, Path], Path | None]:
    """The release's name (`HS-Brexit`), its split files by split, and its metadata file (or None)."""
    if not src.is_dir():
        raise DwhError(f"{src}: not a folder; give the folder holding the release's <X>_train|dev|test.json")
    found: dict[str, dict[str, Path]] = {}
    for path in sorted(src.iterdir()):
        if match := SPLIT_FILE.fullmatch(path.name):
            found.setdefault(match["prefix"], {})[match["split"]] = path
    if len(found) != 1:
        what = "no <X>_train|dev|test.json" if not found else f"the files of {len(found)} releases ({', '.join(found)})"
        raise DwhError(f"{src}: {what}; give the folder holding one LeWiDi release's split files")
    [(prefix, splits)] = found.items()
    meta = src / f"{prefix}{META_SUFFIX}"
    return prefix, {split: splits[split] for split in SPLITS if split in splits}, meta if meta.exists() else None


def dataset_name(prefix: str) -> str:
    """`HS-Brexit` → `hs_brexit`: a dataset name (ingest/datasets/manifest.py)."""
    name = re.sub(r"[^a-z0-9]+", "_", prefix.lower()).strip("_")
    return name if re.match(r"[a-z]", name) else f"lewidi_{name}"


def _entries(path: Path) -> str:
    """A JSON file holding one object keyed by id, as (key, value, position) rows in the file's order."""
    entries = "map_entries(content::json::map(varchar, json))"
    return (
        "select entry.key as key, entry.value as value, position from ("
        f"select unnest({entries}) as entry, generate_subscripts({entries}, 1) as position "
        f"from read_text({sql_string(str(path))}))"
    )


def write(src: Path, out: Path) -> list[Path]:
    """The dataset folder of the LeWiDi release under `src` in `out`."""
    prefix, splits, meta = release_files(src)
    with output_folder(out) as folder, scratch_database() as con:
        for path in [*splits.values(), *([meta] if meta else [])]:
            refuse_invalid_json(con, path, RELEASE)
        try:
            read_release(con, splits, meta)
            labels, task = _labels(con)
        except duckdb.Error as exc:
            raise refusing_unreadable(src, RELEASE)(exc) from exc
        if not labels:
            raise DwhError(f"{src}: no annotation in {', '.join(p.name for p in splits.values())}; not {RELEASE}")
        wording = task or f"{prefix}: the annotator's label"
        written = [write_manifest(folder, _manifest(prefix)), write_questions(folder, [_question(labels, wording)])]
        try:
            written.append(copy_to(con, JUDGEMENTS, folder / "judgements.csv", "format csv, header true"))
            if meta:
                written.append(_raters(con, folder))
            written.append(copy_to(con, UNITS, folder / "units.jsonl", "format json"))
        except duckdb.Error as exc:
            raise refusing_unreadable(src, RELEASE)(exc) from exc
    return [out / path.name for path in written]


def read_release(con: duckdb.DuckDBPyConnection, splits: dict[str, Path], meta: Path | None) -> None:
    """The release's items (`items`: split, id, item, position), one row per annotation
    (`annotations`: split, id, position, annotation_order, rater_id, value) and the metadata
    (`meta`: key, value, position), as tables of `con`; what a recipe of one LeWiDi release reads."""
    items = " union all ".join(
        f"select {sql_string(split)} as split, key as id, value as item, position from ({_entries(path)})"
        for split, path in splits.items()
    )
    con.execute(f"create table items as {items}")
    # one row per (item, annotator): 2025's object of annotations, or 2023's two parallel texts
    con.execute(
        """
        create table annotations as
        select split, id, position, annotation_order, annotation.key as rater_id, annotation.value as value
        from (
            select split, id, position,
                unnest(map_entries(json_extract(item, '$.annotations')::map(varchar, varchar))) as annotation,
                generate_subscripts(map_entries(json_extract(item, '$.annotations')::map(varchar, varchar)), 1)
                    as annotation_order
            from items where json_type(item, '$.annotations') = 'OBJECT'
        )
        union all
        select split, id, position, generate_subscripts(string_split(item->>'$.annotators', ','), 1),
            trim(unnest(string_split(item->>'$.annotators', ','))) as rater_id,
            trim(unnest(string_split(item->>'$.annotations', ','))) as value
        from items where json_type(item, '$.annotations') = 'VARCHAR'
        """
    )
    if meta:
        con.execute(f"create table meta as {_entries(meta)}")


def _labels(con: duckdb.DuckDBPyConnection) -> tuple[list[str], str | None]:
    labels = [
        value
        for (value,) in con.execute(
            "select distinct value from annotations where nullif(trim(value), '') is not null "
            "order by try_cast(value as double) nulls last, value"
        ).fetchall()
    ]
    (task,) = con.execute("select any_value(item->>'$.\"annotation task\"') from items").fetchone()
    return labels, task


def _question(labels: list[str], wording: str) -> dict[str, str]:
    return {"question": "label", "level": "nominal", "labels": "|".join(labels), "wording": wording}


def _manifest(prefix: str) -> dict:
    return {
        "name": dataset_name(prefix),
        "title": f"{prefix} (Learning with Disagreements shared task)",
        "license": "as the release states (LeWiDi shared-task data): check it before redistributing",
        "citation": (
            f"{prefix}, as distributed by the Learning with Disagreements (LeWiDi) shared task "
            "(Leonardelli et al., SemEval-2023 Task 11; LeWiDi 2025, NLPerspectives 2025); "
            "converted by `dwh recipe lewidi`."
        ),
        "url": "https://github.com/Le-Wi-Di/le-wi-di.github.io",
    }


JUDGEMENTS = """
    select split || ':' || id as unit_id, rater_id, 'label' as question, value
    from annotations
    order by split, position, annotation_order
"""
UNITS = """
    select
        split || ':' || id as unit_id,
        split,
        item->>'$.lang' as language,
        if(
            json_type(item, '$.text') = 'OBJECT',
            to_json(list_transform(
                json_keys(item, '$.text'),
                role -> json_object('speaker_role', role, 'text', item->>('$.text."' || role || '"'))
            )),
            null
        ) as turns,
        if(json_type(item, '$.text') = 'OBJECT', null, item->>'$.text') as text
    from items
    order by split, position
"""


def _raters(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    keys = [
        key
        for (key,) in con.execute(
            "select distinct unnest(json_keys(value)) as key from meta where json_type(value) = 'OBJECT' order by 1"
        ).fetchall()
    ]
    columns = "".join(
        f", json_extract(value, {sql_string('$.' + chr(34) + key + chr(34))})->>'$' as "
        f'"{dataset_name(key).removeprefix("lewidi_")}"'
        for key in keys
    )
    query = (
        "select if(starts_with(key, 'Ann'), key, 'Ann' || key) as rater_id, 'crowd' as rater_kind"
        f"{columns} from meta order by try_cast(regexp_replace(key, '^Ann', '') as bigint) nulls last, key"
    )
    return copy_to(con, query, folder / "raters.csv", "format csv, header true")
