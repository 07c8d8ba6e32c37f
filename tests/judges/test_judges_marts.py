"""The judges' marts as a user gets them: judges' files loaded with `dwh ingest --judges` and built
with `dwh build`, on the real DUO release and on the small sample of all three datasets. A judge
never changes a human mart; a judge equal to the users' own scores matches them perfectly; every
xRR and correlation equals independent code over the marts' own ratings."""

import csv
import json
import re
import shutil
from pathlib import Path

import duckdb
import pytest
import scipy.stats

from sample_data.dices import write_dices_sample
from sample_data.judges import write_judges_sample
from sample_data.redial import write_redial_sample
from tests import agreement_reference as reference
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, run_dwh

pytestmark = pytest.mark.slow

HUMAN_MARTS = [
    "agreement",
    "replication_agreement",
    "rater_agreement",
    "rater_quality",
    "rating_distributions",
    "raters",
    "ratings",
]
SCORES = reference.Question("interval", True, (1, 2, 3, 4, 5), ("1", "2", "3", "4", "5"), frozenset())


def write_judges(path: Path, rows: list[tuple]) -> Path:
    with path.open("w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["judge", "dialogue_key", "question", "value"])
        writer.writerows(rows)
    return path


def load_and_build(db_path: Path, judges_file: Path) -> None:
    loaded = run_dwh(["ingest", "--judges", str(judges_file)], db_path)
    assert loaded.returncode == 0, loaded.stderr
    built = run_dwh(["build"], db_path)
    assert built.returncode == 0, built.stdout + built.stderr


def mart_rows(db_path: Path, mart: str) -> list[tuple]:
    """The mart's rows in order, numbers rounded to 1e-9 (DuckDB may sum in another order)."""
    with duckdb.connect(str(db_path), read_only=True) as con:
        return [tuple(map(rounded, row)) for row in con.execute(f"select * from marts.{mart} order by all").fetchall()]


def rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 9)
    if isinstance(value, dict):
        return {key: rounded(item) for key, item in value.items()}
    return value


# the sample's judges of DUO (`dwh sample`'s, written over the real release): the judges the
# "Judging a judge" section of docs/AGREEMENT.md shows
SAMPLE_DUO_JUDGES = ("judge_like_users", "judge_like_annotators", "judge_random")


def sample_duo_judges(real_duo: Path, folder: Path) -> list[Path]:
    """The sample's judges written over a copy of the real DUO release (the writer reads a DICES and a
    ReDial release too: the smallest samples of both, whose units the warehouse rejects)."""
    release = folder / "release"
    shutil.copytree(real_duo, release / "duo")
    write_redial_sample(release, n_train=2, n_test=1)
    write_dices_sample(release, items_350=1, items_990=1)
    return [path for path in write_judges_sample(release) if path.stem in SAMPLE_DUO_JUDGES]


@pytest.fixture(scope="module")
def judged_duo(real_duo: Path, real_duo_build: BuiltWarehouse, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real DUO release with two judges of its own, one that gives each dialogue its user's own
    scores and one that gives every metric 1–5 by a fixed rule unrelated to the dialogue, and the
    sample's three judges of DUO (`SAMPLE_DUO_JUDGES`)."""
    root = tmp_path_factory.mktemp("judged_duo")
    db_path = real_duo_build.copy_to(root)
    with duckdb.connect(str(db_path), read_only=True) as con:
        users = con.execute(
            "select dialogue_key, question, value_numeric from marts.ratings "
            "where source = 'duo' and rating_kind = 'subjective' order by all"
        ).fetchall()
    rows = [("users_copy", key, question, score) for key, question, score in users]
    rows += [("rule_of_thumb", key, question, 1 + (len(key) * 7 + len(question)) % 5) for key, question, _ in users]
    judges = root / "judges"
    judges.mkdir()
    write_judges(judges / "judges.csv", rows)
    for path in sample_duo_judges(real_duo, root / "sample"):
        shutil.copyfile(path, judges / path.name)
    load_and_build(db_path, judges)
    return db_path


@pytest.mark.real_data
def test_a_judge_equal_to_the_users_has_xrr_and_rho_one_against_them(judged_duo: Path) -> None:
    with duckdb.connect(str(judged_duo), read_only=True) as con:
        rows = con.execute(
            "select xrr, spearman_rho, human_xrr_median from marts.judge_agreement "
            "where judge = 'users_copy' and reference_dimension = 'user'"
        ).fetchall()
    assert len(rows) >= 16  # every metric of every language and setting both have
    for xrr, rho, ceiling in rows:
        assert xrr == pytest.approx(1.0) and rho == pytest.approx(1.0)
        assert ceiling is None  # one user's score per dialogue: no ceiling


@pytest.mark.real_data
def test_every_xrr_and_correlation_equals_independent_code_on_the_real_release(judged_duo: Path) -> None:
    with duckdb.connect(str(judged_duo), read_only=True) as con:
        figures = con.execute(
            "select judge, scope, question, reference_dimension, n_units, xrr, spearman_rho, kendall_tau_b "
            "from marts.judge_agreement where source = 'duo'"
        ).fetchall()
        ratings = con.execute(
            """select d.language || ':' || d.setting, r.question, r.rating_kind, r.dialogue_key, r.value_numeric
               from marts.ratings r join marts.dialogues d using (dialogue_key) where r.source = 'duo'"""
        ).fetchall()
        judged = con.execute("select judge, dialogue_key, question, value_number from raw.judge_judgements").fetchall()
    human: dict[tuple, dict[str, list]] = {}
    for scope, question, kind, key, value in ratings:
        reference_name = "user" if kind == "subjective" else "annotators"
        human.setdefault((scope, question, reference_name), {}).setdefault(key, []).append(value)
    judge_values = {(judge, key, question): value for judge, key, question, value in judged}
    assert len(figures) >= 4 * 8
    for judge, scope, question, reference_name, n_units, xrr, rho, tau in figures:
        y = human[(scope, question, reference_name)]
        x = {key: [judge_values[(judge, key, question)]] for key in y if (judge, key, question) in judge_values}
        keys = sorted(x)
        expected = reference.cross_replication_reliability([x[k] for k in keys], [y[k] for k in keys], SCORES)
        assert n_units == expected.n_units
        assert (xrr is None and expected.xrr is None) or xrr == pytest.approx(expected.xrr, abs=1e-9)
        means = [sum(y[k]) / len(y[k]) for k in keys]
        judge_scores = [x[k][0] for k in keys]
        if len(set(means)) > 1 and len(set(judge_scores)) > 1:
            assert rho == pytest.approx(scipy.stats.spearmanr(judge_scores, means).statistic, abs=1e-9)
            assert tau == pytest.approx(scipy.stats.kendalltau(judge_scores, means).statistic, abs=1e-9)


def guide_queries() -> list[tuple[str, list[list[str]]]]:
    """Each SQL query of docs/AGREEMENT.md's "Judging a judge" and the rows of the table printed after it."""
    guide = (PROJECT_ROOT / "docs" / "AGREEMENT.md").read_text(encoding="utf-8")
    section = guide[guide.index("## Judging a judge") :].split("\n## ", 1)[0]
    printed = re.findall(r"```sql\n(.*?)```\s*```\n(.*?)```", section, flags=re.S)
    return [
        (query, [row_cells(line) for line in table.splitlines() if line.startswith("│")][2:])
        for query, table in printed
    ]


def row_cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip("│").split("│")]


