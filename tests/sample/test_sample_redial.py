"""The synthetic ReDial release: real format, documented sizes, every quirk, deterministic."""

import csv
import io
import json
import re
import zipfile
from collections import Counter
from pathlib import Path

import pytest

from sample_data.redial import generate_conversations, write_redial_sample
from tests.card_records import CARD_391_TEXT

MENTION = re.compile(r"@(\d+)")
YEAR_AT_END = re.compile(r" \((\d{4})\)$")


def read_zip(archive: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(archive) as zf:
        return {info.filename: zf.read(info) for info in zf.infolist()}


def conversations(data: bytes, newline: bytes) -> list[dict]:
    assert data.endswith(newline)
    return [json.loads(line) for line in data.decode("utf-8").split(newline.decode())[:-1]]


@pytest.fixture(scope="module")
def scale_1(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The scale-1 sample, written once for the module: members, parsed splits, movie rows."""
    archive = write_redial_sample(tmp_path_factory.mktemp("sample"), scale=1, seed=0)
    members = read_zip(archive)
    return {
        "path": archive,
        "members": members,
        "train": conversations(members["train_data.jsonl"], b"\n"),
        "test": conversations(members["test_data.jsonl"], b"\r\n"),
        "movies": list(csv.reader(io.StringIO(members["movies_with_mentions.csv"].decode("utf-8"), newline=""))),
    }


def mentioned_ids(conversation: dict) -> set[str]:
    return {m for message in conversation["messages"] for m in MENTION.findall(message["text"])}


@pytest.mark.slow
def test_zip_layout_and_documented_counts_at_scale_1(scale_1: dict, tmp_path: Path) -> None:
    assert scale_1["path"].relative_to(scale_1["path"].parents[1]).as_posix() == "redial/redial_dataset.zip"
    assert sorted(scale_1["members"]) == ["movies_with_mentions.csv", "test_data.jsonl", "train_data.jsonl"]
    assert (len(scale_1["train"]), len(scale_1["test"])) == (10_006, 1_342)
    assert write_redial_sample(tmp_path, scale=2, seed=0, n_test=0).exists()
    doubled = read_zip(tmp_path / "redial" / "redial_dataset.zip")
    assert doubled["train_data.jsonl"].count(b"\n") == 20_012
    assert doubled["test_data.jsonl"] == b""


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path: Path) -> None:
    first = write_redial_sample(tmp_path / "a", seed=5, n_train=40, n_test=10).read_bytes()
    again = write_redial_sample(tmp_path / "b", seed=5, n_train=40, n_test=10).read_bytes()
    other = write_redial_sample(tmp_path / "c", seed=6, n_train=40, n_test=10).read_bytes()
    assert first == again
    assert first != other


def test_train_is_lf_and_test_is_crlf(scale_1: dict) -> None:
    train, test = scale_1["members"]["train_data.jsonl"], scale_1["members"]["test_data.jsonl"]
    assert b"\r" not in train
    assert test.count(b"\r\n") == test.count(b"\n") == 1_342


def test_conversation_391_is_the_card_record(scale_1: dict) -> None:
    [found] = [c for c in scale_1["train"] if c["conversationId"] == "391"]
    card = json.loads(CARD_391_TEXT)
    assert found == card
    assert list(found) == list(card)
    assert (len(found["messages"]), len(found["movieMentions"])) == (19, 6)


def test_every_conversation_is_well_formed(scale_1: dict) -> None:
    all_ids, message_ids = [], []
    workers = {}
    for split in ("train", "test"):
        workers[split] = set()
        for c in scale_1[split]:
            assert isinstance(c["conversationId"], str) and c["conversationId"].isdigit()
            all_ids.append(c["conversationId"])
            assert isinstance(c["initiatorWorkerId"], int) and isinstance(c["respondentWorkerId"], int)
            assert c["initiatorWorkerId"] != c["respondentWorkerId"]
            workers[split] |= {c["initiatorWorkerId"], c["respondentWorkerId"]}
            messages = c["messages"]
            assert len(messages) >= 10
            assert len(mentioned_ids(c)) >= 4
            offsets = [m["timeOffset"] for m in messages]
            assert offsets[0] == 0 and offsets == sorted(offsets)
            ids = [m["messageId"] for m in messages]
            assert ids == sorted(set(ids))
            message_ids += ids
            assert {m["senderWorkerId"] for m in messages} <= {c["initiatorWorkerId"], c["respondentWorkerId"]}
            for form in ("initiatorQuestions", "respondentQuestions"):
                assert c[form] == [] or isinstance(c[form], dict) and c[form]
                for movie_id, labels in (c[form] or {}).items():
                    assert movie_id in c["movieMentions"]
                    assert (
                        labels["suggested"] in (0, 1) and labels["seen"] in (0, 1, 2) and labels["liked"] in (0, 1, 2)
                    )
            assert c["movieMentions"] == [] or isinstance(c["movieMentions"], dict) and c["movieMentions"]
    assert len(all_ids) == len(set(all_ids))
    assert len(message_ids) == len(set(message_ids))
    assert not workers["train"] & workers["test"]  # the test set came from other workers


def test_every_quirk_is_present(scale_1: dict) -> None:
    everything = scale_1["train"] + scale_1["test"]
    assert_quirks(everything)
    raw = scale_1["members"]["train_data.jsonl"].decode("utf-8")
    assert '"movieMentions": []' in raw and '"initiatorQuestions": []' in raw and '"respondentQuestions": []' in raw


def assert_quirks(everything: list[dict]) -> None:
    """The quirks of docs/RELEASES.md, each seen at least once."""
    titles = {t for c in everything if c["movieMentions"] for t in c["movieMentions"].values()}
    assert "A Scanner Darkly  (2006)" in titles
    assert "The Visitor (Les Visiteurs) (1993)" in titles
    assert {"Kill Bill: Vol. 1 (2003)", "Fantastic Mr. Fox (2009)"} <= titles
    assert any(not YEAR_AT_END.search(t) for t in titles)
    assert any(c["movieMentions"] == [] for c in everything)
    assert any(c["initiatorQuestions"] == [] and c["movieMentions"] for c in everything)
    assert any(c["respondentQuestions"] == [] and c["movieMentions"] for c in everything)
    assert any(c["movieMentions"] and mentioned_ids(c) - set(c["movieMentions"]) for c in everything)
    assert any(c["messages"][0]["senderWorkerId"] == c["respondentWorkerId"] for c in everything)
    assert any({"entity", "movie", "emotion"} <= set(m) for c in everything for m in c["messages"])


def test_quirks_are_present_even_in_a_tiny_sample() -> None:
    train, test = generate_conversations(9, 8, seed=11)
    assert (len(train), len(test)) == (9, 8)
    assert_quirks(train)
    assert_quirks(test)


def test_labels_are_skewed_as_the_card_describes(scale_1: dict) -> None:
    counts = {q: Counter() for q in ("suggested", "seen", "liked")}
    for c in scale_1["train"] + scale_1["test"]:
        for labels in (c["initiatorQuestions"] or {}).values():
            for question, counter in counts.items():
                counter[labels[question]] += 1
    total = sum(counts["liked"].values())
    assert total > 40_000
    assert counts["liked"][1] / total > 0.7  # "highly imbalanced": most movies are liked
    assert 0 < counts["liked"][0] < counts["liked"][2] < counts["liked"][1]
    assert min(counts["seen"].values()) / total > 0.1  # seen, not seen and did-not-say all common
    assert 0.35 < counts["suggested"][1] / total < 0.65


def test_movie_list_counts_match_the_dialogues(scale_1: dict) -> None:
    header, *rows = scale_1["movies"]
    assert header == ["movieId", "movieName", "nbMentions"]
    assert scale_1["members"]["movies_with_mentions.csv"].count(b"\r\n") == len(rows) + 1
    listed = {movie_id: (name, int(n)) for movie_id, name, n in rows}
    observed = Counter(m for c in scale_1["train"] + scale_1["test"] if c["movieMentions"] for m in c["movieMentions"])
    assert {movie_id: n for movie_id, (_, n) in listed.items() if n} == dict(observed)
    assert any("," in name for name, _ in listed.values())
    titles = {
        m: t for c in scale_1["train"] + scale_1["test"] if c["movieMentions"] for m, t in c["movieMentions"].items()
    }
    assert all(listed[m][0] == t for m, t in titles.items())
