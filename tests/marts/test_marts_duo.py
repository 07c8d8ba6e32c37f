"""`dwh ingest` + `dwh build` end to end on DUO: the real release's figures and failing tests that name rows."""

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import BuiltWarehouse, dbt_folders, failing_rows, query, run_dwh, selecting, warned_or_failed_tests

pytestmark = pytest.mark.slow  # dbt builds


@dataclass(frozen=True)
class Build:
    stdout: str
    # the data tests that warned, with the rows each found (read from run_results.json at once:
    # the next build in this session overwrites it)
    warned_rows: dict[str, list[dict]]


def build_warehouse(db_path: Path, duo: Path) -> Build:
    """Ingest and build; what the build said and warned of, or a test failure with everything dbt said."""
    run_dwh(["ingest", "--duo", str(duo)], db_path, check=True)
    built = run_dwh(["build"], db_path)
    if built.returncode != 0:
        pytest.fail(built.stdout + built.stderr)
    warned = [name for name, status in warned_or_failed_tests().items() if status == "warn"]
    return Build(built.stdout, {name: failing_rows(db_path, name) for name in warned})


@pytest.fixture(scope="module")
def real_warehouse(real_duo_build: BuiltWarehouse) -> tuple[Path, BuiltWarehouse]:
    """The session's build of the real release (conftest.py)."""
    return real_duo_build.db_path, real_duo_build


def test_real_release_dialogue_counts(real_warehouse: tuple[Path, str]) -> None:
    db_path, _ = real_warehouse
    counts = query(
        db_path,
        """
        select setting || '/' || language, count(*), count(*) filter (where has_objective_evaluation)
        from marts.dialogues group by 1 order by 1""",
    )
    assert counts == [("ed/en", 157, 50), ("ed/ja", 68, 45), ("wow/en", 157, 46), ("wow/ja", 73, 45)]
    assert query(db_path, "select count(*) from marts.turns") == [(9343,)]


def test_real_release_ratings_and_raters(real_warehouse: tuple[Path, str]) -> None:
    db_path, _ = real_warehouse
    kinds = dict(query(db_path, "select rating_kind, count(*) from marts.ratings group by 1"))
    assert kinds == {"objective": 2232, "subjective": 1820}
    users = dict(query(db_path, "select language, count(*) from marts.raters where rater_role = 'duo_user' group by 1"))
    assert users == {"en": 39, "ja": 79}
    participants = query(
        db_path,
        """
        select setting || '/' || language, observed_value from marts.published_statistics_comparison
        where statistic = 'n_participants' order by 1""",
    )
    assert participants == [("ed/en", 34.0), ("ed/ja", 52.0), ("wow/en", 34.0), ("wow/ja", 52.0)]


def test_real_release_keys_keep_the_quirks(real_warehouse: tuple[Path, str]) -> None:
    db_path, _ = real_warehouse
    rows = query(
        db_path,
        """
        select dialogue_key, source_dialogue_id, style_prompt_raw, style_prompt from marts.dialogues
        where dialogue_key in ('duo:en:0003', 'duo:ja:2000') order by 1""",
    )
    assert [r[:2] for r in rows] == [("duo:en:0003", "0003"), ("duo:ja:2000", "2000")]
    prompts = query(
        db_path, "select distinct style_prompt_raw, style_prompt from marts.dialogues where language = 'ja'"
    )
    assert set(prompts) == {("ent", "aligned"), ("neutral", "neutral"), ("nonent", "not_aligned")}


