"""The build's floor: the compiled SQL of every model and test of `dwh build`, run directly in DuckDB.

    python benchmarks/build_floor.py DATABASE --built BUILT [--manifest target/manifest.json]
        [--only agreement] [--runs 1] [--top 25] [--json RESULT.json]

DATABASE is a warehouse as `dwh ingest` leaves it (it is not changed: the work happens on a
copy). BUILT is a warehouse that `dwh build` finished from the same manifest: the seeds' tables
are copied from it untimed (dbt loads them from CSV in a fraction of a second), and so are the
Python models' (the Monte Carlo, which is no SQL: the floor is the SQL's). Then, in one
connection and one statement at a time, every model's compiled SQL replaces its table or view
(upstream first, as dbt orders them) and every data test's compiled SQL is counted, as dbt does.
What this does not do is dbt's own work: start-up, parsing, the graph, the adapter's
statements around each node, the unit tests, the docs persisted as comments.

Prints the slowest nodes, and the totals of models and tests: this is also the profile of the
build, node by node, without four dbt threads competing for two cores. `--only agreement` times
just the agreement models (what issue 10 adds), on a copy of BUILT (their upstream models must
exist; DATABASE is not read then); `--json` writes the totals for `make bench`.
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import duckdb

AGREEMENT_MARTS = {
    "rating_distributions",
    "group_rating_distributions",
    "agreement",
    "rater_agreement",
    "rater_consistency",
    "rater_quality",
    "replication_agreement",
    "score_correlations",
    "grasp_comparison",
}


@dataclass(frozen=True)
class Node:
    """A model or a data test of the manifest, with what it takes to run it."""

    kind: str  # table | view | test
    schema: str
    name: str
    sql: str


def is_agreement_model(node: dict) -> bool:
    """Whether a manifest node is one of issue 10's agreement models."""
    return node["name"].startswith("int_agreement__") or node["name"] in AGREEMENT_MARTS


def is_python_model(node: dict) -> bool:
    return node["resource_type"] == "model" and node.get("language") == "python"


def build_order(manifest_path: Path, only_agreement: bool) -> tuple[list[Node], list[tuple[str, str]]]:
    """(the SQL models then the tests, upstream first; the (schema, name) of every relation taken
    from the finished build: the seeds and the Python models)."""
    nodes = json.loads(manifest_path.read_text())["nodes"]
    copied = [
        (node["schema"], node["name"])
        for node in nodes.values()
        if node["resource_type"] == "seed" or is_python_model(node)
    ]
    models = {
        node_id: node
        for node_id, node in nodes.items()
        if node["resource_type"] == "model"
        and not is_python_model(node)
        and (not only_agreement or is_agreement_model(node))
    }
    missing = [node["name"] for node in models.values() if not node.get("compiled_code")]
    if missing:
        raise SystemExit(f"build_floor: {manifest_path} holds no compiled SQL for {missing[:5]}; run `dwh build` first")
    ordered, done = [], set()
    while len(done) < len(models):
        for node_id, node in sorted(models.items()):
            if node_id not in done and all(n in done for n in node["depends_on"]["nodes"] if n in models):
                kind = "view" if node["config"]["materialized"] == "view" else "table"
                ordered.append(Node(kind, node["schema"], node["name"], node["compiled_code"]))
                done.add(node_id)
    if not only_agreement:
        ordered += [
            Node("test", "", node["name"], node["compiled_code"])
            for node in nodes.values()
            if node["resource_type"] == "test" and node.get("compiled_code")
        ]
    return ordered, copied


def copy_built(con: duckdb.DuckDBPyConnection, built: Path, relations: list[tuple[str, str]]) -> None:
    """The seeds' and the Python models' tables as the finished build left them (untimed)."""
    con.execute(f"attach '{built}' as finished_build (read_only)")
    for schema, name in relations:
        con.execute(f'create schema if not exists "{schema}"')
        con.execute(f'create or replace table "{schema}"."{name}" as select * from finished_build."{schema}"."{name}"')
    con.execute("detach finished_build")


def run_node(con: duckdb.DuckDBPyConnection, node: Node) -> None:
    """Replace a model's relation with its compiled SQL, or count a test's failing rows."""
    if node.kind == "test":
        con.execute(f"select count(*) from ({node.sql}) as failures").fetchall()
        return
    con.execute(f'create schema if not exists "{node.schema}"')
    existing = con.execute(
        "select 'view' from duckdb_views() where schema_name = ? and view_name = ? "
        "union all select 'table' from duckdb_tables() where schema_name = ? and table_name = ?",
        [node.schema, node.name, node.schema, node.name],
    ).fetchall()
    for (old_kind,) in existing:
        con.execute(f'drop {old_kind} "{node.schema}"."{node.name}" cascade')
    con.execute(f'create {node.kind} "{node.schema}"."{node.name}" as {node.sql}')


def time_nodes(database: Path, built: Path, nodes: list[Node], copied: list[tuple[str, str]]) -> dict[str, float]:
    """Wall seconds of every node, run one after the other on a scratch copy of `database`."""
    seconds = {}
    with tempfile.TemporaryDirectory(dir=database.parent) as scratch:
        copy = Path(scratch) / "warehouse.duckdb"  # the compiled SQL names schema and relation, no catalog
        shutil.copyfile(database, copy)
        con = duckdb.connect(str(copy))
        copy_built(con, built, copied)
        for node in nodes:
            started = time.perf_counter()
            run_node(con, node)
            seconds[f"{node.kind} {node.name}"] = time.perf_counter() - started
        con.close()
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path, help="a warehouse as `dwh ingest` left it")
    parser.add_argument(
        "--built", type=Path, required=True, help="a warehouse `dwh build` finished (its seeds and Python models)"
    )
    parser.add_argument("--manifest", type=Path, default=Path("target") / "manifest.json")
    parser.add_argument("--only", choices=["agreement"], help="time only the agreement models")
    parser.add_argument("--runs", type=int, default=1, help="runs on fresh copies; medians are shown")
    parser.add_argument("--top", type=int, default=25, help="how many of the slowest nodes to list")
    parser.add_argument("--json", type=Path, help="write {models_s, tests_s, total_s} (medians) here")
    args = parser.parse_args(argv)
    nodes, copied = build_order(args.manifest, args.only == "agreement")
    # the agreement models alone read the marts and intermediate models the build made
    start = args.built if args.only == "agreement" else args.database
    runs = [time_nodes(start, args.built, nodes, copied) for _ in range(args.runs)]
    medians = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    print(f"{'node':60s} {'wall s':>7s}")
    for name, seconds in sorted(medians.items(), key=lambda item: -item[1])[: args.top]:
        print(f"{name:60s} {seconds:7.2f}")
    totals = {
        "models_s": statistics.median(sum(s for n, s in run.items() if not n.startswith("test ")) for run in runs),
        "tests_s": statistics.median(sum(s for n, s in run.items() if n.startswith("test ")) for run in runs),
        "total_s": statistics.median(sum(run.values()) for run in runs),
    }
    print(
        f"{len(nodes)} nodes; models {totals['models_s']:.2f} s, tests {totals['tests_s']:.2f} s, "
        f"total {totals['total_s']:.2f} s (medians of {args.runs} run(s))"
    )
    if args.json:
        args.json.write_text(json.dumps(totals) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