@pytest.mark.real_data
def test_judging_a_judge_shows_what_its_three_queries_print_on_the_real_release(judged_duo: Path) -> None:
    queries = guide_queries()
    assert len(queries) == 3
    shown_judges = ", ".join(f"'{judge}'" for judge in SAMPLE_DUO_JUDGES)
    with duckdb.connect() as con:  # the marts as the guide's warehouse holds them: the sample's judges only
        con.execute(f"attach '{judged_duo}' as judged (read_only)")
        con.execute("create schema marts")
        con.execute(
            "create view marts.judge_agreement as select * from judged.marts.judge_agreement "
            f"where judge in ({shown_judges})"
        )
        con.execute(
            "create view marts.judge_comparison as select * from judged.marts.judge_comparison "
            f"where judge_a in ({shown_judges}) and judge_b in ({shown_judges})"
        )
        for query, shown in queries:
            rows = [[str(value) for value in row] for row in con.execute(query).fetchall()]
            assert rows == shown, query


def lineage(manifest: dict, nodes: list[str], direction: str) -> set[str]:
    """Every node that reads `nodes` ("child_map") or that they read ("parent_map"), directly or
    through others (dbt's lineage)."""
    found, stack = set(), list(nodes)
    while stack:
        for node in manifest[direction].get(stack.pop(), []):
            if node not in found:
                found.add(node)
                stack.append(node)
    return found


def test_the_judges_reach_the_human_marts_only_as_raters_of_kind_judge_in_the_spine(
    small_sample_build: BuiltWarehouse,
) -> None:
    """A judge never changes a human mart. Judges are raters of the spine's two inner-form relations
    (`int_agreement__raters`, `int_agreement__judgements`), of kind judge: those two are the only
    models that read the judges' staging, and no other model names the judges' raw table. Every
    human figure leaves a judge out by its kind (`is_judge`); tests/building/test_build_incremental.py
    loads judges and finds every human mart as it was."""
    manifest = json.loads((small_sample_build.target / "manifest.json").read_text(encoding="utf-8"))
    [staging] = [node for node, built in manifest["nodes"].items() if built["name"] == "stg_judge__judgements"]
    readers = {manifest["nodes"][node]["name"] for node in manifest["child_map"][staging] if node.startswith("model.")}
    assert readers == {"int_agreement__raters", "int_agreement__judgements"}
    human_marts = [node for node, built in manifest["nodes"].items() if built["name"] in HUMAN_MARTS]
    read = lineage(manifest, human_marts, "parent_map")
    upstream = [manifest["nodes"][node] for node in read if node in manifest["nodes"]]
    assert len(upstream) > 20 and all(node["compiled_code"] for node in upstream if node["resource_type"] == "model")
    # dbt writes a source as a quoted relation: `"raw"."judge_judgements"`
    named = [node["name"] for node in upstream if '"judge_judgements"' in (node.get("compiled_code") or "")]
    assert named == ["stg_judge__judgements"]
