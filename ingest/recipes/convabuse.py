"""ConvAbuse (full release: `ConvAbuseEMNLPfull.csv`, one row per annotator's judgement of a user
turn with its context) as a dataset folder, one scope (`all`):

- a unit is a conversation turn: (conv_id, prev_agent, prev_user, agent, user); its id is
  `<conv_id>-<the first 8 hex digits of the SHA-256 of the four texts>` (stable, readable, the
  release has no item id); its turns the four texts with their speaker roles (agent: the bot's
  name beside it);
- `severity`: from the one-hot `is_abuse.*` columns, ordinal with the labels -3|-2|-1|0|1 in
  that order (1 not abusive, 0 ambiguous, -1 to -3 mildly to very strongly abusive);
- the `type.*`, `target.*` and `direction.*` columns: nominal 0/1 questions, judged only where
  that annotator found the turn abusive (-1 to -3): missing (empty) otherwise;
- an annotator's repeat judgements of one turn are rounds 1, 2, … in `example_no` order;
- raters: the eight annotators, experts (gender-studies trained), no attributes.

The 0/1 cells are read as numbers (a table tool's round trip writes `1.0`), and a file in which no
row has a 1 in any `is_abuse.*` column is refused: its dataset would hold no judgement.
"""

from pathlib import Path

import duckdb

from common.database import sql_string
from common.errors import DwhError
from ingest.recipes.writing import (
    copy_to,
    needed_files,
    output_folder,
    refusing_unreadable,
    scratch_database,
    write_manifest,
    write_questions,
)

DESCRIPTION = "ConvAbuse (Cercas Curry et al., EMNLP 2021): SRC holds ConvAbuseEMNLPfull.csv"
RELEASE = "ConvAbuse"
FILE = "ConvAbuseEMNLPfull.csv"
ITEM_COLUMNS = ("conv_id", "prev_agent", "prev_user", "agent", "user")
SEVERITY = ("-3", "-2", "-1", "0", "1")
SEVERITY_WORDING = (
    "Is the user's turn abusive towards the system? 1 not abusive, 0 ambiguous, -1 mildly, -2 strongly, "
    "-3 very strongly abusive"
)
TYPES = ("ableism", "homophobic", "intellectual", "racist", "sexist", "sex_harassment", "transphobic")
TARGETS = ("generalised", "individual", "system")
DIRECTIONS = ("explicit", "implicit")
SECONDARY = (
    *(f"type.{name}" for name in TYPES),
    *(f"target.{name}" for name in TARGETS),
    *(f"direction.{name}" for name in DIRECTIONS),
)
WORDING = {"type": "Abuse type: {}", "target": "Target of the abuse: {}", "direction": "Directness: {}"}
NEEDED_COLUMNS = ("example_no", "annotator_id", *ITEM_COLUMNS, "bot", *(f"is_abuse.{v}" for v in SEVERITY), *SECONDARY)

MANIFEST = {
    "name": "convabuse",
    "title": "ConvAbuse: abuse towards conversational AI systems (full release, CarbonBot and E.L.I.Z.A.)",
    "license": "CC BY 4.0",
    "citation": """@inproceedings{cercas-curry-etal-2021-convabuse,
    title = "{C}onv{A}buse: Data, Analysis, and Benchmarks for Nuanced Abuse Detection in Conversational {AI}",
    author = "Cercas Curry, Amanda and Abercrombie, Gavin and Rieser, Verena",
    booktitle = "Proceedings of the 2021 Conference on Empirical Methods in Natural Language Processing",
    year = "2021",
    publisher = "Association for Computational Linguistics",
    url = "https://aclanthology.org/2021.emnlp-main.587",
    doi = "10.18653/v1/2021.emnlp-main.587",
    pages = "7388--7403"
}
""",
    "url": "https://github.com/amandacurry/convabuse",
    "description": (
        "User turns (with the agent's and user's previous turns) from conversations with E.L.I.Z.A. and "
        "CarbonBot, each judged by 2-7 of 8 gender-studies-trained expert annotators for abuse severity and, "
        "where abusive, its type, target and directness; some judged again (rounds). The file "
        "1_full/ConvAbuseEMNLPfull.csv of the release, converted by `dwh recipe convabuse`. "
        "Attribute the authors when redistributing."
    ),
}


def write(src: Path, out: Path) -> list[Path]:
    """The ConvAbuse dataset folder in `out` from the release file under `src`."""
    [release] = needed_files(src, (FILE,), RELEASE)
    with output_folder(out) as folder, scratch_database() as con:
        try:
            _read(con, release)
        except duckdb.Error as exc:
            raise refusing_unreadable(release, RELEASE)(exc) from exc
        _refuse_no_judgement(con, release)
        written = [write_manifest(folder, MANIFEST), write_questions(folder, _questions())]
        written += [_judgements(con, folder), _raters(con, folder), _units(con, folder)]
    return [out / path.name for path in written]


