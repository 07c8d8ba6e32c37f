"""`dwh ingest --dices` + `dwh build` end to end: the sample's counts, its quirks in the marts, and
failing tests that name the item, the rater and the value.

Two `dwh build` runs of its own: two small samples (three 350 items with all 123 raters, two 990
items), one missing a 350 row, one with an answer "Maybe", each building only the failing tests and
what they read; the scale-1 sample is the session's (tests/conftest.py).
"""

import csv
from pathlib import Path

import pytest

from ingest.releases.dices_columns import (
    CATEGORY_OVERALL_350,
    CATEGORY_OVERALL_990,
    HARM_TYPES,
    PUBLISHED_RATERS,
    PUBLISHED_ROWS,
    Q1_COLUMN,
    QUESTIONS,
)
from sample_data.dices import write_dices_sample
from tests.helpers import BuiltWarehouse, failing_rows, query, run_dwh, selecting

pytestmark = pytest.mark.slow  # dbt builds

FILE_350 = Path("350/diverse_safety_adversarial_dialog_350.csv")
FILE_990 = Path("990/diverse_safety_adversarial_dialog_990.csv")


def ingest(db_path: Path, dices: Path) -> None:
    run_dwh(["ingest", "--dices", str(dices)], db_path, check=True)


def read_records(path: Path) -> tuple[list[str], list[list[str]]]:
    with path.open(newline="", encoding="utf-8") as handle:
        header, *records = list(csv.reader(handle))
    return header, records


