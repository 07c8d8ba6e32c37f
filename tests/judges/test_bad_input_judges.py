"""Judges' files (`dwh ingest --judges`), `dwh tasks` and the judges' figures, as a careless or
hostile user meets them: bad rows are rejects with file, line and reason while the rest loads; a
file that cannot load is one line naming the cause and the fix, and loads nothing; no load loses a
judge's earlier work it was not asked to replace (the unit of replacement is judge × source), and
says what it replaced; `dwh tasks` never replaces a file it did not write; a figure from too little
data is null, never a finding.
"""

import json
import os
import shutil
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd
import pytest

from agreement_core.judge_figures import judges
from agreement_core.judge_figures.judge_references import judge_question
from agreement_core.settings import MonteCarloSettings
from dwh.reporting.report_judges import judge_colours
from sample_data.judges import JUDGES, write_judges_sample
from tests.bad_input import checksum, the_one_error, write_text
from tests.dataset_folders import write_dataset
from tests.helpers import dbt_folders, failing_rows, query, run_dwh, run_dwh_in_this_process
from tests.judge_cases import NO_MONTE_CARLO, inputs, planted_case, write_judges

pytestmark = pytest.mark.slow  # each case runs the command line; some build


@pytest.fixture(scope="module")
def judged_units(small_sample_build) -> dict[str, str]:
    """A DUO dialogue of each setting, a DICES item of each scope with a question only its scope asks,
    and a ReDial conversation with a movie its forms answer `liked` about."""
    db = small_sample_build.db_path
    with duckdb.connect(str(db), read_only=True) as con:
        duo = con.execute("select min(dialogue_key) from marts.dialogues where source = 'duo'").fetchone()[0]
        wow = con.execute(
            "select min(dialogue_key) from marts.ratings where source = 'duo' and question = 'engagingness'"
        ).fetchone()[0]
        redial, movie = con.execute(
            "select dialogue_key, movie_id from marts.ratings where source = 'redial' and question = 'liked' "
            "order by all limit 1"
        ).fetchone()
        dices = dict(
            con.execute(
                "select split_part(dialogue_key, ':', 1), min(dialogue_key) from marts.ratings "
                "where source = 'dices' group by 1"
            ).fetchall()
        )
    return {
        "duo": duo,
        "wow": wow,
        "redial": redial,
        "movie": movie,
        "dices350": dices["dices350"],
        "dices990": dices["dices990"],
    }


@pytest.fixture(scope="module")
def sample_judges(small_sample_release: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample's five judges written over the small sample (a folder of one CSV per judge)."""
    root = Path(shutil.copytree(small_sample_release, tmp_path_factory.mktemp("judged") / "sample"))
    write_judges_sample(root, seed=0)
    return root / "judges"


@pytest.fixture
def judged_warehouse(small_sample_build, sample_judges: Path, tmp_path: Path) -> Path:
    """A copy of the small sample's build with the sample's five judges loaded."""
    db_path = small_sample_build.copy_to(tmp_path / "db")
    run_dwh_in_this_process(["ingest", "--judges", str(sample_judges)], db_path, check=True)
    return db_path


def per_judge_and_source(db_path: Path) -> list[tuple]:
    return query(db_path, "select judge, source, count(*) from raw.judge_judgements group by all order by all")


def rejects_of(db_path: Path) -> list[tuple]:
    return query(
        db_path, "select file_path, line_number, reason from raw.ingest_rejects where source = 'judge' order by all"
    )


def write_csv(path: Path, rows: list[tuple], header: str = "judge,dialogue_key,question,movie_id,value") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, header + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows))
    return path


def judge_line(judge: str, dialogue_key: str, question: str, value: object, movie_id: str | None = None) -> str:
    return json.dumps(
        {"judge": judge, "dialogue_key": dialogue_key, "question": question, "movie_id": movie_id, "value": value}
    )


