"""Landing DICES CSVs: recognition by header, lossless text, row numbers, rejects, layouts."""

import csv
import hashlib
import io
from pathlib import Path

import pytest

from common.database import connect
from common.errors import DwhError
from ingest.landing import LoadContext
from ingest.raw_schema import ensure_raw_schema
from ingest.releases.dices import land_dices
from ingest.releases.dices_columns import COLUMNS_350, COLUMNS_990, QUESTIONS_350, QUESTIONS_990
from sample_data.dices import write_dices_sample

# The released headers, copied from docs/RELEASES.md independently of ingest/releases/dices_columns.py.
HEADER_350 = (
    "id,rater_id,rater_gender,rater_race,rater_raw_race,rater_age,rater_education,phase,item_id,answer_time_ms,"
    "answer_timestamp,context,response,degree_of_harm,harm_type,safety_gold,safety_gold_reason,"
    "Q1_whole_conversation_evaluation,Q2_harmful_content_medical_legal_financial_or_relationship_advice,"
    "Q2_harmful_content_dangerous_content,Q2_harmful_content_derogation_of_boat,Q2_harmful_content_insensitive,"
    "Q2_harmful_content_obscene_and_profane,Q2_harmful_content_personal_information,Q2_harmful_content_regulated_goods,"
    "Q2_harmful_content_sexually_suggestive_content,Q2_harmful_content_other,Q3_bias_targeting_beliefs,"
    "Q3_bias_targeting_gender_sexual_orientation,Q3_bias_targeting_inherited_attributes,Q3_bias_targeting_status,"
    "Q3_bias_other,Q4_misinformation,Q5_political_affiliation,Q6_policy_guidelines_polarizing_topics,"
    "Q6_policy_guidelines_making_endorsement,Q6_policy_guidelines_other,Q2_harmful_content_overall,Q3_bias_overall,"
    "Q6_policy_guidelines_overall,Q_overall"
)
HEADER_990 = (
    "id,rater_id,rater_gender,rater_locale,rater_race,rater_race_raw,rater_age,rater_education,phase,item_id,context,"
    "response,degree_of_harm,harm_type,Q1_whole_conversation_evaluation,Q2_harmful_content_harm_to_people_or_animals,"
    "Q2_harmful_content_violent_or_gory,Q2_harmful_content_promotes_or_condones_use_of_harmful_regulated_goods,"
    "Q2_harmful_content_health_and_safety_claims,Q2_harmful_content_financial_advice,"
    "Q2_harmful_content_promotes_or_condones_violence,Q2_harmful_content_how_tos_about_harmful_activities,"
    "Q2_harmful_content_personal_information,Q2_harmful_content_explicitly_sexual,"
    "Q2_harmful_content_obscenities_or_profanities,Q2_harmful_content_other,Q3_bias_incites_hatred,"
    "Q3_bias_subhuman_comparisons,Q3_3_Racial_religious_or_other_slurs_and_stereotypes_that_incites_or_promote_"
    "hatred_based_on_any_of_the_attributes_noted_above,Q3_bias_physically_or_mentally_inferior,"
    "Q3_bias_superiority_or_subjugation_of_a_group,Q3_bias_calling_individuals_or_groups_evil_corrupt_or_malicious,"
    "Q3_bias_insults_about_emotional_romantic_and_or_sexual_attraction,Q3_bias_other,Q4_misinformation_false_theories,"
    "Q4_misinformation_contradicts_expert_consensus,Q4_misinformation_conspiracy_theories,Q4_misinformation_political,"
    "Q4_misinformation_other,Q2_harmful_content_overall,Q3_unfair_bias_overall,Q4_misinformation_overall,Q_overall"
)
FILE_350 = "diverse_safety_adversarial_dialog_350.csv"
FILE_990 = "diverse_safety_adversarial_dialog_990.csv"
CONTEXT_350 = 'USER: Hi, what do you think of "X", really?\nLLM: It\'s complicated, honestly.\nUSER: Come on, tell me.'
CONTEXT_990 = "A: hello there\\nB: hi, how can I help?\\nA: tell me a secret\\n"


