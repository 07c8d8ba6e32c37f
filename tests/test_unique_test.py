"""macros/test_unique_at_scale.sql is `unique_at_scale`, dbt's `unique` test computed over the values'
hashes (an aggregate DuckDB spills, for the tables that grow with the corpus). Its query must answer
exactly what dbt's does: every repeated non-null value with its count, nothing else. Checked here
against dbt's own formulation on the same rows, for any mix of repeats, nulls and values (hypothesis).
`unique` itself is dbt's built-in again: no project macro overrides it."""

import re

import duckdb
import jinja2
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import PROJECT_ROOT

TEST_BLOCK = re.compile(r"\{% test unique_at_scale\(model, column_name\) %\}(?P<body>.*)\{% endtest %\}", re.S)

# dbt's built-in `unique` (dbt-adapters' default__test_unique), the answer to match
DBT_UNIQUE = """
select {column} as unique_field, count(*) as n_records
from {model}
where {column} is not null
group by {column}
having count(*) > 1
"""


def project_unique_sql(model: str, column_name: str) -> str:
    body = TEST_BLOCK.search((PROJECT_ROOT / "macros" / "test_unique_at_scale.sql").read_text(encoding="utf-8"))["body"]
    return jinja2.Template(body).render(model=model, column_name=column_name)


def answers(values: list, sql_type: str) -> tuple[list, list]:
    with duckdb.connect() as con:
        con.execute(f"create table rows_under_test (value {sql_type})")
        if values:
            con.executemany("insert into rows_under_test values (?)", [[v] for v in values])
        ours = con.execute(project_unique_sql("rows_under_test", "value") + " order by 1").fetchall()
        dbts = con.execute(DBT_UNIQUE.format(model="rows_under_test", column="value") + " order by 1").fetchall()
    return ours, dbts


def test_reports_each_repeated_value_with_its_count_and_ignores_nulls() -> None:
    ours, dbts = answers(
        ["dices350:1:Q_overall", "a", "dices350:1:Q_overall", None, None, "c", "c", "c", "b"], "varchar"
    )
    assert ours == dbts == [("c", 3), ("dices350:1:Q_overall", 2)]


def test_all_distinct_values_pass() -> None:
    assert answers([f"redial:{i}" for i in range(1000)] + [None], "varchar") == ([], [])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(max_size=3)), max_size=60))
def test_same_answer_as_dbt_for_any_text_values(values: list) -> None:
    ours, dbts = answers(values, "varchar")
    assert ours == dbts


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(min_value=-3, max_value=3)), max_size=60))
def test_same_answer_as_dbt_for_any_integer_values(values: list) -> None:
    ours, dbts = answers(values, "bigint")
    assert ours == dbts


def test_unique_is_dbts_own_again() -> None:
    overrides = [
        path.name
        for path in (PROJECT_ROOT / "macros").glob("*.sql")
        if re.search(r"\{%-?\s*(test|macro)\s+(default__)?(test_)?unique\s*\(", path.read_text(encoding="utf-8"))
    ]
    assert overrides == []