def test_judges_jsonl_bad_lines_are_rejects_and_the_rest_loads(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo, redial, movie = judged_units["duo"], judged_units["redial"], judged_units["movie"]
    lines = [
        judge_line("j", duo, "empathy", 3.5),  # 1: lands (a number in JSON)
        "",  # 2
        "{not json",  # 3
        '["a list"]',  # 4
        judge_line("j", redial, "liked", 1, movie_id=None),  # 5: ReDial without its movie
        judge_line("j", duo, "empathy", 4, movie_id="123"),  # 6: a movie on a DUO judgement
        judge_line("j", duo, "preference", "high"),  # 7
        judge_line("j", duo, "consistency", 0.5),  # 8
        judge_line("j", redial, "liked", 0, movie_id=movie),  # 9: lands (movie id as text)
        judge_line("j", duo, "engagingness", None),  # 10: value null
    ]
    path = tmp_path / "judges" / "j.jsonl"
    path.parent.mkdir()
    write_text(path, "\n".join(lines) + "\n")

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path.parent)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select line_number from raw.judge_judgements order by 1").fetchall()
        rejects = con.execute(
            "select file_path, line_number, reason from raw.ingest_rejects where source = 'judge' order by 2"
        ).fetchall()
    assert landed == [(1,), (9,)]
    assert rejects == [
        (str(path), 2, "empty line"),
        (str(path), 3, "not valid JSON"),
        (str(path), 4, "not a JSON object"),
        (str(path), 5, "movie_id: empty; a ReDial judgement names the form's movie"),
        (str(path), 6, "movie_id '123': only ReDial judgements name a movie"),
        (str(path), 7, "value 'high': not a number; preference takes a number from 1 to 5"),
        (str(path), 8, "value '0.5': off the scale of consistency (1 to 5)"),
        (str(path), 10, "value: empty"),
    ]


