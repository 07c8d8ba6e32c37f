"""What the agreement models cost, one by one: their compiled SQL timed on a built warehouse.

    python benchmarks/agreement_share.py DATABASE [--manifest target/manifest.json] [--runs 3]

Runs, in dependency order, the compiled SQL of every `int_agreement__*` model and of the agreement
marts (taken from the manifest of the last `dwh build` / `dbt compile`) on a copy of DATABASE,
each replacing its table or view there (on disk, as in the build), one statement at a time, and
prints each one's wall and CPU seconds (all DuckDB threads) and the totals: medians over --runs
fresh copies. What they add to a whole `dwh build` (tests and dbt's own work included) is in
`make bench`: path (b) against path (b')."""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import duckdb

AGREEMENT_MARTS = {"rating_distributions", "agreement", "rater_agreement", "score_correlations", "grasp_comparison"}


def agreement_models(manifest_path: Path) -> list[tuple[str, str, str, str]]:
    """(materialization, schema, name, compiled SQL) of the agreement models, upstream first."""
    nodes = json.loads(manifest_path.read_text())["nodes"]
    chosen = {node_id: node for node_id, node in nodes.items() if node["resource_type"] == "model"
              and (node["name"].startswith("int_agreement__") or node["name"] in AGREEMENT_MARTS)}
    missing = [node["name"] for node in chosen.values() if not node.get("compiled_code")]
    if missing:
        raise SystemExit(f"agreement_share: {manifest_path} holds no compiled SQL for {missing}; run `dwh build` first")
    ordered, done = [], set()
    while len(done) < len(chosen):
        for node_id, node in sorted(chosen.items()):
            if node_id not in done and all(n in done for n in node["depends_on"]["nodes"] if n in chosen):
                ordered.append((node["config"]["materialized"], node["schema"], node["name"], node["compiled_code"]))
                done.add(node_id)
    return ordered


def time_models(database: Path, models: list[tuple[str, str, str, str]]) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds per model, each replacing its own table or view in a scratch copy of `database`."""
    seconds = {}
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / database.name  # same file name: the compiled SQL names its catalog
        shutil.copyfile(database, copy)
        con = duckdb.connect(str(copy))
        for materialized, schema, name, sql in models:
            started, cpu_started = time.perf_counter(), time.process_time()
            # replaced in place, on disk: the next model reads this one's output, as in the build
            existing = con.execute(
                "select 'view' from duckdb_views() where schema_name = ? and view_name = ? "
                "union all select 'table' from duckdb_tables() where schema_name = ? and table_name = ?",
                [schema, name, schema, name]).fetchall()
            for (old_kind,) in existing:
                con.execute(f'drop {old_kind} "{schema}"."{name}"')
            con.execute(f'create {"view" if materialized == "view" else "table"} "{schema}"."{name}" as {sql}')
            seconds[name] = (time.perf_counter() - started, time.process_time() - cpu_started)
        con.close()
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--manifest", type=Path, default=Path("target") / "manifest.json")
    parser.add_argument("--runs", type=int, default=3, help="runs on fresh copies; the median of each model is shown")
    args = parser.parse_args(argv)
    models = agreement_models(args.manifest)
    runs = [time_models(args.database, models) for _ in range(args.runs)]
    print(f"{'model':45s} {'wall s':>7s} {'CPU s':>7s}")
    for _, _, name, _ in models:
        wall, cpu = (statistics.median(run[name][i] for run in runs) for i in (0, 1))
        print(f"{name:45s} {wall:7.2f} {cpu:7.2f}")
    for label, i in (("wall", 0), ("CPU", 1)):
        totals = sorted(sum(seconds[i] for seconds in run.values()) for run in runs)
        print(f"{'total ' + label + ' (median of runs)':45s} {statistics.median(totals):7.2f}   "
              f"(min {totals[0]:.2f}, max {totals[-1]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
