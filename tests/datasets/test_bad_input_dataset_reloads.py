"""Reloading a dataset (`dwh ingest --dataset` of a name the warehouse holds), as the contract answers
it (issue 63, case 4): every reload names what it replaces (title, folder, counts); a namesake from
another folder with another title is another study, refused unless `--replace` is given; a reload
whose judgements files land no row would empty the dataset, and is refused without `--replace` too
(with it, the ingest says it emptied the dataset)."""

from pathlib import Path

import pytest

from tests.bad_input import checksum, the_one_error
from tests.dataset_folders import MANIFEST, write_dataset
from tests.helpers import query, run_dwh_in_this_process

TITLE = "A small chatbot study"
HELD = "(12 judgement(s), 5 rater(s), 3 unit(s))"


def ingest(db_path: Path, folder: Path, *flags: str):
    return run_dwh_in_this_process(["ingest", "--dataset", str(folder), *flags], db_path)


def titled(title: str) -> str:
    return MANIFEST.format(name="chatbot_study").replace(TITLE, title)


def judgement_counts(db_path: Path) -> list[tuple]:
    return query(db_path, "select dataset, count(*) from raw.dataset_judgements group by 1 order by 1")


@pytest.fixture
def loaded(tmp_path: Path) -> tuple[Path, Path]:
    """A warehouse holding the chatbot study (12 judgements, 2 missing values) from tmp_path/study."""
    db_path, folder = tmp_path / "warehouse.duckdb", write_dataset(tmp_path / "study")
    assert ingest(db_path, folder).returncode == 0
    return db_path, folder


@pytest.mark.parametrize(
    ("other_folder", "title"),
    [(False, TITLE), (False, "A renamed study"), (True, TITLE)],
    ids=["same-folder", "same-folder-new-title", "moved-folder-same-title"],
)
def test_a_reload_names_the_dataset_it_replaces_with_title_folder_and_counts(
    tmp_path: Path, loaded: tuple[Path, Path], other_folder: bool, title: str
) -> None:
    db_path, folder = loaded
    target = tmp_path / "moved" if other_folder else folder
    write_dataset(target, judgements=[("u1", "r1", "safe", "no", "1")], manifest=titled(title))

    completed = ingest(db_path, target)

    assert completed.returncode == 0, completed.stderr
    assert (
        f"dataset chatbot_study: replaces the dataset {TITLE!r} from {folder} {HELD}" in completed.stdout.splitlines()
    )
    assert judgement_counts(db_path) == [("chatbot_study", 1)]
    assert query(db_path, "select title, folder from raw.dataset_manifests") == [(title, str(target))]


def test_a_first_load_replaces_nothing_and_says_nothing_of_it(tmp_path: Path) -> None:
    completed = ingest(tmp_path / "warehouse.duckdb", write_dataset(tmp_path / "study"))
    assert completed.returncode == 0, completed.stderr
    assert "replaces the dataset" not in completed.stdout


@pytest.mark.parametrize("file_name", ["judgements.csv", "judgements.parquet"])
def test_a_namesake_from_another_folder_with_another_title_is_refused_without_replace(
    tmp_path: Path, loaded: tuple[Path, Path], file_name: str
) -> None:
    db_path, folder = loaded
    before = checksum(db_path)
    other = write_dataset(
        tmp_path / "other",
        judgements=[("u7", "r9", "safe", "yes", "1")],
        judgements_file=file_name,
        manifest=titled("Another team's study"),
    )

    refused = ingest(db_path, other)

    assert the_one_error(refused) == (
        f"dwh: error: {other}/dataset.yml: name 'chatbot_study' is the dataset {TITLE!r} from {folder} {HELD}, and "
        'this folder is another, titled "Another team\'s study": loading it would replace that study; give '
        "--replace to replace it, or another name in dataset.yml; nothing was loaded"
    )
    assert checksum(db_path) == before

    replaced = ingest(db_path, other, "--replace")

    assert replaced.returncode == 0, replaced.stderr
    assert f"dataset chatbot_study: replaces the dataset {TITLE!r} from {folder} {HELD}" in replaced.stdout
    assert query(db_path, "select unit_id, rater_id from raw.dataset_judgements") == [("u7", "r9")]


def test_a_namesake_refused_beside_a_good_dataset_loads_neither(tmp_path: Path, loaded: tuple[Path, Path]) -> None:
    db_path, _ = loaded
    before = checksum(db_path)
    good = write_dataset(tmp_path / "good", name="good_study")
    other = write_dataset(tmp_path / "other", manifest=titled("Another team's study"))
    completed = run_dwh_in_this_process(["ingest", "--dataset", str(good), "--dataset", str(other)], db_path)
    assert "would replace that study" in the_one_error(completed)
    assert checksum(db_path) == before


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        ([], "holds no row (only a header)"),
        ([("u1", "r1", "wit", "yes", "1"), ("", "r1", "safe", "yes", "1")], "holds 2 row(s), all rejected"),
    ],
    ids=["header-only", "every-row-rejected"],
)
def test_a_reload_that_would_empty_the_dataset_is_refused_without_replace(
    loaded: tuple[Path, Path], rows: list[tuple[str, ...]], why: str
) -> None:
    db_path, folder = loaded
    before = checksum(db_path)
    write_dataset(folder, judgements=rows)
    assert (folder / "judgements.csv").read_text().startswith("unit_id,rater_id,question,value,round")

    refused = ingest(db_path, folder)

    assert the_one_error(refused) == (
        f"dwh: error: {folder}/judgements.csv: {why}: loading it would empty the dataset 'chatbot_study', "
        f"{TITLE!r} from {folder} {HELD}; give --replace to empty it; nothing was loaded"
    )
    assert checksum(db_path) == before

    emptied = ingest(db_path, folder, "--replace")

    assert emptied.returncode == 0, emptied.stderr
    assert (
        "dataset chatbot_study: emptied (--replace): its files land no judgement; "
        f"it was {TITLE!r} from {folder} {HELD}"
    ) in emptied.stdout.splitlines()
    assert judgement_counts(db_path) == []