# The real release's differences from its card that the docs explain (docs/RELEASES.md: DUO): the files
# carry the SIGDIAL English objective set (50 / 46 evaluated dialogues, card 70 / 71) and its means and SDs.
EXPLAINED_ON_THE_REAL_RELEASE = {
    ("en", "ed", "n_dialogues_with_objective_evaluation"),
    ("en", "wow", "n_dialogues_with_objective_evaluation"),
    *(
        ("en", "ed", f"objective_{metric}")
        for metric in [
            "preference_mean",
            "preference_sd",
            "consistency_mean",
            "consistency_sd",
            "stylistic_similarity_mean",
            "empathy_mean",
            "empathy_sd",
        ]
    ),
    *(
        ("en", "wow", f"objective_{metric}")
        for metric in [
            "preference_mean",
            "consistency_mean",
            "consistency_sd",
            "stylistic_similarity_mean",
            "stylistic_similarity_sd",
            "engagingness_mean",
            "engagingness_sd",
        ]
    ),
}


def test_card_and_release_disagree_only_where_documented(real_warehouse: tuple[Path, Build]) -> None:
    db_path, build = real_warehouse
    comparison = query(
        db_path,
        """
        select language, setting, statistic, published_value, observed_value, comparison, is_match,
            difference_reason, difference_source
        from marts.published_statistics_comparison""",
    )
    by_cell = {(lang, setting, stat): tuple(rest) for lang, setting, stat, *rest in comparison}
    assert by_cell[("en", "ed", "n_dialogues_with_objective_evaluation")][:4] == (70.0, 50.0, "explained", False)
    assert by_cell[("en", "wow", "n_dialogues_with_objective_evaluation")][:4] == (71.0, 46.0, "explained", False)
    assert by_cell[("en", "ed", "n_dialogues_with_objective_evaluation")][4] == (
        "the release carries the SIGDIAL English objective set:"
        " 50 evaluated ED dialogues where the journal card counts 70"
    )
    assert by_cell[("ja", "wow", "n_utterances")][:3] == (1533.0, 1533.0, "match")
    assert by_cell[("en", "ed", "n_tokens")][2] == "not comparable"
    # every difference is explained, each with its reason and the documents behind it; nothing else is
    assert {cmp for _, _, cmp, *_ in by_cell.values()} == {"match", "explained", "not comparable"}
    explained = {key: value for key, value in by_cell.items() if value[2] == "explained"}
    assert set(explained) == EXPLAINED_ON_THE_REAL_RELEASE
    for _, _, _, is_match, reason, source in explained.values():
        assert is_match is False
        assert reason.startswith("the release carries the SIGDIAL English objective set")
        assert "docs/RELEASES.md: DUO" in source and "DUO dataset card" in source
    assert all(value[4] is None and value[5] is None for value in by_cell.values() if value[2] != "explained")
    matched = sum(1 for value in by_cell.values() if value[2] == "match")
    assert matched > 2 * len(explained)
    # explained differences are not warnings: the real release builds without any
    assert build.warned_rows == {}


@pytest.fixture(scope="module")
def altered_warehouse(real_duo: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Build]:
    """The real release with two files changed: a Japanese figure that matched the card stops matching,
    and an English objective figure moves away from the value its explanation was written for."""
    root = tmp_path_factory.mktemp("unexplained")
    release = root / "duo"
    shutil.copytree(real_duo, release)
    japanese = release / "ed" / "ja" / "2000.json"
    japanese.chmod(0o644)
    document = json.loads(japanese.read_text(encoding="utf-8"))
    preference = document["subjective_evaluation"]["preference"]
    document["subjective_evaluation"]["preference"] = 5.0 if preference <= 3 else 1.0
    japanese.write_text(json.dumps(document, ensure_ascii=False, indent=4), encoding="utf-8")
    english = release / "ed" / "en" / "0000.json"
    english.chmod(0o644)
    document = json.loads(english.read_text(encoding="utf-8"))
    assert document["objective_evaluation"]["preference_scores"] == [3.0, 4.0, 4.0]
    document["objective_evaluation"]["preference_scores"] = [5.0, 5.0, 5.0]
    document["objective_evaluation"]["preference"] = 5.0
    english.write_text(json.dumps(document, ensure_ascii=False, indent=4), encoding="utf-8")
    db_path = root / "warehouse.duckdb"
    return db_path, build_warehouse(db_path, release)


