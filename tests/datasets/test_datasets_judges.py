"""A loaded dataset is a source everywhere a source is named (common/registry.py, docs/DATASETS.md):
`dwh tasks --source <name>` writes its units, a judge of its units loads through `dwh ingest
--judges`, checked like any other, and `judge_agreement` compares it with the dataset's raters, its
experts and its rater groups; `dwh export` writes its rows and `load_reconciliation` holds its
files. One warehouse for the module: the sample's chatbot study, built, its tasks written, a judge
that copies its expert loaded from them, built again."""

import json
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest

from common.registry import built_in_names, known_sources
from sample_data.datasets import write_datasets_sample
from tests.helpers import dbt_folders, query, run_dwh

pytestmark = pytest.mark.slow

STUDY = "chatbot_study"
JUDGE = "copies_the_expert"


def expert_first_values(db: Path) -> dict[tuple[str, str], str]:
    """The study's expert's first value of each (unit, question), as the dataset gave it."""
    rows = query(
        db,
        "select unit_id, question, value from raw.dataset_judgements as j inner join raw.dataset_raters as r "
        "using (dataset, rater_id) "
        f"where dataset = '{STUDY}' and r.rater_kind = 'expert' and not is_missing "
        "qualify row_number() over (partition by unit_id, question order by round_rank) = 1",
    )
    return {(unit, question): value for unit, question, value in rows}


def judge_answers(tasks: list[dict], expert: dict[tuple[str, str], str]) -> list[dict]:
    """The expert's value where the expert judged the unit, else the first label or the scale's middle."""
    answers = []
    for task in tasks:
        unit = task["dialogue_key"].split(":", 1)[1]
        fallback = task["labels"][0] if "labels" in task else (task["scale"]["min"] + task["scale"]["max"]) / 2
        value = expert.get((unit, task["question"]), fallback)
        answers.append(
            {"judge": JUDGE, "dialogue_key": task["dialogue_key"], "question": task["question"], "value": value}
        )
    return answers


