"""The project's data tests are folded: one test per tested relation and rule family, `keys_hold`
(not-null columns and unique keys), `rules_hold` (named expressions, counts per group, sequences),
`values_in_vocabularies` (accepted values and the vocabularies seed) and `references_exist`
(references to parent relations). Each returns the offending rows with `broken_rule`, the name of the
rule they break, so that `dwh build` prints both.

Each macro is rendered here as dbt renders it (Jinja, `ref()` naming a table of a scratch DuckDB) and
run on small tables: it must name the rule and the offending rows, return nothing on good rows, treat
a null as the test it replaced did, and find the same rows as that test for any rows (hypothesis,
against the replaced tests' SQL kept below). The project's YAML is held to the folding: one test per
relation, family and severity, named after both."""

import re
from collections import Counter

import duckdb
import jinja2
import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import PROJECT_ROOT

MACROS = PROJECT_ROOT / "macros"


class Relation:
    """What `ref()` gives a test macro: a relation that renders as its name, with its identifier."""

    def __init__(self, identifier: str) -> None:
        self.identifier = identifier

    def __str__(self) -> str:
        return self.identifier


class Exceptions:
    """dbt's `exceptions` in the Jinja context: a compiler error stops the parse."""

    @staticmethod
    def raise_compiler_error(message: str) -> None:
        raise ValueError(message)


def project_test(file_name: str, test_name: str):
    """The generic test of a macro file as a Jinja macro (dbt's `{% test %}` blocks are macros to
    dbt), with the file's helper macros beside it, rendered with dbt's `do` and `ref()`."""
    text = (MACROS / file_name).read_text(encoding="utf-8")
    text = re.sub(r"\{% test (\w+)\(", r"{% macro \1(", text).replace("{% endtest %}", "{% endmacro %}")
    environment = jinja2.Environment(extensions=["jinja2.ext.do"])
    module = environment.from_string(text).make_module({"ref": Relation, "exceptions": Exceptions})
    return getattr(module, test_name)


def keys_hold(**arguments) -> str:
    return str(project_test("test_keys_hold.sql", "keys_hold")(model="tested", **arguments))


def rules_hold(rules: dict) -> str:
    return str(project_test("test_rules_hold.sql", "rules_hold")(model="tested", rules=rules))


def values_in_vocabularies(rules: list, source: str | None = None) -> str:
    return str(
        project_test("test_values_in_vocabularies.sql", "values_in_vocabularies")(
            model="tested", rules=rules, source=source
        )
    )


def references_exist(references: list) -> str:
    return str(project_test("test_references_exist.sql", "references_exist")(model="tested", references=references))


def scratch(tables: dict[str, tuple[str, list[tuple]]]) -> duckdb.DuckDBPyConnection:
    """A scratch DuckDB holding `tables`: name -> (column definitions, rows)."""
    con = duckdb.connect()
    for name, (columns, rows) in tables.items():
        con.execute(f"create table {name} ({columns})")
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            con.executemany(f"insert into {name} values ({marks})", [list(row) for row in rows])
    return con


