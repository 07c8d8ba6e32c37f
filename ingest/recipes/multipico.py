"""MultiPICo as the LeWiDi 2025 shared task distributes it (a use of the LeWiDi reader,
ingest/recipes/lewidi.py, with MultiPICo's question, attributes and unit columns) (`MP_dev.json`, `MP_test.json`,
`MP_annotators_meta.json`) as a dataset folder, one scope (`all`):

- a unit is a (post, reply) pair of the dev or test file, `<split>:<id>`; its turns the post and
  the reply (speaker roles `post` and `reply`), its language `lang`, its split the file's; the
  item's source, level and language variety kept beside it;
- `irony`: nominal 0/1, one judgement per annotator (`annotations`);
- raters `Ann<N>` with the metadata keyed `<N>`: every attribute a dimension, age in bins (cut
  points 18, 25, 35, 45, 55: bands 18-24, 25-34, 35-44, 45-54, 55+, and <18, which no annotator is in),
  `DATA_EXPIRED` and `Prefer not to say` meaning no answer. An annotator without metadata gets no
  row in raters.csv: `dwh ingest` names them.
"""

from pathlib import Path

import duckdb

from common.database import sql_string
from ingest.recipes.lewidi import read_release
from ingest.recipes.writing import (
    copy_to,
    needed_files,
    output_folder,
    refuse_invalid_json,
    refusing_unreadable,
    scratch_database,
    write_manifest,
    write_questions,
)

DESCRIPTION = (
    "MultiPICo (Casola et al., ACL 2024; LeWiDi 2025): SRC holds MP_dev.json, MP_test.json, MP_annotators_meta.json"
)
RELEASE = "MultiPICo (LeWiDi 2025)"
SPLITS = {"dev": "MP_dev.json", "test": "MP_test.json"}
META = "MP_annotators_meta.json"
# the metadata's keys, as raters.csv's columns
ATTRIBUTES = {
    "Age": "age",
    "Gender": "gender",
    "Ethnicity simplified": "ethnicity",
    "Country of birth": "country_of_birth",
    "Country of residence": "country_of_residence",
    "Nationality": "nationality",
    "Student status": "student_status",
    "Employment status": "employment_status",
}
MANIFEST = {
    "name": "multipico",
    "title": "MultiPICo: Multilingual Perspectivist Irony Corpus (LeWiDi 2025 dev and test)",
    "license": "CC BY 4.0",
    "citation": (
        'Casola et al., "MultiPICo: Multilingual Perspectivist Irony Corpus", Proceedings of the 62nd Annual '
        "Meeting of the Association for Computational Linguistics (ACL 2024).\n"
        'Distributed by the LeWiDi 2025 shared task ("Learning with Disagreements", 3rd edition, NLPerspectives '
        "2025), folder LeWiDi_3-2025/MP/ of github.com/Le-Wi-Di/le-wi-di.github.io.\n"
    ),
    "url": "https://github.com/Le-Wi-Di/le-wi-di.github.io",
    "description": (
        "Short social-media conversations (a post and a reply) in 9 languages, each judged ironic or not by 2-19 "
        "crowd annotators with their self-reported demographics. The dev and test files of the LeWiDi 2025 "
        "shared task, converted by `dwh recipe multipico`. The corpus is CC BY 4.0 (its card, "
        "Multilingual-Perspectivist-NLU/MultiPICo); the shared task's repository states no license of its own: "
        "attribute both when redistributing."
    ),
    "rater_missing": ["DATA_EXPIRED", "Prefer not to say"],
    "bins": {"age": [18, 25, 35, 45, 55]},
    "dimensions": list(ATTRIBUTES.values()),
}


def write(src: Path, out: Path) -> list[Path]:
    """The MultiPICo dataset folder in `out` from the shared task's files under `src`."""
    files = needed_files(src, (*SPLITS.values(), META), RELEASE)
    with output_folder(out) as folder, scratch_database() as con:
        for path in files:
            refuse_invalid_json(con, path, RELEASE)
        try:
            read_release(con, dict(zip(SPLITS, files)), files[-1])
        except duckdb.Error as exc:
            raise refusing_unreadable(src, RELEASE)(exc) from exc
        questions = [
            {"question": "irony", "level": "nominal", "labels": "0|1", "wording": "Is the reply ironic? (1 yes, 0 no)"}
        ]
        written = [write_manifest(folder, MANIFEST), write_questions(folder, questions)]
        written += [_judgements(con, folder), _raters(con, folder), _units(con, folder)]
    return [out / path.name for path in written]


def _judgements(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    query = """
        select split || ':' || id as unit_id, rater_id, 'irony' as question, value
        from annotations
        order by split, position, annotation_order
    """
    return copy_to(con, query, folder / "judgements.csv", "format csv, header true")


def _raters(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    def text(key: str) -> str:
        value = f"json_extract(value, {sql_string('$.' + chr(34) + key + chr(34))})"
        if key == "Age":  # a number (19.0 -> 19), NaN for none
            number = f"try_cast({value}::varchar as double)"
            whole = f"if({number} = round({number}), round({number})::bigint::varchar, {number}::varchar)"
            return f"if(isfinite({number}), {whole}, null)"
        return f"{value}->>'$'"

    columns = ", ".join(f"{text(key)} as {name}" for key, name in ATTRIBUTES.items())
    query = f"select 'Ann' || key as rater_id, 'crowd' as rater_kind, {columns} from meta order by key::bigint"
    return copy_to(con, query, folder / "raters.csv", "format csv, header true")


def _units(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    query = """
        select
            split || ':' || id as unit_id,
            split,
            item->>'$.lang' as language,
            json_array(
                json_object('speaker_role', 'post', 'text', item->>'$.text.post'),
                json_object('speaker_role', 'reply', 'text', item->>'$.text.reply')
            ) as turns,
            item->>'$.other_info.source' as source,
            item->>'$.other_info.level' as level,
            item->>'$.other_info.language_variety' as language_variety
        from items
        order by split, position
    """
    return copy_to(con, query, folder / "units.jsonl", "format json")
