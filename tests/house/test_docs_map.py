"""The docs match the project: every mart is described, the interface lists each mart's columns as
its YAML declares them, every dbt var, link, anchor, cited section and test a page names exists, and
nothing sends a reader to a file outside the repository. Reads files only (no dbt, no warehouse)."""

import re
from fnmatch import fnmatchcase
from pathlib import Path

import pytest
import yaml

from tests.helpers import PROJECT_ROOT, toy_example_edits, toy_example_new_files

DOCS = [PROJECT_ROOT / "README.md", *sorted((PROJECT_ROOT / "docs").glob("*.md"))]
MARTS_PAGE = PROJECT_ROOT / "docs" / "MARTS.md"
INTERFACE = PROJECT_ROOT / "docs" / "INTERFACE.md"
# the project's own text outside tests/: what a clone holds and its readers follow
PROJECT_TEXT_GLOBS = [
    "*.md",
    "docs/*.md",
    "docs/examples/**/*",
    "models/**/*",
    "macros/**/*",
    "seeds/*.yml",
    "tests_dbt/**/*",
    "common/**/*.py",
    "dwh/**/*.py",
    "sample_data/**/*.py",
    "ingest/**/*",
    "agreement_core/**/*.py",
    "benchmarks/*.py",
    "dbt_project.yml",
    "profiles.yml",
    "Makefile",
    "pyproject.toml",
]
FENCED_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)


def project_text_files() -> list[Path]:
    files = {path for pattern in PROJECT_TEXT_GLOBS for path in PROJECT_ROOT.glob(pattern) if path.is_file()}
    return sorted(path for path in files if "__pycache__" not in path.parts)


def without_code_blocks(text: str) -> str:
    return FENCED_BLOCK.sub("", text)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation (backticks, dots, commas, …) dropped,
    spaces to hyphens; letters of any script, digits, `-` and `_` kept."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(path: Path) -> list[str]:
    return [m[1].strip() for m in re.finditer(r"^#{1,6} (.+)$", without_code_blocks(path.read_text()), re.M)]


def anchors(path: Path) -> set[str]:
    """Every heading's anchor; a repeated one gets -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for heading in headings(path):
        base = slug(heading)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def mart_models() -> dict[str, list[str]]:
    """Every mart (models/marts/**/*.sql) with the columns its YAML declares."""
    columns = {}
    for path in sorted((PROJECT_ROOT / "models" / "marts").rglob("*.yml")):
        for model in yaml.safe_load(path.read_text()).get("models", []):
            columns[model["name"]] = [column["name"] for column in model.get("columns", [])]
    marts = {path.stem for path in (PROJECT_ROOT / "models" / "marts").rglob("*.sql")}
    assert marts <= set(columns), f"marts without YAML: {sorted(marts - set(columns))}"
    return {name: columns[name] for name in sorted(marts)}


def test_slugs_are_githubs() -> None:
    assert slug("Nothing lost, bad input answered") == "nothing-lost-bad-input-answered"
    assert slug("`marts.dialogues`") == "martsdialogues"
    assert slug("Krippendorff's α") == "krippendorffs-α"
    assert slug("xRR and GAI") == "xrr-and-gai"


def test_every_mart_is_described_in_the_marts_page() -> None:
    page = MARTS_PAGE.read_text()
    missing = [name for name in mart_models() if f"`marts.{name}`" not in page]
    assert not missing, f"docs/MARTS.md does not describe: {missing}"


def interface_column_lists() -> dict[str, tuple[list[str], str]]:
    """Per mart, the columns docs/INTERFACE.md lists under its heading (`### `marts.x``, or several
    marts in one heading), and the paragraph they came from."""
    text = without_code_blocks(INTERFACE.read_text())
    found = {}
    for section in re.split(r"^### ", text, flags=re.M)[1:]:
        heading, _, body = section.partition("\n")
        names = re.findall(r"`marts\.(\w+)`", heading)
        paragraph = re.search(r"^Columns( \(each\))?: (.+?)(?:\n\n|\Z)", body, re.S | re.M)
        if names and paragraph:
            for name in names:
                found[name] = (re.findall(r"`(\w+)`", paragraph[2]), paragraph[2])
    return found


def test_the_interface_lists_every_marts_columns_as_its_yaml_declares_them() -> None:
    listed = interface_column_lists()
    for name, columns in mart_models().items():
        assert name in listed, f"docs/INTERFACE.md has no `### `marts.{name}`` section with a Columns: line"
        documented, paragraph = listed[name]
        undocumented = [c for c in columns if c not in documented]
        if name == "dices_ratings_wide":  # the question columns, named as in the release headers
            assert "one column per question column of either release" in paragraph
            undocumented = [c for c in undocumented if not c.startswith("Q")]
        assert not undocumented, f"marts.{name}: columns missing from docs/INTERFACE.md: {undocumented}"
        unknown = [c for c in documented if c not in columns]
        assert not unknown, f"marts.{name}: docs/INTERFACE.md lists columns the YAML does not: {unknown}"


def interface_command_rows() -> dict[str, str]:
    """docs/INTERFACE.md's command table: each row's first cell, by the commands it names (`dwh x`)."""
    section = INTERFACE.read_text().split("## Commands", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cell = line.split("|")[1] if line.startswith("| `dwh ") else ""
        for command in re.findall(r"`dwh (\w+)", cell):
            rows[command] = cell
    return rows


def cli_commands() -> dict[str, list[str]]:
    """Each `dwh` command with the words a reader types: its options and its positionals' metavars."""
    from dwh.cli import build_parser

    [subcommands] = [action for action in build_parser()._actions if action.choices and action.dest == "command"]
    words = {}
    for name, parser in subcommands.choices.items():
        words[name] = [
            max(action.option_strings, key=len) if action.option_strings else (action.metavar or action.dest).upper()
            for action in parser._actions
            if action.dest != "help"
        ]
    return words


