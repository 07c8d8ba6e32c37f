"""What `dwh build` counts as a changed source (`dwh.building.build_plan.source_states`): its raw rows, not
the load that landed them. A reload of the same data changes only the load bookkeeping; another
value, a row fewer or more is a change. On a scratch DuckDB with raw tables as the landers write them."""

import duckdb
import pytest

from dwh.building.build_plan import BOOKKEEPING_SOURCE, BuildPlan, source_states


@pytest.fixture
def con() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute("create schema raw")
    con.execute(
        "create table raw.ingest_loads (load_id varchar, started_at timestamp, finished_at timestamp, "
        "sources varchar[], dwh_version varchar)"
    )
    con.execute(
        "create table raw.redial_conversations "
        "(load_id varchar, file_path varchar, line_number bigint, raw_line varchar)"
    )
    con.execute("create table raw.redial_movies (load_id varchar, movie_id varchar, title varchar)")
    load(con, "load-1", [("a.jsonl", 1, '{"x": 1}'), ("a.jsonl", 2, '{"x": 2}')])
    return con


def load(con: duckdb.DuckDBPyConnection, load_id: str, lines: list[tuple]) -> None:
    """What a ReDial load does: replace the source's raw rows, and record the load."""
    con.execute("delete from raw.redial_conversations")
    con.executemany("insert into raw.redial_conversations values (?, ?, ?, ?)", [(load_id, *line) for line in lines])
    con.execute("delete from raw.redial_movies")
    con.execute("insert into raw.redial_movies values (?, '1', 'Alien')", [load_id])
    con.execute(
        "insert into raw.ingest_loads values (?, now(), now() + interval (? || ' seconds'), ['redial'], '0.1.0')",
        [load_id, len(con.execute("select * from raw.ingest_loads").fetchall())],
    )


def test_a_reload_of_the_same_rows_in_another_order_changes_only_the_bookkeeping(con) -> None:
    before = source_states(con)
    load(con, "load-2", [("a.jsonl", 2, '{"x": 2}'), ("a.jsonl", 1, '{"x": 1}')])
    after = source_states(con)
    assert after["redial"] == before["redial"] and after["redial"].endswith("(3 rows)")
    assert (before[BOOKKEEPING_SOURCE], after[BOOKKEEPING_SOURCE]) == ("load-1", "load-2")


@pytest.mark.parametrize(
    "lines",
    [
        [("a.jsonl", 1, '{"x": 1}'), ("a.jsonl", 2, '{"x": 3}')],  # one value
        [("a.jsonl", 1, '{"x": 1}')],  # a row fewer
        [("a.jsonl", 1, '{"x": 1}'), ("a.jsonl", 2, '{"x": 2}'), ("a.jsonl", 2, '{"x": 2}')],  # a row twice
        [("b.jsonl", 1, '{"x": 1}'), ("a.jsonl", 2, '{"x": 2}')],  # another file's name
    ],
)
def test_other_rows_are_a_change(con, lines: list[tuple]) -> None:
    before = source_states(con)
    load(con, "load-2", lines)
    assert source_states(con)["redial"] != before["redial"]


def test_a_row_changed_by_hand_is_a_change(con) -> None:
    before = source_states(con)
    con.execute("update raw.redial_movies set title = 'Aliens'")
    assert source_states(con)["redial"] != before["redial"]
    assert source_states(con)[BOOKKEEPING_SOURCE] == before[BOOKKEEPING_SOURCE]


def test_full_computes_every_figure_again_and_says_so() -> None:
    """`dwh build --full` runs dbt's --full-refresh: the incremental figures' models (`agreement_core.memo`)
    compute every slot again; a full build the plan chose (a changed project) keeps what is unchanged."""
    asked = BuildPlan({"redial": "x (3 rows)"}, "fingerprint", None, recompute=True)
    chosen = BuildPlan({"redial": "x (3 rows)"}, "fingerprint", None)
    assert asked.dbt_selection() == ["--full-refresh"] and "every figure computed again" in asked.describe()
    assert chosen.dbt_selection() == [] and chosen.describe() == "full build"
