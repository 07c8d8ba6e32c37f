"""Landing ReDial: one raw row per JSONL line, exact line numbers, bad lines rejected with a reason."""

import hashlib
import json
import zipfile
from pathlib import Path

import duckdb
import pytest

from common.database import connect
from common.errors import DwhError
from dwh.load import run_ingest
from ingest.landing import FileReport, LoadContext
from ingest.loading import IngestRequest, SourceRequest
from ingest.raw_schema import ensure_raw_schema
from ingest.releases.redial import JsonlReading, land_redial
from sample_data.redial import write_redial_sample
from tests.card_records import CARD_391_TEXT

LINE_391 = json.dumps(json.loads(CARD_391_TEXT))


def conversation_line(conversation_id: str, **overrides: object) -> str:
    """A small valid dialogue as one JSONL line (empty forms written [] as in the release)."""
    record = {
        "movieMentions": {"111776": "Kill Bill: Vol. 1 (2003)"},
        "respondentQuestions": [],
        "messages": [{"timeOffset": 0, "text": "Have you seen @111776 ?", "senderWorkerId": 7, "messageId": 5}],
        "conversationId": conversation_id,
        "respondentWorkerId": 7,
        "initiatorWorkerId": 8,
        "initiatorQuestions": {"111776": {"suggested": 1, "seen": 2, "liked": 1}},
    }
    record.update(overrides)
    return json.dumps(record, ensure_ascii=False)


# An enriched copy: extra keys on a message, odd spacing; must be kept byte for byte.
EXTRA_KEYS_LINE = (
    '{"movieMentions": [], "respondentQuestions": [], "messages": [{"timeOffset": 0, "text": "caf\u00e9 @1",'
    ' "senderWorkerId": 1, "messageId": 9, "entity": ["<http://dbpedia.org/resource/X>"], "movie": ["@1"],'
    ' "emotion": "joy"}],   "conversationId": "77", "respondentWorkerId": 1, "initiatorWorkerId": 2,'
    ' "initiatorQuestions": []}'
)


@pytest.fixture
def con(tmp_path: Path) -> duckdb.DuckDBPyConnection:
    connection = connect(tmp_path / "warehouse.duckdb")
    ensure_raw_schema(connection)
    yield connection
    connection.close()


def land(
    con: duckdb.DuckDBPyConnection, path: Path, load_id: str = "test-load", reading: JsonlReading | None = None
) -> list[FileReport]:
    """Land statement by statement, as `dwh ingest` does inside its staged copy of the warehouse."""
    return land_redial(LoadContext(con, load_id), path, reading or JsonlReading())


