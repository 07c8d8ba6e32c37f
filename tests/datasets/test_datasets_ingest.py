"""`dwh ingest --dataset PATH`: a dataset folder in the contract's long form lands in the
`raw.dataset_*` tables with no code, from judgements in CSV, JSONL or Parquet; loading it again
replaces it and no other dataset; the build sees a changed dataset (source `dataset`)."""

from pathlib import Path

import duckdb
import pytest

from common.database import connect_read_only
from dwh.building.build_plan import source_states
from dwh.load import run_ingest
from ingest.loading import IngestRequest
from ingest.raw_schema import ensure_raw_schema
from tests.dataset_folders import GOOD_JUDGEMENTS, UNITS, write_dataset
from tests.helpers import query, run_dwh


def ingest(db_path: Path, *folders: Path) -> list:
    return run_ingest(db_path, IngestRequest(datasets=tuple(folders)), progress=lambda step: None).datasets


@pytest.mark.parametrize("file_name", ["judgements.csv", "judgements.jsonl", "judgements.parquet"])
def test_a_dataset_lands_every_judgement_row_from_each_format(tmp_path: Path, file_name: str) -> None:
    folder = write_dataset(tmp_path / "study", judgements_file=file_name)
    db_path = tmp_path / "warehouse.duckdb"

    [outcome] = ingest(db_path, folder)

    rows = query(
        db_path,
        "select file_path, line_number, unit_id, rater_id, question, value, is_missing, label_position, value_number, "
        "round, round_rank from raw.dataset_judgements order by line_number",
    )
    first_line = 2 if file_name.endswith(".csv") else 1  # a CSV's header is line 1
    assert [(row[0], row[1]) for row in rows] == [
        (file_name, first_line + index) for index in range(len(GOOD_JUDGEMENTS))
    ]
    empty = None if file_name.endswith(".csv") else ""  # DuckDB reads an empty CSV field as null
    assert [row[2:6] for row in rows] == [
        (unit, rater, question, value or empty) for unit, rater, question, value, _ in GOOD_JUDGEMENTS
    ]
    flagged = {(row[2], row[3], row[4]): row[6:] for row in rows}
    assert flagged["u1", "r1", "safe"] == (False, 1, None, "1", 1)
    assert flagged["u1", "r1", "quality"] == (False, 3, None, "1", 1)  # good: third of bad|ok|good|excellent
    assert flagged["u1", "r1", "engagement"] == (False, None, 55.5, "1", 1)
    assert flagged["u1", "r2", "safe"] == (True, None, None, "1", 1)  # `skip`: a missing value
    assert flagged["u1", "r2", "quality"][:3] == (True, None, None)  # empty
    assert flagged["u2", "r4", "quality"][3:] == (empty, 1)  # no round: the first
    rounds = [(row[9], row[10]) for row in rows if row[2:5] == ("u2", "r1", "safe")]
    assert rounds == [("1", 1), ("2", 2), ("10", 3)]  # natural order: 2 before 10
    assert (outcome.judgements, outcome.missing, outcome.rejects) == (12, 2, 0)
    assert query(db_path, "select count(*) from raw.ingest_rejects") == [(0,)]


def test_rounds_are_ranked_by_the_one_rule_the_build_orders_them_by(tmp_path: Path) -> None:
    """Numbers by value (1.25 before 1.5 before 2 before 10), then texts in natural order (phase2
    before phase10, as DICES's phases): `raw.round_order`, which the build's judgement order calls too."""
    given = ["phase10", "10", "phase2", "1.5", "2", "1.25", "Phase1"]
    folder = write_dataset(tmp_path / "study", judgements=[("u1", "r1", "safe", "yes", r) for r in given])
    db_path = tmp_path / "warehouse.duckdb"

    ingest(db_path, folder)

    ranked = query(db_path, "select round from raw.dataset_judgements order by round_rank")
    assert [r for (r,) in ranked] == ["1.25", "1.5", "2", "10", "Phase1", "phase2", "phase10"]
    with duckdb.connect(str(db_path), read_only=True) as con:
        by_the_build = con.execute(
            f"select r from unnest({given!r}) as t(r) order by "
            "{ 'round': raw.round_order(r), 'row': 0 }"  # macros/judgement_order.sql, as dbt compiles it
        ).fetchall()
    assert [r for (r,) in by_the_build] == [r for (r,) in ranked]


