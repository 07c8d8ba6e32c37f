"""The embedded DUO sample: real layout, card sizes, real quirks, deterministic."""

import csv
import json
import statistics
from collections import Counter
from pathlib import Path

import pytest

from common.paths import PROJECT_ROOT
from sample_data.duo import write_duo_sample


def load_folder(root: Path, setting: str, language: str) -> list[tuple[Path, dict]]:
    return [(p, json.loads(p.read_text(encoding="utf-8"))) for p in sorted((root / setting / language).glob("*.json"))]


def test_sample_has_the_card_counts_and_file_release_objective_counts(tmp_path: Path) -> None:
    write_duo_sample(tmp_path, scale=1, seed=0)
    root = tmp_path / "duo"
    expected = {
        ("ed", "en"): (157, 3148, 50, 34),
        ("wow", "en"): (157, 3302, 46, 34),
        ("ed", "ja"): (68, 1360, 45, 52),
        ("wow", "ja"): (73, 1533, 45, 52),
    }
    for (setting, language), (dialogues, utterances, objective, participants) in expected.items():
        docs = [d for _, d in load_folder(root, setting, language)]
        assert len(docs) == dialogues
        assert sum(len(d["dialogue"]) for d in docs) == utterances
        assert sum(1 for d in docs if d.get("objective_evaluation")) == objective
        users = {m["user_id"] for d in docs for m in d["dialogue"] if m["speaker"] == "Human"}
        assert len(users) == participants


def test_sample_reproduces_the_real_quirks(tmp_path: Path) -> None:
    write_duo_sample(tmp_path, scale=1, seed=0)
    root = tmp_path / "duo"
    en = load_folder(root, "ed", "en")
    ja_wow = load_folder(root, "wow", "ja")
    assert all(isinstance(d["dialogue_id"], str) and p.stem == d["dialogue_id"] for p, d in en)
    assert all(isinstance(d["dialogue_id"], int) for _, d in ja_wow)
    assert {d["prompt"] for _, d in ja_wow} == {"ent", "neutral", "nonent"}
    assert all("topic" in d and "emotion" not in d and d["dialogue"][0]["speaker"] == "Bot" for _, d in ja_wow)
    assert all("emotion" in d and "episode" in d and "topic" not in d for _, d in en)
    objective_forms = Counter(
        "absent" if "objective_evaluation" not in d else "null" if d["objective_evaluation"] is None else "object"
        for _, d in en
    )
    assert objective_forms["absent"] > 0 and objective_forms["null"] > 0 and objective_forms["object"] == 50
    for _, d in en:
        evaluation = d.get("objective_evaluation")
        if evaluation:
            assert set(evaluation) == {
                "preference",
                "stylistic_similarity",
                "consistency",
                "empathy",
                "preference_scores",
                "stylistic_similarity_scores",
                "consistency_scores",
                "empathy_scores",
            }
            assert all(len(evaluation[f"{m}_scores"]) == 3 for m in ["preference", "empathy"])


@pytest.mark.slow
def test_sample_is_deterministic_for_a_seed_and_scales(tmp_path: Path) -> None:
    write_duo_sample(tmp_path / "a", seed=3)
    write_duo_sample(tmp_path / "b", seed=3)
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*.json"))
    assert files_a == sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("*.json"))
    assert all((tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files_a)
    write_duo_sample(tmp_path / "x3", scale=3, seed=3)
    assert len(list((tmp_path / "x3" / "duo" / "ed" / "en").glob("*.json"))) == 157 * 3
    assert len(list((tmp_path / "x3" / "duo").rglob("*.json"))) == 455 * 3


def card_figures() -> dict[tuple[str, str, str], float]:
    """The DUO card's figures as the build compares them (seeds/published_statistics.csv)."""
    with (PROJECT_ROOT / "seeds" / "published_statistics.csv").open(encoding="utf-8", newline="") as seed:
        return {
            (row["setting"], row["language"], row["statistic"]): float(row["published_value"])
            for row in csv.DictReader(seed)
            if row["dataset"] == "duo"
        }


@pytest.mark.slow
@pytest.mark.parametrize("scale", [1, 2])
def test_sample_scores_and_lengths_have_the_card_figures(tmp_path: Path, scale: int) -> None:
    """Every mean and SD the card publishes, per setting and language, rounds to the card's two
    decimals on the sample (objective: over the dialogues' published means), at any scale."""
    write_duo_sample(tmp_path, scale=scale, seed=5)
    figures = card_figures()
    checked = 0
    for (setting, language, statistic), published in figures.items():
        docs = [d for _, d in load_folder(tmp_path / "duo", setting, language)]
        lengths = [len(d["dialogue"]) for d in docs]
        if statistic in ("dialogue_length_min", "dialogue_length_max"):
            assert (min(lengths) if statistic.endswith("min") else max(lengths)) == published, (
                setting,
                language,
                statistic,
            )
            checked += 1
            continue
        kind, _, rest = statistic.partition("_")
        if kind not in ("subjective", "objective") or not rest.endswith(("_mean", "_sd")):
            continue
        metric, figure = rest.rsplit("_", 1)
        values = (
            [d["subjective_evaluation"][metric] for d in docs]
            if kind == "subjective"
            else [d["objective_evaluation"][metric] for d in docs if d.get("objective_evaluation")]
        )
        observed = statistics.fmean(values) if figure == "mean" else statistics.stdev(values)
        assert abs(observed - published) <= 0.005 + 1e-12, (setting, language, statistic, observed)
        checked += 1
    assert checked == 64 + 8  # 32 subjective and 32 objective figures, shortest and longest of 4 folders


def test_objective_scores_are_three_annotators_whose_mean_the_file_publishes(tmp_path: Path) -> None:
    write_duo_sample(tmp_path, scale=1, seed=0)
    for _, document in load_folder(tmp_path / "duo", "wow", "ja"):
        evaluation = document.get("objective_evaluation")
        if not evaluation:
            continue
        for metric in ("preference", "stylistic_similarity", "consistency", "engagingness"):
            scores = evaluation[f"{metric}_scores"]
            assert len(scores) == 3 and all(score in (1.0, 2.0, 3.0, 4.0, 5.0) for score in scores)
            assert evaluation[metric] == round(sum(scores) / 3, 2)