def offending(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    """The test's rows as dicts of their non-null columns (a rule's rows hold nulls in the columns
    only other rules return), in a stable order."""
    cursor = con.execute(sql)
    columns = [d[0] for d in cursor.description]
    rows = [{c: v for c, v in zip(columns, row) if v is not None} for row in cursor.fetchall()]
    return sorted(rows, key=repr)


# ---------------------------------------------------------------------------------------------- keys

TURNS = "dialogue_key varchar, turn_index integer, speaker varchar, file_path varchar, line_number integer"


def test_keys_name_each_row_with_a_null_and_its_null_columns() -> None:
    con = scratch(
        {
            "tested": (
                TURNS,
                [("d1", 0, "user", "a.json", 1), ("d1", None, None, "a.json", 2), (None, 2, "system", "b.json", 7)],
            )
        }
    )
    rows = offending(con, keys_hold(not_null=["dialogue_key", "turn_index", "speaker"]))
    assert rows == [
        {
            "broken_rule": "not_null(dialogue_key)",
            "turn_index": 2,
            "speaker": "system",
            "file_path": "b.json",
            "line_number": 7,
        },
        {"broken_rule": "not_null(turn_index, speaker)", "dialogue_key": "d1", "file_path": "a.json", "line_number": 2},
    ]


def test_keys_name_every_row_of_a_repeated_key_whole() -> None:
    con = scratch(
        {
            "tested": (
                TURNS,
                [
                    ("d1", 0, "user", "a.json", 1),
                    ("d1", 0, "system", "a.json", 2),
                    ("d2", 0, "user", "b.json", 1),
                    ("d2", 1, "user", "b.json", 2),
                ],
            )
        }
    )
    rows = offending(con, keys_hold(unique=[["dialogue_key", "turn_index"]]))
    assert [(r["broken_rule"], r["dialogue_key"], r["speaker"], r["line_number"]) for r in rows] == [
        ("unique(dialogue_key, turn_index)", "d1", "system", 2),
        ("unique(dialogue_key, turn_index)", "d1", "user", 1),
    ]


def test_a_key_of_one_column_ignores_nulls_and_of_several_compares_them_as_equal() -> None:
    """As dbt's `unique` (nulls are no value) and dbt_utils' `unique_combination_of_columns` (a GROUP
    BY: two (null, 1) rows repeat a key) did."""
    con = scratch({"tested": (TURNS, [(None, 1, "user", "a.json", 1), (None, 1, "user", "a.json", 2)])})
    assert offending(con, keys_hold(unique=["dialogue_key"])) == []
    rows = offending(con, keys_hold(unique=[["dialogue_key", "turn_index"]]))
    assert [(r["broken_rule"], r["line_number"]) for r in rows] == [
        ("unique(dialogue_key, turn_index)", 1),
        ("unique(dialogue_key, turn_index)", 2),
    ]


def test_a_named_key_reads_only_the_rows_its_condition_selects() -> None:
    con = scratch(
        {
            "tested": (
                TURNS,
                [
                    ("d1", 0, "user", "a.json", 1),
                    ("d1", 0, "system", "b.json", 1),  # the same key, once among the user's turns
                    ("d2", 0, None, "c.json", 1),
                ],
            )
        }
    )
    sql = keys_hold(
        not_null=[{"name": "speakers_named", "columns": ["speaker"], "where": "file_path <> 'c.json'"}],
        unique=[{"name": "one_user_turn", "columns": ["dialogue_key", "turn_index"], "where": "speaker = 'user'"}],
    )
    assert offending(con, sql) == []
    con.execute("insert into tested values ('d1', 0, 'user', 'd.json', 9), ('d3', 0, null, 'e.json', 3)")
    rows = offending(con, sql)
    assert [(r["broken_rule"], r["file_path"]) for r in rows] == [
        ("one_user_turn", "a.json"),
        ("one_user_turn", "d.json"),
        ("speakers_named", "e.json"),
    ]


def test_keys_pass_good_rows() -> None:
    con = scratch({"tested": (TURNS, [("d1", 0, "user", "a.json", 1), ("d1", 1, "system", "a.json", 2)])})
    sql = keys_hold(not_null=["dialogue_key", "speaker"], unique=["line_number", ["dialogue_key", "turn_index"]])
    assert offending(con, sql) == []


def test_keys_without_a_rule_stop_the_parse() -> None:
    with pytest.raises(ValueError, match="give `not_null` columns or `unique` keys"):
        keys_hold()


# the tests keys_hold replaced, as they were: dbt's `unique`, the project's
# `unique_combination_of_columns` (dbt_utils' formulation) and `not_null_columns`
DBT_UNIQUE = """
select {column} as unique_field, count(*) as n_records
from tested where {column} is not null group by {column} having count(*) > 1
"""
PLAIN_COMBINATION = "select {columns}, count(*) as n_rows from tested group by {columns} having count(*) > 1"
NOT_NULL_COLUMNS = "select * from tested where {columns} is null"

KEY_ROWS = st.lists(
    st.tuples(st.one_of(st.none(), st.sampled_from(["a", "b", "c"])), st.one_of(st.none(), st.integers(0, 2))),
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(KEY_ROWS)
def test_keys_find_the_rows_the_replaced_tests_found(rows: list[tuple]) -> None:
    """Every row of each repeated value or combination (as many as the replaced test counted), and
    every row with a null, for any rows."""
    con = scratch(
        {"tested": ("unit_key varchar, rater integer, row_id integer", [(*r, i) for i, r in enumerate(rows)])}
    )
    ours = con.execute(keys_hold(not_null=["unit_key", "rater"], unique=["unit_key", ["unit_key", "rater"]])).fetchall()

    by_value = Counter(unit_key for rule, unit_key, _, _ in ours if rule == "unique(unit_key)")
    assert set(by_value.items()) == set(con.execute(DBT_UNIQUE.format(column="unit_key")).fetchall())
    by_combination = Counter(
        (unit_key, rater) for rule, unit_key, rater, _ in ours if rule == "unique(unit_key, rater)"
    )
    assert {(*combination, n) for combination, n in by_combination.items()} == set(
        con.execute(PLAIN_COMBINATION.format(columns="unit_key, rater")).fetchall()
    )
    with_a_null = con.execute(NOT_NULL_COLUMNS.format(columns="unit_key is null or rater")).fetchall()
    assert sorted(row_id for rule, _, _, row_id in ours if rule.startswith("not_null")) == sorted(
        row_id for *_, row_id in with_a_null
    )


# --------------------------------------------------------------------------------------------- rules

SCORES = "dialogue_key varchar, metric varchar, score double, score_problem varchar"


def test_an_expression_rule_fails_where_it_is_not_true_null_included() -> None:
    con = scratch(
        {
            "tested": (
                SCORES,
                [
                    ("d1", "empathy", 4, None),
                    ("d1", "fluency", 7, None),
                    ("d2", "empathy", None, None),
                    ("d2", "fluency", None, "not a number: a JSON string"),
                ],
            )
        }
    )
    rows = offending(
        con,
        rules_hold(
            {
                "score_is_1_to_5": {"expression": "score between 1 and 5", "where": "score_problem is null"},
                "score_is_a_number": "score_problem is null",
            }
        ),
    )
    assert rows == [
        {"broken_rule": "score_is_1_to_5", "dialogue_key": "d1", "metric": "fluency", "score": 7.0},
        {"broken_rule": "score_is_1_to_5", "dialogue_key": "d2", "metric": "empathy"},
        {
            "broken_rule": "score_is_a_number",
            "dialogue_key": "d2",
            "metric": "fluency",
            "score_problem": "not a number: a JSON string",
        },
    ]


def test_an_expression_rule_shows_its_columns_only() -> None:
    con = scratch({"tested": (SCORES, [("d1", "fluency", 7, None)])})
    rows = offending(con, rules_hold({"in_range": {"expression": "score <= 5", "show_columns": ["dialogue_key"]}}))
    assert rows == [{"broken_rule": "in_range", "dialogue_key": "d1"}]


def test_a_count_rule_names_each_miscounted_group_beside_the_other_rules() -> None:
    """The rules' rows differ in shape: each keeps its own columns (`union all by name`)."""
    con = scratch(
        {
            "tested": (
                SCORES,
                [
                    ("d1", "empathy", 4, None),
                    ("d1", "empathy", 5, None),
                    ("d1", "fluency", 4, None),
                    ("d2", "empathy", 9, None),
                ],
            )
        }
    )
    sql = rules_hold(
        {
            "two_metrics": {
                "group_by": ["dialogue_key"],
                "expected": 2,
                "distinct_column": "metric",
                "list_column": "metric",
            },
            "each_metric_once": {"group_by": ["dialogue_key"], "expected": "2", "each_once": "metric"},
            "score_at_most_5": "score <= 5",
        }
    )
    assert offending(con, sql) == [
        {"broken_rule": "each_metric_once", "dialogue_key": "d1", "n_found": 3, "n_expected": 2, "n_repeated": 1},
        {"broken_rule": "each_metric_once", "dialogue_key": "d2", "n_found": 1, "n_expected": 2, "n_repeated": 0},
        {"broken_rule": "score_at_most_5", "dialogue_key": "d2", "metric": "empathy", "score": 9.0},
        {
            "broken_rule": "two_metrics",
            "dialogue_key": "d2",
            "n_found": 1,
            "n_expected": 2,
            "found_values": ["empathy"],
        },
    ]


def test_a_sequence_rule_names_each_gap_but_not_where_a_sequence_starts() -> None:
    con = scratch(
        {"tested": ("dialogue_key varchar, turn_index integer", [("d1", 1), ("d1", 2), ("d1", 4), ("d2", 0)])}
    )
    rows = offending(con, rules_hold({"turns_follow": {"sequential": "turn_index", "group_by": ["dialogue_key"]}}))
    assert rows == [{"broken_rule": "turns_follow", "dialogue_key": "d1", "turn_index": 4, "previous_turn_index": 2}]


def test_rules_pass_good_rows_and_need_a_kind() -> None:
    con = scratch({"tested": (SCORES, [("d1", "empathy", 4, None), ("d1", "fluency", 5, None)])})
    sql = rules_hold(
        {
            "scores": "score between 1 and 5",
            "two": {"group_by": ["dialogue_key"], "expected": 2},
            "in_order": {"sequential": "score", "where": "dialogue_key = 'd1'"},
        }
    )
    assert offending(con, sql) == []
    with pytest.raises(ValueError, match="rule odd: give an `expression`"):
        rules_hold({"odd": {"where": "true"}})


# the replaced tests: the project's `group_row_count` and `sequential_values` (dbt_utils')
GROUP_ROW_COUNT = """
select dialogue_key, count(distinct metric) as n_found, 2 as n_expected, count(*) - count(distinct metric) as n_repeated
from tested group by dialogue_key having count(distinct metric) <> 2 or count(*) <> count(distinct metric)
"""
SEQUENTIAL_VALUES = """
select * from (
    select
        dialogue_key,
        turn_index,
        lag(turn_index) over (partition by dialogue_key order by turn_index) as previous_turn_index
    from tested
) where not (turn_index = previous_turn_index + 1)
"""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["d1", "d2", "d3"]), st.sampled_from(["m1", "m2", None]), st.integers(0, 4))))
def test_count_and_sequence_rules_find_the_rows_the_replaced_tests_found(rows: list[tuple]) -> None:
    con = scratch({"tested": ("dialogue_key varchar, metric varchar, turn_index integer", rows)})
    sql = rules_hold(
        {
            "count": {"group_by": ["dialogue_key"], "expected": 2, "distinct_column": "metric", "each_once": "metric"},
            "sequence": {"sequential": "turn_index", "group_by": ["dialogue_key"]},
        }
    )
    ours = offending(con, sql)
    assert sorted(
        (r["dialogue_key"], r["n_found"], r["n_expected"], r["n_repeated"]) for r in ours if r["broken_rule"] == "count"
    ) == sorted(con.execute(GROUP_ROW_COUNT).fetchall())
    assert sorted(
        (r["dialogue_key"], r["turn_index"], r["previous_turn_index"]) for r in ours if r["broken_rule"] == "sequence"
    ) == sorted(con.execute(SEQUENTIAL_VALUES).fetchall())


