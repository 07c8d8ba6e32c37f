"""A synthetic ReDial release in the real format: `redial/redial_dataset.zip`.

The zip holds `train_data.jsonl` (10,006 x scale dialogues, LF line endings), `test_data.jsonl`
(1,342 x scale, CRLF line endings) and `movies_with_mentions.csv` (movieId,movieName,nbMentions,
CRLF; nbMentions = how many dialogues of both splits list the movie in movieMentions).
Output is a pure function of (scale, seed): same bytes for the same arguments.

Structure follows the dataset card: 10-30 messages, 4-7 distinct movies tagged `@<movieId>`,
`conversationId` written as a JSON string, increasing `timeOffset` from 0 and unique increasing
`messageId`s, forms keyed by movie id. Labels are skewed as the card says (most movies liked;
seen split between seen / not seen with many "did not say"; recommenders suggest about half).
The test split has its own workers (collected later by a disjoint set of workers).

Every quirk of docs/RELEASES.md appears, and appears in the first conversations of each split so
that even a tiny sample carries them: empty forms written `[]`; titles with a double space before
the year, without a year, with parentheses in the name ("The Visitor (Les Visiteurs) (1993)"),
with commas and quotes; an `@id` mention missing from movieMentions; the recommender writing
first; messages with extra keys (`entity`, `movie`, `emotion`). Conversation 391 of the card is
the first line of the training file, exactly as the card prints it.
"""

import copy
import csv
import io
import json
import random
import zipfile
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator
from itertools import accumulate
from pathlib import Path

from common.outputs import replacing
from sample_data.scaling import scaled

TRAIN_DIALOGUES = 10_006
TEST_DIALOGUES = 1_342
ZIP_DATE = (2018, 6, 15, 0, 0, 0)
TRAIN_WORKERS = range(0, 800)
TEST_WORKERS = range(800, 1000)
LARGE_DIALOGUES = 500_000  # beyond this a member may pass 2 GiB and needs zip64