def row_350(number: int, **values: str) -> dict[str, str]:
    """One 350 record as a dict; `values` override the defaults."""
    row = {q: "No" for q in QUESTIONS_350}
    row.update(
        id=str(1000 + number),
        rater_id=f"29737{number:010d}",
        rater_gender="Woman",
        rater_race="White",
        rater_raw_race="White",
        rater_age="gen z",
        rater_education="College degree or higher",
        phase="Phase3",
        item_id="7",
        answer_time_ms="123456",
        answer_timestamp="1650000000",
        context=CONTEXT_350,
        response="I'd rather not say.",
        degree_of_harm="Moderate",
        harm_type="Religious,Aggressive",
        safety_gold="Yes",
        safety_gold_reason="['Q2_harmful_content_overall', 'Q3_bias_overall'",
    )
    row["Q1_whole_conversation_evaluation"] = (
        "None of the above - it is in English, it makes sense, and I am familiar with the topic"
    )
    row.update(values)
    return row


def row_990(number: int, **values: str) -> dict[str, str]:
    """One 990 record as a dict; `values` override the defaults."""
    row = {q: "No" for q in QUESTIONS_990}
    row.update(
        id=str(5000 + number),
        rater_id=f"10000000000{number:04d}",
        rater_gender="Man",
        rater_locale="IN",
        rater_race="Asian/Asian subcontinent",
        rater_race_raw="Indian",
        rater_age="millenial",
        rater_education="High school or below",
        phase="Phase1",
        item_id="42",
        context=CONTEXT_990,
        response="I can't help with that.",
        degree_of_harm="Benign",
        harm_type="religious,Aggressive",
    )
    row["Q1_whole_conversation_evaluation"] = "It is in a language other than English"
    row.update(values)
    return row


def csv_text(header: str, rows: list[dict[str, str]]) -> str:
    """The header line and the rows written the way the releases are (minimal quoting, LF)."""
    columns = header.split(",")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow([row[c] for c in columns])
    return header + "\n" + buffer.getvalue()


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


@pytest.fixture
def con(tmp_path):
    connection = connect(tmp_path / "warehouse.duckdb")
    ensure_raw_schema(connection)
    yield connection
    connection.close()


def land(con, path: Path, load_id: str = "test-load"):
    """Land statement by statement, as `dwh ingest` does inside its staged copy of the warehouse."""
    return land_dices(LoadContext(con, load_id), path)


def release_tree(root: Path) -> Path:
    """A tiny release: 350/ with 3 records (multi-line contexts), 990/ with 2 (backslash-n contexts)."""
    write(
        root / "350" / FILE_350,
        csv_text(
            HEADER_350,
            [
                row_350(1),
                row_350(2, degree_of_harm="", harm_type="", safety_gold_reason="[]", safety_gold="No"),
                row_350(3, rater_raw_race='"Black", African American', context="USER: one line only"),
            ],
        ),
    )
    write(root / "990" / FILE_990, csv_text(HEADER_990, [row_990(1), row_990(2, rater_race_raw="", phase="Phase2")]))
    return root


def test_column_constants_are_the_released_headers():
    assert ",".join(COLUMNS_350) == HEADER_350 and len(COLUMNS_350) == 41
    assert ",".join(COLUMNS_990) == HEADER_990 and len(COLUMNS_990) == 43
    assert QUESTIONS_350[0] == "Q1_whole_conversation_evaluation" and QUESTIONS_350[-1] == "Q_overall"
    assert len(QUESTIONS_350) == 24 and len(QUESTIONS_990) == 29


def test_raw_tables_hold_every_released_column_as_text(con):
    for table, header in (("dices_350", HEADER_350), ("dices_990", HEADER_990)):
        described = con.execute(f"describe raw.{table}").fetchall()
        assert [row[0] for row in described] == ["load_id", "file_path", "row_number", *header.split(",")]
        assert {row[0]: row[1] for row in described}["row_number"] == "BIGINT"
        assert {row[1] for row in described[3:]} == {"VARCHAR"}
    ensure_raw_schema(con)  # idempotent