# -------------------------------------------------------------------------------------- vocabularies

VOCABULARIES = (
    "source varchar, vocabulary varchar, code integer, label varchar",
    [
        ("dices", "gender", 0, "Man"),
        ("dices", "gender", 1, "Woman"),
        ("dices", "phase", 0, "Phase1"),
        ("dices", "harm_type", 0, "Violence"),
        ("redial", "seen", 0, "not seen"),
        ("redial", "seen", 1, "seen"),
        ("redial", "seen", 2, "did not say"),
    ],
)
DICES_ROWS = "row_id integer, gender varchar, phase varchar, locale varchar, harm_types varchar, split varchar"


def test_accepted_values_name_each_offending_row_and_let_a_null_pass() -> None:
    """As dbt's `accepted_values`: a null is no value outside the list."""
    con = scratch(
        {
            "tested": (
                DICES_ROWS,
                [
                    (1, "Man", "Phase1", None, "", "train"),
                    (2, "Man", None, None, "", None),
                    (3, "Man", None, None, "", "dev"),
                ],
            )
        }
    )
    rows = offending(con, values_in_vocabularies([{"column": "split", "values": ["train", "test"]}]))
    assert rows == [
        {"broken_rule": "accepted_values(split)", "row_id": 3, "gender": "Man", "harm_types": "", "split": "dev"}
    ]