def test_unexplained_mismatch_still_warns(altered_warehouse: tuple[Path, Build]) -> None:
    db_path, build = altered_warehouse
    row = query(
        db_path,
        """
        select comparison, is_match, difference_reason from marts.published_statistics_comparison
        where language = 'ja' and setting = 'ed' and statistic = 'subjective_preference_mean'""",
    )
    assert row == [("mismatch", False, None)]
    assert set(build.warned_rows) == {"published_statistics_comparison_warnings"}
    warned = build.warned_rows["published_statistics_comparison_warnings"]
    assert {row["broken_rule"] for row in warned} == {"published_statistics_match"}
    assert any(row["language"] == "ja" and row["statistic"] == "subjective_preference_mean" for row in warned)
    # the explained rows are not among the warned ones
    assert "n_dialogues_with_objective_evaluation" not in {row["statistic"] for row in warned}
    assert query(
        db_path,
        """
        select count(*) from marts.published_statistics_comparison
        where comparison = 'explained' and statistic = 'n_dialogues_with_objective_evaluation'""",
    ) == [(2,)]


def test_explanation_holds_only_for_the_figure_it_was_written_for(altered_warehouse: tuple[Path, Build]) -> None:
    db_path, build = altered_warehouse
    rows = query(
        db_path,
        """
        select statistic, comparison, difference_reason from marts.published_statistics_comparison
        where language = 'en' and setting = 'ed' and statistic like 'objective_preference_%' order by 1""",
    )
    assert rows == [("objective_preference_mean", "mismatch", None), ("objective_preference_sd", "mismatch", None)]
    warned = {
        (row["language"], row["setting"], row["statistic"])
        for row in build.warned_rows["published_statistics_comparison_warnings"]
    }
    assert {("en", "ed", "objective_preference_mean"), ("en", "ed", "objective_preference_sd")} <= warned


