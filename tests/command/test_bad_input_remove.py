"""`dwh remove --dataset NAME` / `--judge NAME` (issue 63): a dataset or a judge taken out of the
warehouse, all or nothing, saying what it removed per raw table; the next build takes it out of the
marts. An unknown name, or none, is one line and changes nothing."""

from pathlib import Path

import pytest

from tests.bad_input import checksum, the_one_error
from tests.dataset_folders import GOOD_JUDGEMENTS, write_dataset
from tests.helpers import query, run_dwh

DATASET_ROWS = {
    "raw.dataset_manifests": 1,
    "raw.dataset_bins": 5,
    "raw.dataset_questions": 4,
    "raw.dataset_judgements": 14,
    "raw.dataset_raters": 4,
    "raw.dataset_rater_attributes": 12,
    "raw.dataset_units": 3,
    "raw.dataset_files": 3,
}


def removed_rows(stdout: str) -> dict[str, int]:
    """The table lines of what `dwh remove` printed: table → rows."""
    return {
        line.split()[0]: int(line.split()[1].replace(",", "")) for line in stdout.splitlines() if line.startswith("  ")
    }


def judges_file(path: Path, rows: list[tuple[str, str, str, str]]) -> Path:
    path.write_text("judge,dialogue_key,question,value\n" + "".join(",".join(row) + "\n" for row in rows))
    return path


@pytest.fixture
def two_studies(tmp_path: Path) -> Path:
    """A warehouse holding two studies, one with a reject, never built."""
    db_path = tmp_path / "warehouse.duckdb"
    study = write_dataset(tmp_path / "study", judgements=None)
    other_rows = [*GOOD_JUDGEMENTS[:5], ("u1", "r3", "safe", "maybe", "1")]
    other = write_dataset(tmp_path / "other", name="other_study", judgements=other_rows)
    run_dwh(["ingest", "--dataset", str(study), "--dataset", str(other)], db_path, check=True)
    return db_path


def test_removing_a_dataset_says_its_rows_per_table_and_leaves_the_other(two_studies: Path) -> None:
    other_before = query(two_studies, "select * from raw.dataset_manifests where dataset = 'other_study'")

    completed = run_dwh(["remove", "--dataset", "chatbot_study"], two_studies)

    assert completed.returncode == 0, completed.stderr
    lines = completed.stdout.splitlines()
    assert lines[0] == "removed dataset chatbot_study: 46 row(s)"
    assert lines[-1] == "dwh build takes it out of the marts"
    assert removed_rows(completed.stdout) == {**DATASET_ROWS, "raw.ingest_rejects": 0, "raw.judge_judgements": 0}
    for table in DATASET_ROWS:
        assert query(two_studies, f"select distinct dataset from {table}") in ([("other_study",)], [])
    assert query(two_studies, "select * from raw.dataset_manifests") == other_before
    assert query(two_studies, "select source from raw.ingest_rejects") == [("other_study",)]

    rejects = run_dwh(["remove", "--dataset", "other_study"], two_studies)
    assert removed_rows(rejects.stdout)["raw.ingest_rejects"] == 1
    assert query(two_studies, "select count(*) from raw.ingest_rejects") == [(0,)]


@pytest.mark.parametrize(
    ("args", "answer"),
    [
        (["--dataset", "chatbot"], "no dataset 'chatbot' to remove (it holds chatbot_study, other_study)"),
        (["--judge", "gpt"], "no judge 'gpt' to remove (it holds no judge)"),
    ],
    ids=["unknown-dataset", "unknown-judge"],
)
def test_an_unknown_name_is_one_line_naming_those_held_and_changes_nothing(
    two_studies: Path, args: list[str], answer: str
) -> None:
    before = checksum(two_studies)
    completed = run_dwh(["remove", *args], two_studies)
    assert the_one_error(completed) == f"dwh: error: {two_studies}: {answer}; nothing was removed"
    assert checksum(two_studies) == before


def test_remove_without_a_name_or_with_both_is_a_usage_error(two_studies: Path) -> None:
    for args in ([], ["--dataset", "chatbot_study", "--judge", "gpt"]):
        completed = run_dwh(["remove", *args], two_studies)
        assert completed.returncode == 2 and "Traceback" not in completed.stderr
        assert completed.stderr.splitlines()[-1].startswith("dwh remove: error: ")


@pytest.mark.slow  # three builds
def test_a_removed_judge_and_dataset_leave_the_marts_after_the_next_build(two_studies: Path, tmp_path: Path) -> None:
    run_dwh(["build"], two_studies, check=True)
    rows = [
        (judge, f"chatbot_study:{unit}", "safe", value)
        for judge, values in (("judge_a", ("yes", "no")), ("judge_b", ("no", "no")))
        for unit, value in zip(("u1", "u2"), values)
    ]
    run_dwh(["ingest", "--judges", str(judges_file(tmp_path / "judges.csv", rows))], two_studies, check=True)
    run_dwh(["build"], two_studies, check=True)
    assert query(two_studies, "select distinct judge from marts.judge_agreement order by 1") == [
        ("judge_a",),
        ("judge_b",),
    ]

    judge = run_dwh(["remove", "--judge", "judge_a"], two_studies)

    assert judge.returncode == 0, judge.stderr
    assert judge.stdout.splitlines()[0] == "removed judge judge_a: 2 row(s)"
    assert removed_rows(judge.stdout) == {"raw.judge_judgements": 2}
    assert query(two_studies, "select distinct judge from raw.judge_judgements") == [("judge_b",)]

    dataset = run_dwh(["remove", "--dataset", "chatbot_study"], two_studies)

    assert removed_rows(dataset.stdout)["raw.judge_judgements"] == 2  # judge_b's of its units
    built = run_dwh(["build"], two_studies)
    assert built.returncode == 0, built.stdout + built.stderr
    assert query(two_studies, "select distinct source from marts.ratings") == [("other_study",)]
    assert query(two_studies, "select count(*) from marts.judge_agreement") == [(0,)]
    sourced = query(
        two_studies,
        "select table_name from duckdb_columns() where schema_name = 'marts' and column_name = 'source' "
        "and table_name in (select table_name from duckdb_tables() where schema_name = 'marts')",
    )
    for (table,) in sourced:
        assert query(two_studies, f"select count(*) from marts.{table} where source = 'chatbot_study'") == [(0,)]