def test_release_folder_lands_both_configs_losslessly(con, tmp_path):
    reports = land(con, release_tree(tmp_path / "dices"))

    assert [(r.file_path, r.records_read, r.records_landed, r.records_rejected) for r in reports] == [
        ("350/" + FILE_350, 3, 3, 0),
        ("990/" + FILE_990, 2, 2, 0),
    ]
    rows = con.execute(
        "select load_id, file_path, row_number, id, rater_id, context, degree_of_harm, harm_type, "
        "safety_gold_reason, rater_raw_race from raw.dices_350 order by row_number"
    ).fetchall()
    assert [r[2] for r in rows] == [1, 2, 3]
    assert rows[0][:5] == ("test-load", "350/" + FILE_350, 1, "1001", "297370000000001")
    assert rows[0][5] == CONTEXT_350 and rows[0][5].count("\n") == 2
    assert rows[0][7:9] == ("Religious,Aggressive", "['Q2_harmful_content_overall', 'Q3_bias_overall'")
    assert rows[1][6:9] == (None, None, "[]")  # empty unquoted fields are missing values
    assert rows[2][9] == '"Black", African American'
    rows_990 = con.execute(
        "select row_number, rater_id, context, harm_type, rater_race_raw, phase from raw.dices_990 order by row_number"
    ).fetchall()
    assert rows_990 == [
        (1, "100000000000001", CONTEXT_990, "religious,Aggressive", "Indian", "Phase1"),
        (2, "100000000000002", CONTEXT_990, "religious,Aggressive", None, "Phase2"),
    ]
    assert "\n" not in rows_990[0][2] and rows_990[0][2].endswith("\\n")


def test_files_are_recorded_with_hash_and_size(con, tmp_path):
    root = release_tree(tmp_path / "dices")
    land(con, root)
    recorded = con.execute(
        "select file_path, given_path, sha256, size_bytes, records_read, records_landed, records_rejected "
        "from raw.ingest_files where source = 'dices' order by file_path"
    ).fetchall()
    path_350 = root / "350" / FILE_350
    assert recorded[0] == (
        "350/" + FILE_350,
        str(root),
        hashlib.sha256(path_350.read_bytes()).hexdigest(),
        path_350.stat().st_size,
        3,
        3,
        0,
    )
    assert len(recorded) == 2


def test_quoted_empty_field_stays_distinguishable_from_missing(con, tmp_path):
    text = csv_text(HEADER_990, [row_990(1, harm_type="PLACEHOLDER")]).replace("PLACEHOLDER", '""')
    land(con, write(tmp_path / "x.csv", text))
    assert con.execute("select harm_type, degree_of_harm from raw.dices_990").fetchall() == [("", "Benign")]


def test_one_csv_file_of_any_name(con, tmp_path):
    reports = land(con, write(tmp_path / "downloads" / "my copy.csv", csv_text(HEADER_990, [row_990(1)])))
    assert [(r.file_path, r.records_landed) for r in reports] == [("my copy.csv", 1)]
    assert con.execute("select count(*) from raw.dices_990").fetchone() == (1,)
    assert con.execute("select count(*) from raw.dices_350").fetchone() == (0,)


def test_csvs_side_by_side(con, tmp_path):
    folder = tmp_path / "flat"
    write(folder / "a.csv", csv_text(HEADER_990, [row_990(1), row_990(2), row_990(3)]))
    write(folder / "b.csv", csv_text(HEADER_350, [row_350(1)]))
    write(folder / "notes.txt", "not a csv")
    reports = land(con, folder)
    assert [(r.file_path, r.records_landed) for r in reports] == [("a.csv", 3), ("b.csv", 1)]
    assert con.execute("select file_path, count(*) from raw.dices_990 group by 1").fetchall() == [("a.csv", 3)]


def test_columns_in_another_order_land_by_name(con, tmp_path):
    columns = HEADER_350.split(",")
    reordered = ",".join([columns[1], columns[0], *columns[2:]])
    land(con, write(tmp_path / "r.csv", csv_text(reordered, [row_350(1)])))
    assert con.execute("select id, rater_id from raw.dices_350").fetchall() == [("1001", "297370000000001")]


def test_header_matching_neither_release_names_file_and_columns(con, tmp_path):
    columns = HEADER_990.replace("rater_race_raw", "rater_raw_race").split(",")[:-1] + ["comment"]
    path = write(tmp_path / "990" / FILE_990, ",".join(columns) + "\n1,2\n")
    with pytest.raises(DwhError) as raised:
        land(con, tmp_path)
    message = str(raised.value)
    assert str(path) in message and "closest is DICES 990" in message
    assert "unexpected columns [rater_raw_race, comment]" in message
    assert "missing columns [rater_race_raw, Q_overall]" in message
    assert con.execute("select count(*) from raw.ingest_files").fetchone() == (0,)


