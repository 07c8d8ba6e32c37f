"""docs/ADDING_A_SOURCE.md, applied: its example source `toy` (a JSONL file of dialogues and a wide
CSV of later review rounds), whose files are in docs/examples/toy_source/, is added to a copy of
the project as the page says (its new files copied to the paths they take, its edits made), landed
with `dwh ingest --toy` and built with `dwh build`. The shared marts, reconciliation and the
agreement marts must take it in without any change to their SQL. The page and the example's files
must name each other, and every line the page shows of a file must be in it."""

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import duckdb
import numpy as np
import pytest

from tests.helpers import (
    PROJECT_ROOT,
    TOY_EXAMPLE,
    copy_of_project,
    failing_rows,
    parse_project,
    query,
    selecting,
    toy_example_edits,
    toy_example_new_files,
)

slow = pytest.mark.slow  # builds a copy of the project (the tests of the page alone read files only)

GUIDE = PROJECT_ROOT / "docs" / "ADDING_A_SOURCE.md"
# a link of the page to a file of the example (its text, its path under docs/examples/toy_source/)
EXAMPLE_LINK = re.compile(r"\[([^\]]*)\]\(examples/toy_source/([^)\s]*[^/)\s])\)")  # a file, not a folder
CODE_BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```$", re.S | re.M)
ELISION = "…"  # a line of an excerpt that stands for lines of the file left out


def example_files() -> set[str]:
    """Every file of the example, by its path under docs/examples/toy_source/."""
    paths = TOY_EXAMPLE.rglob("*")
    return {p.relative_to(TOY_EXAMPLE).as_posix() for p in paths if p.is_file() and "__pycache__" not in p.parts}


def guide_excerpts() -> list[tuple[str, str]]:
    """(example file, code) of each code block of the page that shows an example file: the file the
    text before the block links last (blocks with nothing but blank lines between show one file)."""
    text = GUIDE.read_text(encoding="utf-8")
    shown, shows, position = [], None, 0
    for block in CODE_BLOCK.finditer(text):
        before = text[position : block.start()]
        if before.strip():
            links = [m[2] for m in EXAMPLE_LINK.finditer(before)]
            shows = links[-1] if links else None
        if shows:
            shown.append((shows, block[1]))
        position = block.end()
    return shown


def example_lines(file: str) -> list[str]:
    """The lines of an example file as the page shows them: edits.yml's are the lines of its edits."""
    if file == "edits.yml":
        return [line for edit in toy_example_edits() for line in edit["lines"]]
    return (TOY_EXAMPLE / file).read_text(encoding="utf-8").splitlines()


def is_excerpt(code: str, lines: list[str]) -> bool:
    """Whether `code` is `lines` with runs left out where it says `…`: each run of its lines is in
    `lines` as it is, in order."""
    runs: list[list[str]] = [[]]
    for line in code.splitlines():
        if line.strip() == ELISION:
            runs.append([])
        else:
            runs[-1].append(line)
    start = 0
    for run in runs:
        found = next((i for i in range(start, len(lines) - len(run) + 1) if lines[i : i + len(run)] == run), None)
        if found is None:
            return False
        start = found + len(run)
    return True


def test_an_excerpt_is_found_only_as_the_file_has_it() -> None:
    lines = ["a = 1", "", "def f():", "    return a", "b = 2"]
    assert is_excerpt("a = 1\n…\n    return a\n", lines)
    assert not is_excerpt("    return a\n…\na = 1\n", lines)  # out of order
    assert not is_excerpt("def f():\n    return 1\n", lines)  # a changed line
    assert not is_excerpt("a = 1\ndef f():\n", lines)  # lines the file does not have together


def test_the_guide_and_the_example_files_name_each_other() -> None:
    """The page links every file of the example and no other; each new file under the path it takes
    in the project (`[`ingest/releases/toy.py`](examples/toy_source/ingest/releases/toy.py)`), each
    edited file by name."""
    text = GUIDE.read_text(encoding="utf-8")
    links = {(m[1], m[2]) for m in EXAMPLE_LINK.finditer(text)}
    assert {path for _, path in links} == example_files()
    assert {"release/toy.jsonl", "release/toy_reviews.csv", "edits.yml", "ingest/releases/toy.py"} <= example_files()
    unnamed = [path for path in toy_example_new_files() if (f"`{path}`", path) not in links]
    assert not unnamed, f"the page links these example files under another name than their project path: {unnamed}"
    assert all(f"`{edit['file']}`" in text for edit in toy_example_edits())


def test_every_line_the_guide_shows_of_an_example_file_is_in_it() -> None:
    """Each code block after a link to an example file is that file, or an excerpt of it; every edit
    is shown whole."""
    shown = guide_excerpts()
    not_in_file = [f"{file}:\n{code}" for file, code in shown if not is_excerpt(code, example_lines(file))]
    assert not not_in_file, "the page shows lines its example files do not have:\n" + "\n".join(not_in_file)
    shown_edits = [code.splitlines() for file, code in shown if file == "edits.yml"]
    assert [edit["lines"] for edit in toy_example_edits()] == shown_edits
    assert {file for file, _ in shown} >= {"release/toy.jsonl", "release/toy_reviews.csv", "ingest/releases/toy.py"}


def apply_example(project: Path) -> None:
    """Do what the page says, in the copy of the project: copy the example's new files to the paths
    they take, then make its edits."""
    for path in toy_example_new_files():
        destination = project / path
        assert not destination.exists(), f"the example's new file {path} already exists"
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(TOY_EXAMPLE / path, destination)
    for edit in toy_example_edits():
        apply_edit(project / edit["file"], edit)


def apply_edit(path: Path, edit: dict) -> None:
    """One edit of edits.yml: its lines after a line of the file, at its end, or each to its list."""
    lines = [line + "\n" for line in edit["lines"]]
    how = set(edit) - {"file", "lines"}
    if how == {"after"}:
        text = path.read_text(encoding="utf-8").splitlines(keepends=True)
        found = [i for i, line in enumerate(text) if line.rstrip("\n") == edit["after"]]
        assert found, f"{edit['file']} has no line {edit['after']!r} to insert after"
        path.write_text("".join(text[: found[0] + 1] + lines + text[found[0] + 1 :]), encoding="utf-8")
    elif how == {"append"} and edit["append"] is True:
        path.write_text(path.read_text(encoding="utf-8").rstrip("\n") + "\n" + "".join(lines), encoding="utf-8")
    elif how == {"to_lists"} and edit["to_lists"] is True:
        add_feeder_refs(path, lines)
    else:
        raise AssertionError(f"edits.yml has an edit this test does not know: {edit}")


def add_feeder_refs(path: Path, new_lines: list[str]) -> None:
    """Add each `ref('int_<source>__<kind>'),` line after the last ref of the same kind's list in
    macros/source_models.sql, as the guide tells a reader to."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for new_line in new_lines:
        kind = re.fullmatch(r"\s*ref\('int_[a-z0-9]+__(\w+)'\),\n", new_line)[1]
        same_kind = [i for i, line in enumerate(lines) if re.search(rf"ref\('int_[a-z0-9]+__{kind}'\)", line)]
        assert same_kind, f"{path.name} has no list of feeders for {kind}"
        lines.insert(same_kind[-1] + 1, new_line)
    path.write_text("".join(lines), encoding="utf-8")


def mart_sql(project: Path) -> dict[str, str]:
    return {
        str(p.relative_to(project)): p.read_text(encoding="utf-8")
        for p in sorted((project / "models" / "marts").rglob("*.sql"))
    }


@pytest.fixture(scope="module")
def toy_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the project with the guide's example applied, and the folder holding the toy release."""
    root = tmp_path_factory.mktemp("fourth-source")
    release_dir = root / "release"
    shutil.copytree(TOY_EXAMPLE / "release", release_dir)
    assert {key for edit in toy_example_edits() for key in edit} >= {"file", "lines", "after", "append", "to_lists"}
    return parsed_toy_copy(root / "project"), release_dir


def parsed_toy_copy(project: Path, edit: Callable[[Path], None] | None = None) -> Path:
    """A copy of the project at `project` with the guide's example applied, then `edit(project)`,
    parsed once in `toy_parse_folder` for its builds to start from."""
    copy_of_project(project)
    apply_example(project)
    if edit:
        edit(project)
    toy_parse_folder(project).mkdir()
    parse_project(toy_parse_folder(project), project)
    return project


def toy_parse_folder(project: Path) -> Path:
    """Where the copy is parsed once, for every build of the module to start from (`dwh_in`): a parse
    from scratch takes about 12 s a build."""
    return project.parent / "parse"


def dwh_in(project: Path, db_path: Path, args: list[str]) -> subprocess.CompletedProcess:
    """`dwh args` in the copy (`python -m dwh.cli` there runs the copy's package and dbt project),
    with dbt's target and log folders beside `db_path`, starting from the module's parse of the copy."""
    return subprocess.run(
        [sys.executable, "-m", "dwh.cli", *args],
        cwd=project,
        capture_output=True,
        text=True,
        env={
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            "DWH_DB_PATH": str(db_path),
            "HOME": str(db_path.parent),
            "DBT_TARGET_PATH": str(db_path.parent / "target"),
            "DBT_LOG_PATH": str(db_path.parent / "logs"),
            "DBT_PARTIAL_PARSE_FILE_PATH": str(toy_parse_folder(project) / "target" / "partial_parse.msgpack"),
        },
    )


def ingest_and_build_toy(project: Path, db_path: Path, release: Path, build_args: list[str] | None = None) -> None:
    for args in (["ingest", "--toy", str(release)], ["build", *(build_args or [])]):
        completed = dwh_in(project, db_path, args)
        assert completed.returncode == 0, f"dwh {args[0]}:\n{completed.stdout[-6000:]}\n{completed.stderr[-3000:]}"


@pytest.fixture(scope="module")
def toy_warehouse(toy_project: tuple[Path, Path]) -> tuple[Path, Path]:
    """The guide's copy of the project, with the toy release landed and built."""
    project, release_dir = toy_project
    db_path = project.parent / "built" / "warehouse.duckdb"
    db_path.parent.mkdir()
    ingest_and_build_toy(project, db_path, release_dir)
    return project, db_path


def own_folder(project: Path, name: str) -> Path:
    """A folder of its own beside the copy, for a test's release or warehouse."""
    folder = project.parent / name
    folder.mkdir()
    return folder


@slow
def test_the_guide_adds_no_line_to_any_mart_sql(toy_warehouse: tuple[Path, Path]) -> None:
    project, _ = toy_warehouse
    assert mart_sql(project) == mart_sql(PROJECT_ROOT)


@slow
def test_the_toy_source_reaches_every_shared_mart(toy_warehouse: tuple[Path, Path]) -> None:
    _, db_path = toy_warehouse
    assert query(
        db_path,
        "select dialogue_key, source, language, setting, n_turns, source_file from marts.dialogues "
        "where source = 'toy' order by 1",
    ) == [
        ("toy:t1", "toy", "en", "toy", 2, "toy.jsonl"),
        ("toy:t2", "toy", "en", "toy", 3, "toy.jsonl"),
    ]
    assert query(
        db_path,
        "select dialogue_key, turn_index, speaker_role, speaker_key, text from marts.turns "
        "where source = 'toy' order by 1, 2",
    ) == [
        ("toy:t1", 0, "user", "toy:user:u1", "Hi, can you recommend a book?"),
        ("toy:t1", 1, "system", None, "Try Dune."),
        ("toy:t2", 0, "user", "toy:user:u2", "Hello"),
        ("toy:t2", 1, "system", None, "Hello! How can I help?"),
        ("toy:t2", 2, "user", "toy:user:u2", "Just testing."),
    ]
    assert query(db_path, "select rater_key, rater_role, gender from marts.raters where source = 'toy' order by 1") == [
        ("toy:reviewer:r1", "toy_reviewer", None),
        ("toy:reviewer:r2", "toy_reviewer", None),
        ("toy:reviewer:r3", "toy_reviewer", None),
        ("toy:user:u1", "toy_user", None),
        ("toy:user:u2", "toy_user", None),
    ]
    users = [("toy:t1", "u1", 4), ("toy:t2", "u2", 2)]
    # (dialogue, reviewer, round, score): toy.jsonl's reviews are round 1, toy_reviews.csv's empty cells no review
    reviews = [("t1", "r1", "1", 5), ("t1", "r2", "1", 4), ("t2", "r1", "1", 2), ("t2", "r2", "1", 3)]
    reviews += [("t1", "r1", "10", 5), ("t1", "r3", "10", 2), ("t2", "r1", "10", 1)]
    reviews += [("t1", "r1", "2", 5), ("t1", "r2", "2", 3), ("t1", "r3", "2", 4)]
    reviews += [("t2", "r1", "2", 4), ("t2", "r2", "2", 3)]
    expected = [(f"{d}:rating", f"toy:user:{u}", "subjective", "overall", float(v), str(v), None) for d, u, v in users]
    expected += [
        (f"toy:{d}:review:{r}:round:{n}", f"toy:reviewer:{r}", "objective", "overall", float(v), str(v), None)
        for d, r, n, v in reviews
    ]
    assert query(
        db_path,
        "select rating_id, rater_key, rating_kind, question, value_numeric, value_raw, movie_id "
        "from marts.ratings where source = 'toy' order by 1",
    ) == sorted(expected)


@slow
def test_a_source_that_gives_its_own_turn_count_gets_the_marts(tmp_path: Path) -> None:
    """A dialogues model written before the `dialogues` mart counted turns may still give `n_turns`
    (99 here, for every dialogue): the mart's count of the rows in `turns` stands."""

    def give_99_turns(project: Path) -> None:
        model = project / "models" / "intermediate" / "toy" / "int_toy__dialogues.sql"
        given = model.read_text(encoding="utf-8")
        model.write_text(
            given.replace(
                "        file_path as source_file", "        99 as n_turns,\n        file_path as source_file"
            )
        )
        assert "99 as n_turns" in model.read_text(encoding="utf-8")

    project = parsed_toy_copy(tmp_path / "project", give_99_turns)
    db_path = own_folder(project, "built") / "warehouse.duckdb"

    ingest_and_build_toy(
        project, db_path, TOY_EXAMPLE / "release", ["--select", "+dialogues", "--indirect-selection", "cautious"]
    )

    assert query(db_path, "select dialogue_key, n_turns from marts.dialogues order by 1") == [
        ("toy:t1", 2),
        ("toy:t2", 3),
    ]


@slow
def test_the_toy_source_gets_agreement_rows_without_agreement_sql(toy_warehouse: tuple[Path, Path]) -> None:
    """The reviewers' α on the toy's question, as the krippendorff package computes it from each
    reviewer's first review of a dialogue (reviewers × dialogues): r1's and r2's in toy.jsonl (round 1),
    r3's in round 2 of toy_reviews.csv, which comes after round 10 in the file (and as text, "10" < "2").
    The users' one score per dialogue is in the correlations; no line of the agreement models changed."""
    import krippendorff

    project, db_path = toy_warehouse
    agreement_models = sorted((project / "models" / "intermediate" / "agreement").glob("*.sql"))
    assert [p.read_text(encoding="utf-8") for p in agreement_models] == [
        (PROJECT_ROOT / p.relative_to(project)).read_text(encoding="utf-8") for p in agreement_models
    ]
    [(alpha, n_raters, n_units, alpha_ci_low, alpha_ci_high)] = query(
        db_path,
        "select alpha, n_raters, n_units, alpha_ci_low, alpha_ci_high from marts.agreement "
        "where source = 'toy' and question = 'overall' and group_dimension = 'all'",
    )
    first_reviews = [[5, 2], [4, 3], [4, np.nan]]  # r1, r2, r3 × t1, t2
    expected = krippendorff.alpha(reliability_data=first_reviews, level_of_measurement="interval")
    assert (n_raters, n_units) == (3, 2)
    assert abs(alpha - expected) < 1e-9
    # the Monte Carlo's default covers every source's questions: the toy's α has its interval, no var named it
    assert alpha_ci_low is not None and alpha_ci_low <= alpha_ci_high
    assert query(
        db_path,
        "select n_dialogues from marts.score_correlations where source = 'toy' "
        "and rating_kind_a = 'subjective' and rating_kind_b = 'objective'",
    ) == [(2,)]
    # the later rounds are repeats, each compared with the reviewer's first review (last row: all reviewers)
    assert query(
        db_path,
        "select rater_key, n_repeats, n_identical from marts.rater_consistency "
        "where source = 'toy' order by 1 nulls last",
    ) == [("toy:reviewer:r1", 4, 2), ("toy:reviewer:r2", 2, 1), ("toy:reviewer:r3", 1, 0), (None, 7, 3)]


@slow
def test_reconciliation_accounts_for_every_toy_line(toy_warehouse: tuple[Path, Path]) -> None:
    _, db_path = toy_warehouse
    assert query(
        db_path,
        "select source, file_path, records_read, records_landed, records_rejected "
        "from raw.ingest_files where source = 'toy'",
    ) == [("toy", "toy.jsonl", 2, 2, 0), ("toy", "toy_reviews.csv", 4, 4, 0)]
    assert query(db_path, "select count(*) from marts.unreached_records") == [(0,)]
    assert query(
        db_path,
        "select file_path, records_in_raw, records_in_marts, records_not_in_marts, is_accounted_for "
        "from marts.load_reconciliation where source = 'toy' order by 1",
    ) == [("toy.jsonl", 2, 2, 0, True), ("toy_reviews.csv", 4, 4, 0, True)]


@slow
def test_the_example_sql_passes_the_projects_sqlfluff(toy_project: tuple[Path, Path]) -> None:
    """The example's models are linted as the project's own (`make lint`), in the copy where they are
    models: the dbt templater compiles only the dbt project's files, and .sqlfluffignore leaves out
    docs/examples/. A file sqlfluff could not template would pass with no violation: each must have
    been parsed too."""
    import json

    project, _ = toy_project
    folder = own_folder(project, "sqlfluff")
    shutil.copyfile(PROJECT_ROOT / ".sqlfluff", project / ".sqlfluff")  # the copy leaves out hidden files
    models = [path for path in toy_example_new_files() if path.startswith("models/") and path.endswith(".sql")]
    linted = subprocess.run(
        [str(Path(sys.executable).with_name("sqlfluff")), "lint", "--format", "json", "--nofail", *models],
        cwd=project,
        capture_output=True,
        text=True,
        env={
            "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
            "HOME": str(folder),
            "DWH_DB_PATH": str(folder / "lint.duckdb"),
            "DBT_TARGET_PATH": str(folder / "target"),
            "DBT_LOG_PATH": str(folder / "logs"),
        },
    )
    assert linted.returncode == 0, linted.stderr[-3000:]
    results = {result["filepath"]: result for result in json.loads(linted.stdout)}
    assert sorted(results) == sorted(models) and len(models) == 8
    assert {path: r["violations"] for path, r in results.items() if r["violations"]} == {}
    assert [path for path, r in results.items() if r["statistics"]["segments"] == 0] == []


# lines of the wrong shape, after the guide's two good ones: each a reject with its line and reason
WRONG_SHAPES = [
    (
        '{"id": "t3", "user": "u3", "turns": ["Hi"], "rating": 3, "reviews": [3, 4]}',
        '"reviews" is a list, where an object belongs',
    ),
    ('["t4", "u4"]', "not a JSON object"),
    (
        '{"id": null, "user": "u5", "turns": ["Hi"], "rating": 3, "reviews": {"r1": 3}}',
        '"id" is null, where a string belongs',
    ),
    (
        '{"id": "t6", "user": "u6", "turns": "Hi", "rating": 3, "reviews": {"r1": 3}}',
        '"turns" is a string, where a list belongs',
    ),
    ('{"id": "t7", "user": "u7", "turns": ["Hi"], "reviews": {"r1": 3}}', 'missing "rating"'),
]


@slow
def test_a_toy_line_of_the_wrong_shape_is_rejected_at_ingest(toy_project: tuple[Path, Path]) -> None:
    """Issue 44, case 3: `"reviews": [3, 4]` (a list where an object belongs) landed, built green and
    lost its reviews on the way to `ratings`. The guide's lander rejects it, with file, line and reason."""
    project, release_dir = toy_project
    release = own_folder(project, "wrong-shapes-release") / "toy_with_wrong_shapes.jsonl"
    good = (release_dir / "toy.jsonl").read_text(encoding="utf-8")
    release.write_text(good + "".join(line + "\n" for line, _ in WRONG_SHAPES), encoding="utf-8")
    db_path = project.parent / "wrong-shapes" / "warehouse.duckdb"
    db_path.parent.mkdir()

    ingest_and_build_toy(project, db_path, release, selecting("ratings"))  # what reaches `ratings`

    assert query(db_path, "select file_path, line_number, reason, raw_text from raw.ingest_rejects order by 2") == [
        (release.name, 3 + index, reason, line) for index, (line, reason) in enumerate(WRONG_SHAPES)
    ]
    assert query(db_path, "select records_read, records_landed, records_rejected from raw.ingest_files") == [(7, 2, 5)]
    assert query(db_path, "select distinct dialogue_key from marts.ratings where source = 'toy' order by 1") == [
        ("toy:t1",),
        ("toy:t2",),
    ]


@slow
def test_a_repeated_or_null_toy_id_fails_the_build_naming_file_and_line(toy_project: tuple[Path, Path]) -> None:
    """Issue 44, case 15: a repeated id and a null key (a raw row changed by hand: ingest rejects a
    null id) fail `stg_toy__dialogues_keys`, each row naming its rule, file and line; the live
    warehouse is not touched."""
    project, release_dir = toy_project
    release = own_folder(project, "repeated-id-release") / "toy_with_a_repeated_id.jsonl"
    lines = (release_dir / "toy.jsonl").read_text(encoding="utf-8").splitlines()
    release.write_text("\n".join([*lines, lines[0]]) + "\n", encoding="utf-8")  # t1 on lines 1 and 3
    db_path = project.parent / "repeated-id" / "warehouse.duckdb"
    db_path.parent.mkdir()
    assert dwh_in(project, db_path, ["ingest", "--toy", str(release)]).returncode == 0
    null_id = '{"id": null, "user": "u9", "turns": ["Hi"], "rating": 3, "reviews": {"r1": 3}}'
    with duckdb.connect(str(db_path)) as con:
        con.execute(
            "insert into raw.toy_dialogues select load_id, file_path, 4, ? from raw.toy_dialogues limit 1", [null_id]
        )
    loaded = db_path.read_bytes()

    built = dwh_in(project, db_path, ["build", *selecting("stg_toy__dialogues_keys")])

    assert built.returncode == 1 and "Traceback" not in built.stderr
    [error] = built.stderr.strip().splitlines()
    assert error.startswith("dwh: error: dbt build failed: ") and "stg_toy__dialogues_keys" in error
    assert db_path.read_bytes() == loaded
    target = db_path.parent / "target"
    assert sorted(
        (r["broken_rule"], r["dialogue_id"], r["file_path"], r["line_number"])
        for r in failing_rows(db_path, "stg_toy__dialogues_keys", target)
    ) == [
        ("not_null(dialogue_key)", None, release.name, 4),
        ("unique(dialogue_key)", "t1", release.name, 1),
        ("unique(dialogue_key)", "t1", release.name, 3),
    ]
    shown = built.stdout.split("FAIL: stg_toy__dialogues_keys (3 row(s))\n")[1].splitlines()
    assert shown[0].split()[0] == "broken_rule" and "file_path" in shown[0] and "line_number" in shown[0]
    assert release.name in shown[1], built.stdout


@slow
def test_a_review_export_with_another_header_or_width_is_one_line_naming_the_file(
    toy_project: tuple[Path, Path],
) -> None:
    """The wide CSV's lander reads the header it knows, or says which file differs and how; a record
    of another width is named by its line. Nothing is landed either time."""
    project, release_dir = toy_project
    good = (release_dir / "toy_reviews.csv").read_text(encoding="utf-8").splitlines()
    other_reviewers = own_folder(project, "other-reviewers") / "toy_reviews.csv"
    other_reviewers.write_text("\n".join([good[0].replace("reviewer_r3", "reviewer_r4"), *good[1:]]) + "\n")
    too_wide = own_folder(project, "too-wide") / "toy_reviews.csv"
    too_wide.write_text("\n".join([*good[:2], good[2] + ",9", *good[3:]]) + "\n")

    for release, reason in [
        (other_reviewers, "line 1 (header) is 'id,review_round,reviewer_r1,reviewer_r2,reviewer_r4'"),
        (too_wide, "CSV Error on Line: 3"),
    ]:
        db_path = release.parent / "warehouse.duckdb"
        landed = dwh_in(project, db_path, ["ingest", "--toy", str(release)])
        assert landed.returncode != 0 and "Traceback" not in landed.stderr
        [error] = [line for line in landed.stderr.splitlines() if not line.startswith("landing ")]
        assert error.startswith(f"dwh: error: {release}: ") and reason in error, error
