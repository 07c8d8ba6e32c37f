"""`dwh ingest --judges` and `dwh tasks`: judges' judgements land in raw.judge_judgements, checked
against the last build's marts, with file and line; the units to judge are written one JSON object a
line; the sample's judges load without a reject. Each test works on a copy of the session's small
built sample (tests/conftest.py) and runs the real command line."""

import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest

from sample_data.judges import JUDGES, write_judges_sample
from tests.helpers import BuiltWarehouse, query, run_dwh, run_dwh_in_this_process
from tests.judge_cases import write_judges


@pytest.fixture
def warehouse(small_sample_build: BuiltWarehouse, tmp_path: Path) -> Path:
    """A private copy of the small sample's built warehouse."""
    return small_sample_build.copy_to(tmp_path / "db")


@pytest.fixture(scope="module")
def units(small_sample_build: BuiltWarehouse) -> dict[str, tuple[str, ...]]:
    """One real unit of each source in the small sample's marts."""
    db = small_sample_build.db_path
    [duo] = query(db, "select min(dialogue_key) from marts.ratings where source = 'duo' and question = 'empathy'")
    [dices] = query(db, "select min(dialogue_key) from marts.ratings where source = 'dices' and question = 'Q_overall'")
    [redial] = query(
        db,
        "select dialogue_key, movie_id from marts.ratings where source = 'redial' and question = 'liked' "
        "order by all limit 1",
    )
    return {"duo": (duo[0],), "dices": (dices[0],), "redial": tuple(redial)}


def good_rows(units: dict[str, tuple[str, ...]], judge: str = "judge_a") -> list[dict]:
    return [
        {"judge": judge, "dialogue_key": units["duo"][0], "question": "empathy", "movie_id": None, "value": "4.25"},
        {"judge": judge, "dialogue_key": units["dices"][0], "question": "Q_overall", "movie_id": None, "value": "No"},
        {
            "judge": judge,
            "dialogue_key": units["redial"][0],
            "question": "liked",
            "movie_id": units["redial"][1],
            "value": "1",
        },
    ]


def judgements(db_path: Path) -> list[tuple]:
    return query(
        db_path,
        "select judge, source, dialogue_key, question, movie_id, value_text, value_number, source_file, line_number "
        "from raw.judge_judgements order by judge, source_file, line_number",
    )


def judge_rejects(db_path: Path) -> list[tuple]:
    return query(
        db_path,
        "select file_path, line_number, reason from raw.ingest_rejects where source = 'judge' order by all",
    )


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_good_file_lands_with_its_file_and_line(suffix: str, units: dict, warehouse: Path, tmp_path: Path) -> None:
    path = write_judges(tmp_path / "in" / f"judge_a{suffix}", good_rows(units))

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], warehouse)

    assert completed.returncode == 0, completed.stderr
    assert "judges: 1 judge(s) loaded, 3 judgement(s), 0 reject(s)" in completed.stdout.splitlines()
    first_line = 2 if suffix == ".csv" else 1  # the header is a CSV's line 1
    name = str(path)  # a file is known by its absolute path
    duo, dices, (redial, movie) = units["duo"][0], units["dices"][0], units["redial"]
    assert judgements(warehouse) == [
        ("judge_a", "duo", duo, "empathy", None, "4.25", 4.25, name, first_line),
        ("judge_a", "dices", dices, "Q_overall", None, "No", 2.0, name, first_line + 1),
        ("judge_a", "redial", redial, "liked", movie, "1", 1.0, name, first_line + 2),
    ]
    assert judge_rejects(warehouse) == []
    summary = run_dwh_in_this_process(["summary"], warehouse, check=True)
    assert "Judges loaded: 1 judge(s), 3 judgement(s) (dices 1, duo 1, redial 1)" in summary.stdout