# The card's example instance, key order and values as printed there.
CONVERSATION_391: dict = {
    "movieMentions": {
        "203371": "Final Fantasy: The Spirits Within (2001)",
        "84779": "The Triplets of Belleville (2003)",
        "122159": "Mary and Max (2009)",
        "151313": "A Scanner Darkly  (2006)",
        "191602": "Waking Life (2001)",
        "165710": "The Boss Baby (2017)",
    },
    "respondentQuestions": {
        "203371": {"suggested": 1, "seen": 0, "liked": 1},
        "84779": {"suggested": 0, "seen": 1, "liked": 1},
        "122159": {"suggested": 0, "seen": 1, "liked": 1},
        "151313": {"suggested": 0, "seen": 1, "liked": 1},
        "191602": {"suggested": 0, "seen": 1, "liked": 1},
        "165710": {"suggested": 1, "seen": 0, "liked": 1},
    },
    "messages": [
        {
            "timeOffset": 0,
            "text": "Hi there, how are you? I'm looking for movie recommendations",
            "senderWorkerId": 0,
            "messageId": 1021,
        },
        {
            "timeOffset": 15,
            "text": "I am doing okay. What kind of movies do you like?",
            "senderWorkerId": 1,
            "messageId": 1022,
        },
        {"timeOffset": 66, "text": "I like animations like @84779 and @191602", "senderWorkerId": 0, "messageId": 1023},
        {"timeOffset": 86, "text": "I also enjoy @122159", "senderWorkerId": 0, "messageId": 1024},
        {"timeOffset": 95, "text": "Anything artistic", "senderWorkerId": 0, "messageId": 1025},
        {
            "timeOffset": 135,
            "text": "You might like @165710 that was a good movie.",
            "senderWorkerId": 1,
            "messageId": 1026,
        },
        {"timeOffset": 151, "text": "What's it about?", "senderWorkerId": 0, "messageId": 1027},
        {
            "timeOffset": 207,
            "text": "It has Alec Baldwin it is about a baby that works for a company and gets adopted it is very funny",
            "senderWorkerId": 1,
            "messageId": 1028,
        },
        {"timeOffset": 238, "text": "That seems like a nice comedy", "senderWorkerId": 0, "messageId": 1029},
        {
            "timeOffset": 272,
            "text": "Do you have any animated recommendations that are a bit more dramatic? Like @151313 for example",
            "senderWorkerId": 0,
            "messageId": 1030,
        },
        {
            "timeOffset": 327,
            "text": "I like comedies but I prefer films with a little more depth",
            "senderWorkerId": 0,
            "messageId": 1031,
        },
        {
            "timeOffset": 467,
            "text": "That is a tough one but I will remember something",
            "senderWorkerId": 1,
            "messageId": 1032,
        },
        {"timeOffset": 509, "text": "@203371 was a good one", "senderWorkerId": 1, "messageId": 1033},
        {
            "timeOffset": 564,
            "text": "Ooh that seems cool! Thanks for the input. I'm ready to submit if you are.",
            "senderWorkerId": 0,
            "messageId": 1034,
        },
        {"timeOffset": 571, "text": "It is animated, sci fi, and has action", "senderWorkerId": 1, "messageId": 1035},
        {"timeOffset": 579, "text": "Glad I could help", "senderWorkerId": 1, "messageId": 1036},
        {"timeOffset": 581, "text": "Nice", "senderWorkerId": 0, "messageId": 1037},
        {"timeOffset": 591, "text": "Take care, cheers!", "senderWorkerId": 0, "messageId": 1038},
        {"timeOffset": 608, "text": "bye", "senderWorkerId": 1, "messageId": 1039},
    ],
    "conversationId": "391",
    "respondentWorkerId": 1,
    "initiatorWorkerId": 0,
    "initiatorQuestions": {
        "203371": {"suggested": 1, "seen": 0, "liked": 1},
        "84779": {"suggested": 0, "seen": 1, "liked": 1},
        "122159": {"suggested": 0, "seen": 1, "liked": 1},
        "151313": {"suggested": 0, "seen": 1, "liked": 1},
        "191602": {"suggested": 0, "seen": 1, "liked": 1},
        "165710": {"suggested": 1, "seen": 0, "liked": 1},
    },
}

# Well-known titles with the release's naming quirks. Ids of the card's movies are the card's.
CARD_MOVIES = {int(k): v for k, v in CONVERSATION_391["movieMentions"].items()}
SHOWCASE_TITLES = [
    "The Visitor (Les Visiteurs) (1993)",
    "Kill Bill: Vol. 1 (2003)",
    "Fantastic Mr. Fox (2009)",
    "Harry Potter",
]
KNOWN_TITLES = SHOWCASE_TITLES + [
    "Kill Bill: Vol. 2 (2004)",
    "Birdman or (The Unexpected Virtue of Ignorance) (2014)",
    '"Crocodile" Dundee (1986)',
    "Crouching Tiger, Hidden Dragon (2000)",
    "The Good, the Bad and the Ugly (1966)",
    "Amélie (2001)",
    "Léon: The Professional (1994)",
    "The Shining  (1980)",
    "Coco  (2017)",
    "Black Panther  (2018)",
    "Get Out  (2017)",
    "Star Wars",
    "Planet Earth",
    "The Office",
    "Marvel movies",
    "Inception (2010)",
    "The Matrix (1999)",
    "Titanic (1997)",
    "Jurassic Park (1993)",
    "The Notebook (2004)",
    "Superbad (2007)",
    "Step Brothers (2008)",
    "The Hangover (2009)",
    "It (2017)",
    "A Quiet Place (2018)",
    "The Conjuring (2013)",
    "Get Smart (2008)",
    "Toy Story (1995)",
    "Finding Nemo (2003)",
    "Up (2009)",
    "Frozen (2013)",
    "Moana (2016)",
    "The Dark Knight (2008)",
    "Wonder Woman (2017)",
    "Deadpool (2016)",
    "Logan (2017)",
    "Pulp Fiction (1994)",
    "Fight Club (1999)",
    "Se7en (1995)",
    "Gone Girl (2014)",
    "La La Land (2016)",
    "The Princess Bride (1987)",
    "Groundhog Day (1993)",
    "Mad Max: Fury Road (2015)",
    "Blade Runner 2049 (2017)",
    "Spirited Away (2001)",
    "Mean Girls (2004)",
    "Bridesmaids (2011)",
    "Anchorman: The Legend of Ron Burgundy (2004)",
    "Star Wars: The Last Jedi (2017)",
    "Wall-E (2008)",
    "Inside Out (2015)",
]
WORDS_A = [
    "Silent",
    "Broken",
    "Golden",
    "Last",
    "Hidden",
    "Crimson",
    "Midnight",
    "Lonely",
    "Frozen",
    "Wild",
    "Secret",
    "Burning",
    "Distant",
    "Electric",
    "Quiet",
    "Savage",
]
WORDS_B = [
    "Harbor",
    "Kingdom",
    "Summer",
    "Road",
    "Garden",
    "Empire",
    "River",
    "Signal",
    "Promise",
    "Frontier",
    "Island",
    "Memory",
    "Storm",
    "Horizon",
    "Circus",
    "Letter",
]
CATALOGUE_SIZE = 400

