"""`dwh report` seen in a real browser and `dwh export` read back by DuckDB and pyarrow, on the
embedded sample built as `make demo` builds it (the dbt docs page in a browser:
tests/building/test_build_dbt_habits.py)."""

import hashlib
import html
import json
import os
import re
import shutil
from pathlib import Path

import duckdb
import pytest

from dwh.transfer import export as export_module
from tests.browser import visit
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, run_dwh

pytestmark = pytest.mark.slow  # a built warehouse

SCREENSHOTS = PROJECT_ROOT / "target"
ALL_SECTIONS = [
    "The load",
    "DUO: what users felt and what annotators saw",
    "ReDial: movies and both workers' forms",
    "DICES: who finds what unsafe",
]


@pytest.fixture(scope="module")
def sample_warehouse(sample_build: BuiltWarehouse) -> Path:
    """The scale-1 sample of all three datasets, ingested and built once for the session (conftest.py)."""
    return sample_build.db_path


def test_the_demo_data_builds_without_a_warning(sample_build: BuiltWarehouse) -> None:
    """What `make demo` runs: every card figure matches or is explained, documented quirks are no warnings."""
    assert sample_build.not_passed == {}, sample_build.stdout
    summary = run_dwh(["summary"], sample_build.db_path, check=True).stdout
    assert re.search(r"ReDial: [1-9]\d* @id tag\(s\) in [1-9]\d* conversation\(s\)", summary)


def section_titles(report: Path) -> list[str]:
    return [
        title.replace("&#x27;", "'")
        for title in re.findall(r"<section id=\"[^\"]+\"><h2>(.*?)</h2>", report.read_text(encoding="utf-8"))
    ]