def test_the_interface_lists_every_command_and_its_options_as_the_cli_declares_them() -> None:
    rows = interface_command_rows()
    commands = cli_commands()
    assert set(rows) == set(commands), "docs/INTERFACE.md's command table and `dwh --help` name other commands"
    for name, words in commands.items():
        missing = [word for word in words if word not in rows[name]]
        assert not missing, f"docs/INTERFACE.md's row of `dwh {name}` lacks what `dwh {name} --help` lists: {missing}"


def dbt_project_vars() -> set[str]:
    return set(yaml.safe_load((PROJECT_ROOT / "dbt_project.yml").read_text())["vars"])


def names_that_are_not_vars() -> set[str]:
    """Model names, column names and packages, which share the vars' `agreement_` prefix."""
    names = {"agreement_core"}
    for path in (PROJECT_ROOT / "models").rglob("*.yml"):
        for model in yaml.safe_load(path.read_text()).get("models", []) or []:
            names.add(model["name"])
            names.update(column["name"] for column in model.get("columns", []))
    names.update(path.stem for path in (PROJECT_ROOT / "models").rglob("*.sql"))
    names.update(path.stem for path in (PROJECT_ROOT / "models").rglob("*.py"))
    return names


def vars_named_in(text: str, not_vars: set[str]) -> set[str]:
    named = set(re.findall(r"\bvars?\s+`([a-z_]+)`", text))  # var `agreement_seed`
    named |= set(re.findall(r"--vars\s+'\{\s*([a-z_]+)\s*:", text))  # --vars '{agreement_monte_carlo: false}'
    named |= {name for name in re.findall(r"`(agreement_[a-z_]+)[`:\s]", text) if name not in not_vars}
    return named


def test_vars_named_in_text_are_found() -> None:
    text = "var `a_b`; `dwh build --vars '{agreement_x: 1}'`; `agreement_y` (B); `agreement_core`; `agreement_z: false`"
    assert vars_named_in(text, {"agreement_core"}) == {"a_b", "agreement_x", "agreement_y", "agreement_z"}


def test_every_dbt_var_a_doc_names_exists_in_dbt_project_yml() -> None:
    known, not_vars = dbt_project_vars(), names_that_are_not_vars()
    texts = [*DOCS, *(PROJECT_ROOT / "models").rglob("*.yml"), *(PROJECT_ROOT / "models").rglob("*.md")]
    unknown = {
        f"{path.relative_to(PROJECT_ROOT)}: {name}"
        for path in texts
        for name in vars_named_in(path.read_text(), not_vars)
        if name not in known
    }
    assert not unknown, f"vars named in the docs that dbt_project.yml does not declare: {sorted(unknown)}"


