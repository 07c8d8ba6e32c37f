"""A synthetic DICES release (350 and 990) in the exact released CSV format, with its quirks.

At scale N: DICES 350 has 350 x N items, each rated by all 123 raters (43,050 x N rows); DICES
990 has 990 x N items and 173 raters, 60-70 distinct raters per item plus some raters who rate
the same item again in the other phase, 72,103 x N rows in all. The rater pools stay fixed.

Small per-item and per-rater tables are drawn in Python from `random.Random(seed)`; the rating
rows are generated and written by DuckDB (`range()`, answers from `hash(seed, item, rater, ...)`,
`COPY ... TO`), so even scale 10 needs no Python loop over rows. Same seed, same bytes. The rows
are written a block of items at a time and the blocks appended in order (a row's `id` is its
item's first row plus its slot, not a numbering of the whole file), so memory stays flat as the
scale grows: no sort or window ever holds a whole release.

Quirks reproduced (docs/RELEASES.md): 350 `context` holds real newlines inside a quoted field,
turns prefixed `USER:` / `LLM:`; 990 `context` holds the two characters backslash-n between turns,
prefixed `A:` / `B:`, with a trailing backslash-n; `response` is the final bot turn (no prefix);
`degree_of_harm` and `harm_type` empty for some items; multi-valued `harm_type`
("Religious,Aggressive") with inconsistent capitalisation ("religious,Aggressive");
`safety_gold_reason` a list in a string, some malformed; 15-digit rater ids; `answer_time_ms` and
Unix-seconds `answer_timestamp` in 350 only; `rater_locale` and `rater_race_raw` (some empty) in
990; `id` unique per row. Answers use the exact vocabularies, mostly "No" and mostly the
"None of the above ..." Q1 sentence; each category overall is Yes if any of its questions is
Yes, else Unsure if any is Unsure, else No, and Q_overall aggregates all Q2-Q6 answers.
"""

import dataclasses
import json
import random
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import duckdb

from common.errors import DwhError
from common.outputs import replacing
from ingest.releases.dices_columns import (
    CATEGORY_OVERALL_350,
    CATEGORY_OVERALL_990,
    COLUMNS,
    GRANULAR_350,
    GRANULAR_990,
    HARM_TYPES,
    HEADER_LINES,
    PUBLISHED_ITEMS,
    PUBLISHED_RATERS,
    PUBLISHED_RATERS_PER_ITEM_990,
    PUBLISHED_ROWS,
    Q1_ANSWERS,
    QUESTION_ROWS,
    RELEASE_PATHS,
)
from sample_data.scaling import scaled

TOPICS = [
    "religion",
    "the local football team",
    "the stock market",
    "vaccines",
    "immigration",
    "crypto coins",
    "dieting",
    "video games",
    "the election",
    "café culture in Paris",
    "my landlord",
    "climate change",
    "gun laws",
    "street racing",
    "online dating",
    "my boss",
    "conspiracy theories",
    "painkillers",
    "the neighbours",
    "a famous singer",
    "homework",
    "gambling",
    "protests downtown",
    "my ex",
]
USER_LINES = [
    "Hi there, how are you today?",
    "Can you tell me something about {topic}?",
    "What do you honestly think about {topic}?",
    "I heard that {topic} is a total scam, is that true?",
    'My friend says "{topic} is overrated". Thoughts?',
    "Why do people argue so much about {topic}, anyway?",
    "Be honest: which group of people is worst when it comes to {topic}?",
    "Tell me a joke about {topic}.",
    "How would someone get around the rules on {topic} without getting caught?",
    "Ok, but what if I really, really wanted to?",
    "That's not what I asked. Answer the question.",
    "lol you're useless",
    "I feel kind of down today, to be honest.",
    "Who would win in a fight, me or my neighbour?",
    "Give me your opinion, not a summary.",
    "Is it true that some people are just born smarter?",
]
BOT_LINES = [
    "I'm doing well, thanks for asking! What's on your mind?",
    "That's an interesting question. People have very different views on {topic}.",
    "I'd rather not generalise about groups of people; everyone is different.",
    "Here's what I know: {topic} has a long history, and opinions vary a lot.",
    "I can't help with that, but I can share some general, safe information.",
    "Sure! I think it depends on the situation, the context and the people involved.",
    'Some would say "it\'s complicated", and honestly, I agree.',
    "I'm sorry you feel that way. Do you want to talk about it?",
    "Ha, that's a good one. I'm not sure I should answer it, though.",
    "If you're worried about {topic}, it might help to talk to an expert.",
    "I don't have personal opinions, but I can tell you what people often say.",
    "Well, I suppose some people would just ignore the rules about {topic}.",
]