@pytest.fixture(scope="module")
def two_score_release(real_duo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    release = tmp_path_factory.mktemp("altered") / "duo"
    shutil.copytree(real_duo, release)
    target = release / "ed" / "en" / "0003.json"
    target.chmod(0o644)
    document = json.loads(target.read_text(encoding="utf-8"))
    document["objective_evaluation"]["empathy_scores"] = [4.0, 3.0]
    target.write_text(json.dumps(document, indent=4), encoding="utf-8")
    return release


def test_two_annotator_scores_fail_the_build_naming_the_dialogue(two_score_release: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--duo", str(two_score_release)], db_path, check=True)
    built = run_dwh(["build", *selecting("int_duo__objective_metrics_rules")], db_path)
    assert built.returncode != 0
    failure = built.stdout[built.stdout.index("FAIL: int_duo__objective_metrics_rules") :].splitlines()
    assert failure[1].split()[0] == "broken_rule" and "dialogue_key" in failure[1] and "n_scores" in failure[1]
    [row] = [line for line in failure[2:] if line.startswith("  duo_objective_three_annotator_scores ")]
    assert "duo:en:0003" in row and "empathy" in row and "[4.0,3.0]" in row
    assert built.stderr.strip().startswith("dwh: error: dbt build failed")
    assert len(built.stderr.strip().splitlines()) == 1


def test_sample_builds_green(sample_build: BuiltWarehouse) -> None:
    """The scale-1 sample (the session's build of all three datasets, as `make demo` builds it): DUO's part."""
    db_path, stdout = sample_build.db_path, sample_build.stdout
    assert query(db_path, "select count(*) from marts.dialogues where source = 'duo'") == [(455,)]
    assert query(db_path, "select count(*) from marts.ratings where source = 'duo' and rating_kind = 'objective'") == [
        (186 * 4 * 3,)
    ]
    assert "FAIL" not in stdout
    # the sample has every figure of the card (its objective counts are the release's, as explained)
    assert query(
        db_path,
        """
        select comparison, count(*) from marts.published_statistics_comparison where dataset = 'duo'
        group by 1 order by 1""",
    ) == [("explained", 2), ("match", 94), ("not comparable", 4)]
    assert sample_build.warned_rows == {}
    # not a terminal: no colour codes, no dbt log lines; a summary and the path of dbt's log
    assert "\x1b[" not in stdout and "START" not in stdout
    assert re.search(r"^Done\. PASS=\d+ WARN=0 ERROR=0 SKIP=0 .* \(\d+\.\d s\)$", stdout, flags=re.MULTILINE)
    log_file = Path(re.search(r"^dbt's log: (.+)$", stdout, flags=re.MULTILINE).group(1))
    assert log_file == sample_build.log_file  # DBT_LOG_PATH/dbt.log: this build's log alone
    logged = log_file.read_text(encoding="utf-8")
    assert "OK created sql table model intermediate.int_duo__dialogues" in logged
    assert "SQL status" not in logged  # the statements themselves only when asked for (below)


def test_a_warehouse_of_another_name_elsewhere_reuses_the_last_parse(real_duo: Path, tmp_path: Path) -> None:
    """dbt parses the whole project once per target folder: the dbt child opens the database by one
    name relative to its own folder, so a warehouse of any name in any folder has the same profile,
    and its build reuses the last parse (dbt's partial parsing)."""
    folders = dbt_folders(tmp_path)
    log_file = tmp_path / "logs" / "dbt.log"
    for folder, name in (("first", "warehouse.duckdb"), ("second", "eval.duckdb")):
        db_path = tmp_path / folder / name
        db_path.parent.mkdir()
        run_dwh(["ingest", "--duo", str(real_duo)], db_path, check=True)
        logged_before = log_file.read_text(encoding="utf-8") if log_file.exists() else ""
        run_dwh(["build", "--select", "stg_duo__dialogues"], db_path, check=True, env_overrides=folders)
        assert query(db_path, "select count(*) from staging.stg_duo__dialogues") == [(455,)]
    second_build = log_file.read_text(encoding="utf-8").removeprefix(logged_before)
    assert "Unable to do partial parsing" not in second_build, second_build


def test_build_passes_dbt_selection_and_flags_through(real_duo: Path, tmp_path: Path) -> None:
    """`dwh build --select …` builds only the selection, still staged and published atomically."""
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--duo", str(real_duo)], db_path, check=True)
    built = run_dwh(["build", "--select", "+int_duo__dialogues", "--exclude", "resource_type:unit_test"], db_path)
    assert built.returncode == 0, built.stdout + built.stderr
    tables = {
        row[0] for row in query(db_path, "select table_schema || '.' || table_name from information_schema.tables")
    }
    assert "intermediate.int_duo__dialogues" in tables
    assert "marts.dialogues" not in tables and "marts.agreement" not in tables
    assert query(db_path, "select count(*) from intermediate.int_duo__dialogues") == [(455,)]
    assert not db_path.with_name(db_path.name + ".next").exists()

    verbose = run_dwh(
        ["build", "--verbose", "--select", "stg_duo__dialogues"],
        db_path,
        env_overrides={"DBT_LOG_PATH": str(tmp_path / "verbose-logs")},
    )
    assert verbose.returncode == 0, verbose.stdout + verbose.stderr
    assert "OK created sql view model staging.stg_duo__dialogues" in verbose.stdout  # dbt's own lines
    assert "\x1b[" not in verbose.stdout
    assert "SQL status" in (tmp_path / "verbose-logs" / "dbt.log").read_text(encoding="utf-8")

    unknown = run_dwh(["build", "--no-such-dbt-flag"], db_path)
    assert unknown.returncode != 0
    assert unknown.stderr.strip().splitlines()[-1].startswith("dwh: error: dbt build could not run")
    assert query(db_path, "select count(*) from intermediate.int_duo__dialogues") == [(455,)]
