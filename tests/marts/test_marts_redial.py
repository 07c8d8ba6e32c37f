"""`dwh ingest --redial` + `dwh build` end to end: the card's conversation 391 in the marts, a
truncated line rejected, the scale-1 sample green, and a label outside the vocabulary failing
the build with the offending row."""

import copy
import json
import re
import subprocess
from pathlib import Path

import pytest

from sample_data.redial import CONVERSATION_391
from tests.helpers import BuiltWarehouse, failing_rows, query, run_dwh, selecting, warned_or_failed_tests

pytestmark = pytest.mark.slow  # dbt builds

FORM_QUESTIONS = ("suggested", "seen", "liked")

# Recommender writes first; the seeker's form is empty (`[]`); names with the release's quirks;
# a message with extra keys; `@777777` is tagged but missing from movieMentions.
CONVERSATION_20001: dict = {
    "movieMentions": {
        "102069": "The Visitor (Les Visiteurs) (1993)",
        "118576": "Kill Bill: Vol. 1 (2003)",
        "184609": "Harry Potter",
        "151313": "A Scanner Darkly  (2006)",
    },
    "respondentQuestions": {
        "102069": {"suggested": 1, "seen": 2, "liked": 1},
        "118576": {"suggested": 0, "seen": 1, "liked": 0},
        "184609": {"suggested": 1, "seen": 0, "liked": 2},
        "151313": {"suggested": 0, "seen": 1, "liked": 1},
    },
    "messages": [
        {"timeOffset": 0, "text": "Hello, what are you looking for today?", "senderWorkerId": 901, "messageId": 5001},
        {
            "timeOffset": 9,
            "text": "Something unlike @118576, I did not like it",
            "senderWorkerId": 900,
            "messageId": 5002,
            "entity": ["<http://dbpedia.org/resource/Kill_Bill:_Volume_1>"],
            "movie": ["@118576"],
            "emotion": "dislike",
        },
        {"timeOffset": 20, "text": "Try @102069 or @184609", "senderWorkerId": 901, "messageId": 5003},
        {"timeOffset": 33, "text": "I loved @151313 and @777777", "senderWorkerId": 900, "messageId": 5004},
        {"timeOffset": 40, "text": "bye", "senderWorkerId": 901, "messageId": 5005},
    ],
    "conversationId": "20001",
    "respondentWorkerId": 901,
    "initiatorWorkerId": 900,
    "initiatorQuestions": [],
}


def simple_conversation(conversation_id: str, seeker: int, recommender: int, first_message_id: int) -> dict:
    """A plain four-movie conversation, seeker first, both forms filled alike."""
    movies = {str(300 + i): f"Movie {conversation_id}-{i} ({2000 + i})" for i in range(4)}
    texts = ["Hi, any ideas?", *(f"What about @{movie_id}?" for movie_id in movies), "Thanks, bye"]
    form = {movie_id: {"suggested": i % 2, "seen": 1, "liked": 1} for i, movie_id in enumerate(movies)}
    return {
        "movieMentions": movies,
        "respondentQuestions": copy.deepcopy(form),
        "messages": [
            {
                "timeOffset": 5 * i,
                "text": text,
                "senderWorkerId": seeker if i % 2 == 0 else recommender,
                "messageId": first_message_id + i,
            }
            for i, text in enumerate(texts)
        ],
        "conversationId": conversation_id,
        "respondentWorkerId": recommender,
        "initiatorWorkerId": seeker,
        "initiatorQuestions": form,
    }


def write_release(folder: Path, train_lines: list[str], test_lines: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "train_data.jsonl").write_text("".join(line + "\n" for line in train_lines), encoding="utf-8")
    (folder / "test_data.jsonl").write_text("".join(line + "\n" for line in test_lines), encoding="utf-8")
    return folder


def build(db_path: Path, release: Path) -> subprocess.CompletedProcess:
    run_dwh(["ingest", "--redial", str(release)], db_path, check=True)
    return run_dwh(["build"], db_path)


