"""Property: whatever a record is mutated into, it is either landed or rejected, never lost.

Hypothesis mutates valid records (truncate, insert or delete bytes, swap in random text) and the
landing code must account for every one: landed + rejected = read, and no exception other than a
DwhError with a message naming the file.
"""

import functools
import json
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.database import connect
from common.errors import DwhError
from ingest.landing import LoadContext
from ingest.raw_schema import ensure_raw_schema
from ingest.releases.duo import land_duo
from ingest.releases.redial import JsonlReading, land_redial
from sample_data.redial import CONVERSATION_391

pytestmark = pytest.mark.slow  # Hypothesis runs hundreds of landings

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

VALID_DUO = {
    "dialogue_id": "0001",
    "setting": "ed",
    "model": "gpt-4o",
    "prompt": "neutral",
    "emotion": "Proud",
    "episode": "I passed.",
    "subjective_evaluation": {"preference": 4.0},
    "dialogue": [{"message_id": 0, "user_id": "0001", "speaker": "Human", "message": "Hello"}],
}


@st.composite
def mutated_bytes(draw: st.DrawFn, original: bytes) -> bytes:
    """The original with one mutation: cut, a byte inserted or deleted, or a random replacement."""
    kind = draw(st.sampled_from(["cut", "insert", "delete", "replace", "keep"]))
    position = draw(st.integers(min_value=0, max_value=len(original)))
    if kind == "cut":
        return original[:position]
    if kind == "insert":
        return original[:position] + draw(st.binary(min_size=1, max_size=3)) + original[position:]
    if kind == "delete":
        return original[:position] + original[position + 1 :]
    if kind == "replace":
        return draw(st.binary(max_size=40))
    return original


def landed_and_rejected(db_path: Path, table: str, source: str) -> tuple[int, int]:
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed = con.execute(f"select count(*) from {table}").fetchone()[0]
        rejected = con.execute("select count(*) from raw.ingest_rejects where source = ?", [source]).fetchone()[0]
    return landed, rejected


def land(db_path: Path, lander, path: Path) -> None:  # noqa: ANN001 - any source's land function
    con = connect(db_path)
    try:
        ensure_raw_schema(con)
        lander(LoadContext(con, "property-test"), path)
    finally:
        con.close()


@PROPERTY_SETTINGS
@given(mutations=st.lists(mutated_bytes(json.dumps(VALID_DUO, indent=4).encode()), min_size=1, max_size=4))
def test_every_duo_file_is_landed_or_rejected(tmp_path_factory: pytest.TempPathFactory, mutations: list[bytes]) -> None:
    root = tmp_path_factory.mktemp("duo")
    folder = root / "ed" / "en"
    folder.mkdir(parents=True)
    for index, content in enumerate(mutations):
        (folder / f"{index:04d}.json").write_bytes(content)
    db_path = root / "w.duckdb"
    land(db_path, land_duo, root)
    assert sum(landed_and_rejected(db_path, "raw.duo_dialogue_files", "duo")) == len(mutations)


