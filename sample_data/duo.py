"""A synthetic DUO release in the real layout, with the real files' quirks.

At scale 1 it has the card's counts: 157 / 157 / 68 / 73 dialogues, 3,148 / 3,302 / 1,360 /
1,533 utterances, 34 / 34 / 52 / 52 participants, 30 / 28 emotions, 133 / 73 topics, and the
file release's 50 / 46 / 45 / 45 objectively evaluated dialogues. At every scale it has the
card's shortest and longest dialogue and, per setting and language, the card's mean and SD of
every subjective and objective score (to the card's two decimals): integer scores are drawn to
those figures, which are read from the project's seed of published statistics. Quirks reproduced: en
`dialogue_id` a zero-padded string, ja an integer; WoW files carry `topic`, ED files `emotion`
and `episode`; ja prompts ent / neutral / nonent; no `objective_evaluation` key on most
unevaluated dialogues and an explicit JSON null on some; WoW dialogues start with the Bot;
4-space pretty-printed UTF-8 JSON without a final newline.
"""

import csv
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from common.outputs import replacing
from common.paths import PROJECT_ROOT
from sample_data.scaling import scaled

METRICS = {
    "ed": ["preference", "stylistic_similarity", "consistency", "empathy"],
    "wow": ["preference", "stylistic_similarity", "consistency", "engagingness"],
}
PROMPTS = {"en": ["aligned", "neutral", "not_aligned"], "ja": ["ent", "neutral", "nonent"]}
MODELS = ["gpt-4o", "Llama-3.1-70B-Instruct"]


@dataclass(frozen=True)
class Folder:
    """One `<setting>/<language>` folder of the release and its card figures at scale 1."""

    setting: str
    language: str
    first_id: int
    dialogues: int
    utterances: int
    objective: int
    participants: int
    labels: int  # unique emotions (ED) or topics (WoW)


FOLDERS = [
    Folder("ed", "en", 0, 157, 3148, 50, 34, 30),
    Folder("wow", "en", 1000, 157, 3302, 46, 34, 133),
    Folder("ed", "ja", 2000, 68, 1360, 45, 52, 28),
    Folder("wow", "ja", 3000, 73, 1533, 45, 52, 73),
]
PUBLISHED_STATISTICS = PROJECT_ROOT / "seeds" / "published_statistics.csv"
SUBJECTIVE_SCORES = [1, 2, 3, 4, 5]
# an objective figure is the per-dialogue mean of three annotators' 1–5 scores, rounded as the files have it
ANNOTATOR_SCORE_SUMS = list(range(3, 16))
# Users shared by both settings of a language (the release's participant registry overlaps).
SHARED_PARTICIPANTS = {"en": 29, "ja": 25}

EN_EMOTIONS = [
    "Excited",
    "Prepared",
    "Proud",
    "Grateful",
    "Lonely",
    "Afraid",
    "Angry",
    "Annoyed",
    "Anticipating",
    "Anxious",
    "Apprehensive",
    "Ashamed",
    "Caring",
    "Confident",
    "Content",
    "Devastated",
    "Disappointed",
    "Disgusted",
    "Embarrassed",
    "Faithful",
    "Furious",
    "Guilty",
    "Hopeful",
    "Impressed",
    "Jealous",
    "Joyful",
    "Nostalgic",
    "Sad",
    "Sentimental",
    "Surprised",
    "Terrified",
    "Trusting",
]
EN_LINES = [
    "I have been thinking about {x} a lot lately.",
    "That sounds really interesting!",
    "How did that make you feel?",
    "Honestly, I did not expect it to go so well.",
    "<name> told me the same thing about {x}.",
    "Did you know that {x} has a long history?",
    "I would love to learn more about {x}.",
    "That's great to hear.",
]
JA_LINES = [
    "最近{x}についてよく考えています。",
    "それは素晴らしいですね！",
    "どんな気持ちでしたか？",
    "正直、こんなにうまくいくとは思いませんでした。",
    "<name>さんも{x}について同じことを言っていました。",
    "{x}には長い歴史があるそうですね。",
    "もっと{x}について知りたいです。",
]


def write_duo_sample(out_dir: Path, scale: float = 1, seed: int = 0) -> list[Path]:
    """Write `out_dir/duo/{ed,wow}/{en,ja}/<id>.json`; returns the folders written."""
    rng = random.Random(seed)
    written = []
    for folder in FOLDERS:
        target = out_dir / "duo" / folder.setting / folder.language
        target.mkdir(parents=True, exist_ok=True)
        for dialogue in folder_dialogues(folder, scale, rng):
            _write_json(_release_file(out_dir, folder, dialogue["dialogue_id"]), dialogue)
        written.append(target)
    return written


def duo_release_files(out_dir: Path, scale: float = 1) -> list[Path]:
    """The files `write_duo_sample` writes at this scale (whatever the seed), before it writes them."""
    return [
        _release_file(out_dir, folder, _dialogue_id(folder, scale, index))
        for folder in FOLDERS
        for index in range(scaled(folder.dialogues, scale, minimum=2))
    ]