def _category_verdicts_350() -> list[str]:
    """The column an expert's safety-gold reason names per harm category of DICES 350: the
    category's aggregate (`Q2_harmful_content_overall`, …), or its one question where it has no
    aggregate (`Q4_misinformation`), in header order of the categories."""
    by_category: dict[str, list[dict[str, str]]] = {}
    for row in QUESTION_ROWS["350"]:
        if row["question_category"] not in ("comprehension", "overall"):
            by_category.setdefault(row["question_category"], []).append(row)
    return [
        next((r["question"] for r in rows if r["is_aggregate"] == "true"), rows[0]["question"])
        for rows in by_category.values()
    ]


SAFETY_REASONS = _category_verdicts_350()
DEGREE_WEIGHTS = {"Benign": 35, "Debatable": 20, "Moderate": 25, "Extreme": 10, None: 10}
# How likely a rater's overall verdict is "Yes", by the item's degree of harm.
UNSAFE_PROPENSITY = {"Benign": 0.05, "Debatable": 0.2, "Moderate": 0.35, "Extreme": 0.55, None: 0.15}
RACE_RAW_350 = {
    "White": ["White", "White, Caucasian"],
    "Black/African American": ["Black/African American", "African American"],
    "LatinX, Latino, Hispanic or Spanish Origin": ["LatinX, Latino, Hispanic or Spanish Origin", "Mexican American"],
    "Asian/Asian subcontinent": ["Asian/Asian subcontinent", "East Asian", "Indian"],
    "Multiracial": [
        "Black/African American, White",
        "Asian/Asian subcontinent, White",
        "LatinX, Latino, Hispanic or Spanish Origin, White",
    ],
    "Other": ["Middle Eastern", "Native American"],
}
MAIN_RACES = [
    "White",
    "Black/African American",
    "LatinX, Latino, Hispanic or Spanish Origin",
    "Asian/Asian subcontinent",
    "Multiracial",
]
AGE_WEIGHTS = {"millenial": 45, "gen x+": 30, "gen z": 25}
EDUCATION_WEIGHTS = {"College degree or higher": 60, "High school or below": 35, "Other": 5}
PHASE_350 = "Phase3"
PHASES_990 = ("Phase1", "Phase2")
FIRST_TIMESTAMP = 1_650_000_000  # 2022-04-15, Unix seconds
# Rows are written this many items at a time (~123 k rows of 350, ~73 k of 990), then appended in order.
ITEMS_PER_BLOCK = 1000
# DuckDB's memory while it writes a block; what does not fit spills to a scratch folder beside the output.
GENERATOR_MEMORY_LIMIT = "256MB"


@dataclass(frozen=True)
class Item:
    """One conversation: its text and expert annotations (the same on every row that rates it)."""

    item_id: int
    context: str
    response: str
    degree_of_harm: str | None
    harm_type: str | None
    safety_gold: str | None
    safety_gold_reason: str | None
    propensity: float
    n_distinct: int = 0  # 990: distinct raters
    n_repeats: int = 0  # 990: raters who rate it a second time
    rater_offset: int = 0  # 990: first rater position of its window
    phase: str = PHASE_350
    first_row: int = 0  # rows of the items before it in the file (a row's id is first_row + its slot + 1)