def test_a_vocabulary_rule_names_the_value_and_its_vocabulary_and_fails_a_null() -> None:
    con = scratch(
        {
            "vocabularies": VOCABULARIES,
            "tested": (
                DICES_ROWS,
                [
                    (1, "Man", "Phase1", None, "", "train"),
                    (2, "Male", None, None, "", "train"),
                    (3, None, None, None, "", "train"),
                ],
            ),
        }
    )
    sql = values_in_vocabularies(
        [{"name": "gender_known", "column": "gender", "vocabulary": "gender", "show_columns": ["row_id"]}],
        source="dices",
    )
    assert offending(con, sql) == [
        {"broken_rule": "gender_known", "row_id": 2, "vocabulary": "gender", "value": "Male"},
        {"broken_rule": "gender_known", "row_id": 3, "vocabulary": "gender"},
    ]


def test_vocabulary_rules_of_every_kind_in_one_test() -> None:
    """A documented empty field (`allow_null`), a list of topics compared case-insensitively, codes,
    a vocabulary named per row, several columns in one scan (a null fails there), each rule named."""
    con = scratch(
        {
            "vocabularies": VOCABULARIES,
            "tested": (
                DICES_ROWS,
                [
                    (1, "Man", "Phase1", None, " violence ,", "train"),
                    (2, "Woman", "Phase9", "IN", "Violence, Fraud", "train"),
                    (3, None, "Phase1", None, "", "test"),
                ],
            ),
        }
    )
    sql = values_in_vocabularies(
        [
            {
                "name": "locale_known",
                "column": "locale",
                "vocabulary": "gender",
                "allow_null": True,
                "show_columns": ["row_id"],
            },
            {
                "name": "harm_types_known",
                "column": "list_filter(string_split(harm_types, ','), topic -> trim(topic) <> '')",
                "vocabulary": "harm_type",
                "is_list": True,
                "case_insensitive": True,
                "show_columns": ["row_id"],
            },
            {
                "name": "rater_columns_known",
                "columns": ["gender", "phase"],
                "show_columns": ["row_id"],
                "where": "row_id > 1",
            },
        ],
        source="dices",
    )
    assert offending(con, sql) == [
        {"broken_rule": "harm_types_known", "row_id": 2, "vocabulary": "harm_type", "value": " Fraud"},
        {"broken_rule": "locale_known", "row_id": 2, "vocabulary": "gender", "value": "IN"},
        {"broken_rule": "rater_columns_known", "row_id": 2, "vocabulary": "phase", "value": "Phase9"},
        {"broken_rule": "rater_columns_known", "row_id": 3, "vocabulary": "gender"},
    ]


