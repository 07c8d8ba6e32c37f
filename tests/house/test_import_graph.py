"""The rooms of the project's own packages and the imports between them, read from the source files
with `ast` (nothing is imported):

- no import circle: each module's top-level imports, those under `if TYPE_CHECKING:` included (a
  circle of types is still a circle of concerns), form a graph without a cycle. Imports inside a
  function are left out there: they run later, when every module is loaded;
- imports only run down (`LAYERS`): every import, a function's too, reaches the module's own room or
  a room of a layer below it;
- no package folder holds more than `MOST_MODULES` modules at its top: a reader finds theirs.

The rooms and their order are docs/OPERATING.md's "Where things are"."""

import ast
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT

PACKAGES = ("common", "ingest", "agreement_core", "sample_data", "dwh")
Graph = dict[str, set[str]]

# The packages, lowest first: a package imports only packages of an earlier layer (two of one layer
# do not import each other).
PACKAGE_LAYERS: tuple[tuple[str, ...], ...] = (
    # errors, paths, connections, the sources' registry, where a command may write, the version
    ("common",),
    # landing the releases; the agreement statistics
    ("ingest", "agreement_core"),
    # the sample's fixture data, written by `dwh sample` and read by the tests
    ("sample_data",),
    # the command
    ("dwh",),
)
# Inside a package, its rooms, lowest first: a module is in the room of the longest name that is it
# or holds it, and imports only from its own room or from a room of an earlier layer.
ROOM_LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "agreement_core": (
        # each figure once: distances, α, xRR and its sums, GAI, counts, correlations
        ("agreement_core.maths",),
        # over them: questions, resampling, memo, the agreement mart's and the replications' figures
        ("agreement_core",),
        # the judges' figures, on the same functions
        ("agreement_core.judge_figures",),
    ),
    "dwh": (
        # the command's process state (signals), which every writer checks before it publishes
        ("dwh",),
        # dbt build, its plan, vars and progress, the atomic publish, what the marts were built from
        ("dwh.building",),
        # the report; the files in and out (fetch, export, the judges' tasks)
        ("dwh.reporting", "dwh.transfer"),
        # the commands that write or read the warehouse as a whole
        ("dwh.load", "dwh.remove", "dwh.summary"),
        # the command line, which runs them all
        ("dwh.cli",),
    ),
}
MOST_MODULES = 12


def module_files(root: Path) -> dict[str, Path]:
    """Every module of the packages under `root`, by its dotted name (a package by its own)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def every_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, those its functions run later included."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


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


def import_graph(root: Path, in_functions: bool = False) -> Graph:
    """Each module of the packages under `root` with the project's modules it imports at its top level
    (`in_functions`: and inside its functions)."""
    modules = module_files(root)
    imports = every_import if in_functions else top_level_imports
    graph: Graph = {}
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            name for node in imports(tree.body) for name in imported_names(module, path.name == "__init__.py", node)
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
    assert import_graph(tmp_path, in_functions=True)["ingest.c"] == {"ingest.a", "ingest.d"}


def test_no_import_circle_among_the_projects_modules() -> None:
    graph = import_graph(PROJECT_ROOT)
    assert {"common.database", "common.sources", "dwh.cli", "agreement_core.maths"} <= set(graph)
    assert "ingest.landing" in graph["ingest.loading"]
    assert cycles(graph) == []


def package_of(module: str) -> str:
    return module.partition(".")[0]


def layer_of(package: str) -> int:
    return next(number for number, layer in enumerate(PACKAGE_LAYERS) if package in layer)


def room_of(module: str) -> str:
    """The room a module is in (`ROOM_LAYERS`): the longest room name that is its name or a package
    holding it; in a package without rooms, the package."""
    layers = ROOM_LAYERS.get(package_of(module), ((package_of(module),),))
    rooms = [room for layer in layers for room in layer if module == room or module.startswith(room + ".")]
    return max(rooms, key=len)


def room_layer_of(room: str) -> int:
    layers = ROOM_LAYERS.get(package_of(room), ((package_of(room),),))
    return next(number for number, layer in enumerate(layers) if room in layer)


def runs_down(module: str, imported: str) -> bool:
    """Whether `module` may import `imported`: a package of an earlier layer, or in its own package
    its own room or a room of an earlier layer."""
    if package_of(imported) != package_of(module):
        return layer_of(package_of(imported)) < layer_of(package_of(module))
    return room_of(imported) == room_of(module) or room_layer_of(room_of(imported)) < room_layer_of(room_of(module))


def upward_imports(graph: Graph) -> list[str]:
    """Each import that reaches a package or a room of the same layer or of a layer above, as `a -> b`."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_modules in graph.items()
        for imported in imported_modules
        if not runs_down(module, imported)
    )