@pytest.fixture(scope="module")
def judged_study(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("datasets-judges")
    write_datasets_sample(root / "sample")
    db = root / "warehouse.duckdb"
    env = dbt_folders(root)
    run_dwh(["ingest", "--dataset", str(root / "sample" / "datasets" / STUDY)], db, check=True, env_overrides=env)
    run_dwh(["build"], db, check=True, env_overrides=env)
    tasks_file = root / "tasks.jsonl"
    written = run_dwh(["tasks", str(tasks_file), "--source", STUDY], db, check=True)
    tasks = [json.loads(line) for line in tasks_file.read_text().splitlines()]
    judge_file = root / "judge.jsonl"
    judge_file.write_text("".join(json.dumps(row) + "\n" for row in judge_answers(tasks, expert_first_values(db))))
    loaded = run_dwh(["ingest", "--judges", str(judge_file)], db, check=True, env_overrides=env)
    run_dwh(["build"], db, check=True, env_overrides=env)
    return {"db": db, "root": root, "tasks": tasks, "tasks_output": written.stdout, "loaded": loaded.stdout}


def test_dwh_tasks_writes_a_datasets_units_with_wording_labels_scale_and_turns(judged_study: dict) -> None:
    db, tasks = judged_study["db"], judged_study["tasks"]
    units = query(db, f"select distinct dialogue_key, question from marts.ratings where source = '{STUDY}'")
    assert sorted((t["dialogue_key"], t["question"]) for t in tasks) == sorted(units)
    assert f"tasks: {len(units):,} unit(s) to judge" in judged_study["tasks_output"]
    questions = {
        question: (level, labels, low, high, wording)
        for question, level, labels, low, high, wording in query(
            db,
            "select question, level, labels, min_value, max_value, wording from raw.dataset_questions "
            f"where dataset = '{STUDY}'",
        )
    }
    turns = {
        key: [{"speaker_role": role, "text": text} for role, text in rows]
        for key, rows in query(
            db,
            "select dialogue_key, list((speaker_role, text) order by turn_index) from marts.turns "
            f"where source = '{STUDY}' group by dialogue_key",
        )
    }
    for task in tasks:
        level, labels, low, high, wording = questions[task["question"]]
        assert task["wording"] == wording
        if level in ("nominal", "ordinal"):
            assert task["labels"] == labels and "scale" not in task
        else:
            assert task["scale"] == {"min": low, "max": high} and "labels" not in task
        assert task["turns"] == turns[task["dialogue_key"]] and task["turns"]


def test_an_unknown_source_is_one_line_naming_the_registrys_sources(judged_study: dict, tmp_path: Path) -> None:
    failed = run_dwh(["tasks", str(tmp_path / "tasks.jsonl"), "--source", "chatbot_studdy"], judged_study["db"])
    assert failed.returncode == 1 and not (tmp_path / "tasks.jsonl").exists()
    [line] = failed.stderr.strip().splitlines()
    assert "'chatbot_studdy'" in line and ", ".join([*built_in_names(), STUDY]) in line
    assert "Traceback" not in failed.stderr


def test_the_registry_holds_the_built_ins_and_the_loaded_datasets(judged_study: dict) -> None:
    with duckdb.connect(str(judged_study["db"]), read_only=True) as con:
        sources = known_sources(con)
    assert [(s.name, s.is_dataset) for s in sources] == [*((n, False) for n in built_in_names()), (STUDY, True)]
    assert sources[-1].title == query(judged_study["db"], "select title from raw.dataset_manifests")[0][0]
    assert known_sources(duckdb.connect()) == known_sources()  # a warehouse without datasets: the built-ins


def test_a_judge_of_a_dataset_lands_every_row(judged_study: dict) -> None:
    db = judged_study["db"]
    assert query(db, f"select count(*), min(source) from raw.judge_judgements where judge = '{JUDGE}'") == [
        (len(judged_study["tasks"]), STUDY)
    ]
    assert "0 reject(s)" in judged_study["loaded"]


BAD_ROWS = [
    ("chatbot_study:c001", "safe", "maybe", "value 'maybe': not a label of safe (yes, no, unsure)"),
    ("chatbot_study:c001", "engagement", "101", "value '101': off the scale of engagement (0 to 100)"),
    (
        "chatbot_study:c001",
        "engagement",
        "lots",
        "value 'lots': not a number; engagement takes a number from 0 to 100",
    ),
    ("chatbot_study:c001", "wit", "yes", "question 'wit': not a question of chatbot_study (its questions.csv)"),
    (
        "chatbot_study:nope",
        "safe",
        "yes",
        "dialogue_key 'chatbot_study:nope': not in marts.dialogues (the warehouse's last build)",
    ),
    (
        "chatbot_study:c003",
        "quality",
        "Good",
        "value 'Good': not a label of quality (bad, poor, fair, good, excellent)",
    ),
]


def test_a_bad_row_of_a_dataset_judge_is_a_reject_with_its_reason(judged_study: dict, tmp_path: Path) -> None:
    db = tmp_path / "warehouse.duckdb"
    db.write_bytes(judged_study["db"].read_bytes())
    judge_file = tmp_path / "bad.csv"
    lines = [
        "judge,dialogue_key,question,value",
        "bad,chatbot_study:c002,quality, good ",
        "bad,chatbot_study:c002,engagement,7.5",
    ]
    lines += [f"bad,{key},{question},{value}" for key, question, value, _ in BAD_ROWS]
    judge_file.write_text("\n".join(lines) + "\n")
    loaded = run_dwh(["ingest", "--judges", str(judge_file)], db, check=True)
    assert "2 judgement(s)" in loaded.stdout
    rejects = query(db, "select line_number, reason from raw.ingest_rejects where source = 'judge' order by 1")
    assert rejects == [(number, reason) for number, (*_, reason) in enumerate(BAD_ROWS, start=4)]
    assert query(db, "select question, value_number from raw.judge_judgements where judge = 'bad' order by 1") == [
        ("engagement", 7.5),
        ("quality", 4.0),
    ]


def test_a_judge_of_a_dataset_is_compared_with_its_raters_expert_and_groups(judged_study: dict) -> None:
    db = judged_study["db"]
    references = set(
        query(
            db,
            f"select distinct reference_dimension, reference_value from marts.judge_agreement where judge = '{JUDGE}'",
        )
    )
    groups = set(
        query(
            db,
            f"select distinct group_dimension, group_value from marts.agreement where source = '{STUDY}' "
            "and group_dimension <> 'all'",
        )
    )
    assert groups and references == {("raters", "all"), ("expert", "all")} | groups
    # the judge copies the expert: on the expert's units it agrees with them perfectly
    rows = query(
        db,
        "select question, n_units, xrr from marts.judge_agreement "
        f"where judge = '{JUDGE}' and reference_dimension = 'expert'",
    )
    assert len(rows) == 3 and all(n > 0 and xrr == pytest.approx(1.0) for _, n, xrr in rows)
    [(n_raters, ceiling)] = query(
        db,
        "select max(n_human_raters), count(human_xrr_median) from marts.judge_agreement "
        f"where judge = '{JUDGE}' and reference_dimension = 'raters'",
    )
    assert n_raters > 1 and ceiling == 3


def test_dwh_export_writes_the_datasets_rows(judged_study: dict, tmp_path: Path) -> None:
    """A long mart in a folder of its own per source (`source=<name>/`), the others in one file."""
    db = judged_study["db"]
    run_dwh(["export", str(tmp_path / "export")], db, check=True)
    marts = tmp_path / "export" / "marts"
    for mart in ("ratings", "dialogues", "turns", "raters", "agreement", "judge_agreement", "load_reconciliation"):
        [(expected,)] = query(db, f"select count(*) from marts.{mart} where source = '{STUDY}'")
        if (marts / mart).is_dir():
            exported = pq.read_table(marts / mart / f"source={STUDY}").num_rows
        else:
            table = pq.read_table(marts / f"{mart}.parquet", columns=["source"]).column("source").to_pylist()
            exported = table.count(STUDY)
        assert expected > 0 and exported == expected, mart


def test_load_reconciliation_holds_the_datasets_files_and_each_reaches_the_marts(judged_study: dict) -> None:
    db = judged_study["db"]
    files = query(
        db,
        f"select file_path, records_read, records_landed from raw.dataset_files where dataset = '{STUDY}' order by 1",
    )
    reconciled = query(
        db,
        "select file_path, records_read, records_landed, records_in_marts, is_accounted_for "
        f"from marts.load_reconciliation where source = '{STUDY}' order by 1",
    )
    assert len(files) == 4 and reconciled == [(path, read, landed, landed, True) for path, read, landed in files]
    assert query(db, f"select count(*) from marts.unreached_records where source = '{STUDY}'") == [(0,)]