def test_a_vocabulary_of_codes_named_per_row() -> None:
    con = scratch(
        {
            "vocabularies": VOCABULARIES,
            "tested": (
                "dialogue_key varchar, question varchar, value_numeric integer",
                [("r1", "seen", 2), ("r1", "seen", 3), ("r2", None, 1)],
            ),
        }
    )
    sql = values_in_vocabularies(
        [
            {
                "name": "form_answers_known",
                "column": "value_numeric",
                "vocabulary_column": "question",
                "match": "code",
                "where": "question is not null",
                "show_columns": ["dialogue_key"],
            }
        ],
        source="redial",
    )
    assert offending(con, sql) == [
        {"broken_rule": "form_answers_known", "dialogue_key": "r1", "vocabulary": "seen", "value": 3}
    ]


# the replaced test: dbt's `accepted_values`, one row per offending value with its count
DBT_ACCEPTED_VALUES = """
select * from (select split as value_field, count(*) as n_records from tested group by split)
where value_field not in ('train', 'test')
"""


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(["train", "test", "dev", "Train", ""])), max_size=30))
def test_accepted_values_find_the_rows_the_replaced_test_counted(splits: list) -> None:
    con = scratch({"tested": ("row_id integer, split varchar", list(enumerate(splits)))})
    ours = con.execute(values_in_vocabularies([{"column": "split", "values": ["train", "test"]}])).fetchall()
    assert sorted(Counter(split for _, _, split in ours).items()) == sorted(con.execute(DBT_ACCEPTED_VALUES).fetchall())


# -------------------------------------------------------------------------------------- references


