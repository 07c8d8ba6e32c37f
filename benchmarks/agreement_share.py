"""What the agreement marts add to a build: their models' compiled SQL timed on a built warehouse.

    python benchmarks/agreement_share.py DATABASE [--manifest target/manifest.json]

Runs, in dependency order, the compiled SQL of every `int_agreement__*` model and of the agreement
marts (taken from the manifest of the last `dwh build` / `dbt compile`) as temporary tables on a
copy of DATABASE, one statement at a time as the build's DuckDB would, and prints each one's
seconds and the total. Compare the total with `dwh build`'s time at the same scale.
"""

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import duckdb

AGREEMENT_MARTS = {"rating_distributions", "agreement", "rater_agreement", "score_correlations", "grasp_comparison"}


def agreement_models(manifest_path: Path) -> list[tuple[str, str]]:
    """(name, compiled SQL) of the agreement models, upstream first."""
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
                ordered.append((node["name"], node["compiled_code"]))
                done.add(node_id)
    return ordered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database", type=Path)
    parser.add_argument("--manifest", type=Path, default=Path("target") / "manifest.json")
    args = parser.parse_args(argv)
    models = agreement_models(args.manifest)
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / args.database.name  # same file name: the compiled SQL names its catalog
        shutil.copyfile(args.database, copy)
        con = duckdb.connect(str(copy))
        total = 0.0
        for name, sql in models:
            started = time.perf_counter()
            con.execute(f'create or replace temp table "{name}" as {sql}')
            seconds = time.perf_counter() - started
            total += seconds
            print(f"{name:45s} {seconds:7.2f} s")
        print(f"{'total':45s} {total:7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