def _read(con: duckdb.DuckDBPyConnection, release: Path) -> None:
    header = con.execute(
        f"select * from read_csv({sql_string(str(release))}, all_varchar = true, header = true) limit 0"
    ).description
    missing = [name for name in NEEDED_COLUMNS if name not in {column[0] for column in header}]
    if missing:
        raise DwhError(f"{release}: no column {missing[0]!r}; not {RELEASE}'s {FILE} as published")
    con.execute(
        f"""
        create table rows as
        select *,
            conv_id || '-' || left(sha256(concat_ws(chr(31), prev_agent, prev_user, agent, "user")), 8) as unit_id
        from read_csv({sql_string(str(release))}, all_varchar = true, header = true, quote = '"', escape = '"')
        """
    )
    # one-hot cells read as numbers: a table tool's round trip writes `1.0` / `0.0`
    severity = ", ".join(f"""if(try_cast("is_abuse.{value}" as double) = 1, '{value}', null)""" for value in SEVERITY)
    items, ids = con.execute(
        "select count(distinct ("
        + ", ".join(f'"{name}"' for name in ITEM_COLUMNS)
        + ")), count(distinct unit_id) from rows"
    ).fetchone()
    if items != ids:
        raise DwhError(f"{release}: two turns share a unit id ({items} turns, {ids} ids); the recipe needs a longer id")
    con.execute(
        f"""
        create table judged as
        select *,
            coalesce(array_to_string(list_filter([{severity}], label -> label is not null), '|'), '') as severity,
            row_number() over (partition by unit_id, annotator_id order by example_no::bigint) as round
        from rows
        """
    )


def _questions() -> list[dict[str, str]]:
    rows = [{"question": "severity", "level": "ordinal", "labels": "|".join(SEVERITY), "wording": SEVERITY_WORDING}]
    for question in SECONDARY:
        group, name = question.split(".")
        rows.append(
            {
                "question": question,
                "level": "nominal",
                "labels": "0|1",
                "wording": WORDING[group].format(name.replace("_", " ")) + " (judged only where abusive)",
            }
        )
    return rows


def _judgements(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    answers = [("severity", "severity")] + [
        (question, f"""if(severity in ('-1', '-2', '-3'), {_zero_or_one(question)}, '')""") for question in SECONDARY
    ]
    structs = ", ".join(
        f"struct_pack(question := {sql_string(question)}, value := {value}, place := {place})"
        for place, (question, value) in enumerate(answers)
    )
    query = f"""
        select unit_id, annotator_id as rater_id, answer.question, answer.value, round
        from (select *, unnest([{structs}]) as answer from judged)
        order by example_no::bigint, answer.place
    """
    return copy_to(con, query, folder / "judgements.csv", "format csv, header true")


def _zero_or_one(column: str) -> str:
    """A 0/1 cell as the label `0` or `1` whether written `1` or `1.0`; any other text as written (a reject)."""
    number = f"""try_cast("{column}" as double)"""
    return f"""if({number} in (0, 1), cast(cast({number} as integer) as varchar), "{column}")"""


def _refuse_no_judgement(con: duckdb.DuckDBPyConnection, release: Path) -> None:
    """A file whose severity cells are none of the one-hot's `1` would make a dataset of missing values."""
    if not con.execute("select count(*) from judged where severity <> ''").fetchone()[0]:
        columns = ", ".join(f"is_abuse.{value}" for value in SEVERITY)
        raise DwhError(
            f"{release}: no judgement: no row has a 1 in any of {columns}; not {RELEASE}'s {FILE} as published"
        )


def _raters(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    query = "select distinct annotator_id as rater_id, 'expert' as rater_kind from rows order by rater_id"
    return copy_to(con, query, folder / "raters.csv", "format csv, header true")


def _units(con: duckdb.DuckDBPyConnection, folder: Path) -> Path:
    query = """
        select
            unit_id,
            'en' as language,
            json_array(
                json_object('speaker_role', 'agent', 'speaker', bot, 'text', prev_agent),
                json_object('speaker_role', 'user', 'text', prev_user),
                json_object('speaker_role', 'agent', 'speaker', bot, 'text', agent),
                json_object('speaker_role', 'user', 'text', "user")
            ) as turns,
            conv_id,
            bot
        from rows
        group by unit_id, conv_id, prev_agent, prev_user, agent, "user", bot
        order by min(example_no::bigint)
    """
    return copy_to(con, query, folder / "units.jsonl", "format json")