@pytest.fixture(scope="module")
def small_warehouse(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """391 and a plain conversation in train; in test, 20001, a truncated line (line 2), a plain one."""
    root = tmp_path_factory.mktemp("redial-small")
    truncated = json.dumps(simple_conversation("20002", 910, 911, 6000))[:150]
    release = write_release(
        root / "release",
        [json.dumps(CONVERSATION_391), json.dumps(simple_conversation("392", 2, 3, 1040))],
        [json.dumps(CONVERSATION_20001), truncated, json.dumps(simple_conversation("20003", 902, 903, 5100))],
    )
    db_path = root / "warehouse.duckdb"
    built = build(db_path, release)
    if built.returncode != 0:
        pytest.fail(built.stdout + built.stderr)
    # the tests that did not pass, read from run_results.json before another build replaces it
    return db_path, warned_or_failed_tests()


def test_card_conversation_391_turns(small_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = small_warehouse
    assert query(
        db_path,
        """
        select source, language, setting, split, n_turns, seeker_worker_id, recommender_worker_id,
            n_movies_mentioned, source_file
        from marts.dialogues where dialogue_key = 'redial:391'""",
    ) == [("redial", "en", "movie_recommendation", "train", 19, "0", "1", 6, "train_data.jsonl")]
    turns = query(
        db_path,
        """
        select turn_index, speaker_role, speaker_key, source_message_id, time_offset_seconds, mentioned_movie_ids, text
        from marts.turns where dialogue_key = 'redial:391' order by turn_index""",
    )
    assert [t[0] for t in turns] == list(range(19))
    assert turns[0][1:3] == ("seeker", "redial:worker:0")
    assert turns[1][1:3] == ("recommender", "redial:worker:1")
    for turn, message in zip(turns, CONVERSATION_391["messages"]):
        role = "seeker" if message["senderWorkerId"] == 0 else "recommender"
        assert turn[1:] == (
            role,
            f"redial:worker:{message['senderWorkerId']}",
            str(message["messageId"]),
            message["timeOffset"],
            re.findall(r"@(\d+)", message["text"]),
            message["text"],
        )
    assert turns[2][5] == ["84779", "191602"]


def test_card_conversation_391_movie_mentions_and_forms(small_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = small_warehouse
    rows = query(
        db_path,
        """
        select movie_id, movie_title, release_year, movie_title_raw, first_turn_index,
            seeker_suggested, seeker_seen, seeker_liked, recommender_suggested, recommender_seen, recommender_liked,
            forms_agree, is_in_movie_mentions, n_text_mentions
        from marts.movie_mentions where dialogue_key = 'redial:391'""",
    )
    assert len(rows) == 6
    by_id = {row[0]: row[1:] for row in rows}
    assert set(by_id) == set(CONVERSATION_391["movieMentions"])
    assert by_id["151313"][:3] == ("A Scanner Darkly", 2006, "A Scanner Darkly  (2006)")
    assert by_id["203371"][:2] == ("Final Fantasy: The Spirits Within", 2001)
    assert {movie_id: row[3] for movie_id, row in by_id.items()} == {
        "84779": 2,
        "191602": 2,
        "122159": 3,
        "165710": 5,
        "151313": 9,
        "203371": 12,
    }
    for movie_id, row in by_id.items():
        seeker = CONVERSATION_391["initiatorQuestions"][movie_id]
        recommender = CONVERSATION_391["respondentQuestions"][movie_id]
        assert row[4:10] == tuple(seeker[q] for q in FORM_QUESTIONS) + tuple(recommender[q] for q in FORM_QUESTIONS)
        assert row[10:] == (True, True, 1)

    # the same 6 x 2 x 3 answers as single ratings, by the worker who filled each form
    ratings = query(
        db_path,
        """
        select rating_id, rater_key, rating_kind, question, movie_id, value_numeric, value_raw, value_label
        from marts.ratings where dialogue_key = 'redial:391'""",
    )
    assert len(ratings) == 36
    labels = {
        ("suggested", 0): "mentioned by the seeker",
        ("suggested", 1): "suggested by the recommender",
        ("seen", 0): "not seen",
        ("seen", 1): "seen",
        ("liked", 1): "liked",
    }
    expected = {
        f"redial:391:{form}:{movie_id}:{question}": (
            f"redial:worker:{worker}",
            "movie_form",
            question,
            movie_id,
            float(value),
            str(value),
            labels[(question, value)],
        )
        for form, key, worker in [("initiator", "initiatorQuestions", 0), ("respondent", "respondentQuestions", 1)]
        for movie_id, answers in CONVERSATION_391[key].items()
        for question, value in answers.items()
    }
    assert {row[0]: row[1:] for row in ratings} == expected
    assert query(
        db_path, "select rater_role, source_rater_id from marts.raters where rater_key = 'redial:worker:0'"
    ) == [("redial_worker", "0")]


def test_quirks_recommender_first_empty_form_titles_and_unresolved_mention(
    small_warehouse: tuple[Path, dict[str, str]],
) -> None:
    db_path, not_passed = small_warehouse
    roles = query(
        db_path, "select speaker_role from marts.turns where dialogue_key = 'redial:20001' order by turn_index"
    )
    assert [r[0] for r in roles] == ["recommender", "seeker", "recommender", "seeker", "recommender"]
    rows = query(
        db_path,
        """
        select movie_id, movie_title, release_year, first_turn_index, seeker_liked, recommender_liked, forms_agree,
            is_in_movie_mentions
        from marts.movie_mentions where dialogue_key = 'redial:20001' order by movie_id""",
    )
    assert rows == [
        ("102069", "The Visitor (Les Visiteurs)", 1993, 2, None, 1, None, True),
        ("118576", "Kill Bill: Vol. 1", 2003, 1, None, 0, None, True),
        ("151313", "A Scanner Darkly", 2006, 3, None, 1, None, True),
        ("184609", "Harry Potter", None, 2, None, 2, None, True),
        ("777777", None, None, 3, None, None, None, False),
    ]
    assert query(db_path, "select dialogue_key, turn_index, movie_id from marts.redial_unresolved_mentions") == [
        ("redial:20001", 3, "777777")
    ]
    assert query(db_path, "select n_movies_mentioned from marts.dialogues where dialogue_key = 'redial:20001'") == [
        (5,)
    ]
    assert query(db_path, "select count(*) from marts.ratings where dialogue_key = 'redial:20001'") == [(12,)]
    # the unresolved mention is a documented quirk: no warning, but `dwh summary` counts it;
    # the small release's counts differ from the card's (that is the one warning)
    assert not_passed == {"published_statistics_comparison_warnings": "warn"}
    summary = run_dwh(["summary"], db_path, check=True).stdout
    assert "ReDial: 1 @id tag(s) in 1 conversation(s) name a movie" in summary


def test_truncated_line_is_rejected_and_the_rest_builds(small_warehouse: tuple[Path, dict[str, str]]) -> None:
    db_path, _ = small_warehouse
    rejects = query(db_path, "select source, file_path, line_number, reason from raw.ingest_rejects")
    assert len(rejects) == 1
    assert rejects[0][:3] == ("redial", "test_data.jsonl", 2)
    assert "truncated" in rejects[0][3]
    assert query(db_path, "select split, count(*) from marts.dialogues group by 1 order by 1") == [
        ("test", 2),
        ("train", 2),
    ]
    assert query(db_path, "select source_dialogue_id from marts.dialogues where split = 'test' order by 1") == [
        ("20001",),
        ("20003",),
    ]


def test_scale_one_sample_builds_green(sample_build: BuiltWarehouse) -> None:
    """The scale-1 sample (the session's build of all three datasets): ReDial's part."""
    db_path = sample_build.db_path
    assert query(
        db_path, "select split, count(*) from marts.dialogues where source = 'redial' group by 1 order by 1"
    ) == [
        ("test", 1342),
        ("train", 10006),
    ]
    # the card's figures hold on the sample and its unresolved `@id`s are a documented quirk: no warning
    assert (
        query(
            db_path,
            """
        select statistic, comparison from marts.published_statistics_comparison
        where dataset = 'redial' and comparison <> 'match'""",
        )
        == []
    )
    assert sample_build.not_passed == {}
    unresolved = query(db_path, "select count(*) from marts.redial_unresolved_mentions")[0][0]
    assert unresolved > 0
    assert query(db_path, "select count(*) from marts.movie_mentions where not is_in_movie_mentions")[0][0] > 0
    # movies_with_mentions.csv's nbMentions agrees with the observed counts
    assert query(db_path, "select count(*) from marts.movies where not nb_mentions_matches") == [(0,)]


def test_form_label_outside_vocabulary_fails_naming_the_conversation(tmp_path: Path) -> None:
    conversation = copy.deepcopy(CONVERSATION_391)
    conversation["initiatorQuestions"]["151313"]["seen"] = 3
    release = write_release(tmp_path / "release", [json.dumps(conversation)], [])
    db_path = tmp_path / "warehouse.duckdb"
    run_dwh(["ingest", "--redial", str(release)], db_path, check=True)
    built = run_dwh(["build", *selecting("int_redial__form_answers_vocabularies")], db_path)
    assert built.returncode != 0
    offending = failing_rows(db_path, "int_redial__form_answers_vocabularies")
    assert offending == [
        {
            "broken_rule": "redial_form_answers_in_vocabulary",
            "dialogue_key": "redial:391",
            "form": "initiator",
            "movie_id": "151313",
            "question": "seen",
            "value_raw": "3",
            "vocabulary": "seen",
            "value": 3,
        }
    ]
    assert built.stderr.strip().startswith("dwh: error: dbt build failed")
    assert "int_redial__form_answers_vocabularies" in built.stderr
    assert "redial_form_answers_in_vocabulary" in built.stdout
