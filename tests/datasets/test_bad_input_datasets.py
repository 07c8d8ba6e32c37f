"""Dataset folders (`dwh ingest --dataset`) that are wrong, as the contract answers them: a bad row is
a reject with its file, line and reason while the rest loads; an empty or missing value is counted,
not rejected; raters without a row in raters.csv load without attributes and are named; a folder
without a needed file or column, an unknown level, labels on an interval question, or a name that
is taken is one line naming the file (and column or line), and nothing of the command is loaded.
"""

import json
from pathlib import Path

import duckdb
import pytest

from tests.bad_input import checksum, the_one_error
from tests.dataset_folders import GOOD_JUDGEMENTS, MANIFEST, QUESTIONS, RATERS, write_dataset
from tests.helpers import query, run_dwh_in_this_process


def ingest_dataset(db_path: Path, *folders: Path):
    return run_dwh_in_this_process(
        ["ingest", *(arg for folder in folders for arg in ("--dataset", str(folder)))], db_path
    )


def rejects(db_path: Path) -> list[tuple]:
    return query(db_path, "select source, file_path, line_number, reason from raw.ingest_rejects order by 2, 3")


def landed_lines(db_path: Path) -> list[int]:
    return [line for (line,) in query(db_path, "select line_number from raw.dataset_judgements order by 1")]


# --- row-level problems: rejects, and the rest loads ----------------------------------------------


@pytest.mark.parametrize("file_name", ["judgements.csv", "judgements.jsonl", "judgements.parquet"])
def test_bad_judgement_rows_are_rejects_with_file_line_and_reason_and_the_rest_loads(
    tmp_path: Path, file_name: str
) -> None:
    bad = [
        ("u1", "r1", "safe", "maybe", "1"),  # not a label
        ("u1", "r1", "quality", "superb", "1"),  # not a label of the ordinal question
        ("u1", "r1", "engagement", "101", "1"),  # above max
        ("u1", "r2", "engagement", "-3", "1"),  # below min
        ("u1", "r1", "seconds", "a while", "1"),  # not a number (ratio)
        ("u1", "r3", "engagement", "NaN", "1"),  # not a finite number (interval)
        ("u1", "r1", "wit", "yes", "1"),  # a question not in questions.csv
        ("", "r1", "safe", "yes", "1"),  # empty unit_id
        ("u1", " ", "safe", "yes", "1"),  # empty rater_id
        ("u1", "r1", "safe", "no", "1"),  # a second value for (u1, r1, safe, 1)
        ("u1", "r1", "safe", "no", "1.0"),  # round 1.0 is round 1: a third
        ("u1", "r1", "safe", "no", "2"),  # another round: lands
    ]
    folder = write_dataset(tmp_path / "study", judgements=[GOOD_JUDGEMENTS[0], *bad], judgements_file=file_name)
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    first = 2 if file_name.endswith(".csv") else 1
    assert landed_lines(db_path) == [first, first + 12]
    first_line = f"{file_name} line {first}"
    assert rejects(db_path) == [
        ("chatbot_study", file_name, first + 1, "value 'maybe': not a label of safe (yes|no|unsure)"),
        ("chatbot_study", file_name, first + 2, "value 'superb': not a label of quality (bad|ok|good|excellent)"),
        (
            "chatbot_study",
            file_name,
            first + 3,
            "value '101': outside the scale of engagement (a number from 0 to 100)",
        ),
        ("chatbot_study", file_name, first + 4, "value '-3': outside the scale of engagement (a number from 0 to 100)"),
        ("chatbot_study", file_name, first + 5, "value 'a while': not a number; seconds takes a number of at least 0"),
        ("chatbot_study", file_name, first + 6, "value 'NaN': not a number; engagement takes a number from 0 to 100"),
        ("chatbot_study", file_name, first + 7, "question 'wit': not in questions.csv"),
        ("chatbot_study", file_name, first + 8, "unit_id: empty"),
        ("chatbot_study", file_name, first + 9, "rater_id: empty"),
        (
            "chatbot_study",
            file_name,
            first + 10,
            f"a second value for unit 'u1', rater 'r1', question safe, round 1; the first ({first_line}) counts",
        ),
        (
            "chatbot_study",
            file_name,
            first + 11,
            f"a second value for unit 'u1', rater 'r1', question safe, round 1.0; the first ({first_line}) counts",
        ),
    ]
    assert "1 judgement(s)" not in completed.stdout
    assert "dataset chatbot_study: 2 judgement(s), 0 missing value(s), 11 reject(s) (see raw.ingest_rejects)" in (
        completed.stdout
    )