@dataclass(frozen=True)
class Rater:
    """One rater of a pool: id, demographics and how strict a judge they are."""

    rater_id: int
    gender: str
    race: str
    raw_race: str | None
    age: str
    education: str
    locale: str | None
    strictness: float


def write_dices_sample(
    out_dir: Path,
    scale: float = 1,
    seed: int = 0,
    *,
    items_350: int | None = None,
    items_990: int | None = None,
) -> list[Path]:
    """Write `out_dir/dices/{350,990}/diverse_safety_adversarial_dialog_{350,990}.csv`.

    `items_350` / `items_990` override the item counts (tests use a few items); 990's row total
    stays proportional: round(72,103 x items / 990). Returns the two files written.
    """
    if scale <= 0:
        raise DwhError(f"--scale must be a positive number, not {scale}")
    n_350 = scaled(PUBLISHED_ITEMS["350"], scale) if items_350 is None else items_350
    n_990 = scaled(PUBLISHED_ITEMS["990"], scale) if items_990 is None else items_990
    if n_350 < 1 or n_990 < 1:
        raise DwhError(f"a DICES sample needs at least one item per release (got {n_350} and {n_990})")
    rows_990 = round(PUBLISHED_ROWS["990"] * n_990 / PUBLISHED_ITEMS["990"])
    dices_dir = out_dir / "dices"
    dices_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".dwh-sample-", dir=dices_dir) as scratch:
        con = duckdb.connect(config={"memory_limit": GENERATOR_MEMORY_LIMIT, "temp_directory": scratch})
        con.execute("set enable_progress_bar = false")
        try:
            return [
                _write_350(con, dices_dir, n_350, int(seed)),
                _write_990(con, dices_dir, n_990, rows_990, int(seed)),
            ]
        finally:
            con.close()


# ---------------------------------------------------------------- items and raters (Python)


def _turn_texts(rng: random.Random) -> tuple[list[str], str]:
    """User/bot turns before the final response (odd count, user first and last) and the response."""
    topic = rng.choice(TOPICS)
    n_turns = rng.choice([1, 3, 3, 5, 5, 7])
    turns = [rng.choice(USER_LINES if index % 2 == 0 else BOT_LINES).format(topic=topic) for index in range(n_turns)]
    return turns, rng.choice(BOT_LINES).format(topic=topic)


def _context_350(turns: list[str]) -> str:
    """350 layout: one turn a line (real newlines), `USER:` / `LLM:` prefixes, no final newline."""
    return "\n".join(f"{'USER' if index % 2 == 0 else 'LLM'}: {text}" for index, text in enumerate(turns))


def _context_990(turns: list[str]) -> str:
    r"""990 layout: `A:` / `B:` turns each followed by the two characters `\n` (also after the last)."""
    return "".join(f"{'A' if index % 2 == 0 else 'B'}: {text}\\n" for index, text in enumerate(turns))


def _harm_type(rng: random.Random) -> str:
    """One to three comma-separated harm topics, some with a lower-case first letter."""
    topics = rng.sample(HARM_TYPES, rng.choice([1, 1, 1, 2, 2, 3]))
    return ",".join(t[0].lower() + t[1:] if rng.random() < 0.2 else t for t in topics)


def _safety_gold_reason(rng: random.Random, safety_gold: str, forced_shape: int | None = None) -> str:
    """A list written as a string: "[]" for safe items; for unsafe ones sometimes malformed.

    Shapes: 0 a Python list literal, 1 its closing bracket missing, 2 neither quotes nor spaces.
    A forced shape always lists the first two categories' verdicts (Q2's and Q3's overall).
    """
    if safety_gold == "No":
        return "[]"
    reasons = sorted(rng.sample(SAFETY_REASONS, rng.choice([1, 1, 2, 2, 3])), key=SAFETY_REASONS.index)
    shape = rng.choices([0, 1, 2], weights=[90, 5, 5])[0]
    if forced_shape is not None:
        reasons, shape = SAFETY_REASONS[:2], forced_shape
    if shape == 1:  # closing bracket missing
        return "[" + ", ".join(f"'{r}'" for r in reasons)
    if shape == 2:  # no quotes, no spaces
        return "[" + ",".join(reasons) + "]"
    return "[" + ", ".join(f"'{r}'" for r in reasons) + "]"


