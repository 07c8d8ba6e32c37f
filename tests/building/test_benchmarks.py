"""The benchmark harness's pieces on a tiny hand-made sample: no timing assertions."""

import csv
import importlib.util
import io
import json
import re
import sys
import tempfile
import zipfile
from pathlib import Path
from types import ModuleType

import duckdb
import pytest

from tests.helpers import PROJECT_ROOT

BENCH_DIR = PROJECT_ROOT / "benchmarks"

DUO_FILES = {"ed/en/0000.json": 3, "ed/ja/0001.json": 2, "wow/en/0002.json": 4}
TRAIN_LINES = 3
TEST_LINES = 2
MOVIES = [("111", "Heat (1995)", "2"), ("222", 'The "Quoted", Movie', "1")]
DICES_ROWS = {"350": 2, "990": 3}


def load_module(name: str) -> ModuleType:
    """Import a script of benchmarks/ as a module."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def duo_document(dialogue_id: str, messages: int) -> dict:
    """A DUO dialogue file's content with `messages` turns."""
    turns = [
        {"message_id": i, "speaker": "Human" if i % 2 == 0 else "Bot", "message": f"turn {i}", "user_id": dialogue_id}
        for i in range(messages)
    ]
    evaluation = {"preference": 4.0, "preference_scores": [4.0, 4.0, 4.0]}
    return {"dialogue_id": dialogue_id, "setting": "ed", "objective_evaluation": evaluation, "dialogue": turns}


def redial_line(conversation_id: int) -> str:
    """One ReDial JSONL record."""
    record = {
        "conversationId": str(conversation_id),
        "movieMentions": {"111": "Heat (1995)"},
        "respondentQuestions": [],
        "messages": [{"timeOffset": 0, "text": "hi @111", "senderWorkerId": 1, "messageId": 1}],
    }
    return json.dumps(record)