def test_parquet_numbers_match_labels_by_their_value(tmp_path: Path) -> None:
    """A Parquet file written from a data frame often holds numbers as doubles: 4.0 is the label 4."""
    folder = write_dataset(
        tmp_path / "study",
        manifest="name: stars\ntitle: Stars\nlicense: CC0\ncitation: none\n",
        questions="question,level,labels\nstars,ordinal,1|2|3|4|5\n",
        judgements=[],
        raters=None,
        units=None,
    )
    (folder / "judgements.csv").unlink()
    with duckdb.connect() as con:
        con.execute(
            "copy (select * from (values ('u1', 'r1', 'stars', 4.0), ('u1', 'r2', 'stars', 1.0), "
            "('u2', 'r1', 'stars', 6.0)) as t(unit_id, rater_id, question, value)) "
            f"to '{folder / 'judgements.parquet'}' (format parquet)"
        )
    db_path = tmp_path / "warehouse.duckdb"

    ingest(db_path, folder)

    assert query(
        db_path, "select unit_id, rater_id, value, label_position from raw.dataset_judgements order by 1, 2"
    ) == [
        ("u1", "r1", "4.0", 4),
        ("u1", "r2", "1.0", 1),
    ]
    assert query(db_path, "select file_path, line_number, reason from raw.ingest_rejects") == [
        ("judgements.parquet", 3, "value '6.0': not a label of stars (1|2|3|4|5)")
    ]


def test_several_judgements_files_land_together(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=GOOD_JUDGEMENTS[:5])
    from tests.dataset_folders import judgement_rows, write_judgements

    write_judgements(folder / "judgements_repeat.jsonl", judgement_rows(GOOD_JUDGEMENTS[5:]))
    db_path = tmp_path / "warehouse.duckdb"

    [outcome] = ingest(db_path, folder)

    files = query(db_path, "select file_path, count(*) from raw.dataset_judgements group by 1 order by 1")
    assert files == [("judgements.csv", 5), ("judgements_repeat.jsonl", len(GOOD_JUDGEMENTS) - 5)]
    assert [report.file_path for report in outcome.reports] == [
        "judgements.csv",
        "judgements_repeat.jsonl",
        "raters.csv",
        "units.jsonl",
    ]
    recorded = query(
        db_path, "select file_path, file_kind, file_format, records_read, records_landed from raw.dataset_files"
    )
    assert sorted(recorded) == [
        ("judgements.csv", "judgements", "csv", 5, 5),
        ("judgements_repeat.jsonl", "judgements", "jsonl", 9, 9),
        ("raters.csv", "raters", "csv", 4, 4),
        ("units.jsonl", "units", "jsonl", 3, 3),
    ]


def test_raters_land_with_their_attributes_in_long_form_and_the_dimensions_resolved(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "study"))

    assert query(db_path, "select line_number, rater_id, rater_kind from raw.dataset_raters order by 1") == [
        (2, "r1", "crowd"),
        (3, "r2", "crowd"),
        (4, "r3", "expert"),
        (5, "r4", "crowd"),  # rater_kind empty: crowd
    ]
    attributes = query(
        db_path,
        "select rater_id, attribute, value, is_missing, is_dimension, is_banded, band "
        "from raw.dataset_rater_attributes order by 1, 2",
    )
    assert attributes == [
        ("r1", "age", "23", False, True, True, "<25"),
        ("r1", "country", "UK", False, True, False, None),
        ("r1", "gender", "female", False, True, False, None),
        ("r2", "age", "DATA_EXPIRED", True, True, True, None),  # rater_missing
        ("r2", "country", "US", False, True, False, None),
        ("r2", "gender", "male", False, True, False, None),
        ("r3", "age", "51", False, True, True, "45-54"),
        ("r3", "country", "FR", False, True, False, None),
        ("r3", "gender", "Prefer not to say", True, True, False, None),
        ("r4", "age", "38", False, True, True, "35-44"),
        ("r4", "country", None, True, True, False, None),  # empty
        ("r4", "gender", "female", False, True, False, None),
    ]
    assert query(db_path, "select dimensions, dimensions_given, rater_missing from raw.dataset_manifests") == [
        (["age", "gender", "country"], False, ["DATA_EXPIRED", "Prefer not to say"])
    ]
    assert query(db_path, "select attribute, band_order, lower, upper, band from raw.dataset_bins order by 2") == [
        ("age", 1, None, 25.0, "<25"),
        ("age", 2, 25.0, 35.0, "25-34"),
        ("age", 3, 35.0, 45.0, "35-44"),
        ("age", 4, 45.0, 55.0, "45-54"),
        ("age", 5, 55.0, None, "55+"),
    ]


