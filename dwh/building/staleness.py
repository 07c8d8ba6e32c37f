"""Which marts a `dwh build` given its own selection leaves older than their inputs (issue 63, case
3): `dwh build --exclude int_agreement__group_figures` after a rating changed rebuilds `agreement`
from figures computed before the change. A model downstream of a source whose raw rows changed since
the last build is out of date until a build runs it; a mart that is such a model, or is built from
one, is named in one line, with what it was built from and which sources changed.

Read from the build's own dbt manifest (the graph) and run results (what ran).
"""

import json
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from dwh.building.build_plan import BOOKKEEPING_SOURCE

MARTS_FOLDER = "models/marts/"
# the nodes a model's freshness passes through (tests and exposures change no table)
TABLE_KINDS = ("model.", "seed.", "snapshot.")


@dataclass(frozen=True)
class StaleMart:
    """A mart older than its inputs: left out itself, or built from models left out."""

    name: str
    left_out: bool  # the mart itself was not rebuilt
    from_models: list[str]  # the models upstream of it that were left out (when it was rebuilt)
    sources: list[str]  # the changed sources it depends on

    def line(self) -> str:
        data = [source for source in self.sources if source != BOOKKEEPING_SOURCE]
        changed = f"the change to {', '.join(data) if data else 'the load bookkeeping'} since the last build"
        if self.left_out:
            why = f"left out of this build, it predates {changed}"
        else:
            shown = ", ".join(self.from_models[:3]) + (", …" if len(self.from_models) > 3 else "")
            why = f"rebuilt from {shown}, left out of this build and older than {changed}"
        return f"dwh build: marts.{self.name} is older than its inputs: {why}; run dwh build without a selection"


def stale_marts(target: Path, changed_sources: set[str]) -> list[StaleMart]:
    """The marts a build left older than their inputs, from its target folder (manifest.json,
    run_results.json), given the sources whose raw rows changed since the last build."""
    manifest_path, results_path = target / "manifest.json", target / "run_results.json"
    if not changed_sources or not manifest_path.exists() or not results_path.exists():
        return []
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    results = json.loads(results_path.read_text(encoding="utf-8"))["results"]
    built = {result["unique_id"] for result in results if result["status"] == "success"}
    children = manifest.get("child_map", {})
    roots = {
        source_id: source["source_name"]
        for source_id, source in manifest.get("sources", {}).items()
        if source["source_name"] in changed_sources
    }
    reached_by: dict[str, set[str]] = {}  # table node -> the changed sources upstream of it
    for source_id, source_name in roots.items():
        for node in _downstream(children, [source_id]):
            reached_by.setdefault(node, set()).add(source_name)
    left_out = {node for node in reached_by if node not in built}
    behind = _downstream(children, sorted(left_out)) | left_out
    nodes = manifest.get("nodes", {})
    stale = []
    for node in sorted(behind):
        found = nodes.get(node, {})
        if not node.startswith("model.") or not found.get("original_file_path", "").startswith(MARTS_FOLDER):
            continue
        upstream = _upstream(manifest.get("parent_map", {}), node) & left_out
        stale.append(
            StaleMart(
                name=found.get("alias") or found["name"],
                left_out=node in left_out,
                from_models=sorted(nodes.get(model, {}).get("name", model) for model in upstream),
                sources=sorted(reached_by.get(node, set())),
            )
        )
    return stale


def _downstream(children: dict[str, list[str]], starts: list[str]) -> set[str]:
    """Every table node downstream of the start nodes (themselves excluded)."""
    seen: set[str] = set()
    queue = deque(starts)
    while queue:
        for child in children.get(queue.popleft(), []):
            if child.startswith(TABLE_KINDS) and child not in seen:
                seen.add(child)
                queue.append(child)
    return seen


def _upstream(parents: dict[str, list[str]], node: str) -> set[str]:
    """Every table node upstream of `node`."""
    seen: set[str] = set()
    queue = deque([node])
    while queue:
        for parent in parents.get(queue.popleft(), []):
            if parent.startswith(TABLE_KINDS) and parent not in seen:
                seen.add(parent)
                queue.append(parent)
    return seen