@pytest.mark.browser
def test_the_report_draws_every_chart_offline_in_chromium(sample_warehouse: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    completed = run_dwh(["report", str(report)], sample_warehouse, check=True)
    assert completed.stdout.strip() == f"report: {report}"
    assert section_titles(report) == ALL_SECTIONS
    seen = visit(report, SCREENSHOTS / "report.png")
    assert seen.network_requests == []
    assert seen.console_errors == [] and seen.failed_requests == []
    assert seen.title == "Conversational-AI evaluation warehouse: report"
    charts = [chart for chart in seen.drawn_charts if chart["tag"] == "svg"]
    assert {chart["section"] for chart in charts} == {f"section-{i}" for i in range(len(ALL_SECTIONS))}
    assert len(charts) >= 9  # load 2, DUO 2, ReDial 2, DICES 3
    empty = [chart for chart in charts if chart["marks"] == 0 or chart["width"] < 50 or chart["height"] < 50]
    assert empty == [], empty
    assert (SCREENSHOTS / "report.png").stat().st_size > 50_000


@pytest.mark.browser
def test_the_report_shows_only_the_sources_loaded(real_duo_build: BuiltWarehouse, tmp_path: Path) -> None:
    db_path = real_duo_build.db_path  # the real DUO release alone
    report = tmp_path / "duo.html"
    run_dwh(["report", str(report)], db_path, check=True)
    assert section_titles(report) == ALL_SECTIONS[:2]
    seen = visit(report, SCREENSHOTS / "report-real-duo.png")
    assert seen.console_errors == [] and seen.failed_requests == [] and seen.network_requests == []
    assert all(chart["marks"] > 0 for chart in seen.drawn_charts if chart["tag"] == "svg")


def report_table(report_text: str, caption_start: str) -> list[list[str]]:
    """The cells of the report's table whose caption starts with `caption_start`, row by row."""
    found = re.search(rf"<table><caption>{re.escape(caption_start)}.*?</table>", report_text)
    assert found, f"no table captioned {caption_start!r}"
    return [re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>(.*?)</tr>", found.group(0))[1:]]


def expected_mark(p_value: float | None, q_value: float | None) -> str:
    """GRASP's convention: `*` p < .05, `**` also q < .05 after Benjamini–Hochberg."""
    if p_value is None or p_value >= 0.05:
        return ""
    return "**" if q_value < 0.05 else "*"


def test_the_report_gives_agreement_with_its_interval_and_significance(sample_warehouse: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    run_dwh(["report", str(report)], sample_warehouse, check=True)
    text = html.unescape(report.read_text(encoding="utf-8"))
    with duckdb.connect(str(sample_warehouse), read_only=True) as con:
        groups = con.sql(
            """select group_dimension || ' = ' || group_value, n_raters, alpha, alpha_ci_low, alpha_ci_high,
                gai_p, gai_q, grasp_gai, grasp_gai_significance
            from marts.grasp_comparison order by group_dimension, group_value"""
        ).fetchall()
        duo_metrics = con.sql(
            "select count(distinct question) from marts.replication_agreement where replication_a = 'user'"
        ).fetchone()[0]
    shown = report_table(text, "DICES-350 Q_overall per rater group")
    assert len(shown) == len(groups) == 20
    for cells, (group, raters, alpha, low, high, p_value, q_value, grasp_gai, grasp_mark) in zip(
        shown, groups, strict=True
    ):
        assert cells[:3] == [group, str(raters), f"{alpha:.3f} [{low:.3f}, {high:.3f}]"]
        assert low <= high
        assert cells[6] == expected_mark(p_value, q_value)
        assert cells[7] == f"{grasp_gai:.3f}{grasp_mark or ''}"
    assert duo_metrics > 0
    assert "Do users score their dialogues as the annotators do?" in text
    assert "Do seeker and recommender forms agree?" in text


def test_a_report_before_any_build_is_one_line(tmp_path: Path) -> None:
    db_path = tmp_path / "warehouse.duckdb"
    duckdb.connect(str(db_path)).close()
    completed = run_dwh(["report", str(tmp_path / "report.html")], db_path)
    assert completed.returncode == 1
    assert (
        completed.stderr.strip()
        == f"dwh: error: {db_path}: holds no built marts yet; run `dwh ingest …` and `dwh build` first"
    )
    assert not (tmp_path / "report.html").exists()


# ---- export -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_warehouse(small_sample_build: BuiltWarehouse) -> Path:
    """The small sample of all three datasets: every mart and column, few rows to write and read back."""
    return small_sample_build.db_path


@pytest.fixture(scope="module")
def exported(small_warehouse: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("export") / "export"
    completed = run_dwh(["export", str(out)], small_warehouse, check=True)
    assert completed.stdout.strip() == f"export: {out} (manifest: manifest.json)"
    return out, json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def parquet_glob(out: Path, table: dict) -> str:
    return (
        str(out / table["location"] / "**" / "*.parquet") if table["partitioned_by"] else str(out / table["location"])
    )


def test_the_export_holds_every_mart_and_reference_seed_with_docs_and_checksums(
    small_warehouse: Path, exported: tuple[Path, dict]
) -> None:
    out, manifest = exported
    with duckdb.connect(str(small_warehouse), read_only=True) as con:
        expected = set(
            con.execute("""
            select schema_name || '.' || table_name from duckdb_tables() where schema_name in ('marts', 'reference')
            union all select schema_name || '.' || view_name from duckdb_views() where schema_name = 'marts'
        """).fetchall()
        )
    assert {(t["schema"] + "." + t["name"],) for t in manifest["tables"]} == expected
    names = {t["name"] for t in manifest["tables"]}
    assert {
        "ratings",
        "dialogues",
        "turns",
        "raters",
        "movie_mentions",
        "agreement",
        "grasp_published_figures",
    } <= names
    for table in manifest["tables"]:
        assert table["description"], table["name"]
        assert all(column["description"] for column in table["columns"]), table["name"]
        assert sum(f["rows"] for f in table["files"]) == table["row_count"], table["name"]
        for entry in table["files"]:
            assert hashlib.sha256((out / entry["path"]).read_bytes()).hexdigest() == entry["sha256"]
            assert (out / entry["path"]).stat().st_size == entry["bytes"]
    ratings = next(t for t in manifest["tables"] if t["name"] == "ratings")
    assert ratings["partitioned_by"] == ["source"]
    assert sorted(f["path"] for f in ratings["files"]) == [
        f"marts/ratings/source={source}/data_0.parquet" for source in ("dices", "duo", "redial")
    ]


def test_the_export_reads_back_identically_in_duckdb(small_warehouse: Path, exported: tuple[Path, dict]) -> None:
    out, manifest = exported
    with duckdb.connect(str(small_warehouse), read_only=True) as con:
        for table in manifest["tables"]:
            columns = ", ".join(f'"{c["name"]}"' for c in table["columns"])
            read_back = (
                f"select {columns} from read_parquet('{parquet_glob(out, table)}', "
                f"hive_partitioning = {str(bool(table['partitioned_by'])).lower()})"
            )
            types = [row[1] for row in con.execute(f"describe {read_back}").fetchall()]
            assert types == [c["type"] for c in table["columns"]], table["name"]
            original = f'select {columns} from {table["schema"]}."{table["name"]}"'
            for first, second in ((original, read_back), (read_back, original)):
                assert con.execute(f"select count(*) from ({first} except all {second})").fetchone()[0] == 0, table[
                    "name"
                ]
            assert con.execute(f"select count(*) from ({read_back})").fetchone()[0] == table["row_count"]


def test_the_export_reads_back_identically_in_pyarrow(small_warehouse: Path, exported: tuple[Path, dict]) -> None:
    import pyarrow as pa
    import pyarrow.dataset as ds

    out, manifest = exported
    with duckdb.connect(str(small_warehouse), read_only=True) as con:
        for table in manifest["tables"]:
            names = [c["name"] for c in table["columns"]]
            if table["partitioned_by"]:
                partitioning = ds.partitioning(pa.schema([("source", pa.string())]), flavor="hive")
                dataset = ds.dataset(out / table["location"], format="parquet", partitioning=partitioning)
            else:
                dataset = ds.dataset(out / table["location"], format="parquet")
            arrow_table = dataset.to_table().select(names)
            original = con.execute(f'select * from {table["schema"]}."{table["name"]}"').arrow()
            original = original.read_all() if hasattr(original, "read_all") else original
            assert [f.type for f in arrow_table.schema] == [f.type for f in original.schema], table["name"]
            con.register("read_back", arrow_table)
            quoted = ", ".join(f'"{name}"' for name in names)
            source = f'select {quoted} from {table["schema"]}."{table["name"]}"'
            for first, second in ((source, "select * from read_back"), ("select * from read_back", source)):
                assert con.execute(f"select count(*) from ({first} except all {second})").fetchone()[0] == 0, table[
                    "name"
                ]
            con.unregister("read_back")


def test_an_export_reads_one_version_while_a_build_swaps_the_warehouse(
    small_warehouse: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = tmp_path / "warehouse.duckdb"
    shutil.copyfile(small_warehouse, live)
    newer = tmp_path / "newer.duckdb"
    shutil.copyfile(small_warehouse, newer)
    with duckdb.connect(str(newer)) as con:  # the "new build": other marts
        con.execute("delete from marts.movie_mentions where rowid % 2 = 0")
        con.execute("delete from marts.dialogues where source = 'dices'")
    with duckdb.connect(str(live), read_only=True) as con:
        before = {
            name: con.execute(f"select count(*) from marts.{name}").fetchone()[0]
            for name in ("movie_mentions", "dialogues")
        }
    original_export_table = export_module.export_table
    swapped = []

    def export_then_swap(con, root, relation):
        entry = original_export_table(con, root, relation)
        if not swapped:  # right after the first table, as `dwh build` would publish
            os.replace(newer, live)
            swapped.append(relation[1])
        return entry

    monkeypatch.setattr(export_module, "export_table", export_then_swap)
    manifest = json.loads(export_module.export_warehouse(live, tmp_path / "out").read_text(encoding="utf-8"))
    assert swapped and swapped[0] not in ("movie_mentions", "dialogues")
    counts = {t["name"]: t["row_count"] for t in manifest["tables"]}
    assert {name: counts[name] for name in before} == before


def test_an_export_into_a_folder_that_holds_files_is_refused(small_warehouse: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine\n", encoding="utf-8")
    completed = run_dwh(["export", str(out)], small_warehouse)
    assert completed.returncode == 1
    assert (
        completed.stderr.strip()
        == f"dwh: error: {out}: already exists and is not an empty folder; choose a new export folder"
    )
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    assert [p.name for p in tmp_path.iterdir()] == ["out"]  # no partial export left beside it