def test_an_empty_or_missing_value_is_counted_not_rejected(tmp_path: Path) -> None:
    rows = [
        ("u1", "r1", "safe", "", "1"),  # empty
        ("u1", "r2", "safe", "skip", "1"),  # the question's missing value
        ("u1", "r3", "safe", " skip ", "1"),  # the same, with spaces
        ("u1", "r4", "engagement", "", "1"),
        ("u1", "r1", "quality", "good", "1"),
    ]
    folder = write_dataset(tmp_path / "study", judgements=rows, judgements_file="judgements.jsonl")
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert rejects(db_path) == []
    assert query(db_path, "select line_number, is_missing from raw.dataset_judgements order by 1") == [
        (1, True),
        (2, True),
        (3, True),
        (4, True),
        (5, False),
    ]
    assert "dataset chatbot_study: 1 judgement(s), 4 missing value(s), 0 reject(s), " in completed.stdout


def test_a_value_counts_as_missing_only_for_its_own_question(tmp_path: Path) -> None:
    questions = QUESTIONS.replace("engagement,interval,,0,100,,", "engagement,interval,,0,100,-1,")
    rows = [("u1", "r1", "engagement", "-1", "1"), ("u1", "r1", "seconds", "-1", "1")]
    folder = write_dataset(tmp_path / "study", judgements=rows, questions=questions)
    db_path = tmp_path / "warehouse.duckdb"
    assert ingest_dataset(db_path, folder).returncode == 0
    assert query(db_path, "select question, is_missing from raw.dataset_judgements") == [("engagement", True)]
    assert [reason for *_, reason in rejects(db_path)] == [
        "value '-1': outside the scale of seconds (a number of at least 0)"
    ]


@pytest.mark.parametrize("scale", ["", "-10"], ids=["no-min", "a-min-below-0"])
def test_a_ratio_value_below_0_is_a_reject_and_a_ratio_scale_below_0_is_refused(tmp_path: Path, scale: str) -> None:
    """δ(−2, 2) = ((c − k) / (c + k))² divides by 0 and counts opposite values as agreement: a ratio
    question's values are numbers from 0, whatever its scale says."""
    questions = QUESTIONS.replace("seconds,ratio,,0,,,", f"seconds,ratio,,{scale},,,")
    rows = [("u1", "r1", "seconds", "-2", "1"), ("u1", "r2", "seconds", "2", "1"), ("u1", "r3", "seconds", "0", "1")]
    folder = write_dataset(tmp_path / "study", judgements=rows, questions=questions)
    db_path = tmp_path / "warehouse.duckdb"
    completed = ingest_dataset(db_path, folder)
    if scale:
        assert completed.returncode != 0
        assert the_one_error(completed).startswith(
            f"dwh: error: {folder}/questions.csv: line 5: the ratio question 'seconds' has a scale below 0"
        )
        return
    assert completed.returncode == 0, completed.stderr
    assert query(db_path, "select rater_id, value from raw.dataset_judgements order by 1") == [
        ("r2", "2"),
        ("r3", "0"),
    ]
    assert [reason for *_, reason in rejects(db_path)] == [
        "value '-2': below 0; seconds is a ratio question, which takes numbers from 0"
    ]