def write_dices(path: Path, rows: int) -> None:
    """A DICES-like CSV whose first context holds a newline inside a quoted field."""
    path.parent.mkdir(parents=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["id", "item_id", "context", "degree_of_harm"])
        for i in range(rows):
            writer.writerow([str(i), str(i // 2), "USER: hi\nLLM: hello" if i == 0 else "A: hi\\nB: hello", ""])


def movies_csv() -> str:
    """movies_with_mentions.csv as the release writes it: quoted where needed, CRLF."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\r\n").writerows([("movieId", "movieName", "nbMentions"), *MOVIES])
    return buffer.getvalue()


@pytest.fixture(scope="module")
def tiny_sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny sample in the release layouts: 3 DUO files, a ReDial zip (CRLF test split), 2 DICES CSVs."""
    root = tmp_path_factory.mktemp("tiny-sample")
    for relative, messages in DUO_FILES.items():
        path = root / "duo" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(duo_document(path.stem, messages), indent=4), encoding="utf-8")
    (root / "redial").mkdir()
    with zipfile.ZipFile(root / "redial" / "redial_dataset.zip", "w") as archive:
        archive.writestr("train_data.jsonl", "".join(redial_line(i) + "\n" for i in range(TRAIN_LINES)))
        archive.writestr("test_data.jsonl", "".join(redial_line(100 + i) + "\r\n" for i in range(TEST_LINES)))
        archive.writestr("movies_with_mentions.csv", movies_csv())
    for version, rows in DICES_ROWS.items():
        write_dices(root / "dices" / version / f"diverse_safety_adversarial_dialog_{version}.csv", rows)
    return root


def table_counts(database: Path) -> dict[str, int]:
    """Rows of every table in a DuckDB file."""
    con = duckdb.connect(str(database), read_only=True)
    try:
        tables = [row[0] for row in con.execute("select table_name from duckdb_tables()").fetchall()]
        return {table: con.execute(f'select count(*) from "{table}"').fetchone()[0] for table in tables}
    finally:
        con.close()


def test_pandas_path_lands_every_frame(tiny_sample: Path, tmp_path: Path) -> None:
    pytest.importorskip("pandas", reason="pandas is the bench extra's dependency")
    pandas_path = load_module("pandas_path")
    database = tmp_path / "pandas.duckdb"
    assert pandas_path.main([str(database), str(tiny_sample)]) == 0
    assert table_counts(database) == {
        "raw_duo_dialogues": len(DUO_FILES),
        "raw_duo_messages": sum(DUO_FILES.values()),
        "raw_redial_train": TRAIN_LINES,
        "raw_redial_test": TEST_LINES,
        "raw_redial_movies": len(MOVIES),
        "raw_dices_350": DICES_ROWS["350"],
        "raw_dices_990": DICES_ROWS["990"],
    }
    con = duckdb.connect(str(database), read_only=True)
    try:
        assert con.execute("select context from raw_dices_350 where id = '0'").fetchone()[0] == "USER: hi\nLLM: hello"
        assert con.execute("select degree_of_harm from raw_dices_990 limit 1").fetchone()[0] == ""
    finally:
        con.close()


def test_duckdb_floor_keeps_every_line(tiny_sample: Path, tmp_path: Path) -> None:
    duckdb_floor = load_module("duckdb_floor")
    database = tmp_path / "floor.duckdb"
    assert duckdb_floor.main([str(database), str(tiny_sample)]) == 0
    assert table_counts(database) == {
        "raw_duo_files": len(DUO_FILES),
        "raw_redial_train": TRAIN_LINES,
        "raw_redial_test": TEST_LINES,
        "raw_redial_movies": len(MOVIES),
        "raw_dices_350": DICES_ROWS["350"],
        "raw_dices_990": DICES_ROWS["990"],
    }
    con = duckdb.connect(str(database), read_only=True)
    try:
        lines = [row[0] for row in con.execute("select line from raw_redial_test").fetchall()]
        assert sorted(lines) == sorted(redial_line(100 + i) for i in range(TEST_LINES))  # CR dropped, text verbatim
        movie = con.execute("select movieName from raw_redial_movies where movieId = '222'").fetchone()[0]
        assert movie == MOVIES[1][1]
        duo = con.execute("select content from raw_duo_files where filename like '%0001.json'").fetchone()[0]
        assert json.loads(duo)["dialogue_id"] == "0001"
    finally:
        con.close()


def test_measure_reports_exit_code_and_memory(tmp_path: Path) -> None:
    measure = load_module("measure")
    result_file = tmp_path / "result.json"
    allocate_and_fail = "import sys; b = bytearray(50 << 20); b[::4096] = b'x' * len(b[::4096]); sys.exit(3)"
    code = measure.main([str(result_file), "--", sys.executable, "-c", allocate_and_fail])
    result = json.loads(result_file.read_text())
    assert code == 3 and result["returncode"] == 3
    assert result["max_rss_kib"] >= 50 * 1024
    assert result["wall_seconds"] > 0 and result["cpu_seconds"] > 0


def sample_results(bench: ModuleType) -> list:
    """Results of two scales, with one failed run and one path whose setup failed."""
    Run, PathResult = bench.Run, bench.PathResult
    return [
        PathResult(
            1,
            "ingest",
            "(a) dwh ingest",
            [Run(0, 2.0, 300_000, 2.5), Run(0, 4.0, 310_000, 4.5), Run(0, 3.0, 305_000, 3.5)],
        ),
        PathResult(1, "build", "(b) dwh build", [Run(0, 50.0, 900_000, 80.0), Run(1, 10.0, 800_000, 9.0)]),
        PathResult(
            1,
            "build_without_monte_carlo",
            "(b′) dwh build without the Monte Carlo (agreement_monte_carlo: false)",
            [Run(0, 40.0, 850_000, 64.0), Run(0, 46.0, 850_000, 60.0)],
        ),
        PathResult(1, "pandas", "(c) pandas + DuckDB", [Run(0, 6.0, 500_000)]),
        PathResult(1, "floor", "(d) DuckDB floor", [Run(0, 1.5, 200_000)]),
        PathResult(10, "ingest", "(a) dwh ingest", [Run(0, 30.0, 1_000_000)]),
        PathResult(10, "build", "(b) dwh build", [], setup_error="setup `dwh ingest` exit 2"),
        PathResult(10, "pandas", "(c) pandas + DuckDB", [Run(0, 90.0, 4_000_000)]),
        PathResult(10, "floor", "(d) DuckDB floor", [Run(0, 15.0, 700_000)]),
    ]


def test_the_twenty_judges_run_at_scale_1_unless_their_paths_are_named(capsys: pytest.CaptureFixture) -> None:
    bench = load_module("run_benchmarks")
    paths = bench.all_paths()
    judges = [path.key for path in paths if path.key in ("judges_ingest", "build_with_judges")]
    assert len(judges) == 2
    assert bench.paths_at(1, paths, named=False) == paths
    at_ten = [path.key for path in bench.paths_at(10, paths, named=False)]
    assert at_ten == [path.key for path in paths if path.key not in judges]
    assert "(f), (g) left out" in capsys.readouterr().err
    assert bench.paths_at(10, paths, named=True) == paths


def test_markdown_table_rows_and_ratios() -> None:
    bench = load_module("run_benchmarks")
    section = bench.render_section(sample_results(bench), [1, 10], {"date": "today", "command": "python x"})
    lines = section.splitlines()
    assert lines[0] == bench.START_MARKER and lines[-1] == bench.END_MARKER
    rows = [line for line in lines if line.startswith("| 1 |") or line.startswith("| 10 |")]
    assert "| 1 | (a) dwh ingest | 3/3 | 3.00 | 2.00 | 4.00 | 3.50 | 303 | ok |" in rows
    assert "| 1 | (b) dwh build | 1/2 | 50.00 | 50.00 | 50.00 | 80.00 | 879 | failed 1/2 (exit 1) |" in rows
    assert "| 10 | (b) dwh build | 0/0 | — | — | — | — | — | failed: setup `dwh ingest` exit 2 |" in rows
    # (b) 50 wall / 80 CPU against (b′) medians 43 wall / 62 CPU; scale 10 has no build to compare
    assert "| 1 | 7.00 | 16% | 18.00 | 29% |" in rows
    assert "| 10 | — | — | — | — |" in rows
    assert "| 1 | 2.00x | 2.00x |" in rows  # pandas 6 / ingest 3, ingest 3 / floor 1.5
    assert "| 10 | 3.00x | 2.00x |" in rows
    assert "| (a) dwh ingest | 10.00x |" in lines and "| (b) dwh build | — |" in lines


def test_markdown_update_keeps_text_outside_markers(tmp_path: Path) -> None:
    bench = load_module("run_benchmarks")
    output = tmp_path / "BENCHMARKS.md"
    first = bench.render_section(sample_results(bench)[:5], [1], {"date": "one", "command": "python x"})
    bench.update_markdown(output, first)
    text = output.read_text()
    output.write_text("# Mine\n\nFindings above.\n\n" + text[text.index(bench.START_MARKER) :] + "\nFindings below.\n")
    second = bench.render_section(sample_results(bench)[5:], [10], {"date": "two", "command": "python y"})
    bench.update_markdown(output, second)
    text = output.read_text()
    assert text.startswith("# Mine\n\nFindings above.\n\n" + bench.START_MARKER)
    assert text.endswith(bench.END_MARKER + "\n\nFindings below.\n")
    assert text.count(bench.START_MARKER) == 1 and "Date: two" in text and "Date: one" not in text
    assert "| 10 | (a) dwh ingest |" in text and "| 1 | (a) dwh ingest |" not in text
    bench.update_markdown(output, second)
    assert output.read_text() == text  # regenerating the same section changes nothing


def test_failed_run_is_recorded_not_raised(tmp_path: Path) -> None:
    bench = load_module("run_benchmarks")
    failing = bench.BenchPath("fail", "(x) fails", lambda sample, db: [sys.executable, "-c", "import sys; sys.exit(4)"])
    (tmp_path / "logs").mkdir()
    result = bench.bench_path(failing, 1, tmp_path, tmp_path, runs=2)
    assert result.status() == "failed 2/2 (exit 4, 4)"
    assert result.median_seconds() is None


def test_build_floor_runs_every_model_and_test_in_dependency_order(tmp_path: Path) -> None:
    """build_floor.py rebuilds a model's table from its compiled SQL on a copy, upstream first, runs the
    tests, takes the seeds and the Python models' tables (no SQL to run) from the built warehouse and
    leaves the ingested database as it was."""
    floor = load_module("build_floor")
    ingested, built = tmp_path / "ingested.duckdb", tmp_path / "built.duckdb"
    with duckdb.connect(str(ingested)) as con:
        con.execute("create schema raw; create table raw.numbers as select range as n from range(10)")
    with duckdb.connect(str(built)) as con:
        con.execute("create schema reference; create table reference.labels as select 1 as n, 'one' as label")
        con.execute("create schema intermediate; create table intermediate.figures as select 7 as n, 0.5 as figure")
    nodes = {
        # listed downstream first: the order must come from depends_on
        "model.p.big_numbers": {
            "resource_type": "model",
            "name": "big_numbers",
            "schema": "marts",
            "config": {"materialized": "view"},
            "depends_on": {"nodes": ["model.p.numbers"]},
            "compiled_code": "select n from intermediate.numbers where n > 5",
        },
        "model.p.numbers": {
            "resource_type": "model",
            "name": "numbers",
            "schema": "intermediate",
            "config": {"materialized": "table"},
            "depends_on": {"nodes": ["seed.p.labels"]},
            "compiled_code": "select n, label from raw.numbers left join reference.labels using (n)",
        },
        "seed.p.labels": {"resource_type": "seed", "name": "labels", "schema": "reference"},
        "model.p.figures": {
            "resource_type": "model",
            "language": "python",
            "name": "figures",
            "schema": "intermediate",
            "config": {"materialized": "table"},
            "depends_on": {"nodes": ["model.p.numbers"]},
            "compiled_code": "def model(dbt, session):\n    return dbt.ref('numbers').df()\n",
        },
        "model.p.figured_numbers": {
            "resource_type": "model",
            "name": "figured_numbers",
            "schema": "marts",
            "config": {"materialized": "table"},
            "depends_on": {"nodes": ["model.p.figures", "model.p.big_numbers"]},
            "compiled_code": "select n, figure from marts.big_numbers join intermediate.figures using (n)",
        },
        "test.p.no_negative": {
            "resource_type": "test",
            "name": "no_negative",
            "compiled_code": "select * from marts.big_numbers where n < 0",
        },
    }
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"nodes": nodes}))
    ordered, copied = floor.build_order(manifest, only_agreement=False)
    assert [node.name for node in ordered] == ["numbers", "big_numbers", "figured_numbers", "no_negative"]
    assert sorted(copied) == [("intermediate", "figures"), ("reference", "labels")]
    seconds = floor.time_nodes(ingested, built, ordered, copied)
    assert set(seconds) == {"table numbers", "view big_numbers", "table figured_numbers", "test no_negative"}
    assert (
        floor.main(
            [str(ingested), "--built", str(built), "--manifest", str(manifest), "--json", str(tmp_path / "floor.json")]
        )
        == 0
    )
    assert set(json.loads((tmp_path / "floor.json").read_text())) == {"models_s", "tests_s", "total_s"}
    with duckdb.connect(str(ingested), read_only=True) as con:
        assert con.execute("select count(*) from duckdb_tables() where schema_name <> 'raw'").fetchone()[0] == 0