def write_release(folder: Path, train: list[str] | None, test: list[str] | None, newline: str = "\n") -> Path:
    """A release folder with the given lines, each ending with `newline`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, lines in [("train_data.jsonl", train), ("test_data.jsonl", test)]:
        if lines is not None:
            (folder / name).write_bytes("".join(line + newline for line in lines).encode("utf-8"))
    return folder


def landed(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute(
        "select split, line_number, raw_line from raw.redial_conversations order by split desc, line_number"
    ).fetchall()


def rejects(con: duckdb.DuckDBPyConnection) -> list[tuple]:
    return con.execute(
        "select file_path, line_number, reason, raw_text from raw.ingest_rejects where source = 'redial' order by all"
    ).fetchall()


def test_folder_lands_one_row_per_line_with_split_and_line_number(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    train = [LINE_391, conversation_line("392"), conversation_line("393")]
    test = [conversation_line("5001"), conversation_line("5002")]
    folder = write_release(tmp_path / "release", train, test)

    reports = land(con, folder)

    assert reports == [
        FileReport("redial", "train_data.jsonl", 3, 3, 0),
        FileReport("redial", "test_data.jsonl", 2, 2, 0),
    ]
    assert landed(con) == [("train", i + 1, line) for i, line in enumerate(train)] + [
        ("test", i + 1, line) for i, line in enumerate(test)
    ]
    files = con.execute(
        "select file_path, given_path, sha256, size_bytes, records_read from raw.ingest_files order by file_path desc"
    ).fetchall()
    for file_path, given_path, sha256, size_bytes, _ in files:
        data = (folder / file_path).read_bytes()
        assert (given_path, sha256, size_bytes) == (str(folder), hashlib.sha256(data).hexdigest(), len(data))
    assert [row[0] for row in files] == ["train_data.jsonl", "test_data.jsonl"]
    assert json.loads(landed(con)[0][2])["conversationId"] == "391"


def test_truncated_line_is_rejected_with_its_line_number_and_the_others_land(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    truncated = conversation_line("2")[:57]
    folder = write_release(tmp_path / "r", [conversation_line("1"), truncated, conversation_line("3")], None)

    reports = land(con, folder)

    assert reports == [FileReport("redial", "train_data.jsonl", 3, 2, 1)]
    assert [row[1] for row in landed(con)] == [1, 3]
    [(file_path, line_number, reason, raw_text)] = rejects(con)
    assert (file_path, line_number, raw_text) == ("train_data.jsonl", 2, truncated)
    assert "not valid JSON" in reason
    assert con.execute("select records_rejected from raw.ingest_files").fetchall() == [(1,)]


def test_crlf_file_lands_like_lf_without_carriage_returns(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    lines = [LINE_391, EXTRA_KEYS_LINE]
    write_release(tmp_path / "lf", lines, None, "\n")
    write_release(tmp_path / "crlf", lines, None, "\r\n")

    land(con, tmp_path / "lf")
    from_lf = landed(con)
    land(con, tmp_path / "crlf")
    from_crlf = landed(con)

    assert from_crlf == from_lf == [("train", 1, LINE_391), ("train", 2, EXTRA_KEYS_LINE)]
    assert not any("\r" in row[2] for row in from_crlf)


def test_blank_line_is_rejected_and_a_final_newline_adds_no_record(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "test_data.jsonl").write_text(f"{conversation_line('1')}\n\n{conversation_line('3')}\n", encoding="utf-8")

    reports = land(con, folder)

    assert reports == [FileReport("redial", "test_data.jsonl", 3, 2, 1)]
    assert [row[:2] for row in landed(con)] == [("test", 1), ("test", 3)]
    assert rejects(con) == [("test_data.jsonl", 2, "empty line", "")]


def test_last_line_without_newline_still_lands(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "train_data.jsonl").write_text(f"{conversation_line('1')}\n{conversation_line('2')}", encoding="utf-8")

    land(con, folder)

    assert [row[1:] for row in landed(con)] == [(1, conversation_line("1")), (2, conversation_line("2"))]


def test_byte_order_mark_does_not_reject_line_one(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "train_data.jsonl").write_bytes(b"\xef\xbb\xbf" + f"{LINE_391}\r\n{conversation_line('2')}\r\n".encode())

    reports = land(con, folder)

    assert reports == [FileReport("redial", "train_data.jsonl", 2, 2, 0)]
    first = landed(con)[0][2]
    assert first == "\ufeff" + LINE_391  # kept verbatim; staging strips it
    assert rejects(con) == []


@pytest.mark.parametrize("newline", [b"\n", b"\r\n"])
def test_invalid_utf8_rejects_only_that_line(con: duckdb.DuckDBPyConnection, tmp_path: Path, newline: bytes) -> None:
    folder = tmp_path / "r"
    folder.mkdir()
    bad = conversation_line("2").replace("Have you seen", "caf\udce9", 1).encode("utf-8", "surrogateescape")
    good_3 = conversation_line("3", messages=[{"text": "Amélie \\ «ok»"}])
    (folder / "train_data.jsonl").write_bytes(
        newline.join([conversation_line("1").encode(), bad, good_3.encode()]) + newline
    )

    reports = land(con, folder)

    assert reports == [FileReport("redial", "train_data.jsonl", 3, 2, 1)]
    assert [row[1:] for row in landed(con)] == [(1, conversation_line("1")), (3, good_3)]
    [(_, line_number, reason, raw_text)] = rejects(con)
    assert (line_number, reason) == (2, "not valid UTF-8 text")
    assert '"conversationId": "2"' in raw_text and "caf\\xE9" in raw_text


def test_lines_missing_what_a_conversation_needs_are_rejected_with_the_reason(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    no_id = json.loads(conversation_line("x"))
    del no_id["conversationId"]
    lines = [
        conversation_line("1"),
        json.dumps(no_id),
        conversation_line("3", messages={"0": "not a list"}),
        conversation_line("4", movieMentions="none"),
        '["a", "list"]',
        conversation_line("6", respondentQuestions={}),  # an empty object is fine too
    ]
    folder = write_release(tmp_path / "r", lines, None)

    land(con, folder)

    assert [row[1] for row in landed(con)] == [1, 6]
    assert [(row[1], row[2]) for row in rejects(con)] == [
        (2, "missing conversationId"),
        (3, "messages is not a list"),
        (4, "movieMentions is not an object or list"),
        (5, "JSON value is array, not an object"),
    ]


def test_extra_message_keys_are_kept_verbatim(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", [EXTRA_KEYS_LINE], None)

    land(con, folder)

    [(_, _, raw_line)] = landed(con)
    assert raw_line == EXTRA_KEYS_LINE
    message = json.loads(raw_line)["messages"][0]
    assert (message["entity"], message["movie"], message["emotion"]) == (
        ["<http://dbpedia.org/resource/X>"],
        ["@1"],
        "joy",
    )


def test_zip_members_in_a_subfolder_are_matched_by_base_name(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    archive = tmp_path / "redial_dataset.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("data/train_data.jsonl", LINE_391 + "\n" + conversation_line("392") + "\n")
        zf.writestr("data/test_data.jsonl", conversation_line("9") + "\r\n")
        zf.writestr(
            "data/movies_with_mentions.csv", 'movieId,movieName,nbMentions\r\n111776,"Kill Bill: Vol. 1 (2003)",1\r\n'
        )
        zf.writestr("data/README.txt", "not landed")

    reports = land(con, archive)

    assert [(r.file_path, r.records_landed) for r in reports] == [
        ("train_data.jsonl", 2),
        ("test_data.jsonl", 1),
        ("movies_with_mentions.csv", 1),
    ]
    assert landed(con)[-1] == ("test", 1, conversation_line("9"))
    files = con.execute("select file_path, given_path, sha256 from raw.ingest_files order by all").fetchall()
    with zipfile.ZipFile(archive) as zf:
        for file_path, given_path, sha256 in files:
            assert given_path == str(archive)
            assert sha256 == hashlib.sha256(zf.read(f"data/{file_path}")).hexdigest()


@pytest.mark.parametrize("hostile", ["../evil.jsonl", "/tmp/evil.jsonl", "data/../../train_data.jsonl"])
def test_zip_with_a_member_climbing_out_is_refused(
    con: duckdb.DuckDBPyConnection, tmp_path: Path, hostile: str
) -> None:
    archive = tmp_path / "redial_dataset.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("train_data.jsonl", LINE_391 + "\n")
        zf.writestr(hostile, LINE_391 + "\n")

    with pytest.raises(DwhError) as error:
        land(con, archive)

    assert str(archive) in str(error.value) and hostile in str(error.value)
    assert landed(con) == []
    assert not (tmp_path / "evil.jsonl").exists()


def test_landing_again_replaces_instead_of_duplicating(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", [LINE_391, "{broken"], [conversation_line("9")])

    land(con, folder, "load-1")
    first = landed(con)
    land(con, folder, "load-2")

    assert landed(con) == first
    assert con.execute("select distinct load_id from raw.redial_conversations").fetchall() == [("load-2",)]
    assert [row[:2] for row in rejects(con)] == [("train_data.jsonl", 2)]
    assert con.execute("select count(*) from raw.ingest_files where source = 'redial'").fetchone() == (2,)


def test_failed_reload_leaves_the_previous_load_in_place(tmp_path: Path) -> None:
    db_path = tmp_path / "w.duckdb"
    folder = write_release(tmp_path / "r", [LINE_391], None)
    run_ingest(db_path, IngestRequest((SourceRequest("redial", folder),)), progress=lambda step: None)
    (folder / "train_data.jsonl").write_text("movieId,movieName\n1,x\n", encoding="utf-8")

    with pytest.raises(DwhError):
        run_ingest(db_path, IngestRequest((SourceRequest("redial", folder),)), progress=lambda step: None)

    with duckdb.connect(str(db_path), read_only=True) as reader:
        assert landed(reader) == [("train", 1, LINE_391)]


def test_a_csv_handed_in_as_redial_is_refused(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = tmp_path / "r"
    folder.mkdir()
    (folder / "train_data.jsonl").write_text("id,rater_id,context\n1,2,hello\n", encoding="utf-8")

    with pytest.raises(
        DwhError, match=r"train_data\.jsonl: does not look like ReDial JSONL: no line is valid JSON \(line 1"
    ):
        land(con, folder)


def test_json_lines_that_are_not_dialogues_are_refused(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", ['{"dialogue_id": "0003"}', '{"dialogue_id": "0004"}'], None)

    with pytest.raises(DwhError, match="no line is a ReDial conversation"):
        land(con, folder)


def test_missing_path_and_folder_without_split_files_are_errors(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    with pytest.raises(DwhError, match="no such file or folder"):
        land(con, tmp_path / "nowhere")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "movies_with_mentions.csv").write_text("movieId,movieName,nbMentions\n", encoding="utf-8")
    with pytest.raises(DwhError, match="neither train_data.jsonl nor test_data.jsonl") as error:
        land(con, empty)
    assert str(empty) in str(error.value)


def test_only_one_split_present_lands_that_split(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", None, [conversation_line("1")])

    reports = land(con, folder)

    assert [r.file_path for r in reports] == ["test_data.jsonl"]
    assert landed(con) == [("test", 1, conversation_line("1"))]


def test_movie_list_with_crlf_quoted_commas_and_a_bad_row(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", [LINE_391], None)
    (folder / "movies_with_mentions.csv").write_bytes(
        b"movieId,movieName,nbMentions\r\n"
        b"151313,A Scanner Darkly  (2006),4\r\n"
        b'92001,"Crouching Tiger, Hidden Dragon (2000)",3\r\n'
        b'92002,"""Crocodile"" Dundee (1986)",1\r\n'
        b"92003,too,many,fields\r\n"
        b"92004,Harry Potter,0\r\n"
    )

    reports = land(con, folder)

    assert reports[-1] == FileReport("redial", "movies_with_mentions.csv", 5, 4, 1)
    assert con.execute(
        "select row_number, movie_id, movie_name, nb_mentions from raw.redial_movies order by 1"
    ).fetchall() == [
        (1, "151313", "A Scanner Darkly  (2006)", "4"),
        (2, "92001", "Crouching Tiger, Hidden Dragon (2000)", "3"),
        (3, "92002", '"Crocodile" Dundee (1986)', "1"),
        (4, "92004", "Harry Potter", "0"),
    ]
    [(file_path, line_number, reason, raw_text)] = rejects(con)
    assert (file_path, line_number, raw_text) == ("movies_with_mentions.csv", 5, "92003,too,many,fields")
    assert "TOO MANY COLUMNS" in reason