def _release_file(out_dir: Path, folder: Folder, dialogue_id: str | int) -> Path:
    return out_dir / "duo" / folder.setting / folder.language / f"{_file_stem(folder, dialogue_id)}.json"


def folder_dialogues(folder: Folder, scale: float, rng: random.Random) -> list[dict]:
    """All dialogues of one folder, deterministic for the generator's state."""
    count = scaled(folder.dialogues, scale, minimum=2)
    lengths = _dialogue_lengths(folder, scale, rng)
    users = _folder_users(folder, scale)
    evaluated_indexes = rng.sample(range(count), scaled(folder.objective, scale, minimum=2))
    subjective = {
        m: _drawn_to_card(folder, f"subjective_{m}", SUBJECTIVE_SCORES, float, count, rng)
        for m in METRICS[folder.setting]
    }
    objective_sums = {
        m: _drawn_to_card(folder, f"objective_{m}", ANNOTATOR_SCORE_SUMS, _published_mean, len(evaluated_indexes), rng)
        for m in METRICS[folder.setting]
    }
    objective_of = {
        index: {m: sums[i] for m, sums in objective_sums.items()} for i, index in enumerate(evaluated_indexes)
    }
    labels = _labels(folder, scale)
    dialogues = []
    for index in range(count):
        dialogue_id = _dialogue_id(folder, scale, index)
        user = users[index % len(users)]
        dialogue = _dialogue(folder, dialogue_id, labels[index % len(labels)], user, lengths[index], rng)
        if index in objective_of:
            dialogue["objective_evaluation"] = _objective(objective_of[index], rng)
        elif index % 7 == 3:
            dialogue["objective_evaluation"] = None  # the documented form; most files omit the key
        dialogue["subjective_evaluation"] = {m: float(scores[index]) for m, scores in subjective.items()}
        dialogue["dialogue"] = _messages(
            folder, user, dialogue["system_id"], lengths[index], labels[index % len(labels)], rng
        )
        del dialogue["system_id"]
        dialogues.append(dialogue)
    return dialogues


def _dialogue_lengths(folder: Folder, scale: float, rng: random.Random) -> list[int]:
    """Lengths summing to the card's utterance count times scale, its shortest and longest included."""
    count = scaled(folder.dialogues, scale, minimum=2)
    shortest = int(card_figure(folder, "dialogue_length_min"))
    longest = int(card_figure(folder, "dialogue_length_max"))
    lengths = [shortest] * count
    pinned_short, pinned_long = rng.sample(range(count), 2)
    lengths[pinned_long] = longest
    growable = [i for i in range(count) if i not in (pinned_short, pinned_long)]
    # a fractional scale can ask for more utterances than the shortened dialogues can hold
    extra = min(scaled(folder.utterances, scale) - sum(lengths), len(growable) * (longest - shortest))
    while extra > 0:
        index = rng.choice(growable)
        if lengths[index] < longest:
            lengths[index] += 1
            extra -= 1
    return lengths


@cache
def _published_statistics() -> dict[tuple[str, str, str], float]:
    """(language, setting, statistic) → the DUO card's figure, from the seed that the build compares with."""
    with PUBLISHED_STATISTICS.open(encoding="utf-8", newline="") as seed:
        return {
            (row["language"], row["setting"], row["statistic"]): float(row["published_value"])
            for row in csv.DictReader(seed)
            if row["dataset"] == "duo"
        }


def card_figure(folder: Folder, statistic: str) -> float:
    return _published_statistics()[(folder.language, folder.setting, statistic)]


def _drawn_to_card(
    folder: Folder, figure: str, choices: list[int], value_of: Callable[[int], float], count: int, rng: random.Random
) -> list[int]:
    """`count` choices in random order whose values have the card's `<figure>_mean` and `<figure>_sd`.

    Subjective figures are over the users' 1–5 scores; objective ones over the evaluated dialogues'
    published means, so the choices there are the sums of three annotators' scores."""
    mean, sd = card_figure(folder, f"{figure}_mean"), card_figure(folder, f"{figure}_sd")
    drawn = None
    # the card's two decimals at every whole scale; the few dialogues of a fractional scale may
    # hold no such draw, and then come as close as their number allows
    for within in (0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0):
        try:
            drawn = fit_counts(choices, value_of, count, mean, sd, within)
            break
        except ValueError:
            continue
    if drawn is None:
        raise ValueError(f"no {count} scores come near mean {mean} and SD {sd}")
    rng.shuffle(drawn)
    return drawn


def _published_mean(score_sum: int) -> float:
    return round(score_sum / 3, 2)