def write_records(path: Path, header: list[str], records: list[list[str]]) -> None:
    """Write like the release: LF line ends, quotes only where needed, empty fields unquoted."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(records)


# ---------------------------------------------------------------- the scale-1 sample


@pytest.fixture(scope="module")
def sample_warehouse(sample_build: BuiltWarehouse) -> tuple[Path, dict[str, str]]:
    """The scale-1 sample (the session's build of all three datasets): its DICES part is the DICES sample."""
    return sample_build.db_path, sample_build.not_passed


def test_sample_builds_green_with_one_rating_per_row_and_question(
    sample_warehouse: tuple[Path, dict[str, str]],
) -> None:
    db_path, not_passed = sample_warehouse
    assert not_passed == {}
    assert query(db_path, "select count(*) from raw.dices_350") == [(PUBLISHED_ROWS["350"],)]
    assert query(db_path, "select count(*) from raw.dices_990") == [(PUBLISHED_ROWS["990"],)]
    assert (len(QUESTIONS["350"]), len(QUESTIONS["990"])) == (24, 29)
    counts = dict(
        (config, (n, n_rows, n_questions))
        for config, n, n_rows, n_questions in query(
            db_path,
            """
            select split_part(dialogue_key, ':', 1), count(*), count(distinct source_row_id), count(distinct question)
            from marts.ratings where source = 'dices' group by 1""",
        )
    )
    assert counts == {
        "dices350": (43_050 * 24, 43_050, 24),
        "dices990": (72_103 * 29, 72_103, 29),
    }
    assert query(
        db_path,
        """
        select count(*) from (
            select source_row_id, split_part(dialogue_key, ':', 1), question from marts.ratings
            where source = 'dices' group by all having count(*) > 1)""",
    ) == [(0,)]
    kinds = query(
        db_path,
        """
        select distinct rating_kind, value_numeric is null, value_label = value_raw
        from marts.ratings where source = 'dices'""",
    )
    assert kinds == [("safety", True, True)]


def test_question_names_categories_and_times(sample_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = sample_warehouse
    for config in ("350", "990"):
        questions = query(
            db_path,
            f"""
            select distinct question from marts.ratings where dialogue_key like 'dices{config}:%'""",
        )
        assert {q for (q,) in questions} == set(QUESTIONS[config])
    categories = dict(
        query(
            db_path,
            """
        select question, question_category || ':' || is_aggregate_question from marts.ratings
        where rating_id like 'dices990:1:%'""",
        )
    )
    assert categories[Q1_COLUMN] == "comprehension:false"
    assert (
        categories[
            "Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_hatred_based_on_any_"
            "of_the_attributes_noted_above"
        ]
        == "bias:false"
    )
    assert categories["Q3_unfair_bias_overall"] == "bias:true"
    assert categories["Q_overall"] == "overall:true"
    assert all(categories[q].endswith(":true") for q in CATEGORY_OVERALL_990)
    timed = query(
        db_path,
        """
        select split_part(dialogue_key, ':', 1), count(answer_time_ms), count(answer_timestamp), count(*)
        from marts.ratings where source = 'dices' group by 1 order by 1""",
    )
    assert timed == [("dices350", 1_033_200, 1_033_200, 1_033_200), ("dices990", 0, 0, 2_090_987)]
    assert set(CATEGORY_OVERALL_350) <= {
        q
        for (q,) in query(
            db_path,
            """
        select distinct question from marts.ratings where is_aggregate_question and dialogue_key like 'dices350:%'""",
        )
    }


def test_dialogues_carry_parsed_expert_annotations(sample_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = sample_warehouse
    counts = query(
        db_path,
        """
        select dataset_config, count(*), count(distinct source_file), min(language), min(setting)
        from marts.dialogues where source = 'dices' group by 1 order by 1""",
    )
    assert counts == [("350", 350, 1, "en", "adversarial_safety"), ("990", 990, 1, "en", "adversarial_safety")]
    # the sample's first items carry every quirk (sample_data/dices.py FORCED_ITEMS)
    first = query(
        db_path,
        """
        select source_dialogue_id, degree_of_harm, harm_types, harm_type_raw, safety_gold, safety_gold_reasons
        from marts.dialogues where dataset_config = '350' and source_dialogue_id in ('0', '1', '2', '3')
        order by 1""",
    )
    both = ["Q2_harmful_content_overall", "Q3_bias_overall"]
    assert first == [
        ("0", None, [], None, "No", []),
        ("1", "Moderate", ["Religious", "Aggressive"], "Religious,Aggressive", "Yes", both),
        ("2", "Extreme", ["Religious", "Aggressive"], "religious,Aggressive", "Yes", both),
        ("3", "Debatable", ["Political"], "Political", "Yes", both),
    ]
    assert query(
        db_path,
        """
        select count(*), count(safety_gold), count(safety_gold_reasons) from marts.dialogues
        where dataset_config = '990'""",
    ) == [(990, 0, 0)]
    catalog = {t.strip().lower() for t in HARM_TYPES}
    listed = query(db_path, "select distinct unnest(harm_types) from marts.dialogues where source = 'dices'")
    assert {t.lower() for (t,) in listed} <= catalog
    assert all(t[0].isupper() and t[1:] == t[1:].lower() for (t,) in listed)


def test_contexts_split_into_turns_then_the_response(sample_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = sample_warehouse
    roles = query(
        db_path,
        """
        select split_part(dialogue_key, ':', 1), speaker_raw, speaker_role, is_final_response, count(*)
        from marts.turns where source = 'dices' group by all order by all""",
    )
    assert {(c, raw, role, final) for c, raw, role, final, _ in roles} == {
        ("dices350", "LLM", "system", False),
        ("dices350", "USER", "user", False),
        ("dices350", None, "system", True),
        ("dices990", "A", "user", False),
        ("dices990", "B", "system", False),
        ("dices990", None, "system", True),
    }
    # no prefix left, no empty turn from 990's trailing \n, no separator left at a turn's end
    assert query(
        db_path,
        r"""
        select count(*) from marts.turns where source = 'dices' and (
            text = '' or regexp_matches(text, '^(USER|LLM|A|B):') or text like '%\n' or text like '%' || chr(10))
        """,
    ) == [(0,)]
    # every context line (350) / \n-piece (990) became one turn: the sample has no continuation lines
    mismatched = query(
        db_path,
        r"""
        with items as (
            select dialogue_key, any_value(context) as context from marts.dices_ratings_wide group by 1),
        expected as (
            select dialogue_key,
                case when dialogue_key like 'dices350:%' then len(string_split(context, chr(10)))
                     else len(string_split(context, '\n')) - 1 end + 1 as n_turns
            from items)
        select count(*) from expected join marts.dialogues using (dialogue_key)
        where expected.n_turns <> dialogues.n_turns""",
    )
    assert mismatched == [(0,)]
    last = query(
        db_path,
        """
        select count(*) from marts.turns as t join marts.dialogues as d using (dialogue_key)
        where t.is_final_response and t.turn_index <> d.n_turns - 1""",
    )
    assert last == [(0,)]


def test_raters_once_with_demographics(sample_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = sample_warehouse
    raters = query(
        db_path,
        """
        select count(*), count(distinct source_rater_id), count(locale), min(length(source_rater_id)),
               max(length(source_rater_id)), min(rater_role), max(rater_role)
        from marts.raters where source = 'dices'""",
    )
    assert raters == [
        (PUBLISHED_RATERS["350"] + PUBLISHED_RATERS["990"], 296, 173, 15, 15, "dices_rater", "dices_rater")
    ]
    assert query(
        db_path,
        """
        select count(*) from marts.ratings as r left join marts.raters using (rater_key)
        where r.source = 'dices' and raters.rater_key is null""",
    ) == [(0,)]
    assert query(
        db_path,
        """
        select rater_key = 'dices:rater:' || source_rater_id from marts.raters where source = 'dices'
        group by 1""",
    ) == [(True,)]


def test_published_statistics_match_and_wide_view_has_every_column(
    sample_warehouse: tuple[Path, dict[str, str]],
) -> None:
    db_path, _ = sample_warehouse
    comparison = query(
        db_path,
        """
        select dataset_config, statistic, comparison from marts.published_statistics_comparison
        where dataset = 'dices' order by 1, 2""",
    )
    assert len(comparison) == 10
    assert {c for _, _, c in comparison} == {"match"}
    columns = [
        c
        for (c,) in query(
            db_path,
            """
        select column_name from information_schema.columns
        where table_schema = 'marts' and table_name = 'dices_ratings_wide' order by ordinal_position""",
        )
    ]
    assert set(QUESTIONS["350"]) | set(QUESTIONS["990"]) <= set(columns)
    wide = query(
        db_path,
        """
        select dataset_config, count(*), count(distinct source_row_id), count("Q_overall"),
               count("Q6_policy_guidelines_overall"), count("Q4_misinformation_overall")
        from marts.dices_ratings_wide group by 1 order by 1""",
    )
    assert wide == [("350", 43_050, 43_050, 43_050, 43_050, 0), ("990", 72_103, 72_103, 72_103, 0, 72_103)]


# ---------------------------------------------------------------- broken releases fail the build


@pytest.fixture(scope="module")
def small_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three 350 items with all 123 raters each, two 990 items: enough for the 350 rules."""
    return write_dices_sample(tmp_path_factory.mktemp("small"), items_350=3, items_990=2)[0].parents[1]


def copy_release(release: Path, target: Path) -> Path:
    for relative in (FILE_350, FILE_990):
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_bytes((release / relative).read_bytes())
    return target


def test_a_missing_350_row_fails_the_build_naming_item_and_rater(small_release: Path, tmp_path: Path) -> None:
    release = copy_release(small_release, tmp_path / "dices")
    header, records = read_records(release / FILE_350)
    item, rater = header.index("item_id"), header.index("rater_id")
    [dropped] = [r for r in records if r[item] == "2"][40:41]
    write_records(release / FILE_350, header, [r for r in records if r is not dropped])
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, release)

    built = run_dwh(
        ["build", *selecting("int_dices__rows_rules", "dices_350_every_rater_rates_every_item")],
        db_path,
    )

    assert built.returncode != 0
    per_item = failing_rows(db_path, "int_dices__rows_rules")
    assert [(r["broken_rule"], r["dataset_config"], r["item_id"], r["n_found"], r["n_expected"]) for r in per_item] == [
        ("dices_350_exactly_123_raters_per_item", "350", "2", 122, 123)
    ]
    missing = failing_rows(db_path, "dices_350_every_rater_rates_every_item")
    assert [tuple(r.values()) for r in missing] == [("350", "2", dropped[rater])]
    assert "dwh: error: dbt build failed" in built.stderr


def test_rater_columns_outside_their_vocabularies_fail_the_build_naming_each(
    small_release: Path, tmp_path: Path
) -> None:
    """One rule checks a rater's five described columns (dices_rater_columns_in_vocabulary, of
    int_dices__rows_vocabularies): each offending value is its own row, naming the column and the
    record."""
    release = copy_release(small_release, tmp_path / "dices")
    header, records = read_records(release / FILE_990)
    records[3][header.index("rater_gender")] = "Male"
    records[5][header.index("phase")] = "Phase4"
    write_records(release / FILE_990, header, records)
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, release)

    built = run_dwh(["build", *selecting("int_dices__rows_vocabularies")], db_path)

    assert built.returncode != 0 and "int_dices__rows_vocabularies" in built.stderr
    offending = failing_rows(db_path, "int_dices__rows_vocabularies")
    assert sorted((r["broken_rule"], r["source_row_id"], r["vocabulary"], r["value"]) for r in offending) == sorted(
        [
            ("dices_rater_columns_in_vocabulary", records[3][header.index("id")], "gender", "Male"),
            ("dices_rater_columns_in_vocabulary", records[5][header.index("id")], "phase", "Phase4"),
        ]
    )


def test_an_answer_outside_its_vocabulary_fails_the_build_showing_it(small_release: Path, tmp_path: Path) -> None:
    release = copy_release(small_release, tmp_path / "dices")
    header, records = read_records(release / FILE_990)
    column = header.index("Q2_harmful_content_violent_or_gory")
    records[7][column] = "Maybe"
    write_records(release / FILE_990, header, records)
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, release)

    built = run_dwh(["build", *selecting("dices_answers_in_vocabulary")], db_path)

    assert built.returncode != 0
    row = records[7]
    [offending] = failing_rows(db_path, "dices_answers_in_vocabulary")
    assert offending == {
        "dataset_config": "990",
        "item_id": row[header.index("item_id")],
        "rater_id": row[header.index("rater_id")],
        "source_row_id": row[header.index("id")],
        "question": "Q2_harmful_content_violent_or_gory",
        "label_set": "yes_no_unsure",
        "value": "Maybe",
    }


def test_a_header_of_neither_release_is_a_one_line_ingest_error(tmp_path: Path) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("id,rater_id,item_id,answer\n1,2,3,Yes\n", encoding="utf-8")

    landed = run_dwh(["ingest", "--dices", str(path)], tmp_path / "warehouse.duckdb")

    assert landed.returncode != 0
    assert "Traceback" not in landed.stderr
    # stderr: the "landing dices: …" progress line, then the reason on one line
    [error] = [line for line in landed.stderr.splitlines() if not line.startswith("landing ")]
    assert error.startswith(f"dwh: error: {path}: line 1 (header) matches neither DICES release")
    assert "unexpected columns [answer]" in error