def test_each_bad_row_is_one_reject_with_file_line_and_reason(units: dict, warehouse: Path, tmp_path: Path) -> None:
    duo, dices, (redial, movie) = units["duo"][0], units["dices"][0], units["redial"]
    good = good_rows(units)
    path = tmp_path / "in" / "judges.csv"
    bad = [
        ({"judge": "judge_a", "dialogue_key": "duo:en:99999", "question": "empathy", "value": "3"},
         r"^dialogue_key 'duo:en:99999': not in marts\.dialogues"),
        ({"judge": "judge_a", "dialogue_key": duo, "question": "wit", "value": "3"},
         r"^question 'wit': not a question of duo"),
        ({"judge": "judge_a", "dialogue_key": redial, "question": "liked", "movie_id": "424242", "value": "1"},
         rf"^movie_id '424242': no ReDial form of {redial} answers liked about this movie$"),
        ({"judge": "judge_a", "dialogue_key": duo, "question": "preference", "value": "5.5"},
         r"^value '5\.5': off the scale of preference \(1 to 5\)$"),
        ({"judge": "judge_a", "dialogue_key": dices, "question": "Q2_harmful_content_overall", "value": "Maybe"},
         r"^value 'Maybe': not a label of Q2_harmful_content_overall \(Yes, No, Unsure\)$"),
        ({"judge": "judge_a", "dialogue_key": redial, "question": "seen", "movie_id": movie, "value": "2"},
         r"^value '2': counts as missing for seen, not a judgement \(0, 1\)$"),
        ({"judge": "", "dialogue_key": duo, "question": "consistency", "value": "3"}, r"^judge: empty$"),
        ({"judge": "judge_a", "dialogue_key": duo, "question": "empathy", "value": "1"},
         rf"^judge 'judge_a': a second value for .* empathy; the first \({re.escape(str(path))} line 2\) counts$"),
    ]  # fmt: skip
    write_judges(path, [*good, *(row for row, _ in bad)])

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], warehouse)

    assert completed.returncode == 0, completed.stderr
    assert "judges: 1 judge(s) loaded, 3 judgement(s), 8 reject(s) (see raw.ingest_rejects)" in completed.stdout
    assert [row[-1] for row in judgements(warehouse)] == [2, 3, 4]
    rejects = judge_rejects(warehouse)
    assert [(file, line) for file, line, _ in rejects] == [(str(path), line) for line in range(5, 13)]
    for (_, _, reason), (_, expected) in zip(rejects, bad):
        assert re.search(expected, reason), (reason, expected)


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_file_without_a_needed_column_is_one_line_and_loads_nothing(
    suffix: str, units: dict, warehouse: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "in"
    write_judges(folder / "a_good.csv", good_rows(units))
    broken = write_judges(folder / f"b_broken{suffix}", good_rows(units, "judge_b"), ["judge", "dialogue_key", "value"])
    before = judgements(warehouse)

    completed = run_dwh_in_this_process(["ingest", "--judges", str(folder)], warehouse)

    lines = [line for line in completed.stderr.splitlines() if not line.startswith("landing ")]
    assert completed.returncode == 1
    assert lines == [
        f"dwh: error: {broken}: no column 'question' (a judges file has the columns judge, dialogue_key, "
        "question, value (and movie_id for ReDial)); nothing was loaded"
    ]
    assert judgements(warehouse) == before == []


def test_loading_a_judge_again_replaces_that_judge_on_the_sources_it_lands_only(
    units: dict, warehouse: Path, tmp_path: Path
) -> None:
    write_judges(tmp_path / "first" / "a.csv", good_rows(units, "judge_a"))
    write_judges(tmp_path / "first" / "b.jsonl", good_rows(units, "judge_b"))
    run_dwh_in_this_process(["ingest", "--judges", str(tmp_path / "first")], warehouse, check=True)
    again = good_rows(units, "judge_a")[:1]
    again[0]["value"] = "2"
    write_judges(tmp_path / "again" / "a2.csv", again)

    completed = run_dwh_in_this_process(
        ["ingest", "--judges", str(tmp_path / "again" / "a2.csv")], warehouse, check=True
    )

    rows = judgements(warehouse)
    assert [(r[0], r[1], r[5], Path(r[7]).name) for r in rows] == [
        ("judge_a", "duo", "2", "a2.csv"),  # its DUO judgement replaced
        ("judge_a", "dices", "No", "a.csv"),  # the sources the new file does not judge are kept
        ("judge_a", "redial", "1", "a.csv"),
        ("judge_b", "duo", "4.25", "b.jsonl"),
        ("judge_b", "dices", "No", "b.jsonl"),
        ("judge_b", "redial", "1", "b.jsonl"),
    ]
    assert "judges: 'judge_a' on duo: its 1 earlier judgement(s) replaced by this load's 1" in completed.stdout


def test_judges_beside_a_release_are_checked_against_the_last_build(
    small_sample_release: Path, warehouse: Path, tmp_path: Path
) -> None:
    path = write_judges(
        tmp_path / "in" / "j.csv", [{"judge": "j", "dialogue_key": "duo:en:77777", "question": "empathy", "value": "3"}]
    )

    completed = run_dwh_in_this_process(
        ["ingest", "--duo", str(small_sample_release / "duo"), "--judges", str(path)], warehouse
    )

    assert completed.returncode == 0, completed.stderr
    assert judge_rejects(warehouse) == [
        (
            str(path),
            2,
            "dialogue_key 'duo:en:77777': not in the warehouse's last build: build after loading the release, "
            "then load the judges",
        )
    ]


def test_tasks_writes_one_json_object_per_unit_with_its_turns(warehouse: Path, tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"

    completed = run_dwh_in_this_process(["tasks", str(out)], warehouse, check=True)

    expected_units = query(
        warehouse,
        "select count(*) from (select distinct dialogue_key, question, movie_id from marts.ratings)",
    )[0][0]
    assert completed.stdout.strip() == f"tasks: {expected_units:,} unit(s) to judge in {out}"
    tasks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(tasks) == expected_units
    keys = [
        (t["dialogue_key"].split(":")[0].rstrip("0123456789"), t["dialogue_key"], t["question"], t["movie_id"] or "")
        for t in tasks
    ]
    assert len(set(keys)) == expected_units and keys == sorted(keys)  # by source, dialogue, question, movie
    by_source = {}
    for task in tasks:
        by_source.setdefault(task["dialogue_key"].split(":")[0], task)
        assert task["wording"] and task["turns"]
        assert all(set(turn) == {"speaker_role", "text"} for turn in task["turns"])
    assert by_source["duo"]["scale"] == {"min": 1, "max": 5} and "labels" not in by_source["duo"]
    assert by_source["dices350"]["question"] == "Q1_whole_conversation_evaluation"
    assert len(by_source["dices350"]["labels"]) == 4
    redial = by_source["redial"]
    assert redial["labels"] == ["0", "1"] and redial["movie_id"]
    assert redial["label_meanings"] == {"0": "no", "1": "yes"}  # what a ReDial label means
    [(title,)] = query(warehouse, f"select movie_title from marts.movies where movie_id = '{redial['movie_id']}'")
    assert redial["movie_title"] == title and title
    assert by_source["duo"]["movie_title"] is None and "label_meanings" not in by_source["duo"]
    n_turns = query(warehouse, f"select n_turns from marts.dialogues where dialogue_key = '{redial['dialogue_key']}'")
    assert len(redial["turns"]) == n_turns[0][0]

    only = run_dwh_in_this_process(
        ["tasks", str(tmp_path / "redial.jsonl"), "--source", "redial"], warehouse, check=True
    )
    lines = (tmp_path / "redial.jsonl").read_text(encoding="utf-8").splitlines()
    assert all(json.loads(line)["dialogue_key"].startswith("redial:") for line in lines)
    assert only.stdout.strip() == f"tasks: {len(lines):,} unit(s) to judge in {tmp_path / 'redial.jsonl'}"


def test_the_samples_judges_load_with_no_reject(small_sample_release: Path, warehouse: Path, tmp_path: Path) -> None:
    sample = Path(shutil.copytree(small_sample_release, tmp_path / "sample"))
    written = write_judges_sample(sample, seed=0)
    assert [p.name for p in written] == [f"{judge}.csv" for judge in JUDGES]
    assert [p.read_bytes() for p in write_judges_sample(sample, seed=0)] == [p.read_bytes() for p in written]

    completed = run_dwh_in_this_process(["ingest", "--judges", str(sample / "judges")], warehouse, check=True)

    assert judge_rejects(warehouse) == []
    assert ", 0 reject(s)" in completed.stdout and "judges: 5 judge(s) loaded" in completed.stdout
    # judge_like_users stays within half a point of each user's own score
    [(worst,)] = query(
        warehouse,
        "select max(abs(j.value_number - r.value_numeric)) from raw.judge_judgements as j "
        "join marts.ratings as r on j.dialogue_key = r.dialogue_key and j.question = r.question "
        "and r.rating_kind = 'subjective' where j.judge = 'judge_like_users'",
    )
    assert worst <= 0.5
    # judge_siding_with_women answers each item as most of its women raters did
    [(disagreements,)] = query(
        warehouse,
        """
        with votes as (
            select r.dialogue_key, r.value_raw, count(*) as n
            from marts.ratings as r join marts.raters as p using (rater_key)
            where r.question = 'Q_overall' and p.gender = 'Woman' group by all
        )
        select count(*) from raw.judge_judgements as j
        where j.judge = 'judge_siding_with_women'
            and (select max(n) from votes where votes.dialogue_key = j.dialogue_key)
                <> (select n from votes where votes.dialogue_key = j.dialogue_key and votes.value_raw = j.value_text)
        """,
    )
    assert disagreements == 0


def test_judges_before_any_build_are_one_line(tmp_path: Path) -> None:
    path = write_judges(tmp_path / "j.csv", [])
    db_path = tmp_path / "never-built.duckdb"

    completed = run_dwh_in_this_process(["ingest", "--judges", str(path)], db_path)

    assert completed.returncode == 1
    assert completed.stderr.strip() == (
        f"dwh: error: {db_path}: the warehouse has no built marts to check judges against; load the releases "
        "(dwh ingest --duo/--redial/--dices) and run dwh build first, then dwh ingest --judges"
    )
    assert not db_path.exists()


# a bound far below the default 512MB: 3 million judgements ran out of it while a window over every
# row found the repeated units (the aggregate that replaced it spills); 2 million land in about 25 s
TIGHT_INGEST_BOUND = "128MB"
MANY_JUDGES = 1_100  # x 1,820 DUO units of the small sample: 2,002,000 judgements


def test_two_million_judgements_land_within_a_tight_memory_bound(warehouse: Path, tmp_path: Path) -> None:
    path = tmp_path / "many.csv"
    with duckdb.connect(str(warehouse), read_only=True) as con:
        con.execute(
            f"""
            copy (
                select 'judge_' || j as judge, dialogue_key, question, null as movie_id,
                    round(1 + 4 * ((hash(j, dialogue_key, question) % 1000) / 1000.0), 2) as value
                from (select distinct dialogue_key, question from marts.ratings where source = 'duo'),
                    range({MANY_JUDGES}) as judges(j)
            ) to '{path}' (format csv, header true)
            """
        )

    completed = run_dwh(
        ["ingest", "--judges", str(path)], warehouse, env_overrides={"DWH_MEMORY_LIMIT": TIGHT_INGEST_BOUND}
    )

    assert completed.returncode == 0, completed.stderr
    assert f"judges: {MANY_JUDGES:,} judge(s) loaded, 2,002,000 judgement(s), 0 reject(s)" in completed.stdout
    [(rows, last_line)] = query(warehouse, "select count(*), max(line_number) from raw.judge_judgements")
    assert (rows, last_line) == (2_002_000, 2_002_001)


def test_tasks_without_built_marts_are_one_line(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(db_path)).close()  # a DuckDB file that no build has filled
    out = tmp_path / "tasks.jsonl"

    completed = run_dwh_in_this_process(["tasks", str(out)], db_path)

    assert completed.returncode == 1
    assert completed.stderr.strip() == (
        f"dwh: error: {db_path}: the marts are not built yet (run dwh build), so there are no units to judge"
    )
    assert not out.exists()