GENRES = ["comedy", "horror", "action", "romantic", "animated", "sci-fi", "drama", "thriller", "family"]
SEEKER_OPEN = [
    "Hi there, how are you? I'm looking for movie recommendations",
    "Hello!",
    "Hi, can you suggest a good {g} movie?",
    "hey there",
    "Hello, I'm in the mood for a {g} movie tonight",
]
RECOMMENDER_OPEN = [
    "Hi! What kind of movies do you like?",
    "Hello, what are you looking for today?",
    "Hey! Any genre in mind?",
    "Good evening! What type of movie can I help you find?",
]
SEEKER_MENTION = [
    "I like {g} movies like @{m}",
    "I really liked @{m}",
    "I have seen @{m} and loved it",
    "Something like @{m} would be great",
    "My favorite is @{m}",
    "I enjoyed @{m} a lot",
]
SEEKER_MENTION_BAD = ["I didn't care for @{m}", "I did not like @{m} at all", "@{m} was boring to me"]
RECOMMENDER_SUGGEST = [
    "Have you seen @{m} ?",
    "You might like @{m} that was a good movie.",
    "I would recommend @{m}",
    "How about @{m}?",
    "@{m} is a classic",
    "Maybe try @{m}",
]
REACT_UNSEEN = ["I haven't seen that one", "No, I have not seen it. What's it about?", "I'll add it to my list"]
REACT_SEEN_LIKED = ["Oh I loved that one!", "Yes, I saw it, it was great", "That one is really good"]
REACT_SEEN_DISLIKED = ["I saw it but did not like it much", "Not a fan of that one"]
REACT_UNSAID = ["Hmm, maybe", "What's it about?", "Who is in it?"]
FILLER_SEEKER = [
    "That sounds good",
    "I like movies with a good story",
    "Anything with a twist ending",
    "Do you have anything more recent?",
    "I usually watch movies with my family",
    "Nice",
]
FILLER_RECOMMENDER = [
    "It has a great cast",
    "It is very funny",
    "It is a bit dark but really good",
    "The soundtrack is amazing",
    "It won a lot of awards",
    "It is a good one to watch at night",
]
CLOSE_SEEKER = [
    "Thanks for the suggestions!",
    "Thank you, have a great night!",
    "Great, thanks! Bye",
    "Take care, cheers!",
]
CLOSE_RECOMMENDER = ["Glad I could help", "bye", "Enjoy!", "You're welcome, have a good one"]
EMOTIONS = ["joy", "neutral", "surprise", "sadness", "like", "dislike"]


