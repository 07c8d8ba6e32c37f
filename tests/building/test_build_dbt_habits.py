"""The warehouse as dbt users and BI tools expect it: plain dbt from the project root, docs
persisted as DuckDB comments and as dbt's static page (opened offline in chromium), source
freshness, exposures, views that survive a renamed file."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from dwh.summary import MARTS
from tests.browser import visit
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, query, run_dwh

pytestmark = pytest.mark.slow  # dbt builds

DBT = Path(sys.executable).parent / "dbt"


def plain_dbt(
    args: list[str], db_path: Path, home: Path, target: Path, parsed: Path | None = None
) -> subprocess.CompletedProcess:
    """`dbt …` as a user types it in the project root: no --profiles-dir, no DBT_PROFILES_DIR, no ~/.dbt.
    `parsed`, a partial-parse file of the same warehouse path, is put in the target folder first, where
    dbt looks for it: dbt then parses only what differs."""
    if parsed:
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(parsed, target / "partial_parse.msgpack")
    env = {key: value for key, value in os.environ.items() if not key.startswith("DBT_")}
    env |= {"DWH_DB_PATH": str(db_path), "HOME": str(home), "DBT_TARGET_PATH": str(target)}
    return subprocess.run([str(DBT), *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def duo_warehouse(real_duo_build: BuiltWarehouse, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the session's build of the real DUO release: plain dbt rebuilds a mart in it."""
    return real_duo_build.copy_to(tmp_path_factory.mktemp("habits"))