BANDED_RATERS = "rater_id,age,country\na,23,UK\nb,25,US\nc,61,FR\nd,nan,UK\ne,inf,US\nf,unknown,FR\ng, 40 ,UK\n"
BANDED_MANIFEST = "name: study\ntitle: t\nlicense: CC0\ncitation: c\nbins: {age: [25, 55]}\n"


def test_a_binned_attribute_lands_with_its_band_and_a_value_that_is_no_number_with_none(tmp_path: Path) -> None:
    """A cut point opens the band above it; a text that is no finite number (`nan`, as pandas writes
    a missing number, `inf`, `unknown`) is in no band, never the top one, and the ingest names it; an
    attribute without bins has no band."""
    db_path = tmp_path / "warehouse.duckdb"
    [outcome] = ingest(db_path, write_dataset(tmp_path / "study", manifest=BANDED_MANIFEST, raters=BANDED_RATERS))
    assert query(
        db_path, "select rater_id, value, band from raw.dataset_rater_attributes where is_banded order by 1"
    ) == [
        ("a", "23", "<25"),
        ("b", "25", "25-54"),
        ("c", "61", "55+"),
        ("d", "nan", None),
        ("e", "inf", None),
        ("f", "unknown", None),
        ("g", " 40 ", "25-54"),  # the text as given, banded as the number it holds
    ]
    assert query(db_path, "select distinct attribute, band from raw.dataset_rater_attributes where not is_banded") == [
        ("country", None)
    ]
    assert outcome.unbanded == [("age", 3, ["inf", "nan", "unknown"])]


def test_a_warehouse_landed_before_the_bands_were_has_them_added_by_the_next_writer(tmp_path: Path) -> None:
    """A warehouse an earlier version made has no `is_banded` and `band`: the next `dwh ingest` or
    `dwh build` adds them (`ensure_raw_schema`) and bands the rows already there, so its rater groups
    keep their bands without a reload."""
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "study", manifest=BANDED_MANIFEST, raters=BANDED_RATERS))
    landed = "select rater_id, attribute, is_banded, band from raw.dataset_rater_attributes order by 1, 2"
    expected = query(db_path, landed)
    with duckdb.connect(str(db_path)) as con:  # as the version before the bands left it
        con.execute("alter table raw.dataset_rater_attributes drop column band")
        con.execute("alter table raw.dataset_rater_attributes drop column is_banded")

        ensure_raw_schema(con)  # what every writer runs on its staged copy first

    assert query(db_path, landed) == expected


def test_a_numeric_attribute_without_bins_is_no_dimension_by_default(tmp_path: Path) -> None:
    manifest = "name: study\ntitle: t\nlicense: CC0\ncitation: c\n"
    raters = "rater_id,years_online,gender\nr1,3,female\nr2,12,male\n"
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "study", manifest=manifest, raters=raters))
    assert query(db_path, "select dimensions from raw.dataset_manifests") == [(["gender"],)]
    given = manifest + "dimensions: [years_online]\n"
    ingest(db_path, write_dataset(tmp_path / "again", manifest=given, raters=raters))
    assert query(db_path, "select dimensions, dimensions_given from raw.dataset_manifests") == [
        (["years_online"], True)
    ]