def test_references_name_each_orphan_row_whole_and_let_a_null_pass() -> None:
    """A null in the parent does not hide an orphan (no `not in` that a null turns unknown)."""
    con = scratch(
        {
            "raters": ("rater_key varchar", [("r1",), (None,)]),
            "sources": ("source varchar", [("duo",)]),
            "tested": (
                "rating_id varchar, rater_key varchar, source varchar",
                [("x1", "r1", "duo"), ("x2", "r9", "duo"), ("x3", None, "toy")],
            ),
        }
    )
    sql = references_exist(
        [
            {"column": "rater_key", "to": Relation("raters"), "field": "rater_key"},
            {"name": "sources_declared", "column": "source", "to": Relation("sources"), "field": "source"},
        ]
    )
    assert offending(con, sql) == [
        {"broken_rule": "rater_key -> raters.rater_key", "rating_id": "x2", "rater_key": "r9", "source": "duo"},
        {"broken_rule": "sources_declared", "rating_id": "x3", "source": "toy"},
    ]


# the replaced test: dbt's `relationships`
DBT_RELATIONSHIPS = """
with child as (select rater_key as from_field from tested where rater_key is not null),
parent as (select rater_key as to_field from raters)
select from_field from child left join parent on child.from_field = parent.to_field where parent.to_field is null
"""


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.one_of(st.none(), st.sampled_from(["r1", "r2", "r3"])), max_size=20),
    st.lists(st.one_of(st.none(), st.sampled_from(["r1", "r2"])), max_size=5),
)
def test_references_find_the_rows_the_replaced_test_found(children: list, parents: list) -> None:
    con = scratch(
        {
            "raters": ("rater_key varchar", [(p,) for p in parents]),
            "tested": ("rater_key varchar", [(c,) for c in children]),
        }
    )
    ours = con.execute(
        references_exist([{"column": "rater_key", "to": Relation("raters"), "field": "rater_key"}])
    ).fetchall()
    assert sorted(key for _, key in ours) == sorted(key for (key,) in con.execute(DBT_RELATIONSHIPS).fetchall())


# ------------------------------------------------------------------------------- the project's YAML

FAMILIES = {
    "keys_hold": "keys",
    "rules_hold": "rules",
    "values_in_vocabularies": "vocabularies",
    "references_exist": "references",
}
# tests kept apart, each for a reason its macro gives: spill-safe keys of the tables that grow with
# the corpus, and DICES answers checked once per distinct (question, answer) pair
KEPT_APART = {"unique_at_scale", "unique_combination_of_columns_at_scale", "dices_answers_in_vocabulary"}


def generic_tests() -> list[tuple[str, str, str, dict, bool]]:
    """(YAML file, relation, generic test, its properties, whether a column declares it) of every
    data test of every model, seed and source table."""
    found = []
    for path in sorted([*(PROJECT_ROOT / "models").rglob("*.yml"), *(PROJECT_ROOT / "seeds").glob("*.yml")]):
        document = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        relations = [*document.get("models", []), *document.get("seeds", [])]
        relations += [
            {**table, "name": f"{source['name']}_{table['name']}"}
            for source in document.get("sources", [])
            for table in source.get("tables", [])
        ]
        for relation in relations:
            declared = [(test, False) for test in relation.get("data_tests", [])]
            declared += [
                (test, True) for column in relation.get("columns", []) for test in column.get("data_tests", [])
            ]
            for test, on_a_column in declared:
                [(generic, properties)] = test.items() if isinstance(test, dict) else [(test, {})]
                file = path.relative_to(PROJECT_ROOT).as_posix()
                found.append((file, relation["name"], generic, properties or {}, on_a_column))
    return found


def test_the_yaml_is_read() -> None:
    assert len(generic_tests()) > 100


def test_every_generic_test_is_a_folded_one_named_after_its_relation_and_family() -> None:
    """One test per relation, family and severity: `<relation>_keys`, `_rules`, `_vocabularies`,
    `_references`, and `_warnings` for the rules that only warn (never beside an error), declared by
    the relation, not a column; every rule has its own `where`, and no dbt `config: where:` restricts
    all of a test's rules at once."""
    wrong, names = [], Counter()
    for path, relation, generic, properties, on_a_column in generic_tests():
        if generic in KEPT_APART:
            continue
        config = properties.get("config", {})
        family = FAMILIES.get(generic)
        if family == "rules" and config.get("severity") == "warn":
            family = "warnings"
        if family is None or on_a_column or properties.get("name") != f"{relation}_{family}" or "where" in config:
            wrong.append(f"{path}: {relation}: {generic} {properties.get('name')}")
        names[properties.get("name")] += 1
    assert wrong == []
    assert [name for name, count in names.items() if count > 1] == []