def test_a_banded_column_holding_no_finite_number_is_named(tmp_path: Path) -> None:
    """`nan` (a missing number as pandas writes it) sorted above every cut point and put its raters in
    the top band; now no text but a finite number is banded, and the ingest names the others."""
    raters = RATERS.replace("r1,crowd,23,", "r1,crowd,nan,").replace("r4,,38,", "r4,,unknown,")
    db_path = tmp_path / "warehouse.duckdb"
    completed = ingest_dataset(db_path, write_dataset(tmp_path / "study", raters=raters))
    assert completed.returncode == 0, completed.stderr
    assert (
        "dataset chatbot_study: raters.csv column 'age' is banded (bins) but 2 rater(s) give no finite number there "
        "('nan', 'unknown'): they are in no band of it; name a text that means no answer in rater_missing"
    ) in completed.stdout
    clean = ingest_dataset(tmp_path / "clean.duckdb", write_dataset(tmp_path / "clean"))
    assert "no finite number" not in clean.stdout  # DATA_EXPIRED is the manifest's rater_missing


def test_raters_without_a_row_in_raters_csv_load_without_attributes_and_are_named(tmp_path: Path) -> None:
    rows = [("u1", f"crowd{n:02d}", "safe", "yes", "1") for n in range(1, 8)] + [("u1", "r1", "safe", "no", "1")]
    folder = write_dataset(tmp_path / "study", judgements=rows)
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert (
        "dataset chatbot_study: 7 rater(s) of the judgements have no row in raters.csv and load without "
        "attributes: crowd01, crowd02, crowd03, crowd04, crowd05, …"
    ) in completed.stdout.splitlines()
    assert query(db_path, "select count(distinct rater_id) from raw.dataset_judgements") == [(8,)]
    assert query(
        db_path,
        "select count(*) from raw.dataset_rater_attributes where rater_id like 'crowd%'",
    ) == [(0,)]


def test_without_raters_csv_no_rater_is_named(tmp_path: Path) -> None:
    manifest = MANIFEST.format(name="chatbot_study").split("bins:")[0]
    folder = write_dataset(tmp_path / "study", manifest=manifest, raters=None)
    completed = ingest_dataset(tmp_path / "warehouse.duckdb", folder)
    assert completed.returncode == 0, completed.stderr
    assert "no row in raters.csv" not in completed.stdout
    assert "5 rater(s), 3 unit(s)" in completed.stdout


def test_bad_rater_and_unit_rows_are_rejects(tmp_path: Path) -> None:
    raters = RATERS + "r1,crowd,40,male,DE\n,crowd,30,male,DE\nr6,admin,30,male,DE\n"
    units = [
        {"unit_id": "u1", "text": "one"},
        {"unit_id": "u1", "text": "again"},
        {"unit_id": "", "text": "no id"},
        {"unit_id": "u4", "turns": [{"speaker": "user", "text": "no role"}]},
        {"unit_id": "u5", "turns": "not json"},
    ]
    folder = write_dataset(tmp_path / "study", raters=raters, units=units)
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert [row[1:] for row in rejects(db_path)] == [
        ("raters.csv", 6, "rater 'r1' again; the first (line 2) counts"),
        ("raters.csv", 7, "rater_id: empty"),
        ("raters.csv", 8, "rater_kind 'admin': not crowd or expert"),
        ("units.jsonl", 2, "unit 'u1' again; the first (line 1) counts"),
        ("units.jsonl", 3, "unit_id: empty"),
        (
            "units.jsonl",
            4,
            'turns: not a JSON list of {speaker_role, text} objects ([{"speaker":"user","text":"no role"}])',
        ),
        ("units.jsonl", 5, "turns: not a JSON list of {speaker_role, text} objects (not json)"),
    ]
    assert query(db_path, "select unit_id, text from raw.dataset_units") == [("u1", "one")]
    assert query(db_path, "select count(*) from raw.dataset_raters") == [(4,)]


def test_a_csv_record_the_reader_cannot_split_is_a_reject_and_later_lines_keep_their_numbers(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=[])
    (folder / "judgements.csv").write_text(
        "unit_id,rater_id,question,value\nu1,r1,safe,yes\nu1,r2,safe,no,extra\nu1,r3,safe,yes\n", encoding="utf-8"
    )
    db_path = tmp_path / "warehouse.duckdb"
    completed = ingest_dataset(db_path, folder)
    assert completed.returncode == 0, completed.stderr
    assert landed_lines(db_path) == [2, 4]
    [(_, file_path, line, reason)] = rejects(db_path)
    assert (file_path, line) == ("judgements.csv", 3)
    assert reason.startswith("the CSV reader could not read this record: too many columns")