@pytest.fixture(scope="module")
def plain_parse(duo_warehouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`dbt parse` as a user runs it for `duo_warehouse`, once for the module's plain dbt runs."""
    folder = tmp_path_factory.mktemp("plain-parse")
    parsed = plain_dbt(["parse"], duo_warehouse, folder, folder / "target")
    assert parsed.returncode == 0, parsed.stdout + parsed.stderr
    return folder / "target" / "partial_parse.msgpack"


def test_plain_dbt_from_the_project_root_needs_no_flag(duo_warehouse: Path, plain_parse: Path, tmp_path: Path) -> None:
    built = plain_dbt(["build", "--select", "dialogues"], duo_warehouse, tmp_path, tmp_path / "target", plain_parse)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "Completed successfully" in built.stdout
    assert query(duo_warehouse, "select count(*) from marts.dialogues") == [(455,)]


def test_every_mart_and_column_description_is_a_duckdb_comment(
    duo_warehouse: Path, real_duo_build: BuiltWarehouse
) -> None:
    manifest = json.loads((real_duo_build.target / "manifest.json").read_text())
    marts = [
        node for node in manifest["nodes"].values() if node["resource_type"] == "model" and node["schema"] == "marts"
    ]
    assert len(marts) >= 19
    comments = {
        (table, column): comment
        for table, column, comment in query(
            duo_warehouse, "select table_name, column_name, comment from duckdb_columns() where schema_name = 'marts'"
        )
    }
    relation_comments = dict(
        query(
            duo_warehouse,
            "select table_name, comment from duckdb_tables() "
            "where schema_name = 'marts' union all select view_name, comment "
            "from duckdb_views() where schema_name = 'marts'",
        )
    )
    for mart in marts:
        assert " ".join(relation_comments[mart["name"]].split()) == " ".join(mart["description"].split())
        for column in mart["columns"].values():
            stored = comments[(mart["name"], column["name"])]
            assert stored and " ".join(stored.split()) == " ".join(column["description"].split()), (
                mart["name"],
                column,
            )


def test_bi_tools_see_the_descriptions_through_sqlalchemy(duo_warehouse: Path) -> None:
    """Superset (and any SQLAlchemy client) reads table and column comments with the inspector that
    duckdb_engine implements: every mart and column shows its description there."""
    import sqlalchemy as sa

    engine = sa.create_engine(f"duckdb:///{duo_warehouse}", connect_args={"read_only": True})
    try:
        inspector = sa.inspect(engine)
        marts = inspector.get_table_names(schema="marts") + inspector.get_view_names(schema="marts")
        assert {"dialogues", "ratings", "agreement"} <= set(marts)
        for mart in marts:
            assert inspector.get_table_comment(mart, schema="marts")["text"], mart
            assert all(column["comment"] for column in inspector.get_columns(mart, schema="marts")), mart
    finally:
        engine.dispose()


def test_source_freshness_reads_the_last_load(duo_warehouse: Path, plain_parse: Path, tmp_path: Path) -> None:
    fresh = plain_dbt(
        ["source", "freshness", "--select", "source:ingest.ingest_loads"],
        duo_warehouse,
        tmp_path,
        tmp_path / "target",
        plain_parse,
    )
    assert fresh.returncode == 0, fresh.stdout + fresh.stderr
    assert "PASS freshness of ingest.ingest_loads" in fresh.stdout
    # the same warehouse whose last load finished 60 days ago: past the 30-day warning, before the error
    aged = tmp_path / "aged" / duo_warehouse.name
    aged.parent.mkdir()
    shutil.copyfile(duo_warehouse, aged)
    with duckdb.connect(str(aged)) as con:
        con.execute("update raw.ingest_loads set finished_at = finished_at - interval 60 day")
    stale = plain_dbt(
        ["source", "freshness", "--select", "source:ingest.ingest_loads"],
        aged,
        tmp_path,
        tmp_path / "target",
        plain_parse,
    )
    assert "WARN freshness of ingest.ingest_loads" in stale.stdout, stale.stdout


@pytest.fixture(scope="module")
def static_docs(duo_warehouse: Path, plain_parse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`dbt docs generate --static` as a user runs it: its target folder."""
    folder = tmp_path_factory.mktemp("static-docs")
    generated = plain_dbt(["docs", "generate", "--static"], duo_warehouse, folder, folder / "target", plain_parse)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    return folder / "target"


def test_static_docs_open_on_the_projects_own_overview(static_docs: Path) -> None:
    page = (static_docs / "static_index.html").read_text(encoding="utf-8")
    overview = json.loads((static_docs / "manifest.json").read_text())["docs"]
    assert "Where to start" in overview["doc.conv_eval_warehouse.__overview__"]["block_contents"]
    assert "Where to start" in page  # the one offline page carries it, with the lineage of every model
    assert "model.conv_eval_warehouse.agreement" in page


def is_unfilled_template(text: str) -> bool:
    """dbt-docs' own page (upstream, not this project) asks for two URLs that are template text never
    filled in: `{{ getIcon(…) }}` images before Angular compiles them, and a favicon left as
    `${require('./assets/favicons/favicon.ico')}`. Chromium refuses them; nothing else may fail."""
    return "%7B" in text and "%7D" in text


@pytest.mark.browser
def test_the_static_docs_page_opens_offline_in_chromium(static_docs: Path) -> None:
    seen = visit(static_docs / "static_index.html", PROJECT_ROOT / "target" / "docs.png", settle_ms=3000)
    assert seen.network_requests == []
    assert [url for url in seen.failed_requests if not is_unfilled_template(url)] == []
    assert [error for error in seen.console_errors if not is_unfilled_template(error)] == []
    assert seen.title == "dbt Docs"
    assert sum(chart["width"] > 0 for chart in seen.drawn_charts) > 0  # the page drew


def test_exposures_show_what_a_superset_chart_depends_on(
    duo_warehouse: Path, plain_parse: Path, tmp_path: Path
) -> None:
    listed = plain_dbt(
        ["ls", "--select", "+exposure:superset", "--resource-type", "model", "--output", "name"],
        duo_warehouse,  # read by nothing: `dbt ls` lists what the parse found
        tmp_path,
        tmp_path / "target",
        plain_parse,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    names = set(listed.stdout.split())
    # the agreement chart reads the judgements feed, which each source declares in its own folder
    agreement_lineage = {"int_agreement__judgements", "int_dices__judgements"}
    assert {"agreement", "ratings", "stg_dices__ratings", *agreement_lineage} <= names
    assert "score_correlations" not in names  # a notebook's, not a chart's


def every_view(con) -> list[str]:
    return [
        f'"{schema}"."{name}"'
        for schema, name in con.execute(
            "select schema_name, view_name from duckdb_views()"
            " where not internal and database_name = current_database()"
        ).fetchall()
    ]


def test_views_work_in_a_renamed_copy_and_under_any_attach_alias(duo_warehouse: Path, tmp_path: Path) -> None:
    copy = tmp_path / "eval.duckdb"
    shutil.copyfile(duo_warehouse, copy)
    with duckdb.connect(str(copy), read_only=True) as con:
        views = every_view(con)
        assert '"marts"."ratings"' in views and len(views) >= 8
        counts = {view: con.execute(f"select count(*) from {view}").fetchone()[0] for view in views}
    assert counts['"marts"."ratings"'] == query(duo_warehouse, "select count(*) from marts.ratings")[0][0] > 0
    with duckdb.connect() as con:
        con.execute(f"attach '{duo_warehouse}' as wh (read_only)")
        for view in views:
            assert con.execute(f"select count(*) from wh.{view}").fetchone()[0] == counts[view], view


# dbt opens the file by one name and attaches it under the fixed name `warehouse`, whatever it is
# called (`dwh.building.publish.dbt_view`, profiles.yml): its models build alike under any name, so one name
# builds every model and the others what `dwh summary` reads (`ratings` among it a view over
# staging views and intermediate tables). What a name can break is dwh's own side (ingest, the
# staged copy, publishing, summary) and reading the file under its own catalog name.
EVERY_MODEL = ["--exclude", "resource_type:test", "resource_type:unit_test"]
WHAT_SUMMARY_READS = ["--select", *(f"+{mart}" for mart in MARTS), *EVERY_MODEL]


@pytest.mark.parametrize(
    ("file_name", "selection"),
    [
        pytest.param(name, EVERY_MODEL if name == "raw.duckdb" else WHAT_SUMMARY_READS, id=name)
        for name in [
            "raw.duckdb",
            "marts.duckdb",
            "staging.duckdb",
            "main.duckdb",
            "temp.duckdb",
            "system.duckdb",
            "it's.duckdb",
        ]
    ],
)
def test_any_warehouse_file_name_ingests_builds_and_reads(
    file_name: str, selection: list[str], real_duo: Path, duo_warehouse: Path, tmp_path: Path
) -> None:
    """File names DuckDB would read as a schema (`raw`), as its own catalogs (`main`) or that need quoting.
    The data tests, which read what the models wrote, run on the session's builds."""
    db_path = tmp_path / file_name
    run_dwh(["ingest", "--duo", str(real_duo)], db_path, check=True)
    run_dwh(["build", *selection], db_path, check=True)
    assert "455" in run_dwh(["summary"], db_path, check=True).stdout
    with duckdb.connect() as con:
        con.execute("attach ? as wh (read_only)".replace("?", "'" + str(db_path).replace("'", "''") + "'"))
        con.execute("use wh")
        views = every_view(con)
        assert '"marts"."ratings"' in views
        tables = ['"marts"."agreement"'] if selection is EVERY_MODEL else []
        for relation in [*views, *tables, '"raw"."ingest_files"']:
            expected = query(duo_warehouse, f"select count(*) from {relation}")
            assert con.execute(f"select count(*) from {relation}").fetchall() == expected, relation