@PROPERTY_SETTINGS
@given(mutations=st.lists(mutated_bytes(json.dumps(CONVERSATION_391).encode()), min_size=1, max_size=5))
def test_every_redial_line_is_landed_or_rejected(
    tmp_path_factory: pytest.TempPathFactory, mutations: list[bytes]
) -> None:
    root = tmp_path_factory.mktemp("redial")
    valid = json.dumps(CONVERSATION_391).encode()
    # one valid line keeps the file recognisable as ReDial; mutated bytes must not add line breaks
    lines = [valid] + [m.replace(b"\n", b" ").replace(b"\r", b" ") for m in mutations]
    (root / "train_data.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    db_path = root / "w.duckdb"
    try:
        land(db_path, land_redial, root)
    except DwhError as exc:
        assert "train_data.jsonl" in str(exc)
        return
    assert sum(landed_and_rejected(db_path, "raw.redial_conversations", "redial")) == len(lines)


def landed_lines_and_rejects(root: Path, whole_files: bool) -> tuple:
    """What landing `root` leaves (ReDial rows and rejects), or the error it raises."""
    db_path = root / f"whole-{whole_files}.duckdb"
    try:
        land(db_path, functools.partial(land_redial, reading=JsonlReading(whole_files=whole_files)), root)
    except DwhError as exc:
        return ("error", str(exc))
    with duckdb.connect(str(db_path), read_only=True) as con:
        return (
            con.execute("select split, line_number, raw_line from raw.redial_conversations order by 1, 2").fetchall(),
            con.execute(
                "select file_path, line_number, reason, raw_text from raw.ingest_rejects order by 1, 2"
            ).fetchall(),
        )


@PROPERTY_SETTINGS
@given(
    lines=st.lists(
        st.one_of(mutated_bytes(json.dumps(CONVERSATION_391).encode()), st.binary(max_size=12)), min_size=1, max_size=6
    ),
    terminator=st.sampled_from([b"\n", b"\r\n", b"\r"]),
    final_terminator=st.booleans(),
    byte_order_mark=st.booleans(),
)
def test_whole_file_reader_lands_exactly_what_the_chunked_path_lands(
    tmp_path_factory: pytest.TempPathFactory,
    lines: list[bytes],
    terminator: bytes,
    final_terminator: bool,
    byte_order_mark: bool,
) -> None:
    """The CSV-reader path must land the same rows, line numbers and rejects as the exact chunked
    path, whatever bytes the file holds (stray \\r, \\x01, invalid UTF-8, blank lines, a BOM)."""
    root = tmp_path_factory.mktemp("redial-paths")
    content = terminator.join([json.dumps(CONVERSATION_391).encode(), *lines]) + (
        terminator if final_terminator else b""
    )
    (root / "train_data.jsonl").write_bytes((b"\xef\xbb\xbf" if byte_order_mark else b"") + content)

    assert landed_lines_and_rejects(root, whole_files=True) == landed_lines_and_rejects(root, whole_files=False)


def small_dices_350(root: Path) -> tuple[bytes, list[bytes]]:
    """Header and records (as raw bytes, multi-line contexts included) of a small 350 sample."""
    from sample_data.dices import write_dices_sample

    path = write_dices_sample(root, seed=4, items_350=1, items_990=1)[0]
    import csv
    import io

    text = path.read_text(encoding="utf-8")
    records = list(csv.reader(io.StringIO(text, newline="")))
    buffer = []
    for record in records[:12]:
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(record)
        buffer.append(out.getvalue().encode("utf-8"))
    return buffer[0], buffer[1:]


@PROPERTY_SETTINGS
@given(data=st.data())
def test_every_dices_record_is_landed_or_in_a_reject(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    from ingest.releases.dices import land_dices

    root = tmp_path_factory.mktemp("dices")
    header, records = small_dices_350(root / "sample")
    victim = data.draw(st.integers(min_value=0, max_value=len(records) - 1))
    # the mutated record keeps its own line end, so that a neighbour can only be taken along by
    # a stray quote (then it must be in the reject's text), not by a deleted line break
    mutated = data.draw(mutated_bytes(records[victim])).rstrip(b"\n") + b"\n"
    path = root / "dices.csv"
    path.write_bytes(header + b"".join(mutated if i == victim else r for i, r in enumerate(records)))
    db_path = root / "w.duckdb"
    try:
        land(db_path, land_dices, path)
    except DwhError as exc:
        assert "dices.csv" in str(exc)
        return
    with duckdb.connect(str(db_path), read_only=True) as con:
        landed_ids = {row[0] for row in con.execute("select id from raw.dices_350").fetchall()}
        rejected_text = " ".join(
            row[0] or "" for row in con.execute("select raw_text from raw.ingest_rejects").fetchall()
        )
    for index, record in enumerate(records):
        if index == victim:
            continue
        record_id, rater_id = record.decode().split(",", 2)[:2]
        assert record_id in landed_ids or f"{record_id},{rater_id}," in rejected_text, (record_id, mutated)