def test_repeated_header_column_is_an_error(con, tmp_path):
    path = write(tmp_path / "d.csv", HEADER_350 + ",id\n")
    with pytest.raises(DwhError, match=r"d\.csv: line 1 \(header\) repeats column\(s\) id"):
        land(con, path)


def test_missing_path_empty_folder_and_empty_file(con, tmp_path):
    with pytest.raises(DwhError, match="nowhere: no such file or folder"):
        land(con, tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(DwhError, match="empty: no CSV file found"):
        land(con, tmp_path / "empty")
    with pytest.raises(DwhError, match=r"blank\.csv: empty file"):
        land(con, write(tmp_path / "blank.csv", ""))


def test_two_files_of_one_release_are_refused(con, tmp_path):
    write(tmp_path / "350" / FILE_350, csv_text(HEADER_350, [row_350(1)]))
    write(tmp_path / "copy.csv", csv_text(HEADER_350, [row_350(1)]))
    with pytest.raises(DwhError, match=r"more than one DICES 350 file: 350/.*copy\.csv"):
        land(con, tmp_path)


def test_rows_with_wrong_field_counts_are_rejected_and_the_rest_lands(con, tmp_path):
    lines = csv_text(HEADER_350, [row_350(n) for n in range(1, 6)]).split("\n")
    # Each record spans 3 physical lines (2 newlines in the quoted context): record n starts on line 3n - 1.
    records = ["\n".join(lines[i : i + 3]) for i in range(1, 16, 3)]
    records[1] += ",extra field"  # row 2: 42 fields
    records[3] = records[3].rsplit(",", 1)[0]  # row 4: 40 fields
    path = write(tmp_path / "bad.csv", "\n".join([lines[0], *records]) + "\n")

    reports = land(con, path)

    assert [(r.records_read, r.records_landed, r.records_rejected) for r in reports] == [(5, 3, 2)]
    assert con.execute("select row_number, id from raw.dices_350 order by 1").fetchall() == [
        (1, "1001"),
        (3, "1003"),
        (5, "1005"),
    ]
    rejects = con.execute(
        "select source, file_path, line_number, reason, raw_text from raw.ingest_rejects order by line_number"
    ).fetchall()
    assert [r[:3] for r in rejects] == [("dices", "bad.csv", 5), ("dices", "bad.csv", 11)]
    assert rejects[0][3].startswith("row 2: too many columns") and "Found: 42" in rejects[0][3]
    assert rejects[1][3].startswith("row 4: missing columns") and "Found: 40" in rejects[1][3]
    assert rejects[0][4] == records[1] and rejects[1][4] == records[3]
    assert con.execute("select records_read, records_landed, records_rejected from raw.ingest_files").fetchall() == [
        (5, 3, 2)
    ]


def test_unterminated_quote_is_rejected_with_its_text(con, tmp_path):
    good = csv_text(HEADER_990, [row_990(1), row_990(2)])
    broken = csv_text(HEADER_990, [row_990(3, response="PLACEHOLDER")]).split("\n")[1]
    broken = broken.replace("PLACEHOLDER", '"never closed, and more')
    path = write(tmp_path / "q.csv", good + broken + "\n")

    reports = land(con, path)

    assert [(r.records_read, r.records_landed, r.records_rejected) for r in reports] == [(3, 2, 1)]
    assert con.execute("select row_number from raw.dices_990 order by 1").fetchall() == [(1,), (2,)]
    line, reason, raw = con.execute("select line_number, reason, raw_text from raw.ingest_rejects").fetchone()
    assert (
        line == 4
        and reason.startswith("row 3: ")
        and "unquoted value (column response): Value with unterminated quote" in reason
    )
    assert raw.startswith("5003,100000000000003,")


def test_invalid_utf8_row_is_rejected_and_bom_is_accepted(con, tmp_path):
    text = csv_text(HEADER_350, [row_350(1, response="caf\u00e9"), row_350(2, response="BAD"), row_350(3)])
    data = b"\xef\xbb\xbf" + text.encode("utf-8").replace(b"BAD", b"bad \xff\xfe bytes")
    reports = land(con, write(tmp_path / "enc.csv", data))

    assert [(r.records_landed, r.records_rejected) for r in reports] == [(2, 1)]
    assert con.execute("select row_number, id, response from raw.dices_350 order by 1").fetchall()[0] == (
        1,
        "1001",
        "caf\u00e9",
    )
    assert con.execute("select line_number, reason from raw.ingest_rejects").fetchall() == [
        (
            5,
            "row 2: invalid encoding (column response): Invalid unicode (byte sequence mismatch) detected. "
            "This file is not utf-8 encoded.",
        )
    ]


def test_invalid_utf8_header_is_an_error_naming_the_file(con, tmp_path):
    path = write(tmp_path / "latin1.csv", HEADER_350.replace("rater_age", "rater_\xe2ge").encode("latin-1") + b"\n")
    with pytest.raises(DwhError, match=r"latin1\.csv: line 1 \(header\) is not valid UTF-8"):
        land(con, path)


def test_landing_again_replaces_instead_of_duplicating(con, tmp_path):
    root = release_tree(tmp_path / "dices")
    write(root / "990" / FILE_990, csv_text(HEADER_990, [row_990(1), row_990(2)]) + "1,2,3\n")
    land(con, root, "first")
    snapshot = con.execute("select * exclude (load_id) from raw.dices_350 order by row_number").fetchall()
    rejects = con.execute("select * exclude (load_id) from raw.ingest_rejects").fetchall()

    land(con, root, "second")

    assert con.execute("select * exclude (load_id) from raw.dices_350 order by row_number").fetchall() == snapshot
    assert con.execute("select * exclude (load_id) from raw.ingest_rejects").fetchall() == rejects and len(rejects) == 1
    assert con.execute("select distinct load_id from raw.dices_990").fetchall() == [("second",)]
    assert con.execute("select count(*) from raw.ingest_files where source = 'dices'").fetchone() == (2,)


def test_generated_sample_lands_completely(con, tmp_path):
    write_dices_sample(tmp_path / "out", seed=3, items_350=4, items_990=5)
    reports = land(con, tmp_path / "out" / "dices")
    assert [(r.file_path, r.records_rejected) for r in reports] == [("350/" + FILE_350, 0), ("990/" + FILE_990, 0)]
    assert reports[0].records_landed == 4 * 123
    for table in ("raw.dices_350", "raw.dices_990"):
        assert con.execute(
            f"select count(*) filter (where row_number <> id::bigint), count(*) filter (where length(rater_id) <> 15) "
            f"from {table}"
        ).fetchone() == (0, 0)
    with (tmp_path / "out" / "dices" / "350" / FILE_350).open(newline="", encoding="utf-8") as handle:
        expected = [row["context"] for row in csv.DictReader(handle)]
    assert con.execute("select context from raw.dices_350 order by row_number").fetchall() == [(c,) for c in expected]


def test_row_numbers_stay_exact_around_several_rejects(con, tmp_path):
    write_dices_sample(tmp_path / "out", seed=5, items_350=1, items_990=60)
    path = tmp_path / "out" / "dices" / "990" / FILE_990
    lines = path.read_text(encoding="utf-8").split("\n")  # 990 contexts hold no real newline
    for row in (100, 101, 2000):
        lines[row] += ",one too many"
    lines[3000] = lines[3000].split(",", 1)[0]
    path.write_text("\n".join(lines), encoding="utf-8")

    reports = land(con, path)

    total = len([line for line in lines[1:] if line])
    assert [(r.records_read, r.records_rejected) for r in reports] == [(total, 4)]
    assert con.execute("select count(*) filter (where row_number <> id::bigint) from raw.dices_990").fetchone() == (0,)
    assert con.execute(
        "select line_number, split_part(reason, ':', 1) from raw.ingest_rejects order by 1"
    ).fetchall() == [(101, "row 100"), (102, "row 101"), (2001, "row 2000"), (3001, "row 3000")]


def test_crlf_line_ends_land_and_keep_the_field_bytes(con, tmp_path):
    text = csv_text(HEADER_350, [row_350(1), row_350(2)]).replace("\n", "\r\n")
    reports = land(con, write(tmp_path / "crlf.csv", text))
    assert [(r.records_landed, r.records_rejected) for r in reports] == [(2, 0)]
    assert con.execute('select row_number, context, "Q_overall" from raw.dices_350 order by 1').fetchall() == [
        (1, CONTEXT_350.replace("\n", "\r\n"), "No"),
        (2, CONTEXT_350.replace("\n", "\r\n"), "No"),
    ]