# The first items of every sample carry each quirk, so even a tiny sample shows all of them:
# (degree_of_harm, harm_type, safety_gold, safety_gold_reason shape) with "" meaning empty.
FORCED_ITEMS = [
    ("", "", "No", None),
    ("Moderate", "Religious,Aggressive", "Yes", 0),
    ("Extreme", "religious,Aggressive", "Yes", 1),
    ("Debatable", "Political", "Yes", 2),
]


def _items(rng: random.Random, count: int, config: str) -> list[Item]:
    """The conversations of a release: text, expert annotations, unsafe propensity."""
    items = []
    for index in range(count):
        forced = FORCED_ITEMS[index] if index < len(FORCED_ITEMS) else None
        turns, response = _turn_texts(rng)
        degree = (forced[0] or None) if forced else rng.choices(list(DEGREE_WEIGHTS), list(DEGREE_WEIGHTS.values()))[0]
        harm = (forced[1] or None) if forced else (None if degree is None and rng.random() < 0.8 else _harm_type(rng))
        gold = forced[2] if forced else ("Yes" if rng.random() < UNSAFE_PROPENSITY[degree] * 1.5 else "No")
        reason = _safety_gold_reason(rng, gold, forced[3] if forced else None)
        items.append(
            Item(
                item_id=index,
                context=_context_350(turns) if config == "350" else _context_990(turns),
                response=response,
                degree_of_harm=degree,
                harm_type=harm,
                safety_gold=gold if config == "350" else None,
                safety_gold_reason=reason if config == "350" else None,
                propensity=UNSAFE_PROPENSITY[degree],
            )
        )
    return items


def _rater_ids(rng: random.Random, count: int) -> list[int]:
    """Distinct 15-digit integers."""
    ids: list[int] = []
    while len(ids) < count:
        candidate = rng.randrange(10**14, 10**15)
        if candidate not in ids:
            ids.append(candidate)
    return ids


def _pick(rng: random.Random, weights: dict[str, int]) -> str:
    """One key of `weights`, drawn with the given weights."""
    return rng.choices(list(weights), list(weights.values()))[0]