def test_build_floor_refuses_a_manifest_without_compiled_sql(tmp_path: Path) -> None:
    floor = load_module("build_floor")
    manifest = tmp_path / "manifest.json"
    manifest.write_text(
        json.dumps(
            {
                "nodes": {
                    "model.p.x": {
                        "resource_type": "model",
                        "name": "x",
                        "schema": "marts",
                        "config": {"materialized": "table"},
                        "depends_on": {"nodes": []},
                    }
                }
            }
        )
    )
    with pytest.raises(SystemExit, match="no compiled SQL"):
        floor.build_order(manifest, only_agreement=False)


def test_build_targets_table_shows_floor_incremental_and_memory() -> None:
    bench = load_module("run_benchmarks")
    results = []
    for key, seconds, rss in (
        ("ingest", 2.0, 100),
        ("build", 9.0, 2048 * 1024),
        ("build_floor", 7.5, 300),
        ("build_incremental", 4.5, 400),
    ):
        result = bench.PathResult(1, key, key)
        result.runs.append(bench.Run(0, seconds, rss))
        results.append(result)
    table = bench.build_targets_table(results, [1])
    assert table[-1] == "| 1 | 11.00 | 1.20x | 0.50x | 2048 |"


def test_every_model_benchmarks_md_names_exists() -> None:
    """BENCHMARKS.md names models (`int_dices__answers`, `marts.ratings`): each must be one the project has."""
    models = {path.stem for pattern in ("*.sql", "*.py") for path in (PROJECT_ROOT / "models").rglob(pattern)}
    text = (PROJECT_ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\b(?:stg|int)_[a-z0-9]+__[a-z0-9_]+", text))
    named |= set(re.findall(r"\bmarts\.([a-z_]+)", text))
    assert named, "BENCHMARKS.md names no model: the check would check nothing"
    assert sorted(named - models) == []


def test_benchmarks_md_names_no_commit() -> None:
    """BENCHMARKS.md says what holds now; which commit measured what is git's to tell
    (`git log -p BENCHMARKS.md`), so its prose names no commit hash."""
    text = (PROJECT_ROOT / "BENCHMARKS.md").read_text(encoding="utf-8")
    hex_words = re.findall(r"\b[0-9a-f]{7,40}\b", text)
    commits = [word for word in hex_words if re.search(r"[a-f]", word) and re.search(r"[0-9]", word)]
    assert commits == []


def test_bench_judges_judge_every_unit_and_load_without_a_reject(small_sample_build, tmp_path: Path) -> None:
    """The judge paths' files (bench_judges.py) are valid `--judges` input: each judge has one value
    on every unit of the three datasets that holds a human rating, and all of them load."""
    from tests.helpers import query, run_dwh

    written = load_module("bench_judges").write_judges(small_sample_build.db_path, tmp_path / "judges", 3, seed=0)
    assert [path.name for path in written] == ["judge_01.parquet", "judge_02.parquet", "judge_03.parquet"]
    [(n_units,)] = query(
        small_sample_build.db_path, "select count(distinct (dialogue_key, question, movie_id)) from marts.ratings"
    )
    files = str(tmp_path / "judges" / "*.parquet")
    assert duckdb.sql(f"select count(*), count(distinct judge) from '{files}'").fetchone() == (3 * n_units, 3)
    db_path = small_sample_build.copy_to(tmp_path)
    loaded = run_dwh(["ingest", "--judges", str(tmp_path / "judges")], db_path, check=True)
    assert f"3 judge(s) loaded, {3 * n_units:,} judgement(s), 0 reject(s)" in loaded.stdout


# two dbt commands in one log as dbt 1.11 writes it at `--log-level-file info`: the first parses the
# whole project, the second reuses that parse; then a third in another folder's log, stopped before it ended
FIRST_TWO_BUILDS = """\
============================== 03:42:17.512345 | 1b2c ==============================
03:42:17  Running with dbt=1.11.16
03:42:17  Registered adapter: duckdb=1.11.1
03:42:18  Unable to do partial parsing because profile has changed
03:42:30  Found 94 models, 273 data tests, 12 seeds, 9 sources, 3 exposures, 553 macros
03:42:30
03:42:40  Finished running 3 exposures, 12 seeds, 78 table models, 273 data tests in 0 hours 0 minutes and \
10.41 seconds (10.41s).
03:42:40  Done. PASS=396 WARN=1 ERROR=0 SKIP=0 NO-OP=3 TOTAL=400
23:59:58  Running with dbt=1.11.16
23:59:59  Registered adapter: duckdb=1.11.1
00:00:01  Found 94 models, 273 data tests, 12 seeds, 9 sources, 3 exposures, 553 macros
00:00:08  Finished running 1 table model, 2 data tests in 0 hours 0 minutes and 6.50 seconds (6.50s).
"""
STOPPED_BUILD = """\
\x1b[0m04:10:00.000001 [info ] [MainThread]: Running with dbt=1.11.16
\x1b[0m04:10:03.500000 [info ] [MainThread]: Found 94 models, 273 data tests
\x1b[0m04:10:04.000000 [debug] [Thread-1 (]: Finished running node model.conv_eval_warehouse.turns
"""


def test_dbt_invocations_times_each_parse_and_run_and_names_why_it_parsed() -> None:
    # the logs go outside pytest's temporary folder, which the tool reads after a run
    with tempfile.TemporaryDirectory() as folder:
        check_dbt_invocations(Path(folder))


def check_dbt_invocations(tmp_path: Path) -> None:
    tool = load_module("dbt_invocations")
    (tmp_path / "build" / "logs").mkdir(parents=True)
    (tmp_path / "build" / "logs" / "dbt.log").write_text(FIRST_TWO_BUILDS, encoding="utf-8")
    (tmp_path / "killed" / "logs").mkdir(parents=True)
    (tmp_path / "killed" / "logs" / "dbt.log").write_text(STOPPED_BUILD, encoding="utf-8")

    invocations, unfinished = tool.read_invocations(tmp_path)

    assert unfinished == 1
    assert [(i.log, i.parse_s, i.run_s, i.reparse_reason) for i in invocations] == [
        ("build/logs", 13.0, 10.41, "profile has changed"),
        ("build/logs", 3.0, 6.5, ""),  # across midnight: 23:59:58 → 00:00:01
    ]
    assert invocations[0].finished == "3 exposures, 12 seeds, 78 table models, 273 data tests"
    said = tool.report(invocations, unfinished).splitlines()
    assert said[1].split()[:3] == ["13.0", "10.4", "23.4"]  # the longest first
    assert said[-1] == (
        "2 invocations (1 unfinished, left out): parse 16 s, run 17 s, total 33 s; 1 parsed the whole project (13 s)"
    )


def test_the_replacement_share_of_the_judges_builds_reads_dbts_run_results(tmp_path: Path) -> None:
    """`make bench`'s line on the replacement test (issue 64): its models' node seconds beside the
    build's elapsed seconds, from run_results.json; nothing where no run measured it."""
    run_benchmarks = load_module("run_benchmarks")
    results = {
        "elapsed_time": 40.0,
        "results": [
            {"unique_id": "model.conv_eval_warehouse.int_judges__replacement", "execution_time": 2.5},
            {"unique_id": "model.conv_eval_warehouse.judge_replacement", "execution_time": 0.5},
            {"unique_id": "model.conv_eval_warehouse.int_judges__agreement", "execution_time": 20.0},
        ],
    }
    path = tmp_path / "run_results.json"
    path.write_text(json.dumps(results))
    assert run_benchmarks.replacement_node_seconds(path) == (3.0, 40.0)
    assert run_benchmarks.replacement_node_seconds(tmp_path / "absent.json") is None
    result = run_benchmarks.PathResult(1, "build_with_sample_judges", "(h) judges")
    assert run_benchmarks.replacement_share_table([result]) == []
    result.replacement_seconds.append((3.0, 40.0))
    assert run_benchmarks.replacement_share_table([result])[-1] == "| 1 | (h) judges | 3.00 | 40.00 | 7.5% |"