def relative_links(path: Path) -> list[str]:
    text = without_code_blocks(path.read_text())
    targets = re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", text)
    return [t for t in targets if not re.match(r"[a-z]+:", t)]  # not https:, mailto:, …


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(PROJECT_ROOT)))
def test_every_relative_link_and_anchor_resolves(doc: Path) -> None:
    broken = []
    for target in relative_links(doc):
        file_part, _, anchor = target.partition("#")
        linked = (doc.parent / file_part).resolve() if file_part else doc
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"{target}: no heading with the anchor #{anchor}")
    assert not broken, f"{doc.relative_to(PROJECT_ROOT)}: {broken}"


def doc_path(name: str, citing: Path) -> Path | None:
    """The page a citation names: README, README.md, docs/X.md, or X.md (in docs/ or at the root)."""
    if name == "README":
        name = "README.md"
    for candidate in (PROJECT_ROOT / name, PROJECT_ROOT / "docs" / name, citing.parent / name):
        if candidate.is_file():
            return candidate
    return None


# `docs/AGREEMENT.md, "Definitions"`, `README's "What the datasets say"`, `AGREEMENT.md, “Choosing …”`
CITATION = re.compile(r"\b((?:docs/)?[A-Z][A-Z_]*\.md|README)(?:,|'s)\s+[\"“]([^\"”]{2,100})[\"”]")


def as_prose(text: str) -> str:
    """A file's text with comment leaders dropped and lines joined: a citation may wrap."""
    lines = [re.sub(r"^\s*(#+|--|\{#-?|\"\"\"|//)?\s*", "", line) for line in text.splitlines()]
    return " ".join(lines)


def citations() -> list[tuple[Path, str, str]]:
    return [
        (path, m[1], m[2])
        for path in project_text_files()
        for m in CITATION.finditer(as_prose(path.read_text(errors="replace")))
    ]


def test_citations_are_found() -> None:
    found = {(name, section) for _, name, section in citations()}
    assert ("docs/AGREEMENT.md", "Judging a judge") in found  # models/marts/judges/judge_agreement.sql


def test_every_section_a_file_cites_exists() -> None:
    missing = []
    for path, name, section in citations():
        cited = doc_path(name, path)
        where = f"{path.relative_to(PROJECT_ROOT)} cites {name}, {section!r}"
        if cited is None:
            missing.append(f"{where}: no such page")
        elif section not in headings(cited):
            missing.append(f"{where}: no such section")
    assert not missing, missing


def test_nothing_sends_a_reader_outside_the_repository() -> None:
    """The interface and the definitions are the project's own (docs/INTERFACE.md), and so are the
    facts about the releases (docs/RELEASES.md); a clone holds no shared folder beside it."""
    offenders = [
        f"{path.relative_to(PROJECT_ROOT)}:{number}"
        for path in project_text_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), start=1)
        if "WAREHOUSE_CONTRACT" in line or "shared/docs" in line or "REAL_RELEASES" in line
    ]
    assert not offenders, offenders


def defined_tests() -> set[str]:
    return {
        m[1]
        for path in (PROJECT_ROOT / "tests").rglob("*.py")
        for m in re.finditer(r"^def (test_\w+)", path.read_text(), re.M)
    }


def test_every_test_a_doc_names_exists() -> None:
    defined = defined_tests()
    named = {
        (doc.relative_to(PROJECT_ROOT), name)
        for doc in DOCS
        for name in re.findall(r"`(test_[a-z0-9_]+\*?)`", doc.read_text())
    }
    missing = [f"{doc}: {name}" for doc, name in sorted(named) if not any(fnmatchcase(d, name) for d in defined)]
    assert not missing, f"tests the docs name that tests/ does not define: {missing}"


def test_what_adding_a_source_takes_is_said_as_the_guide_does_it() -> None:
    """README and the guide say how many files the guide's example writes and edits: its files in
    docs/examples/toy_source/ (what tests/ingest/test_adding_a_source.py applies) count them, the new ones
    and the project's files its edits.yml changes."""
    written = toy_example_new_files()
    edited = {edit["file"] for edit in toy_example_edits()}
    for page in (PROJECT_ROOT / "README.md", PROJECT_ROOT / "docs" / "ADDING_A_SOURCE.md"):
        said = re.search(r"(\d+) new files and edits (\d+)", " ".join(page.read_text().split()))
        assert said, f"{page.name} does not say how many files adding a source writes and edits"
        assert (int(said[1]), int(said[2])) == (len(written), len(edited)), page.name
