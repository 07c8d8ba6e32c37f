"""macros/test_unique_at_scale.sql is `unique_at_scale`, dbt's `unique` test computed over the values'
hashes (a window DuckDB spills, for the tables that grow with the corpus), and
`unique_combination_of_columns_at_scale`, dbt_utils' `unique_combination_of_columns` computed the
same way. Each must answer exactly what its plain test does: every repeated non-null value (every
repeated combination, nulls included) with its count, nothing else. Checked here against the plain
formulation on the same rows, for any mix of repeats, nulls and values (hypothesis). `unique` itself
is dbt's built-in again: no project macro overrides it."""

import re

import duckdb
import jinja2
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import PROJECT_ROOT

MACROS = PROJECT_ROOT / "macros"

# dbt's built-in `unique` (dbt-adapters' default__test_unique), the answer to match
DBT_UNIQUE = """
select {column} as unique_field, count(*) as n_records
from {model}
where {column} is not null
group by {column}
having count(*) > 1
"""


# dbt_utils' `unique_combination_of_columns` (the formulation `keys_hold` keeps), the other answer to match
PLAIN_COMBINATION = """
select {columns}, count(*) as n_rows
from {model}
group by {columns}
having count(*) > 1
"""


def project_tests(file_name: str) -> object:
    """The tests of a macro file as Jinja macros (dbt's `{% test %}` blocks are macros named `test_…`
    to dbt; here they keep their names), with the file's helper macros beside them."""
    text = (MACROS / file_name).read_text(encoding="utf-8")
    text = re.sub(r"\{% test (\w+)\(", r"{% macro \1(", text).replace("{% endtest %}", "{% endmacro %}")
    return jinja2.Template(text).module


def project_unique_sql(model: str, column_name: str) -> str:
    return str(project_tests("test_unique_at_scale.sql").unique_at_scale(model=model, column_name=column_name))


def project_combination_sql(model: str, columns: list[str]) -> str:
    tests = project_tests("test_unique_at_scale.sql")
    return str(tests.unique_combination_of_columns_at_scale(model=model, combination_of_columns=columns))


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


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.none(), st.sampled_from(["a", "b", "dices350:1"])), st.one_of(st.none(), st.integers(0, 2))
        ),
        max_size=60,
    )
)
def test_combinations_same_answer_as_the_plain_test(rows: list[tuple]) -> None:
    with duckdb.connect() as con:
        con.execute("create table rows_under_test (unit_key varchar, rater_id bigint)")
        if rows:
            con.executemany("insert into rows_under_test values (?, ?)", [list(row) for row in rows])
        columns = ["unit_key", "rater_id"]
        ours = con.execute(project_combination_sql("rows_under_test", columns) + " order by all").fetchall()
        plain = PLAIN_COMBINATION.format(model="rows_under_test", columns=", ".join(columns))
        assert ours == con.execute(plain + " order by all").fetchall()


def test_unique_is_dbts_own_again() -> None:
    overrides = [
        path.name
        for path in (PROJECT_ROOT / "macros").glob("*.sql")
        if re.search(r"\{%-?\s*(test|macro)\s+(default__)?(test_)?unique\s*\(", path.read_text(encoding="utf-8"))
    ]
    assert overrides == []