def test_jsonl_lines_that_are_no_json_object_are_rejects(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=[], judgements_file="judgements.jsonl")
    (folder / "judgements.jsonl").write_text(
        '{"unit_id": "u1", "rater_id": "r1", "question": "safe", "value": "yes"}\n\n{oops\n["u1"]\n'
        '{"unit_id": "u1", "rater_id": "r2", "question": "quality", "value": "ok"}\n',
        encoding="utf-8",
    )
    db_path = tmp_path / "warehouse.duckdb"
    assert ingest_dataset(db_path, folder).returncode == 0
    assert landed_lines(db_path) == [1, 5]
    assert [row[2:] for row in rejects(db_path)] == [
        (2, "empty line"),
        (3, "not valid JSON"),
        (4, "not a JSON object"),
    ]


@pytest.mark.parametrize("crlf_lines", [[2], [1, 3], [4]], ids=["one-crlf-line", "two-crlf-lines", "the-last-line"])
def test_jsonl_lines_keep_their_numbers_whatever_their_line_ends_and_a_repeated_key_is_a_reject(
    tmp_path: Path, crlf_lines: list[int]
) -> None:
    folder = write_dataset(tmp_path / "study", judgements=[], judgements_file="judgements.jsonl")
    lines = [
        '{"unit_id": "u1", "rater_id": "r1", "question": "safe", "value": "yes"}',
        '{"unit_id": "u1", "rater_id": "r1", "question": "quality", "value": "good"}',
        '{"unit_id": "u2", "rater_id": "r1", "question": "safe", "value": "no", "value": "yes"}',  # `value` twice
        '{"unit_id": "u2", "rater_id": "r3", "question": "quality", "value": "excellent"}',
    ]
    text = "".join(line + ("\r\n" if number in crlf_lines else "\n") for number, line in enumerate(lines, start=1))
    (folder / "judgements.jsonl").write_bytes(text.encode("utf-8"))
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert landed_lines(db_path) == [1, 2, 4]
    assert rejects(db_path) == [
        ("chatbot_study", "judgements.jsonl", 3, "key value given twice in one object; give each key once")
    ]
    assert "dataset chatbot_study: 3 judgement(s), 0 missing value(s), 1 reject(s)" in completed.stdout


