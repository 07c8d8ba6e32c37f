"""What the recipes share: a new or empty output folder filled all at once (written beside it,
then renamed into place: a failed recipe leaves nothing), dataset.yml, and files written by DuckDB."""

import json
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import duckdb
import yaml

from common.database import memory_limit, sql_string
from common.errors import DwhError, one_line
from ingest.file_facts import refuse_unreadable_file


@contextmanager
def output_folder(out: Path) -> Iterator[Path]:
    """A scratch folder beside `out` to write into; moved to `out` when the body returns."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        what = "is not a folder" if not out.is_dir() else "already holds files"
        raise DwhError(f"{out}: {what}; a recipe writes a new dataset folder: give a new or empty folder")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    except OSError as exc:
        raise DwhError(f"{out}: cannot create this folder ({exc.strerror or exc})") from exc
    try:
        yield scratch
        if out.exists():
            out.rmdir()
        scratch.rename(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def needed_files(src: Path, names: tuple[str, ...], release: str) -> list[Path]:
    """The release's files under `src`; one line naming the first that is not there."""
    if not src.is_dir():
        raise DwhError(f"{src}: not a folder; give the folder holding {release}'s {', '.join(names)}")
    for name in names:
        refuse_unreadable_file(src / name, f"give the folder holding {release}'s {', '.join(names)}")
        if not (src / name).is_file():
            raise DwhError(f"{src}: no {name}; give the folder holding {release}'s {', '.join(names)}")
    return [src / name for name in names]


class _Literal(str):
    """A text dataset.yml shows as a block (a citation of several lines)."""


def _literal(dumper: yaml.SafeDumper, text: _Literal) -> yaml.ScalarNode:
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|")


yaml.SafeDumper.add_representer(_Literal, _literal)


def write_manifest(folder: Path, fields: dict) -> Path:
    """dataset.yml; a text of several lines is written as a block."""
    shown = {
        key: _Literal(value) if isinstance(value, str) and "\n" in value else value for key, value in fields.items()
    }
    path = folder / "dataset.yml"
    path.write_text(yaml.safe_dump(shown, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return path


def write_questions(folder: Path, rows: list[dict[str, str]]) -> Path:
    """questions.csv from dicts of question, level, labels, wording (by DuckDB's CSV writer, for its quoting)."""
    columns = ("question", "level", "labels", "min", "max", "missing", "wording")
    values = ", ".join("(" + ", ".join(sql_string(row.get(column, "")) for column in columns) + ")" for row in rows)
    path = folder / "questions.csv"
    with scratch_database() as con:
        con.execute(
            f"copy (select * from (values {values}) as q({', '.join(columns)})) to {sql_string(str(path))} "
            "(format csv, header true)"
        )
    return path


@contextmanager
def scratch_database() -> Iterator[duckdb.DuckDBPyConnection]:
    """An in-memory DuckDB under dwh's memory bound."""
    con = duckdb.connect(config={"memory_limit": memory_limit()})
    try:
        yield con
    finally:
        con.close()


def copy_to(con: duckdb.DuckDBPyConnection, query: str, path: Path, options: str) -> Path:
    """`copy (query) to path (options)`."""
    con.execute(f"copy ({query}) to {sql_string(str(path))} ({options})")
    return path


def refusing_unreadable(src: Path, release: str) -> Callable[[duckdb.Error], DwhError]:
    """The one line for a release file DuckDB cannot read as expected."""

    def answer(exc: duckdb.Error) -> DwhError:
        return DwhError(f"{src}: not {release} as published ({one_line(exc)[:300]})")

    return answer


def refuse_invalid_json(con: duckdb.DuckDBPyConnection, path: Path, release: str) -> None:
    """A release file that is no whole JSON text (a truncated download, say) is one line naming the
    file and where its text stops making sense, before any query reads it."""
    (valid,) = con.execute(f"select json_valid(content) from read_text({sql_string(str(path))})").fetchone()
    if valid:
        return
    try:
        json.loads(path.read_text(encoding="utf-8-sig"))
    except UnicodeDecodeError as exc:
        where = f"not UTF-8 text (byte {exc.start})"
    except json.JSONDecodeError as exc:
        ends = exc.doc.rstrip()[-1:] not in ("}", "]")
        problem = exc.msg.removesuffix(" starting at").lower()
        where = f"line {exc.lineno}, column {exc.colno}: {problem}" + (
            " (the file ends mid-text: truncated?)" if ends else ""
        )
    else:
        where = "not valid JSON"
    raise DwhError(f"{path}: not valid JSON, {where}; {release}'s files are JSON as published: download it again")