def test_units_keep_their_turns_text_and_other_fields(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "study"))
    units = query(
        db_path,
        "select line_number, unit_id, scope, split, language, turns::json, text, other_columns::json "
        "from raw.dataset_units order by 1",
    )
    assert [unit[:5] for unit in units] == [
        (1, "u1", "all", "test", "en"),
        (2, "u2", "safety", None, "en"),
        (3, "u3", "all", "train", None),
    ]
    import json

    assert json.loads(units[0][5]) == UNITS[0]["turns"]
    assert units[1][6] == "a single reply"
    assert json.loads(units[0][7]) == {"topic": "greeting"}


def test_loading_a_dataset_again_replaces_it_and_no_other(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    ingest(db_path, write_dataset(tmp_path / "a", name="study_a"), write_dataset(tmp_path / "b", name="study_b"))
    before_b = query(db_path, "select * exclude (load_id) from raw.dataset_judgements where dataset = 'study_b'")

    smaller = write_dataset(
        tmp_path / "a2", name="study_a", judgements=GOOD_JUDGEMENTS[:3] + [("u9", "r1", "x", "1", "")]
    )
    ingest(db_path, smaller)

    assert query(db_path, "select count(*) from raw.dataset_judgements where dataset = 'study_a'") == [(3,)]
    assert query(db_path, "select source, line_number from raw.ingest_rejects") == [("study_a", 5)]
    assert query(db_path, "select dataset, folder from raw.dataset_manifests order by 1") == [
        ("study_a", str(tmp_path / "a2")),
        ("study_b", str(tmp_path / "b")),
    ]
    after_b = query(db_path, "select * exclude (load_id) from raw.dataset_judgements where dataset = 'study_b'")
    assert after_b == before_b
    for table in ("dataset_raters", "dataset_units", "dataset_questions", "dataset_bins"):
        counts = dict(query(db_path, f"select dataset, count(*) from raw.{table} group by 1"))
        assert counts["study_a"] == counts["study_b"], table


def test_the_build_sees_a_changed_dataset_and_not_a_reload_of_the_same(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    folder = write_dataset(tmp_path / "study")
    ingest(db_path, folder)

    def dataset_state() -> str:
        con = connect_read_only(db_path)
        try:
            return source_states(con)["dataset"]
        finally:
            con.close()

    first = dataset_state()
    ingest(db_path, folder)
    assert dataset_state() == first  # the same rows, another load
    write_dataset(folder, judgements=GOOD_JUDGEMENTS[:-1])
    assert dataset_state() == first
    ingest(db_path, folder)
    assert dataset_state() != first
    assert query(db_path, "select sources from raw.ingest_loads order by started_at") == [(["dataset"],)] * 3


def test_the_ingest_prints_what_landed_of_each_dataset(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=[*GOOD_JUDGEMENTS, ("u1", "r1", "safe", "maybe", "3")])
    completed = run_dwh(["ingest", "--dataset", str(folder)], tmp_path / "warehouse.duckdb")
    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert (
        "dataset chatbot_study: 12 judgement(s), 2 missing value(s), 1 reject(s) (see raw.ingest_rejects), "
        "5 rater(s) (4 in raters.csv), 3 unit(s) (3 in the units file)"
    ) in lines
    assert (
        "dataset chatbot_study: 1 rater(s) of the judgements have no row in raters.csv and load without attributes: r5"
    ) in lines
    assert any(line.split()[:5] == ["chatbot_study", "judgements.csv", "15", "14", "1"] for line in lines), lines
    assert "landing dataset chatbot_study: " + str(folder) in completed.stderr


def test_a_dataset_lands_beside_a_release_in_one_load(small_releases: dict[str, Path], tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    folder = write_dataset(tmp_path / "study")
    completed = run_dwh(["ingest", "--dices", str(small_releases["dices"]), "--dataset", str(folder)], db_path)
    assert completed.returncode == 0, completed.stderr
    assert query(db_path, "select sources from raw.ingest_loads") == [(["dices", "dataset"],)]
    assert query(db_path, "select count(*) > 0 from raw.dices_350") == [(True,)]
    assert query(db_path, "select count(*) from raw.dataset_judgements") == [(len(GOOD_JUDGEMENTS),)]