def fit_counts(
    choices: list[int], value_of: Callable[[int], float], count: int, mean: float, sd: float, within: float = 0.005
) -> list[int]:
    """`count` choices whose values have this mean and sample SD to `within` (the card rounds to 2 decimals).

    Starts with every choice at the one nearest the mean, then moves one choice at a time to where
    it brings the two figures closest, until both are within reach; deterministic."""
    values = [value_of(choice) for choice in choices]
    counts = [0] * len(choices)
    counts[min(range(len(choices)), key=lambda i: abs(values[i] - mean))] = count

    def misses(trial: list[int]) -> tuple[float, float]:
        total = sum(n * v for n, v in zip(trial, values))
        squares = sum(n * v * v for n, v in zip(trial, values))
        drawn_mean = total / count
        drawn_sd = max((squares - count * drawn_mean * drawn_mean) / (count - 1), 0.0) ** 0.5
        return abs(drawn_mean - mean), abs(drawn_sd - sd)

    def moved(trial: list[int]) -> list[list[int]]:
        """Every count vector one choice away from `trial`."""
        return [
            [n - (k == i) + (k == j) for k, n in enumerate(trial)]
            for i in range(len(choices))
            if trial[i]
            for j in range(len(choices))
            if j != i
        ]

    while max(misses(counts)) > within:
        best = min(moved(counts), key=lambda trial: sum(misses(trial)))
        if sum(misses(best)) >= sum(misses(counts)):  # stuck one move away: look two moves ahead
            best = min((two for one in moved(counts) for two in moved(one)), key=lambda trial: sum(misses(trial)))
        if sum(misses(best)) >= sum(misses(counts)):
            raise ValueError(f"no {count} scores have mean {mean} and SD {sd}")
        counts = best
    return [choice for choice, n in zip(choices, counts) for _ in range(n)]


def _folder_users(folder: Folder, scale: float) -> list[str]:
    """The participant ids of one setting: the shared ones plus this setting's own."""
    shared = scaled(SHARED_PARTICIPANTS[folder.language], scale)
    own = max(scaled(folder.participants, scale) - shared, 0)
    offset = shared if folder.setting == "ed" else shared + own
    return [f"{i:04d}" for i in range(shared)] + [f"{offset + i:04d}" for i in range(own)]


def _labels(folder: Folder, scale: float) -> list[str]:
    if folder.setting == "ed":
        return EN_EMOTIONS[: folder.labels]
    return [
        f"Topic {i:03d}" if folder.language == "en" else f"話題{i:03d}" for i in range(scaled(folder.labels, scale))
    ]


def _dialogue_id(folder: Folder, scale: float, index: int) -> str | int:
    """en ids are zero-padded strings, ja ids integers; blocks of 1000 grow with the scale."""
    block = 1000 * ((scaled(folder.dialogues, scale, minimum=2) + 999) // 1000)
    number = folder.first_id // 1000 * block + index
    return f"{number:04d}" if folder.language == "en" else number


def _file_stem(folder: Folder, dialogue_id: str | int) -> str:
    return dialogue_id if isinstance(dialogue_id, str) else f"{dialogue_id:04d}"


def _dialogue(folder: Folder, dialogue_id: str | int, label: str, user: str, length: int, rng: random.Random) -> dict:
    model = rng.choice(MODELS)
    prompt_index = rng.randrange(3)
    system_offset = 0 if folder.setting == "ed" else 6
    dialogue: dict = {
        "dialogue_id": dialogue_id,
        "setting": folder.setting,
        "model": model,
        "prompt": PROMPTS[folder.language][prompt_index],
    }
    if folder.setting == "ed":
        dialogue["emotion"] = label
        dialogue["episode"] = _line(folder.language, label.lower(), rng)
    else:
        dialogue["topic"] = label
    dialogue["system_id"] = f"{system_offset + MODELS.index(model) * 3 + prompt_index:04d}"
    return dialogue


def _objective(score_sums: dict[str, int], rng: random.Random) -> dict:
    """Published means (rounded to 2 decimals) first, then the three annotators' score lists."""
    scores = {m: _three_scores(total, rng) for m, total in score_sums.items()}
    evaluation: dict = {m: _published_mean(total) for m, total in score_sums.items()}
    evaluation.update({f"{m}_scores": s for m, s in scores.items()})
    return evaluation


def _three_scores(total: int, rng: random.Random) -> list[float]:
    """Three 1–5 scores that sum to `total`, drawn at random among those that do."""
    splits = [(a, b, total - a - b) for a in range(1, 6) for b in range(1, 6) if 1 <= total - a - b <= 5]
    return [float(score) for score in rng.choice(splits)]


def _messages(folder: Folder, user: str, system_id: str, length: int, label: str, rng: random.Random) -> list[dict]:
    bot_first = folder.setting == "wow"
    messages = []
    for message_id in range(length):
        is_bot = (message_id % 2 == 0) == bot_first
        speaker = {"system_id": system_id, "speaker": "Bot"} if is_bot else {"user_id": user, "speaker": "Human"}
        messages.append({"message_id": message_id, **speaker, "message": _line(folder.language, label, rng)})
    return messages


def _line(language: str, subject: str, rng: random.Random) -> str:
    return rng.choice(EN_LINES if language == "en" else JA_LINES).format(x=subject)


def _write_json(path: Path, document: dict) -> None:
    with replacing(path) as partial:
        partial.write_text(json.dumps(document, ensure_ascii=False, indent=4), encoding="utf-8")