def test_an_import_from_a_room_above_or_beside_is_found() -> None:
    graph = {"dwh.cli": {"dwh.building.build", "common.paths"}, "common.paths": {"ingest.landing"}}
    graph |= {"ingest.loading": {"agreement_core.maths.alpha", "ingest.landing"}, "dwh.building.publish": {"dwh"}}
    graph |= {"agreement_core.maths.alpha": {"agreement_core.questions"}, "dwh.building.build": {"dwh.load"}}
    assert upward_imports(graph) == [
        "agreement_core.maths.alpha -> agreement_core.questions",
        "common.paths -> ingest.landing",
        "dwh.building.build -> dwh.load",
        "ingest.loading -> agreement_core.maths.alpha",
    ]
    rooms = ["dwh", "dwh.cli", "dwh.building", "agreement_core", "agreement_core.maths", "ingest"]
    assert [room_of(m) for m in ("dwh", "dwh.cli", "dwh.building.build", "agreement_core.memo")] == rooms[:4]
    assert [room_of(m) for m in ("agreement_core.maths.xrr", "ingest.datasets.folder")] == rooms[4:]


def test_imports_only_run_down_the_layers() -> None:
    """A lazy import inside a function is an import all the same: it is counted."""
    graph = import_graph(PROJECT_ROOT, in_functions=True)
    assert "dwh.load" in graph["dwh.cli"]  # imported inside the function of its command
    assert upward_imports(graph) == []


# the folders of Python besides the packages: the tests, in rooms by concern as the code is, and the benchmarks
OTHER_PYTHON = ("tests", "benchmarks")


def modules_per_folder(root: Path) -> dict[str, int]:
    """How many modules each folder of the packages and of OTHER_PYTHON under `root` holds at its top
    (its __init__.py not counted)."""
    counts: dict[str, int] = {}
    for path in [*module_files(root).values(), *(p for folder in OTHER_PYTHON for p in (root / folder).rglob("*.py"))]:
        folder = path.parent.relative_to(root).as_posix()
        counts[folder] = counts.get(folder, 0) + (path.name != "__init__.py")
    return counts


def test_no_folder_holds_more_than_a_dozen_modules_at_its_top() -> None:
    counts = modules_per_folder(PROJECT_ROOT)
    assert {"common", "ingest", "agreement_core", "dwh", "tests", "tests/judges", "benchmarks"} <= set(counts)
    crowded = {folder: count for folder, count in counts.items() if count > MOST_MODULES}
    assert not crowded, f"folders with more than {MOST_MODULES} modules at their top: {crowded}"


def test_pytest_collects_every_room_of_the_tests(request: pytest.FixtureRequest) -> None:
    """pytest passes over folders that match its `norecursedirs` (by default `build`, `dist`, `venv`, …):
    a room of that name would have its tests silently never run."""
    skipped = request.config.getini("norecursedirs")
    rooms = [path for path in (PROJECT_ROOT / "tests").rglob("*") if path.is_dir() and path.name != "__pycache__"]
    assert len(rooms) >= 9
    assert [room.name for room in rooms if any(fnmatch(room.name, pattern) for pattern in skipped)] == []


def test_no_test_module_imports_from_another() -> None:
    """What tests share lives in the modules at the top of tests/ (fixtures, helpers, references,
    cases, the figures' checks), never in another test module: importing one runs its module-level
    work and ties one room's tests to another's."""
    borrowed = {
        f"{path.relative_to(PROJECT_ROOT)} imports {name}"
        for path in (PROJECT_ROOT / "tests").rglob("test_*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom | ast.Import)
        for name in ([node.module or ""] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names])
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
    }
    assert borrowed == set()