def test_movie_list_with_another_header_is_an_error(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    folder = write_release(tmp_path / "r", [LINE_391], None)
    (folder / "movies_with_mentions.csv").write_text("id,title\n1,x\n", encoding="utf-8")

    with pytest.raises(DwhError, match=r"movies_with_mentions\.csv: line 1 is 'id,title'"):
        land(con, folder)


def test_small_sample_zip_lands_without_rejects(con: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    archive = write_redial_sample(tmp_path / "sample", seed=3, n_train=25, n_test=9)

    reports = land(con, archive)

    assert [(r.file_path, r.records_read, r.records_landed) for r in reports][:2] == [
        ("train_data.jsonl", 25, 25),
        ("test_data.jsonl", 9, 9),
    ]
    assert rejects(con) == []
    with zipfile.ZipFile(archive) as zf:
        expected = zf.read("test_data.jsonl").decode("utf-8").split("\r\n")[:-1]
    assert [row[2] for row in landed(con) if row[0] == "test"] == expected


@pytest.mark.parametrize("chunk_bytes", [1, 700, 4096])
def test_small_chunks_land_exactly_what_one_chunk_lands(
    con: duckdb.DuckDBPyConnection, tmp_path: Path, chunk_bytes: int
) -> None:
    """The chunked path (for files the CSV reader cannot reproduce) lands what the whole-file path
    lands; chunk boundaries must not move or lose a line."""
    lines = [conversation_line(str(i)) for i in range(12)]
    lines[3] = lines[3][:40]  # truncated
    lines[7] = ""  # blank line in the middle
    folder = write_release(tmp_path / "release", lines, [EXTRA_KEYS_LINE], newline="\r\n")
    (folder / "train_data.jsonl").write_bytes((folder / "train_data.jsonl").read_bytes() + b'{"cut": ')
    land(con, folder)
    whole = (landed(con), rejects(con))
    land(con, folder, reading=JsonlReading(whole_files=False, chunk_bytes=chunk_bytes))
    assert (landed(con), rejects(con)) == whole
    assert [line for _, line, _, _ in whole[1]] == [4, 8, 13]


@pytest.mark.slow
def test_a_large_file_keeps_every_line_number_across_the_readers_batches(
    con: duckdb.DuckDBPyConnection, tmp_path: Path
) -> None:
    """Large enough (~40 MB) for DuckDB to read it in parallel batches and several row groups."""
    template = conversation_line("{id}", messages=[], movieMentions={}, initiatorQuestions={}, respondentQuestions={})
    n_lines = 300_000
    lines = [template.replace('"{id}"', str(i)) for i in range(1, n_lines + 1)]
    lines[150_000] = lines[150_000][:30]
    write_release(tmp_path / "big", lines, None)

    reports = land(con, tmp_path / "big")

    assert (reports[0].records_read, reports[0].records_landed) == (n_lines, n_lines - 1)
    assert con.execute(
        "select count(*), count(*) filter (where line_number = (raw_line::json->>'conversationId')::bigint) "
        "from raw.redial_conversations"
    ).fetchone() == (n_lines - 1, n_lines - 1)
    assert [row[1] for row in rejects(con)] == [150_001]


@pytest.mark.parametrize("chunk_bytes", [None, 1000, 7])
@pytest.mark.parametrize("overlong_is_last", [False, True], ids=["in-the-middle", "last-without-newline"])
def test_a_line_longer_than_the_limit_is_rejected_as_too_long_and_never_held_whole(
    con: duckdb.DuckDBPyConnection,
    tmp_path: Path,
    chunk_bytes: int | None,
    overlong_is_last: bool,
) -> None:
    """A 9 MB line (the limit is 8 MiB) is a reject with its line number and size; the lines around it land."""
    overlong = '{"conversationId": "9", "messages": [{"text": "' + "a" * (9 << 20) + '"}]}'
    lines = [conversation_line("1"), overlong, conversation_line("3")]
    if overlong_is_last:
        lines = lines[:1] + [overlong]
    folder = write_release(tmp_path / "release", lines, None)
    if overlong_is_last:  # no final newline after the long line
        (folder / "train_data.jsonl").write_bytes((folder / "train_data.jsonl").read_bytes()[:-1])
    # the small chunks only the chunked path reads with
    reading = JsonlReading(whole_files=False, chunk_bytes=chunk_bytes) if chunk_bytes else JsonlReading()
    reports = land(con, folder, reading=reading)
    assert reports == [FileReport("redial", "train_data.jsonl", len(lines), len(lines) - 1, 1)]
    assert [row[1] for row in landed(con)] == ([1] if overlong_is_last else [1, 3])
    [(file_path, line_number, reason, raw_text)] = rejects(con)
    assert (file_path, line_number) == ("train_data.jsonl", 2)
    assert reason == f"line too long: {len(overlong.encode())} bytes, more than the {8 << 20} a line may have"
    assert raw_text.startswith('{"conversationId": "9"') and len(raw_text) < 300


def test_chunks_carry_at_most_the_limit_of_a_long_line(tmp_path: Path) -> None:
    """What the chunk reader hands on never exceeds a chunk plus the line limit, however long a line is."""
    from ingest.releases.redial import OverlongLine, newline_aligned_chunks

    path = tmp_path / "lines.jsonl"
    path.write_bytes(b"short\n" + b"x" * 5000 + b"\nshort again\n" + b"y" * 120)
    pieces = list(newline_aligned_chunks(path, chunk_bytes=64, max_line_bytes=100))
    assert all(isinstance(p, OverlongLine) or len(p) <= 64 + 100 for _, p in pieces)
    overlong = [(before, p) for before, p in pieces if isinstance(p, OverlongLine)]
    assert [(before, p.line_number, p.size_bytes) for before, p in overlong] == [(1, 2, 5000), (3, 4, 120)]
    text = b"".join(p for _, p in pieces if not isinstance(p, OverlongLine))
    assert text == b"short\nshort again\n"