def test_judges_csv_record_the_reader_cannot_split_is_a_reject_and_later_lines_keep_their_numbers(
    small_sample_build, judged_units: dict[str, str], tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo = judged_units["duo"]
    path = tmp_path / "j.csv"
    write_text(
        path,
        "judge,dialogue_key,question,value\n"
        f"j,{duo},empathy,3\n"
        f"j,{duo},preference,3,extra,fields\n"
        f"j,{duo},consistency,2\n"
        f"j,{duo},wit,2\n",
    )

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 0, completed.stderr
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute("select question, line_number from raw.judge_judgements order by 2").fetchall()
        rejects = con.execute(
            "select line_number, reason from raw.ingest_rejects where source = 'judge' order by 1"
        ).fetchall()
    assert landed == [("empathy", 2), ("consistency", 4)]
    assert [line for line, _ in rejects] == [3, 5]
    assert rejects[0][1].startswith("the CSV reader could not read this record: too many columns")
    assert rejects[1][1] == "question 'wit': not a question of duo (seeds/judgement_questions.csv)"


@pytest.mark.parametrize(
    ("name", "content", "answer"),
    [
        ("no_judge.csv", "dialogue_key,question,value\nduo:en:0000,empathy,3\n", "no column 'judge'"),
        (
            "no_value.jsonl",
            '{"judge": "j", "dialogue_key": "duo:en:0000", "question": "empathy"}\n',
            "no column 'value'",
        ),
        ("notes.txt", "judge,dialogue_key,question,value\n", "not a judges file by its extension"),
        (
            "semicolons.csv",
            "judge;dialogue_key;question;value\nj;duo:en:0000;empathy;3\n",
            "line 1 (header) is one column 'judge;dialogue_key;question;value': the file is separated by "
            "semicolons, a judges CSV by commas; save it comma-separated; nothing was loaded",
        ),
        (
            "tabs.csv",
            "judge\tdialogue_key\tquestion\tvalue\nj\tduo:en:0000\tempathy\t3\n",
            "line 1 (header) is one column 'judge\\tdialogue_key\\tquestion\\tvalue': the file is separated by tabs",
        ),
        (
            "capitalised.csv",
            "Judge,dialogue_key,question,value\nj,duo:en:0000,empathy,3\n",
            "no column 'judge', but a column 'Judge': column names are lower case, without blanks; rename it; "
            "nothing was loaded",
        ),
        (
            "blank.csv",
            "judge ,dialogue_key,question,value\nj,duo:en:0000,empathy,3\n",
            "no column 'judge', but a column 'judge ': column names are lower case, without blanks",
        ),
        (
            "mixed_line_ends.csv",
            "judge,dialogue_key,question,value\r\nj,duo:en:0000,empathy,3\r\nj,duo:en:0000,preference,3\n"
            "j,duo:en:0000,consistency,3\n",
            "its lines end in both CRLF (first at line 1) and LF (first at line 3), which the CSV reader cannot "
            "split; save it with one kind of line end (e.g. dos2unix) and load it again; nothing was loaded",
        ),
        (
            "late_mixed_line_ends.csv",
            "judge,dialogue_key,question,value\n" + "j,duo:en:0000,empathy,3\n" * 5 + "j,duo:en:0000,wit,3\r\n",
            "its lines end in both CRLF (first at line 7) and LF (first at line 1)",
        ),
        ("answers.json", '[{"judge": "j"}]', "not a judges file by its extension; a .json file is not read"),
        ("answers.tsv", "judge\tvalue\n", "not a judges file by its extension; a .tsv file is not read"),
        (
            "two_cases.csv",
            "judge,Judge,dialogue_key,question,value\nj,k,duo:en:0000,empathy,3\n",
            "line 1 (header) repeats column(s) Judge, judge; nothing was loaded",
        ),
        (
            "two_cases.jsonl",
            '{"judge": "j", "dialogue_key": "duo:en:0000", "question": "empathy", "value": 3}\n'
            '{"Judge": "k", "dialogue_key": "duo:en:0000", "question": "empathy", "value": 4}\n',
            "line 1 (header) repeats column(s) Judge, judge; nothing was loaded",
        ),
        (
            "trailing_comma.csv",
            "judge,dialogue_key,question,value,\nj,duo:en:0000,empathy,3,\n",
            "line 1 (header) has a column without a name; nothing was loaded",
        ),
        (
            "own_name.csv",
            "judge,dialogue_key,question,value,_line\nj,duo:en:0000,empathy,3,7\n",
            "column '_line': a name dwh uses for itself; rename it; nothing was loaded",
        ),
    ],
    ids=[
        "csv-without-judge",
        "jsonl-without-value",
        "not-a-judges-file",
        "semicolon-delimited",
        "tab-delimited",
        "capitalised-header",
        "header-with-a-blank",
        "mixed-lf-crlf",
        "mixed-lf-crlf-late",
        "json-array",
        "tsv",
        "csv-columns-differing-only-in-case",
        "jsonl-keys-differing-only-in-case",
        "csv-column-without-a-name",
        "a-column-named-as-dwhs-own",
    ],
)
def test_a_judges_file_that_cannot_load_is_one_line_and_loads_nothing(
    name: str, content: str, answer: str, small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    before = checksum(db_path)
    path = tmp_path / name
    write_text(path, content)

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert the_one_error(completed).startswith(f"dwh: error: {path}: {answer}")
    assert checksum(db_path) == before


@pytest.mark.parametrize("nesting", ["struct", "struct-and-others"])
def test_a_parquet_whose_columns_sit_in_a_struct_is_one_line_naming_it(
    nesting: str, small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    path = tmp_path / "nested.parquet"
    extra = ", 'x' as note" if nesting == "struct-and-others" else ""
    with duckdb.connect() as con:
        con.execute(
            "copy (select {'judge': 'j', 'dialogue_key': 'duo:en:0000', 'question': 'empathy', 'value': '3'} "
            f"as answer{extra}) to '{path}' (format parquet)"
        )

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert the_one_error(completed) == (
        f"dwh: error: {path}: no column 'judge': the columns sit inside the struct column 'answer'; write them as "
        "top-level columns (in DuckDB: copy (select answer.* from …) to …); nothing was loaded"
    )


# ------------------------------------------------------------------ nothing lost: judge × source


@pytest.mark.parametrize(
    "spoil",
    [
        lambda row: {**row, "question": row["question"][0].swapcase() + row["question"][1:]},  # Empathy, q_overall
        lambda row: {**row, "dialogue_key": row["dialogue_key"] + "x"},  # an unknown dialogue
        lambda row: {**row, "value": "7" if row["source"] == "duo" else "Perhaps"},  # off the scale
    ],
    ids=["misspelt-question", "unknown-dialogue", "value-off-the-scale"],
)
def test_a_reload_whose_every_row_is_rejected_keeps_every_judges_earlier_judgements(
    spoil, judged_warehouse: Path, tmp_path: Path
) -> None:
    before = per_judge_and_source(judged_warehouse)
    rows = query(
        judged_warehouse,
        "select judge, source, dialogue_key, question, coalesce(movie_id, ''), value_text from raw.judge_judgements "
        "qualify row_number() over (partition by judge order by source, dialogue_key, question) <= 2",
    )
    spoilt = [spoil(dict(zip(["judge", "source", "dialogue_key", "question", "movie_id", "value"], r))) for r in rows]
    path = write_csv(
        tmp_path / "bad.csv",
        [(r["judge"], r["dialogue_key"], r["question"], r["movie_id"], r["value"]) for r in spoilt],
    )

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], judged_warehouse)

    assert completed.returncode == 0, completed.stderr
    assert f"judges: 0 judge(s) loaded, 0 judgement(s), {len(rows)} reject(s)" in completed.stdout
    assert per_judge_and_source(judged_warehouse) == before  # nothing lost
    for judge in JUDGES:
        kept = ", ".join(f"{source} {n:,}" for j, source, n in before if j == judge)
        assert (
            f"judges: '{judge}': none of its 2 row(s) in this load landed (see raw.ingest_rejects); "
            f"its earlier judgements are kept ({kept})"
        ) in completed.stdout.splitlines()


@pytest.mark.parametrize(
    "suffixes", [(".csv", ".jsonl"), (".jsonl", ".parquet")], ids=["csv-then-jsonl", "jsonl-then-parquet"]
)
@pytest.mark.parametrize("order", [("duo", "dices"), ("dices", "redial"), ("redial", "duo")], ids="-then-".join)
def test_a_judge_answered_per_source_keeps_every_source_and_says_what_it_replaced(
    order: tuple[str, str], suffixes: tuple[str, str], judged_warehouse: Path, tmp_path: Path
) -> None:
    def answers(source: str) -> list[dict]:
        rows = query(
            judged_warehouse,
            "select dialogue_key, question, movie_id, value_text from raw.judge_judgements "
            f"where judge = 'judge_random' and source = '{source}' order by all limit 5",
        )
        return [dict(zip(["dialogue_key", "question", "movie_id", "value"], r), judge="one_judge") for r in rows]

    for source, suffix in zip(order, suffixes):
        write_judges(tmp_path / f"{source}{suffix}", answers(source))
        run_dwh_in_this_process(
            ["ingest", "--judges", str(tmp_path / f"{source}{suffix}")], judged_warehouse, check=True
        )
    again = run_dwh_in_this_process(
        ["ingest", "--judges", str(tmp_path / f"{order[0]}{suffixes[0]}")], judged_warehouse, check=True
    )

    kept = [row for row in per_judge_and_source(judged_warehouse) if row[0] == "one_judge"]
    assert kept == sorted(("one_judge", source, 5) for source in order)  # the second source did not wipe the first
    assert f"judges: 'one_judge' on {order[0]}: its 5 earlier judgement(s) replaced by this load's 5" in again.stdout
    assert f"'one_judge' on {order[1]}" not in again.stdout  # the other source is not touched, and not named


@pytest.mark.parametrize("layout", ["two-folders", "file-and-folder"])
def test_two_files_of_one_name_keep_their_own_rejects_and_source_file(
    layout: str, judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo = judged_units["duo"]
    team_a = write_csv(tmp_path / "team_a" / "judges.csv", [("a", duo, "empathy", "", 3), ("a", duo, "wit", "", 3)])
    team_b = write_csv(tmp_path / "team_b" / "judges.csv", [("b", duo, "empathy", "", 2), ("b", duo, "grit", "", 3)])
    given_a = team_a.parent if layout == "file-and-folder" else team_a

    run_dwh_in_this_process(["ingest", "--judges", str(given_a)], db_path, check=True)
    run_dwh_in_this_process(["ingest", "--judges", str(team_b)], db_path, check=True)

    assert [line for _, line, _ in rejects_of(db_path)] == [3, 3]
    assert {file for file, _, _ in rejects_of(db_path)} == {str(team_a), str(team_b)}
    assert query(db_path, "select judge, source_file from raw.judge_judgements order by 1") == [
        ("a", str(team_a)),
        ("b", str(team_b)),
    ]


# ------------------------------------------------------------------ silent surprises, answered


def test_a_judgement_of_a_unit_its_dialogue_was_not_asked_is_a_reject(
    judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    u = judged_units
    [(only_350,)] = query(
        db_path,
        "select min(question) from marts.ratings where source = 'dices' and dialogue_key like 'dices350:%' "
        "and question not in (select question from marts.ratings where dialogue_key like 'dices990:%')",
    )
    rows = [
        ("j", u["wow"], "engagingness", "", 3),  # lands: a WoW question
        ("j", u["wow"], "empathy", "", 3),  # an ED question of a WoW dialogue, beside a sibling that lands
        ("k", u["wow"], "empathy", "", 3),  # the same without a sibling
        ("j", u["dices990"], only_350, "", "No"),  # a 350-only question of a 990 item
        ("j", u["dices350"], only_350, "", "No"),  # lands
    ]
    path = write_csv(tmp_path / "j.csv", rows)

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 0, completed.stderr
    assert "judges: 1 judge(s) loaded, 2 judgement(s), 3 reject(s)" in completed.stdout
    not_asked = " (no human rating of it in marts.ratings; dwh tasks lists the units to judge)"
    assert rejects_of(db_path) == [
        (str(path), 3, f"question 'empathy': not asked of {u['wow']}{not_asked}"),
        (str(path), 4, f"question 'empathy': not asked of {u['wow']}{not_asked}"),
        (str(path), 5, f"question '{only_350}': not asked of {u['dices990']}{not_asked}"),
    ]


@pytest.mark.parametrize("same_file_twice", [False, True], ids=["two-paths", "a-path-given-twice"])
def test_every_judges_path_given_loads(
    same_file_twice: bool, judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    first = write_csv(tmp_path / "first.csv", [("a", judged_units["duo"], "empathy", "", 3)])
    second = write_csv(tmp_path / "folder" / "second.csv", [("b", judged_units["duo"], "empathy", "", 4)])
    paths = [first, first, second.parent] if same_file_twice else [first, second.parent]

    completed = run_dwh_in_this_process(
        ["ingest", *(arg for path in paths for arg in ("--judges", str(path)))], db_path
    )

    assert completed.returncode == 0, completed.stderr
    assert "judges: 2 judge(s) loaded, 2 judgement(s), 0 reject(s)" in completed.stdout
    assert query(db_path, "select judge from raw.judge_judgements order by 1") == [("a",), ("b",)]


@pytest.mark.parametrize("blank", ["a trailing blank", "a leading blank", "a tab"])
def test_a_judge_name_with_blanks_is_the_same_judge(
    blank: str, judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    name = {"a trailing blank": "gpt ", "a leading blank": " gpt", "a tab": "gpt\t"}[blank]
    first = write_csv(tmp_path / "a.csv", [(name, judged_units["duo"], "empathy", "", 3)])
    run_dwh_in_this_process(["ingest", "--judges", str(first)], db_path, check=True)

    completed = run_dwh_in_this_process(
        ["ingest", "--judges", str(write_csv(tmp_path / "b.csv", [("gpt", judged_units["duo"], "empathy", "", 4)]))],
        db_path,
        check=True,
    )

    assert query(db_path, "select judge, value_text from raw.judge_judgements") == [("gpt", "4")]
    assert "judges: 'gpt' on duo: its 1 earlier judgement(s) replaced by this load's 1" in completed.stdout


def test_files_a_folder_does_not_load_are_named(
    judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    folder = tmp_path / "answers"
    write_csv(folder / "good.csv", [("j", judged_units["duo"], "empathy", "", 3)])
    write_text(folder / "arrays.json", '[{"judge": "j"}]')
    write_text(folder / "packed.csv.gz", b"\x1f\x8b")
    write_text(folder / "tabs.tsv", "judge\tvalue\n")
    write_text(folder / ".hidden.csv", "judge,dialogue_key,question,value\n")
    elsewhere = write_csv(tmp_path / "elsewhere" / "more.csv", [("k", judged_units["duo"], "empathy", "", 3)])
    os.symlink(elsewhere.parent, folder / "linked")

    completed = run_dwh_in_this_process(["ingest", "--judges", str(folder)], db_path)

    assert completed.returncode == 0, completed.stderr
    named = [line for line in completed.stdout.splitlines() if line.startswith("judges: not loaded: ")]
    assert named == [
        f"judges: not loaded: {folder / '.hidden.csv'}: a hidden file is not read; rename it, or give it as its "
        "own --judges",
        f"judges: not loaded: {folder / 'arrays.json'}: a .json file is not read (a JSON array or object); write "
        "one JSON object a line as .jsonl",
        f"judges: not loaded: {folder / 'linked'}: a symbolic link to a folder is not followed; give it as its own "
        "--judges",
        f"judges: not loaded: {folder / 'packed.csv.gz'}: a compressed file is not read; decompress it (gunzip) "
        "and load the .csv / .jsonl",
        f"judges: not loaded: {folder / 'tabs.tsv'}: a .tsv file is not read; a judges CSV is comma-separated: "
        "save it as .csv with commas",
    ]
    assert query(db_path, "select judge from raw.judge_judgements") == [("j",)]


@pytest.mark.parametrize("crlf_lines", [[2], [1, 3], [4]], ids=["one-crlf-line", "two-crlf-lines", "the-last-line"])
def test_jsonl_lines_keep_their_numbers_whatever_their_line_ends_and_a_repeated_key_is_a_reject(
    crlf_lines: list[int], judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    duo = judged_units["duo"]
    lines = [
        judge_line("j", duo, "empathy", 3),
        judge_line("j", duo, "preference", 3),
        judge_line("j", duo, "consistency", 2)[:-1] + ', "value": 5}',  # the key `value` twice
        judge_line("j", duo, "wit", 3),
    ]
    text = "".join(line + ("\r\n" if number in crlf_lines else "\n") for number, line in enumerate(lines, start=1))
    path = tmp_path / "j.jsonl"
    write_text(path, text)

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 0, completed.stderr
    assert query(db_path, "select line_number from raw.judge_judgements order by 1") == [(1,), (2,)]
    assert rejects_of(db_path) == [
        (str(path), 3, "key value given twice in one object; give each key once"),
        (str(path), 4, "question 'wit': not a question of duo (seeds/judgement_questions.csv)"),
    ]


@pytest.mark.parametrize("movie_id", ["{movie}.0", "{movie}.00"])
def test_a_decimal_redial_movie_id_is_a_reject_naming_the_cause_and_the_fix(
    movie_id: str, judged_units: dict[str, str], small_sample_build, tmp_path: Path
) -> None:
    db_path = small_sample_build.copy_to(tmp_path / "db")
    given = movie_id.format(movie=judged_units["movie"])
    path = write_csv(tmp_path / "j.csv", [("j", judged_units["redial"], "liked", given, 1)])

    run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path, check=True)

    assert rejects_of(db_path) == [
        (
            str(path),
            2,
            f"movie_id '{given}': a ReDial movie id is a whole number ({judged_units['movie']}); a table tool wrote "
            "it as a decimal (pandas does for a column with empty cells): write the ids as whole numbers",
        )
    ]


# ------------------------------------------------------------------------------------- dwh tasks


@pytest.mark.parametrize(
    "existing",
    [b"judge,dialogue_key,question,value\nj,duo:en:0000,empathy,3\n", b'{"judge": "j"}\n', b"\x00\x01"],
    ids=["a-judges-answers-csv", "a-judges-answers-jsonl", "binary"],
)
def test_tasks_never_replace_a_file_they_did_not_write(existing: bytes, small_sample_build, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    write_text(out, existing)

    completed = run_dwh_in_this_process(["tasks", str(out)], small_sample_build.db_path)

    assert the_one_error(completed) == (
        f"dwh: error: {out}: already exists and is not a task file dwh wrote; dwh tasks replaces only its own "
        "earlier task file: choose another path, or remove this file first"
    )
    assert out.read_bytes() == existing


def test_tasks_replace_their_own_earlier_file(small_sample_build, tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"
    run_dwh_in_this_process(["tasks", str(out), "--source", "duo"], small_sample_build.db_path, check=True)

    run_dwh_in_this_process(["tasks", str(out), "--source", "redial"], small_sample_build.db_path, check=True)

    assert json.loads(out.read_text().splitlines()[0])["dialogue_key"].startswith("redial:")


@pytest.mark.parametrize("depth", ["parent", "grandparent"])
def test_tasks_under_a_path_whose_folder_is_a_file_is_one_line(depth: str, small_sample_build, tmp_path: Path) -> None:
    blocking = tmp_path / "answers.csv"
    write_text(blocking, "judge\n")
    out = blocking / "tasks.jsonl" if depth == "parent" else blocking / "sub" / "tasks.jsonl"

    completed = run_dwh_in_this_process(["tasks", str(out)], small_sample_build.db_path)

    assert the_one_error(completed) == (
        f"dwh: error: {out}: {blocking} is a file, not a folder, so dwh tasks cannot write under it; choose a path "
        "in a folder"
    )


# ------------------------------------------------------------------ figures from too little data


def few_units_case(n_units: int, constant_reference: bool = False) -> dict:
    """`planted_case` (nominal, DICES-like raters with genders) cut to a judge of `n_units` units."""
    case = planted_case(np.random.default_rng(3), 40, sided=True)
    case["judge_rows"] = [row for row in case["judge_rows"] if row["unit_id"] < n_units]
    if constant_reference:
        case["rows"] = [{**row, "value_code": 1} for row in case["rows"]]
    return case


@pytest.mark.parametrize(
    ("n_units", "constant", "has_xrr"),
    [(1, False, False), (5, False, True), (9, False, True), (40, True, False)],
    ids=["one-judgement", "five-units", "nine-units", "constant-reference"],
)
def test_figures_from_too_little_data_are_null_and_never_beat_the_humans(
    n_units: int, constant: bool, has_xrr: bool
) -> None:
    case = few_units_case(n_units, constant)
    settings = MonteCarloSettings(True, 1, 200, 200, ("*",))

    rows = judges.as_result([judges.question_rows(judge_question(*inputs(case)), settings)])

    assert (rows["n_units"] == n_units).all()
    assert rows["xrr"].notna().all() == has_xrr and (rows["xrr"].isna().all() or has_xrr)
    assert rows[["xrr_ci_low", "xrr_ci_high", "judge_percentile"]].isna().all().all()


def test_a_judge_with_enough_units_has_its_interval_and_place_among_the_humans() -> None:
    case = few_units_case(judges.MIN_JUDGE_UNITS)
    settings = MonteCarloSettings(True, 1, 200, 200, ("*",))

    rows = judges.as_result([judges.question_rows(judge_question(*inputs(case)), settings)])

    raters = rows[rows["reference_dimension"] == "raters"].iloc[0]
    assert raters["n_units"] == judges.MIN_JUDGE_UNITS
    assert raters["xrr_ci_low"] <= raters["xrr"] <= raters["xrr_ci_high"] and pd.notna(raters["judge_percentile"])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_alignment_over_a_chance_level_rest_is_null_and_the_rest_are_read(seed: int) -> None:
    rng = np.random.default_rng(seed)
    case = planted_case(rng, 40, sided=False)  # a random judge

    rows = judges.as_result([judges.question_rows(judge_question(*inputs(case)), NO_MONTE_CARLO)])

    groups = rows[rows["reference_dimension"] == "gender"]
    below = groups["xrr_with_rest"] < judges.ALIGNMENT_FLOOR
    assert groups.loc[below, "alignment"].isna().all()
    assert (groups.loc[~below, "alignment"] == groups.loc[~below, "xrr"] / groups.loc[~below, "xrr_with_rest"]).all()


# ------------------------------------------------------------------------------------- the report


@pytest.mark.parametrize("n_judges", [3, 10, 23, 60])
def test_each_judge_has_a_colour_of_its_own_the_same_in_every_chart(n_judges: int) -> None:
    names = [f"judge_{number:02d}" for number in range(n_judges)]

    scale = judge_colours(names)

    assert scale.domain == names  # one mapping, given to every chart
    assert len(set(scale.range)) == n_judges  # no colour repeats


# ------------------------------------------------------------ judgements a later reload leaves behind


def test_judgements_whose_units_a_reload_removed_are_set_aside_with_the_command_that_drops_them(
    small_sample_build, small_sample_release: Path, tmp_path: Path
) -> None:
    """The build is what this test tests: it builds twice on a copy of the small sample."""
    db_path = small_sample_build.copy_to(tmp_path / "db")
    env = dbt_folders(tmp_path / "dbt")
    gone, kept = "duo:en:0000", "duo:en:0001"
    answers = write_csv(
        tmp_path / "answers" / "j.csv", [("j", gone, "preference", "", 3), ("j", kept, "preference", "", 4)]
    )
    run_dwh_in_this_process(["ingest", "--judges", str(answers)], db_path, check=True)
    duo = Path(shutil.copytree(small_sample_release / "duo", tmp_path / "duo"))
    (duo / "ed" / "en" / "0000.json").unlink()  # the release reloaded without the judged dialogue
    run_dwh_in_this_process(["ingest", "--duo", str(duo)], db_path, check=True)

    built = run_dwh(["build"], db_path, env_overrides=env)

    assert built.returncode == 0, built.stdout[-3000:] + built.stderr  # a warning publishes
    assert "WARN: judge_judgements_reach_a_unit (1 row(s))" in built.stdout
    assert f"dwh ingest --judges {answers}" in built.stdout  # the command that drops it, in the row
    judged = query(db_path, "select judge, n_units from marts.judge_agreement where reference_dimension = 'user'")
    assert judged == [("j", 1)]  # the unit still judged; the removed one set aside

    dropped = run_dwh_in_this_process(["ingest", "--judges", str(answers)], db_path, check=True)

    assert "judges: 'j' on duo: its 2 earlier judgement(s) replaced by this load's 1" in dropped.stdout
    assert rejects_of(db_path) == [
        (str(answers), 2, f"dialogue_key '{gone}': not in marts.dialogues (the warehouse's last build)")
    ]


# ------------------------------------------------------- a dataset reloaded under its loaded judges

RECODED_QUESTIONS = """\
question,level,labels,min,max,missing,wording
safe,nominal,{safe},,,,Is the reply safe?
quality,ordinal,{quality},,,,How good is the reply?
topic,nominal,{topic},,,,What is the reply about?
"""
SAFE, QUALITY, TOPIC = ["yes", "no", "unsure"], ["bad", "ok", "good", "excellent"], ["food", "travel", "other"]


def study_rows() -> list[tuple[str, ...]]:
    """30 units, 3 raters each, on the three questions: most raters give the unit's label."""
    rng = np.random.default_rng(7)
    rows = []
    for unit in range(30):
        truth = {"safe": SAFE[unit % 3], "quality": QUALITY[unit % 4], "topic": TOPIC[unit % 3]}
        for rater in range(3):
            for question, labels in (("safe", SAFE), ("quality", QUALITY), ("topic", TOPIC)):
                value = truth[question] if rng.random() < 0.8 else labels[rng.integers(len(labels))]
                rows.append((f"u{unit}", f"r{rater}", question, value, "1"))
    return rows


def recoded_study(folder: Path, safe: list[str], quality: list[str], topic: list[str]) -> Path:
    """The study with its labels listed in the orders given (a judgement whose label a list lacks is a
    reject of the dataset's ingest; the rest loads)."""
    questions = RECODED_QUESTIONS.format(safe="|".join(safe), quality="|".join(quality), topic="|".join(topic))
    manifest = "name: recoded\ntitle: A recoded study\nlicense: CC BY 4.0\ncitation: Doe (2026)\n"
    return write_dataset(
        folder, judgements=study_rows(), manifest=manifest, questions=questions, raters=None, units=None
    )


def judge_rows() -> list[tuple]:
    """A judge that gives each unit's most likely label (with a few slips): text labels, as judges write."""
    rows = []
    for unit in range(30):
        slip = unit % 7 == 0
        rows += [
            ("j", f"recoded:u{unit}", "safe", "", SAFE[(unit + slip) % 3]),
            ("j", f"recoded:u{unit}", "quality", "", QUALITY[(unit + slip) % 4]),
            ("j", f"recoded:u{unit}", "topic", "", TOPIC[(unit + slip) % 3]),
        ]
    return rows


def judge_figures(db_path: Path, question: str) -> list[tuple]:
    """The judge's figures that no Monte Carlo draws (an interval's draws follow the values' codes)."""
    return query(
        db_path,
        "select reference_dimension, reference_value, n_units, round(xrr, 9), round(spearman_rho, 9), "
        "round(kendall_tau_b, 9), round(plurality_agreement, 9) from marts.judge_agreement "
        f"where judge = 'j' and question = '{question}' order by all",
    )


def test_a_judge_is_coded_by_the_labels_of_each_build_so_a_dataset_reloaded_with_other_labels_recodes_it(
    tmp_path: Path,
) -> None:
    """The build is what this test tests (three builds of a small study and its judge, two of a
    from-scratch warehouse). Reordering a nominal question's labels and reversing an ordinal one's
    leave every figure as it was: the judge's values follow the labels as the raters' do. A label
    the reload removed sets the judge's values of it aside, named by the build's warning with the
    judge and the question, not a traceback. Every judge mart then equals a from-scratch build's."""
    env = dbt_folders(tmp_path / "dbt")
    db_path = tmp_path / "warehouse.duckdb"
    study = recoded_study(tmp_path / "study", SAFE, QUALITY, TOPIC)
    run_dwh_in_this_process(["ingest", "--dataset", str(study)], db_path, check=True)
    run_dwh(["build"], db_path, check=True, env_overrides=env)
    run_dwh_in_this_process(
        ["ingest", "--judges", str(write_csv(tmp_path / "judge.csv", judge_rows()))], db_path, check=True
    )
    run_dwh(["build"], db_path, check=True, env_overrides=env)
    before = {question: judge_figures(db_path, question) for question in ("safe", "quality")}
    assert all(before.values()) and before["safe"] != before["quality"]

    reloaded = recoded_study(tmp_path / "study", ["unsure", "yes", "no"], QUALITY[::-1], ["travel", "food"])
    run_dwh_in_this_process(["ingest", "--dataset", str(reloaded)], db_path, check=True)
    built = run_dwh(["build"], db_path, env_overrides=env)

    assert built.returncode == 0, built.stdout[-3000:] + built.stderr
    assert "Traceback" not in built.stdout + built.stderr
    assert {question: judge_figures(db_path, question) for question in ("safe", "quality")} == before
    topic_units = {unit for unit, _, question, value, _ in study_rows() if question == "topic" and value != "other"}
    judged = {(key.split(":")[1], value) for _, key, question, _, value in judge_rows() if question == "topic"}
    kept = {unit for unit, value in judged if value != "other" and unit in topic_units}
    set_aside = failing_rows(db_path, "judge_judgements_reach_a_unit", Path(env["DBT_TARGET_PATH"]))
    assert "WARN: judge_judgements_reach_a_unit" in built.stdout
    assert {(row["judge"], row["question"], row["value_text"]) for row in set_aside} == {("j", "topic", "other")} | {
        ("j", "topic", value) for unit, value in judged if value != "other" and unit not in topic_units
    }
    assert {row["reason"] for row in set_aside if row["dialogue_key"].split(":")[1] in topic_units} == {
        "value other is not a value of topic in this build (travel, food)"
    }
    assert query(db_path, "select distinct n_units from marts.judge_agreement where question = 'topic'") == [
        (len(kept),)
    ]
    scratch = tmp_path / "scratch.duckdb"
    run_dwh_in_this_process(["ingest", "--dataset", str(reloaded)], scratch, check=True)
    run_dwh(["build"], scratch, check=True, env_overrides=dbt_folders(tmp_path / "scratch_dbt"))
    run_dwh_in_this_process(["ingest", "--judges", str(tmp_path / "judge.csv")], scratch, check=True)
    run_dwh(["build"], scratch, check=True, env_overrides=dbt_folders(tmp_path / "scratch_dbt"))
    for mart in ("judge_agreement", "judge_replacement", "judge_replacement_raters"):
        assert rounded_rows(db_path, mart) == rounded_rows(scratch, mart), mart


def rounded_rows(db_path: Path, mart: str) -> list[tuple]:
    """A mart's rows in order, doubles rounded to 1e-9."""
    return [
        tuple(round(value, 9) if isinstance(value, float) else value for value in row)
        for row in query(db_path, f"select * from marts.{mart} order by all")
    ]
