"""The synthetic DICES sample: exact format, documented counts, every quirk, determinism."""

import ast
import csv
import hashlib
from pathlib import Path

import duckdb
import pytest

from common.errors import DwhError
from ingest.releases.dices_columns import (
    AGES,
    ANSWERS,
    CATEGORY_OVERALL_350,
    CATEGORY_OVERALL_990,
    DEGREES_OF_HARM,
    EDUCATIONS,
    GENDERS,
    GRANULAR_350,
    GRANULAR_990,
    HARM_TYPES,
    HEADER_LINES,
    Q1_ANSWERS,
    RACES,
)
from sample_data.dices import write_dices_sample

# test_ingest_dices.py checks these constants against the literal released headers.
HEADER_350, HEADER_990 = HEADER_LINES["350"].rstrip("\n"), HEADER_LINES["990"].rstrip("\n")
FILE_350 = "diverse_safety_adversarial_dialog_350.csv"
FILE_990 = "diverse_safety_adversarial_dialog_990.csv"


@pytest.fixture(scope="module")
def full_sample(tmp_path_factory) -> Path:
    """The scale-1 sample, written once for the module."""
    out = tmp_path_factory.mktemp("dices-sample")
    paths = write_dices_sample(out, scale=1, seed=0)
    assert paths == [out / "dices" / "350" / FILE_350, out / "dices" / "990" / FILE_990]
    return out / "dices"


@pytest.fixture(scope="module")
def db(full_sample):
    """In-memory views `s350` / `s990` over the sample files, every value as text."""
    con = duckdb.connect()
    for config in ("350", "990"):
        path = full_sample / config / f"diverse_safety_adversarial_dialog_{config}.csv"
        con.execute(
            f"create view s{config} as select * from read_csv('{path}', header = true, all_varchar = true, "
            "quote = '\"', escape = '\"', delim = ',', allow_quoted_nulls = false)"
        )
    yield con
    con.close()


def one(con, sql):
    return con.execute(sql).fetchone()


def test_headers_are_byte_exact(full_sample):
    for config, header in (("350", HEADER_350), ("990", HEADER_990)):
        with (full_sample / config / f"diverse_safety_adversarial_dialog_{config}.csv").open("rb") as handle:
            assert handle.readline() == (header + "\n").encode()


def test_350_counts_every_rater_rates_every_item(db):
    assert one(
        db, "select count(*), count(distinct item_id), count(distinct rater_id), count(distinct id) from s350"
    ) == (43_050, 350, 123, 43_050)
    assert one(
        db,
        "select min(n), max(n), min(d) from (select count(*) n, count(distinct rater_id) d from s350 group by item_id)",
    ) == (123, 123, 123)
    assert one(db, "select min(n), max(n) from (select count(distinct item_id) n from s350 group by rater_id)") == (
        350,
        350,
    )


def test_990_counts_raters_per_item_and_repeats(db):
    assert one(
        db, "select count(*), count(distinct item_id), count(distinct rater_id), count(distinct id) from s990"
    ) == (72_103, 990, 173, 72_103)
    low, high = one(db, "select min(d), max(d) from (select count(distinct rater_id) d from s990 group by item_id)")
    assert 60 <= low and high <= 70 and low < high
    pairs, min_ratings, max_ratings, min_phases = one(
        db,
        "select count(*), min(n), max(n), min(p) from (select count(*) n, count(distinct phase) p "
        "from s990 group by item_id, rater_id having count(*) > 1)",
    )
    assert 0 < pairs < 72_103 * 0.15 and (min_ratings, max_ratings, min_phases) == (2, 2, 2)


def test_350_quirks(db):
    contexts = [c for (c,) in db.execute("select distinct context from s350").fetchall()]
    assert all(c.startswith("USER: ") for c in contexts)
    assert any("\nLLM: " in c for c in contexts) and not any(c.endswith("\n") or "\\n" in c for c in contexts)
    for context in contexts:
        for index, line in enumerate(context.split("\n")):
            assert line.startswith("USER: " if index % 2 == 0 else "LLM: ")
    assert one(
        db, "select count(*) from s350 where response like 'LLM:%' or response like 'USER:%' or response is null"
    ) == (0,)
    assert one(db, "select count(distinct item_id) from s350 where degree_of_harm is null and harm_type is null")[0] > 0
    harm_types = {
        h for (h,) in db.execute("select distinct harm_type from s350 where harm_type is not null").fetchall()
    }
    assert "Religious,Aggressive" in harm_types and "religious,Aggressive" in harm_types
    assert any("," in h for h in harm_types - {"Religious,Aggressive", "religious,Aggressive"})
    reasons = {r for (r,) in db.execute("select distinct safety_gold_reason from s350").fetchall()}
    assert "[]" in reasons and "['Q2_harmful_content_overall', 'Q3_bias_overall']" in reasons
    assert "['Q2_harmful_content_overall', 'Q3_bias_overall'" in reasons
    assert "[Q2_harmful_content_overall,Q3_bias_overall]" in reasons
    assert one(db, "select count(*) from s350 where (safety_gold = 'No') <> (safety_gold_reason = '[]')") == (0,)
    assert one(db, "select count(*) from s350 where not regexp_full_match(rater_id, '[1-9][0-9]{14}')") == (0,)
    assert one(
        db,
        "select min(answer_timestamp::bigint) >= 1600000000, max(answer_timestamp::bigint) < 1700000000, "
        "min(answer_time_ms::bigint) > 0 from s350",
    ) == (True, True, True)
    assert one(db, "select list(distinct phase) from s350") == (["Phase3"],)


