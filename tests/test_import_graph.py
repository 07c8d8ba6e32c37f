"""No import circle among the project's own modules (ingest, dwh, agreement_core): each module's
top-level imports, those under `if TYPE_CHECKING:` included (a circle of types is still a circle of
concerns), form a graph without a cycle. Built from the source files with `ast`; nothing is imported.
Imports inside a function are left out: they run later, when every module is loaded."""

import ast
from collections.abc import Iterator
from pathlib import Path

from tests.helpers import PROJECT_ROOT

PACKAGES = ("ingest", "dwh", "agreement_core")
Graph = dict[str, set[str]]


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the packages under `root`, by its dotted name (a package by its own)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def top_level_imports(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements a module runs when it is imported: its body's, and those in its
    top-level `if`, `try` and `with` blocks; not those of its functions and classes."""
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If | ast.Try | ast.With):
            nested = [*node.body, *getattr(node, "orelse", []), *getattr(node, "finalbody", [])]
            nested += [statement for handler in getattr(node, "handlers", []) for statement in handler.body]
            yield from top_level_imports(nested)


def imported_names(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The dotted names an import statement of `module` reaches (a relative one made absolute)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if is_package else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    # `from ingest import landing` reaches ingest.landing, `from ingest import __version__` the package
    return [f"{base}.{alias.name}" for alias in node.names]


def own_module(name: str, modules: dict[str, Path]) -> str | None:
    """The project's module `name` is, or is in (`ingest.sources.SOURCES` is `ingest.sources`)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(root: Path) -> Graph:
    """Each module of the packages under `root` with the project's modules it imports at its top level."""
    modules = module_files(root)
    graph: Graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            name
            for node in top_level_imports(tree.body)
            for name in imported_names(module, path.name == "__init__.py", node)
        ]
        graph[module] = {found for name in names if (found := own_module(name, modules)) not in (None, module)}
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """Each set of modules that import one another, round a circle (a strongly connected component of
    more than one module), sorted; Tarjan's algorithm."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = lowest[module] = len(index)
        stack.append(module)
        for imported in sorted(graph.get(module, ())):
            if imported not in index:
                visit(imported)
                lowest[module] = min(lowest[module], lowest[imported])
            elif imported in stack:
                lowest[module] = min(lowest[module], index[imported])
        if lowest[module] == index[module]:
            component = stack[stack.index(module) :]
            del stack[stack.index(module) :]
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(found)


def test_a_circle_is_found_and_a_chain_is_not() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) == []
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}) == [["a", "b"], ["c", "d"]]


def test_the_graph_reads_every_kind_of_top_level_import(tmp_path: Path) -> None:
    """Plain, from, relative and TYPE_CHECKING imports count; an import inside a function does not."""
    files = {
        "ingest/__init__.py": "",
        "ingest/a.py": "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from ingest.b import B\n",
        "ingest/b.py": "from . import c\n",
        "ingest/c.py": "import ingest.a\n\n\ndef later():\n    from ingest import d\n",
        "ingest/d.py": "from ingest.a import A\n",
        "dwh/__init__.py": "from ingest import __version__\n",
        "agreement_core/__init__.py": "",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    graph = import_graph(tmp_path)
    assert graph == {
        "ingest": set(),
        "ingest.a": {"ingest.b"},
        "ingest.b": {"ingest.c"},
        "ingest.c": {"ingest.a"},
        "ingest.d": {"ingest.a"},
        "dwh": {"ingest"},
        "agreement_core": set(),
    }
    assert cycles(graph) == [["ingest.a", "ingest.b", "ingest.c"]]


def test_no_import_circle_among_the_projects_modules() -> None:
    graph = import_graph(PROJECT_ROOT)
    assert {"ingest.database", "ingest.sources", "dwh.cli", "agreement_core.maths"} <= set(graph)
    assert "ingest.landing" in graph["ingest.sources"]  # its TYPE_CHECKING import is read
    assert cycles(graph) == []