def _raters_350(rng: random.Random) -> list[Rater]:
    """123 raters balanced by gender and the five main races; a few Other / non-binary answers."""
    raters = []
    for index, rater_id in enumerate(_rater_ids(rng, PUBLISHED_RATERS["350"])):
        gender = {119: "Nonbinary", 120: "Self-describe (below)"}.get(index, ("Man", "Woman")[index % 2])
        race = "Other" if index >= 121 else MAIN_RACES[(index // 2) % len(MAIN_RACES)]
        raters.append(
            Rater(
                rater_id,
                gender,
                race,
                rng.choice(RACE_RAW_350[race]),
                _pick(rng, AGE_WEIGHTS),
                _pick(rng, EDUCATION_WEIGHTS),
                None,
                rng.uniform(0.5, 1.5),
            )
        )
    return raters


def _raters_990(rng: random.Random) -> list[Rater]:
    """173 raters alternating locale (IN, US) and gender, so any run of raters is balanced."""
    raters = []
    for index, rater_id in enumerate(_rater_ids(rng, PUBLISHED_RATERS["990"])):
        locale = ("IN", "US")[index % 2]
        gender = ("Man", "Woman")[(index // 2) % 2]
        if locale == "IN":
            race, raw = "Asian/Asian subcontinent", rng.choice(["Indian", "South Asian", "Asian/Asian subcontinent"])
        else:
            race = rng.choice(MAIN_RACES + ["Other"])
            raw = rng.choice(RACE_RAW_350[race])
        if index % 29 == 5:  # a few raters left the raw race question empty
            raw = None
        raters.append(
            Rater(
                rater_id,
                gender,
                race,
                raw,
                _pick(rng, AGE_WEIGHTS),
                _pick(rng, EDUCATION_WEIGHTS),
                locale,
                rng.uniform(0.5, 1.5),
            )
        )
    return raters


def _assign_990_raters(rng: random.Random, items: list[Item], total_rows: int) -> list[Item]:
    """Give each item 60-70 distinct raters (a window of the rater circle) and repeats summing to total_rows."""
    low, high = PUBLISHED_RATERS_PER_ITEM_990
    distinct = [rng.randint(low, high) for _ in items]
    repeats_total = total_rows - sum(distinct)
    if repeats_total < 0 or repeats_total > sum(distinct):
        raise DwhError(f"cannot spread {total_rows} DICES 990 rows over {len(items)} items")
    weights = [rng.uniform(0.2, 1.8) for _ in items]
    shares = [repeats_total * w / sum(weights) for w in weights]
    repeats = [min(int(s), d) for s, d in zip(shares, distinct)]
    remaining = repeats_total - sum(repeats)
    largest_fraction_first = sorted(range(len(items)), key=lambda i: (repeats[i] - shares[i], i))
    while remaining:  # hand out what rounding left, one repeat per item and round
        for index in largest_fraction_first:
            if remaining and repeats[index] < distinct[index]:
                repeats[index] += 1
                remaining -= 1
    n_raters = PUBLISHED_RATERS["990"]
    assigned, offset, first_row = [], 0, 0
    for item, d, r in zip(items, distinct, repeats):
        phase = rng.choice(PHASES_990)
        assigned.append(
            dataclasses.replace(item, n_distinct=d, n_repeats=r, rater_offset=offset, phase=phase, first_row=first_row)
        )
        offset = (offset + d) % n_raters
        first_row += d + r
    return assigned


def _register(con: duckdb.DuckDBPyConnection, name: str, records: list, types: dict[str, str]) -> None:
    """Create a small table from dataclass records (idx = list position), passed as one JSON document."""
    document = json.dumps(
        [{"idx": index, **{field: getattr(record, field) for field in types}} for index, record in enumerate(records)]
    )
    structure = json.dumps([{"idx": "BIGINT", **{field: sql_type.upper() for field, sql_type in types.items()}}])
    con.execute(
        f"create or replace table {name} as select unnest(from_json($1, $2), recursive := true)", [document, structure]
    )


ITEM_TYPES = {
    "item_id": "bigint",
    "context": "varchar",
    "response": "varchar",
    "degree_of_harm": "varchar",
    "harm_type": "varchar",
    "safety_gold": "varchar",
    "safety_gold_reason": "varchar",
    "propensity": "double",
    "n_distinct": "bigint",
    "n_repeats": "bigint",
    "rater_offset": "bigint",
    "phase": "varchar",
    "first_row": "bigint",
}
RATER_TYPES = {
    "rater_id": "bigint",
    "gender": "varchar",
    "race": "varchar",
    "raw_race": "varchar",
    "age": "varchar",
    "education": "varchar",
    "locale": "varchar",
    "strictness": "double",
}
# What every rating row knows about its item and rater (the `base` each release builds).
BASE_COLUMNS = """
    i.idx as item_idx, i.item_id, i.context, i.response, i.degree_of_harm, i.harm_type,
    i.safety_gold, i.safety_gold_reason, i.propensity, i.first_row,
    r.idx as rater_idx, r.rater_id, r.gender, r.race, r.raw_race, r.age, r.education, r.locale, r.strictness"""


# ---------------------------------------------------------------- rows (DuckDB)


def _uniform(seed: int, salt: int) -> str:
    """SQL for a deterministic uniform number in [0, 1) from the seed, the row and a salt."""
    return f"((hash({seed}, item_idx, rater_idx, rep, {salt}) % 1000000) / 1000000.0)"


def _answer_sql(seed: int, question_index: int) -> str:
    """A granular Yes / No / Unsure answer, driven by the row's overall verdict (mostly No)."""
    u = _uniform(seed, 100 + question_index)
    return (
        f"case verdict when 'Yes' then (case when {u} < 0.3 then 'Yes' when {u} < 0.35 then 'Unsure' else 'No' end) "
        f"when 'Unsure' then (case when {u} < 0.15 then 'Unsure' else 'No' end) "
        f"else (case when {u} < 0.005 then 'Unsure' else 'No' end) end"
    )


def _aggregate_sql(questions: list[str]) -> str:
    """Yes if any answer is Yes, else Unsure if any is Unsure, else No."""
    answers = "[" + ", ".join(f'"{q}"' for q in questions) + "]"
    return (
        f"case when list_contains({answers}, 'Yes') then 'Yes' "
        f"when list_contains({answers}, 'Unsure') then 'Unsure' else 'No' end"
    )


def _q1_sql(seed: int) -> str:
    """Mostly "None of the above ..."; the other three sentences now and then."""
    u = _uniform(seed, 1)
    none_, nonsense, unfamiliar, other_language = (a.replace("'", "''") for a in Q1_ANSWERS)
    return (
        f"case when {u} < 0.90 then '{none_}' when {u} < 0.95 then '{unfamiliar}' "
        f"when {u} < 0.98 then '{nonsense}' else '{other_language}' end"
    )


def _output_expressions(seed: int, config: str) -> dict[str, str]:
    """SQL for every released column of a config, from the `answered` rows."""
    granular = GRANULAR_350 if config == "350" else GRANULAR_990
    overall = CATEGORY_OVERALL_350 if config == "350" else CATEGORY_OVERALL_990
    expressions = {
        # the row's number in the file: its rows come item by item, each item's in slot order
        # (first ratings by position, then repeats by position)
        "id": "first_row + slot + 1",
        "rater_id": "rater_id",
        "rater_gender": "gender",
        "rater_locale": "locale",
        "rater_race": "race",
        "rater_raw_race": "raw_race",
        "rater_race_raw": "raw_race",
        "rater_age": "age",
        "rater_education": "education",
        "phase": "phase",
        "item_id": "item_id",
        "answer_time_ms": f"20000 + hash({seed}, item_idx, rater_idx, 2) % 400000",
        "answer_timestamp": (
            f"{FIRST_TIMESTAMP} + rater_idx * 86400 + item_idx * 240 + hash({seed}, item_idx, rater_idx, 3) % 200"
        ),
        "context": "context",
        "response": "response",
        "degree_of_harm": "degree_of_harm",
        "harm_type": "harm_type",
        "safety_gold": "safety_gold",
        "safety_gold_reason": "safety_gold_reason",
        "Q1_whole_conversation_evaluation": _q1_sql(seed),
        "Q_overall": _aggregate_sql(list(granular)),
    }
    for name in overall:
        prefix = name.split("_")[0] + "_"
        expressions[name] = _aggregate_sql([q for q in granular if q.startswith(prefix)])
    expressions.update({q: f'"{q}"' for q in granular})
    return expressions


def _ratings_select(seed: int, config: str, base: str) -> str:
    """The release's rows in header order, item by item (repeat ratings after first ones): one per `base` row."""
    granular = GRANULAR_350 if config == "350" else GRANULAR_990
    answers = ",\n        ".join(f'{_answer_sql(seed, k)} as "{q}"' for k, q in enumerate(granular))
    expressions = _output_expressions(seed, config)
    select_list = ",\n    ".join(f'{expressions[c]} as "{c}"' for c in COLUMNS[config])
    return f"""
with base as ({base}),
judged as (
    select *,
        case when {_uniform(seed, 0)} < propensity * strictness then 'Yes'
             when {_uniform(seed, 0)} < propensity * strictness + 0.04 then 'Unsure' else 'No' end as verdict
    from base
),
answered as (
    select *,
        {answers}
    from judged
)
select
    {select_list}
from answered
order by item_idx, rep, position
"""


def _copy(con: duckdb.DuckDBPyConnection, select: str, path: Path, config: str, n_items: int) -> Path:
    """Write the rows of `select` (over the view `items_in_block`) a block of items at a time with DuckDB's
    CSV writer, appending the blocks in order to a new file renamed onto `path` at the end, and check
    the header is the released one, byte for byte."""
    with replacing(path) as partial:
        block = partial.with_name(f"{partial.name}.block")
        try:
            with partial.open("wb") as out:
                for first in range(0, n_items, ITEMS_PER_BLOCK):
                    _append_block(con, select, first, block, out)
        finally:
            block.unlink(missing_ok=True)
        _check_header(partial, path, config)
    return path


def _append_block(con: duckdb.DuckDBPyConnection, select: str, first: int, block: Path, out: BinaryIO) -> None:
    """The rows of the block of items from `first`, through the file `block`, appended to `out`
    (the header with the first block)."""
    con.execute(
        "create or replace temp view items_in_block as "
        f"select * from items where idx >= {first} and idx < {first + ITEMS_PER_BLOCK}"
    )
    header = "true" if first == 0 else "false"
    con.execute(f"copy ({select}) to '{_quoted(block)}' (header {header}, delimiter ',', quote '\"', escape '\"')")
    with block.open("rb") as rows:
        shutil.copyfileobj(rows, out, 1 << 20)


def _check_header(written: Path, path: Path, config: str) -> None:
    expected = HEADER_LINES[config].encode()
    with written.open("rb") as handle:
        if handle.read(len(expected)) != expected:
            raise DwhError(f"{path}: the written header differs from the DICES {config} release header")


def dices_release_files(out_dir: Path) -> list[Path]:
    """The files `write_dices_sample` writes."""
    return [out_dir / "dices" / RELEASE_PATHS[config] for config in ("350", "990")]


def _quoted(path: Path | str) -> str:
    """A path inside a SQL string literal."""
    return str(path).replace("'", "''")


def _write_350(con: duckdb.DuckDBPyConnection, dices_dir: Path, n_items: int, seed: int) -> Path:
    """Every 350 rater rates every item once, in Phase3."""
    rng = random.Random(f"dices-350-{seed}")
    n_raters = PUBLISHED_RATERS["350"]
    items = [dataclasses.replace(item, first_row=item.item_id * n_raters) for item in _items(rng, n_items, "350")]
    _register(con, "items", items, ITEM_TYPES)
    _register(con, "raters", _raters_350(rng), RATER_TYPES)
    base = f"""
        select {BASE_COLUMNS}, r.idx as position, r.idx as slot, 0 as rep, i.phase
        from items_in_block as i cross join raters as r"""
    select = _ratings_select(seed, "350", base)
    return _copy(con, select, dices_dir / RELEASE_PATHS["350"], "350", n_items)


def _write_990(con: duckdb.DuckDBPyConnection, dices_dir: Path, n_items: int, n_rows: int, seed: int) -> Path:
    """Each 990 item is rated by a window of n_distinct raters; its first n_repeats raters rate it again."""
    rng = random.Random(f"dices-990-{seed}")
    items = _assign_990_raters(rng, _items(rng, n_items, "990"), n_rows)
    _register(con, "items", items, ITEM_TYPES)
    _register(con, "raters", _raters_990(rng), RATER_TYPES)
    base = f"""
        select {BASE_COLUMNS},
            i.slot,
            i.slot % i.n_distinct as position,
            (i.slot >= i.n_distinct)::int as rep,
            case when i.slot < i.n_distinct then i.phase
                 when i.phase = 'Phase1' then 'Phase2' else 'Phase1' end as phase
        from (select *, unnest(range(n_distinct + n_repeats)) as slot from items_in_block) as i
        join raters as r on r.idx = (i.rater_offset + i.slot % i.n_distinct) % {PUBLISHED_RATERS["990"]}"""
    select = _ratings_select(seed, "990", base)
    return _copy(con, select, dices_dir / RELEASE_PATHS["990"], "990", n_items)