def test_a_parquet_with_a_nested_column_beside_the_needed_ones_loads(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", judgements=[], judgements_file="judgements.parquet")
    path = folder / "judgements.parquet"
    with duckdb.connect() as con:
        con.execute(
            "copy (select * from (values ('u1', 'r1', 'safe', 'yes', {'model': 'a', 'seconds': 3}), "
            "('u1', 'r2', 'safe', 'maybe', {'model': 'b', 'seconds': 4})) "
            f"as rows(unit_id, rater_id, question, value, meta)) to '{path}' (format parquet)"
        )
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert landed_lines(db_path) == [1]
    [(line, reason, raw_text)] = query(db_path, "select line_number, reason, raw_text from raw.ingest_rejects")
    assert (line, reason) == (2, "value 'maybe': not a label of safe (yes|no|unsure)")
    assert list(json.loads(raw_text)) == ["unit_id", "rater_id", "question", "value", "meta"]
    assert "seconds" in json.loads(raw_text)["meta"]  # the nested column's text kept in the reject


def test_a_units_key_holding_a_quote_is_kept_among_its_other_columns(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "study", units=[{"unit_id": "u1", "text": "one", 'the "topic"': "greeting"}])
    db_path = tmp_path / "warehouse.duckdb"

    completed = ingest_dataset(db_path, folder)

    assert completed.returncode == 0, completed.stderr
    assert query(db_path, "select unit_id, other_columns from raw.dataset_units") == [
        ("u1", '{"the \\"topic\\"":"greeting"}')
    ]


# --- folder-level problems: one line naming the file, nothing loaded --------------------------------


def _drop(name: str):
    return lambda folder: (folder / name).unlink()


def _replace(name: str, old: str, new: str):
    def edit(folder: Path) -> None:
        path = folder / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")

    return edit


def _rename(old: str, new: str):
    return lambda folder: (folder / old).rename(folder / new)


def _append(name: str, text: str):
    return lambda folder: (folder / name).write_text((folder / name).read_text() + text)


def _line_ends(name: str, crlf_lines: int):
    """The file's first `crlf_lines` lines ending in CRLF, the others in LF."""

    def edit(folder: Path) -> None:
        path = folder / name
        lines = path.read_text(encoding="utf-8").splitlines()
        ends = ["\r\n"] * crlf_lines + ["\n"] * (len(lines) - crlf_lines)
        path.write_bytes("".join(line + end for line, end in zip(lines, ends)).encode("utf-8"))

    return edit


def _judgements_in_a_struct(folder: Path) -> None:
    """judgements.csv rewritten as judgements.parquet whose columns sit inside one struct column."""
    source, target = folder / "judgements.csv", folder / "judgements.parquet"
    with duckdb.connect() as con:
        con.execute(
            f"copy (select {{'unit_id': unit_id, 'rater_id': rater_id, 'question': question, 'value': value}} "
            f"as answer from read_csv('{source}', all_varchar = true)) to '{target}' (format parquet)"
        )
    source.unlink()


FOLDER_ERRORS = [
    ("no-dataset-yml", _drop("dataset.yml"), "dataset.yml: no such file (a dataset folder holds dataset.yml"),
    ("no-questions-csv", _drop("questions.csv"), "questions.csv: no such file (a dataset folder holds dataset.yml"),
    (
        "no-judgements-file",
        _rename("judgements.csv", "ratings.csv"),
        "judgements.csv: no such file, nor any judgements* file (a dataset folder holds",
    ),
    (
        "judgements-without-rater-id",
        _replace("judgements.csv", "unit_id,rater_id,", "unit_id,annotator,"),
        "judgements.csv: no column 'rater_id' (a judgements file has the columns unit_id, rater_id, question, value",
    ),
    (
        "questions-without-level",
        _replace("questions.csv", "question,level,", "question,kind,"),
        "questions.csv: no column 'level' (questions.csv has the columns question, level",
    ),
    (
        "raters-without-rater-id",
        _replace("raters.csv", "rater_id,rater_kind", "id,rater_kind"),
        "raters.csv: no column 'rater_id' (raters.csv has the column rater_id",
    ),
    (
        "units-without-unit-id",
        _replace("units.jsonl", '"unit_id"', '"id"'),
        "units.jsonl: no column 'unit_id' (a units file has the column unit_id",
    ),
    (
        "unknown-level",
        _replace("questions.csv", "quality,ordinal,", "quality,likert,"),
        "questions.csv: line 3: level 'likert' of 'quality' is not one of nominal, ordinal, interval, ratio",
    ),
    (
        "labels-on-an-interval-question",
        _replace("questions.csv", "engagement,interval,,", "engagement,interval,low|high,"),
        "questions.csv: line 4: labels on the interval question 'engagement'; an interval question takes numbers",
    ),
    (
        "nominal-question-without-labels",
        _replace("questions.csv", "safe,nominal,yes|no|unsure,", "safe,nominal,,"),
        "questions.csv: line 2: the nominal question 'safe' has no labels (give them |-separated, in order)",
    ),
    (
        "a-question-twice",
        _append("questions.csv", "safe,nominal,a|b,,,,again\n"),
        "questions.csv: line 6: question 'safe' again (first on line 2)",
    ),
    (
        "invalid-name",
        _replace("dataset.yml", "name: chatbot_study", "name: Chatbot Study"),
        "dataset.yml: name 'Chatbot Study' is not a dataset name (2-32 of a-z, 0-9 and _, starting with a letter)",
    ),
    (
        "name-of-a-built-in-source",
        _replace("dataset.yml", "name: chatbot_study", "name: dices"),
        "dataset.yml: name 'dices' is taken (built-in sources and the warehouse's own:",
    ),
    (
        "name-of-the-judges",
        _replace("dataset.yml", "name: chatbot_study", "name: judge"),
        "dataset.yml: name 'judge' is taken",
    ),
    (
        "no-license",
        _replace("dataset.yml", "license: CC BY 4.0\n", ""),
        "dataset.yml: no 'license' (a dataset.yml gives",
    ),
    (
        "bins-not-ascending",
        _replace("dataset.yml", "[25, 35, 45, 55]", "[25, 45, 35, 55]"),
        "dataset.yml: bins of 'age': not ascending (35 after 45); cut points are ascending numbers",
    ),
    (
        "a-dimension-naming-no-column",
        _append("dataset.yml", "dimensions: [gender, hometown]\n"),
        "dataset.yml: dimensions: 'hometown' is no attribute column of raters.csv (age, gender, country)",
    ),
    (
        "bins-of-no-column",
        _replace("dataset.yml", "age: [25", "years: [25"),
        "dataset.yml: bins: 'years' is no attribute column of raters.csv (age, gender, country)",
    ),
    ("not-yaml", _append("dataset.yml", "dimensions: [gender\n"), "dataset.yml: line 11: "),
    (
        "judgements-with-mixed-line-ends",
        _line_ends("judgements.csv", 2),
        "judgements.csv: its lines end in both CRLF (first at line 1) and LF (first at line 3), which the CSV "
        "reader cannot split; save it with one kind of line end (e.g. dos2unix) and load it again; nothing was loaded",
    ),
    (
        "raters-with-a-late-crlf",
        _append("raters.csv", "r7,crowd,40,male,DE\r\n"),
        "raters.csv: its lines end in both CRLF (first at line 6) and LF (first at line 1)",
    ),
    (
        "semicolon-delimited-judgements",
        _replace("judgements.csv", ",", ";"),
        "judgements.csv: line 1 (header) is one column 'unit_id;rater_id;question;value;round': the file is "
        "separated by semicolons, a judgements CSV by commas; save it comma-separated; nothing was loaded",
    ),
    (
        "capitalised-header",
        _replace("judgements.csv", "unit_id,rater_id,", "Unit_ID,rater_id,"),
        "judgements.csv: no column 'unit_id', but a column 'Unit_ID': column names are lower case, without "
        "blanks; rename it; nothing was loaded",
    ),
    (
        "judgements-inside-a-parquet-struct",
        _judgements_in_a_struct,
        "judgements.parquet: no column 'unit_id': the columns sit inside the struct column 'answer'; write them "
        "as top-level columns (in DuckDB: copy (select answer.* from …) to …); nothing was loaded",
    ),
]


@pytest.mark.parametrize(
    ("edit", "answer"), [case[1:] for case in FOLDER_ERRORS], ids=[case[0] for case in FOLDER_ERRORS]
)
def test_a_bad_folder_is_one_line_naming_the_file_and_loads_nothing_of_the_command(
    tmp_path: Path, edit, answer: str
) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    assert ingest_dataset(db_path, write_dataset(tmp_path / "earlier", name="earlier")).returncode == 0
    before = checksum(db_path)
    good = write_dataset(tmp_path / "good", name="good_study")
    bad = write_dataset(tmp_path / "bad")
    edit(bad)

    completed = ingest_dataset(db_path, good, bad)

    line = the_one_error(completed)
    assert line.startswith(f"dwh: error: {bad}/{answer}"), line
    assert line.endswith("nothing was loaded"), line
    assert "Traceback" not in completed.stderr
    assert checksum(db_path) == before  # the good dataset of the same command did not load either
    assert query(db_path, "select distinct dataset from raw.dataset_judgements") == [("earlier",)]


def test_two_folders_of_one_name_are_refused(tmp_path: Path) -> None:
    first, second = write_dataset(tmp_path / "one"), write_dataset(tmp_path / "two")
    completed = ingest_dataset(tmp_path / "warehouse.duckdb", first, second)
    assert the_one_error(completed) == (
        f"dwh: error: {second}/dataset.yml: name 'chatbot_study' is also the name of {first}/dataset.yml; "
        "a dataset is loaded from one folder; nothing was loaded"
    )


def test_a_path_that_is_no_folder_is_one_line(tmp_path: Path) -> None:
    completed = ingest_dataset(tmp_path / "warehouse.duckdb", tmp_path / "nowhere")
    assert the_one_error(completed).startswith(f"dwh: error: {tmp_path / 'nowhere'}: no such folder (a dataset folder")