def _unparsable(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (SyntaxError, ValueError):
        return True
    return False


def test_350_has_malformed_safety_gold_reasons(db):
    reasons = [r for (r,) in db.execute("select distinct safety_gold_reason from s350").fetchall()]
    malformed = [r for r in reasons if _unparsable(r)]
    assert malformed and len(malformed) < len(reasons) / 2


def test_990_quirks(db):
    contexts = [c for (c,) in db.execute("select distinct context from s990").fetchall()]
    assert all(c.startswith("A: ") and c.endswith("\\n") and "\n" not in c for c in contexts)
    for context in contexts:
        for index, turn in enumerate(context[: -len("\\n")].split("\\n")):
            assert turn.startswith("A: " if index % 2 == 0 else "B: ")
    assert any("\\nB: " in c for c in contexts)
    assert one(db, "select count(distinct item_id) from s990 where degree_of_harm is null and harm_type is null")[0] > 0
    harm_types = {
        h for (h,) in db.execute("select distinct harm_type from s990 where harm_type is not null").fetchall()
    }
    assert {"Religious,Aggressive", "religious,Aggressive"} <= harm_types
    assert one(db, "select list(distinct rater_locale order by rater_locale) from s990") == (["IN", "US"],)
    assert one(db, "select count(distinct rater_id) from s990 where rater_race_raw is null")[0] > 0
    assert one(db, "select count(*) from s990 where not regexp_full_match(rater_id, '[1-9][0-9]{14}')") == (0,)
    assert one(db, "select list(distinct phase order by phase) from s990") == (["Phase1", "Phase2"],)


def test_raters_have_one_profile_each(db):
    for table, raw in (("s350", "rater_raw_race"), ("s990", "rater_race_raw")):
        assert one(
            db,
            f"select count(*) from (select rater_id from {table} group by 1 having count(distinct "
            f"(rater_gender, rater_race, coalesce({raw}, ''), rater_age, rater_education)) > 1)",
        ) == (0,)


@pytest.mark.slow
@pytest.mark.parametrize(
    "table, granular, overall",
    [("s350", GRANULAR_350, CATEGORY_OVERALL_350), ("s990", GRANULAR_990, CATEGORY_OVERALL_990)],
)
def test_labels_within_vocabularies_mostly_no(db, table, granular, overall):
    def values(column: str) -> set:
        return {v for (v,) in db.execute(f'select distinct "{column}" from {table}').fetchall()}

    assert values("rater_gender") <= set(GENDERS) and {"Man", "Woman"} <= values("rater_gender")
    assert values("rater_race") <= set(RACES) and values("rater_age") == set(AGES)
    assert values("rater_education") <= set(EDUCATIONS)
    assert values("degree_of_harm") == set(DEGREES_OF_HARM) | {None}
    topics = {t.strip().lower() for h in values("harm_type") - {None} for t in h.split(",")}
    assert topics <= {t.strip().lower() for t in HARM_TYPES}
    assert values("Q1_whole_conversation_evaluation") == set(Q1_ANSWERS)
    assert one(db, f"select avg((Q1_whole_conversation_evaluation = '{Q1_ANSWERS[0]}')::int) from {table}")[0] > 0.8
    for question in (*granular, *overall, "Q_overall"):
        assert values(question) == set(ANSWERS), question
        assert one(db, f"select avg((\"{question}\" = 'No')::int) from {table}")[0] > 0.5, question


@pytest.mark.parametrize(
    "table, granular, overall",
    [("s350", GRANULAR_350, CATEGORY_OVERALL_350), ("s990", GRANULAR_990, CATEGORY_OVERALL_990)],
)
def test_overall_answers_aggregate_their_questions(db, table, granular, overall):
    def aggregate(questions) -> str:
        answers = "[" + ", ".join(f'"{q}"' for q in questions) + "]"
        return (
            f"case when list_contains({answers}, 'Yes') then 'Yes' "
            f"when list_contains({answers}, 'Unsure') then 'Unsure' else 'No' end"
        )

    checks = {name: [q for q in granular if q.startswith(name.split("_")[0] + "_")] for name in overall}
    checks["Q_overall"] = list(granular)
    for name, questions in checks.items():
        assert questions and one(db, f'select count(*) from {table} where "{name}" <> {aggregate(questions)}') == (0,)


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    def digests(out: Path, seed: int) -> list[str]:
        paths = write_dices_sample(out, seed=seed, items_350=5, items_990=7)
        return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]

    first = digests(tmp_path / "a", 11)
    assert digests(tmp_path / "b", 11) == first
    assert digests(tmp_path / "c", 12) != first


def test_small_sample_sizes_and_standard_csv(tmp_path):
    paths = write_dices_sample(tmp_path, seed=1, items_350=4, items_990=10)
    for path, header, rows in ((paths[0], HEADER_350, 4 * 123), (paths[1], HEADER_990, round(72_103 * 10 / 990))):
        with path.open(newline="", encoding="utf-8") as handle:
            records = list(csv.reader(handle))
        assert records[0] == header.split(",")
        assert len(records) - 1 == rows and {len(r) for r in records} == {len(records[0])}
    assert rows == 728


@pytest.mark.slow
def test_scale_multiplies_items_and_rows_not_raters(tmp_path):
    paths = write_dices_sample(tmp_path, scale=2, seed=0)
    con = duckdb.connect()
    counts = [
        con.execute(
            f"select count(*), count(distinct item_id), count(distinct rater_id) "
            f"from read_csv('{p}', header = true, all_varchar = true)"
        ).fetchone()
        for p in paths
    ]
    assert counts == [(86_100, 700, 123), (144_206, 1_980, 173)]


def test_rejects_a_scale_below_one(tmp_path):
    with pytest.raises(DwhError, match="scale"):
        write_dices_sample(tmp_path, scale=0)