def _catalogue() -> list[tuple[int, str]]:
    """A fixed movie list (independent of the seed): the card's movies, known titles, synthetic ones."""
    rng = random.Random("redial-catalogue")
    ids = [i for i in rng.sample(range(75_000, 210_000), CATALOGUE_SIZE + 20) if i not in CARD_MOVIES]
    titles = list(KNOWN_TITLES)
    while len(titles) < CATALOGUE_SIZE - len(CARD_MOVIES):
        name = f"The {rng.choice(WORDS_A)} {rng.choice(WORDS_B)}"
        if name in {t.rsplit(" (", 1)[0].strip() for t in titles}:
            name = f"{name} {rng.randint(2, 4)}"
        roll = rng.random()
        year = rng.randint(1950, 2018)
        titles.append(name if roll < 0.06 else f"{name}  ({year})" if roll < 0.14 else f"{name} ({year})")
    return sorted(CARD_MOVIES.items()) + list(zip(ids, titles))


class _Generator:
    """Builds conversations one at a time from one random.Random; counts movie mentions."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.catalogue = _catalogue()
        self.titles = dict(self.catalogue)
        # Zipf-like popularity so that nbMentions is skewed as in real data.
        self.cum_weights = list(accumulate(1.0 / (rank + 5) for rank in range(len(self.catalogue))))
        self.showcase_ids = [movie_id for movie_id, title in self.catalogue if title in SHOWCASE_TITLES]
        self.showcase_ids.append(151313)  # "A Scanner Darkly  (2006)"
        self.next_conversation_id = 392
        self.next_message_id = 1040
        self.mentions: Counter[str] = Counter()

    def count(self, conversation: dict) -> None:
        """Add a conversation's movieMentions to the per-movie counts."""
        if isinstance(conversation["movieMentions"], dict):
            self.mentions.update(conversation["movieMentions"].keys())

    def pick_movies(self, k: int, forced: list[int]) -> list[int]:
        """k distinct movie ids, popular ones more often, starting with `forced`."""
        chosen = list(dict.fromkeys(forced))
        total = self.cum_weights[-1]
        while len(chosen) < k:
            index = bisect_left(self.cum_weights, self.rng.random() * total)
            movie_id = self.catalogue[min(index, len(self.catalogue) - 1)][0]
            if movie_id not in chosen:
                chosen.append(movie_id)
        return chosen

    def labels(self, suggested: int) -> dict[str, int]:
        """The seeker's form for one movie: seen / liked skewed as the card describes."""
        r = self.rng.random()
        if suggested:
            seen = 0 if r < 0.55 else 2 if r < 0.85 else 1
        else:
            seen = 1 if r < 0.8 else 2 if r < 0.95 else 0
        r = self.rng.random()
        liked = 1 if r < 0.8 else 2 if r < 0.92 else 0
        return {"suggested": suggested, "seen": seen, "liked": liked}

    def respondent_form(self, form: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        """The recommender's answers: the seeker's, with an occasional disagreement or omission."""
        answers = {}
        for movie_id, labels in form.items():
            if self.rng.random() < 0.03:
                continue
            copy = dict(labels)
            if self.rng.random() < 0.08:
                question = self.rng.choice(["seen", "liked"])
                copy[question] = (copy[question] + 1) % 3
            answers[movie_id] = copy
        return answers

    def conversation(self, split: str, index: int) -> dict:
        """One dialogue; index 0-6 of each split force one quirk each, later ones draw them at random."""
        rng = self.rng
        workers = TRAIN_WORKERS if split == "train" else TEST_WORKERS
        seeker, recommender = rng.sample(workers, 2)
        r = rng.random()
        all_empty = index == 0 or (index > 6 and r < 0.005)
        recommender_first = index == 1 or (index > 6 and rng.random() < 0.1)
        extra_keys = index == 2 or (index > 6 and rng.random() < 0.02)
        unknown_mention = index == 3 or (index > 6 and rng.random() < 0.02)
        forced = self.showcase_ids if index == 4 else []
        movies = self.pick_movies(max(len(forced), rng.choice([4, 4, 5, 5, 5, 6, 6, 7])), forced)
        form = {str(m): self.labels(1 if rng.random() < 0.5 else 0) for m in movies}
        # Seekers mostly name their movies before the recommender suggests.
        order = sorted(movies, key=lambda m: (form[str(m)]["suggested"], rng.random()))
        turns = self.turns(order, form, recommender_first, unknown_mention)
        messages = self.messages(turns, seeker, recommender, extra_keys)
        mentions = {str(m): self.titles[m] for m in movies}
        initiator_form = form
        respondent_form = self.respondent_form(form) or []  # the release writes an empty form as []
        if all_empty:
            mentions, initiator_form, respondent_form = [], [], []
        elif index == 5 or (index > 6 and r > 0.97):
            initiator_form = []
        elif index == 6 or (index > 6 and 0.91 < r <= 0.97):
            respondent_form = []
        conversation_id = str(self.next_conversation_id)
        self.next_conversation_id += rng.randint(1, 3)
        return {
            "movieMentions": mentions,
            "respondentQuestions": respondent_form,
            "messages": messages,
            "conversationId": conversation_id,
            "respondentWorkerId": recommender,
            "initiatorWorkerId": seeker,
            "initiatorQuestions": initiator_form,
        }

    def turns(
        self, order: list[int], form: dict, recommender_first: bool, unknown_mention: bool
    ) -> list[tuple[str, str]]:
        """(role, text) pairs: greetings, one mention per movie with reactions, filler, goodbyes."""
        rng = self.rng
        genre = rng.choice(GENRES)
        turns = [("R", rng.choice(RECOMMENDER_OPEN))] if recommender_first else []
        turns.append(("S", rng.choice(SEEKER_OPEN).format(g=genre)))
        if not recommender_first:
            turns.append(("R", rng.choice(RECOMMENDER_OPEN)))
        for movie_id in order:
            labels = form[str(movie_id)]
            turns.extend(self.mention_turns(movie_id, labels, genre))
        if unknown_mention:
            missing_id = rng.randint(210_001, 220_000)  # never in the catalogue, so not in movieMentions
            turns.insert(len(turns) - 1, ("R", f"Also @{missing_id} is similar"))
        target = rng.randint(10, 30)
        while len(turns) < target - 2:
            role, filler = ("S", FILLER_SEEKER) if rng.random() < 0.5 else ("R", FILLER_RECOMMENDER)
            turns.append((role, filler[int(rng.random() * len(filler))]))
        turns.append(("S", rng.choice(CLOSE_SEEKER)))
        turns.append(("R", rng.choice(CLOSE_RECOMMENDER)))
        return turns

    def mention_turns(self, movie_id: int, labels: dict[str, int], genre: str) -> list[tuple[str, str]]:
        """The message naming a movie, and sometimes the other side's reaction."""
        rng = self.rng
        if not labels["suggested"]:
            templates = SEEKER_MENTION_BAD if labels["liked"] == 0 else SEEKER_MENTION
            turns = [("S", rng.choice(templates).format(m=movie_id, g=genre))]
            if rng.random() < 0.3:
                turns.append(("R", rng.choice(FILLER_RECOMMENDER)))
            return turns
        reaction = (
            REACT_UNSAID
            if labels["seen"] == 2
            else REACT_UNSEEN
            if labels["seen"] == 0
            else REACT_SEEN_DISLIKED
            if labels["liked"] == 0
            else REACT_SEEN_LIKED
        )
        return [("R", rng.choice(RECOMMENDER_SUGGEST).format(m=movie_id)), ("S", rng.choice(reaction))]

    def messages(self, turns: list[tuple[str, str]], seeker: int, recommender: int, extra_keys: bool) -> list[dict]:
        """Message objects with increasing timeOffset from 0 and increasing unique messageIds."""
        rng = self.rng
        messages = []
        offset = 0
        for role, text in turns:
            message = {
                "timeOffset": offset,
                "text": text,
                "senderWorkerId": seeker if role == "S" else recommender,
                "messageId": self.next_message_id,
            }
            if extra_keys:
                tagged = [word for word in text.split() if word.startswith("@")]
                message["entity"] = [f"<http://dbpedia.org/resource/{tag[1:]}>" for tag in tagged]
                message["movie"] = tagged
                message["emotion"] = rng.choice(EMOTIONS)
            messages.append(message)
            self.next_message_id += 1
            offset += 3 + int(rng.random() * 73)  # 3-75 s; random() is much faster than randint()
        return messages


def _iter_split(generator: _Generator, split: str, n: int) -> Iterator[dict]:
    """The dialogues of one split; the training split starts with the card's conversation 391."""
    start = 0
    if split == "train" and n > 0:
        generator.count(CONVERSATION_391)
        yield copy.deepcopy(CONVERSATION_391)
        start = 1
    for index in range(start, n):
        conversation = generator.conversation(split, index - start)
        generator.count(conversation)
        yield conversation
    if split == "train":
        generator.next_conversation_id += 1000  # the test set was collected later


def generate_conversations(n_train: int, n_test: int, seed: int = 0) -> tuple[list[dict], list[dict]]:
    """The dialogues write_redial_sample writes for these counts, as Python objects (for tests)."""
    generator = _Generator(seed)
    return list(_iter_split(generator, "train", n_train)), list(_iter_split(generator, "test", n_test))


def write_redial_sample(
    out_dir: Path, scale: float = 1, seed: int = 0, *, n_train: int | None = None, n_test: int | None = None
) -> Path:
    """Write out_dir/redial/redial_dataset.zip and return its path.

    Sizes are the card's 10,006 / 1,342 dialogues times `scale`; n_train / n_test override them
    (tests use a handful).
    """
    counts = {
        "train": scaled(TRAIN_DIALOGUES, scale) if n_train is None else n_train,
        "test": scaled(TEST_DIALOGUES, scale) if n_test is None else n_test,
    }
    zip_path = redial_release_file(Path(out_dir))
    generator = _Generator(seed)
    large = counts["train"] + counts["test"] > LARGE_DIALOGUES
    with replacing(zip_path) as partial, zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for split, newline in [("train", "\n"), ("test", "\r\n")]:
            chunks = _jsonl_chunks(_iter_split(generator, split, counts[split]), newline)
            _write_member(archive, f"{split}_data.jsonl", chunks, large)
        _write_member(archive, "movies_with_mentions.csv", [_movies_csv(generator)], False)
    return zip_path


def redial_release_file(out_dir: Path) -> Path:
    """The file `write_redial_sample` writes."""
    return out_dir / "redial" / "redial_dataset.zip"


def _jsonl_chunks(conversations: Iterator[dict], newline: str, batch: int = 2000) -> Iterator[str]:
    """One JSON document a line, in batches of lines."""
    lines = []
    for conversation in conversations:
        lines.append(json.dumps(conversation, ensure_ascii=False))
        if len(lines) == batch:
            yield newline.join(lines) + newline
            lines = []
    if lines:
        yield newline.join(lines) + newline


def _movies_csv(generator: _Generator) -> str:
    """movies_with_mentions.csv: every catalogue movie by id, quoted where needed, CRLF."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(["movieId", "movieName", "nbMentions"])
    for movie_id, title in sorted(generator.catalogue):
        writer.writerow([movie_id, title, generator.mentions[str(movie_id)]])
    return buffer.getvalue()


def _write_member(archive: zipfile.ZipFile, name: str, chunks: Iterator[str] | list[str], large: bool) -> None:
    """Stream text into a zip member with a fixed timestamp, so the zip is byte-for-byte reproducible."""
    info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    with archive.open(info, "w", force_zip64=large) as member:  # zip64 only past 2 GiB, like the release
        for chunk in chunks:
            member.write(chunk.encode("utf-8"))
