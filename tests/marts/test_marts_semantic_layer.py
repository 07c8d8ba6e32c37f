"""The semantic layer: `mf validate-configs` passes on a built warehouse, and `mf query` gives the
numbers plain SQL on the marts gives (the scale-1 sample of all three datasets)."""

import csv
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import PROJECT_ROOT, BuiltWarehouse, query

pytestmark = pytest.mark.slow  # a built warehouse

MF = PROJECT_ROOT / ".venv" / "bin" / "mf"


@pytest.fixture(scope="module")
def warehouse(sample_build: BuiltWarehouse, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the session's scale-1 sample build (`mf` opens the warehouse it queries read-write), with
    the semantic manifest its `dwh build` wrote where `mf` reads it (target/, whatever DBT_TARGET_PATH says)."""
    (PROJECT_ROOT / "target").mkdir(exist_ok=True)
    shutil.copyfile(sample_build.target / "semantic_manifest.json", PROJECT_ROOT / "target" / "semantic_manifest.json")
    return sample_build.copy_to(tmp_path_factory.mktemp("semantic"))


def mf(args: list[str], db_path: Path, target: Path) -> subprocess.CompletedProcess:
    """`mf …` as a user types it in the project root: no profile flag, the warehouse from DWH_DB_PATH."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DBT_")}
    env |= {"DWH_DB_PATH": str(db_path), "DBT_TARGET_PATH": str(target)}
    return subprocess.run([str(MF), *args], cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, check=False)


def mf_query(args: list[str], db_path: Path, tmp_path: Path) -> list[dict[str, str]]:
    out = tmp_path / "query.csv"
    ran = mf(["query", *args, "--csv", str(out)], db_path, tmp_path / "target")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    with out.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_mf_validate_configs_passes_against_the_warehouse(warehouse: Path, tmp_path: Path) -> None:
    validated = mf(["validate-configs"], warehouse, tmp_path / "target")
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "Successfully validated the semantics of built manifest (ERRORS: 0" in validated.stdout
    assert "Successfully validated metrics against data warehouse (ERRORS: 0" in validated.stdout


def test_mean_score_and_ratings_by_language_and_kind_match_sql(warehouse: Path, tmp_path: Path) -> None:
    rows = mf_query(
        [
            "--metrics",
            "mean_score,ratings",
            "--group-by",
            "dialogue__language,rating__rating_kind",
            "--where",
            "{{ Dimension('rating__source') }} = 'duo'",
        ],
        warehouse,
        tmp_path,
    )
    from_mf = {
        (row["dialogue__language"], row["rating__rating_kind"]): (float(row["mean_score"]), int(row["ratings"]))
        for row in rows
    }
    from_sql = {
        (language, kind): (mean, n)
        for language, kind, mean, n in query(
            warehouse,
            """
        select dialogues.language, ratings.rating_kind, avg(ratings.value_numeric), count(*)
        from marts.ratings inner join marts.dialogues using (dialogue_key)
        where ratings.source = 'duo' group by all""",
        )
    }
    assert (
        set(from_mf)
        == set(from_sql)
        == {("en", "subjective"), ("en", "objective"), ("ja", "subjective"), ("ja", "objective")}
    )
    for key, (mean, n) in from_sql.items():
        assert from_mf[key][1] == n
        assert from_mf[key][0] == pytest.approx(mean, abs=1e-12)


def test_yes_share_and_raters_per_item_by_rater_gender_match_sql(warehouse: Path, tmp_path: Path) -> None:
    rows = mf_query(
        [
            "--metrics",
            "yes_share,raters_per_item",
            "--group-by",
            "rater__gender,dialogue__dataset_config",
            "--where",
            "{{ Dimension('rating__question') }} = 'Q_overall'",
        ],
        warehouse,
        tmp_path,
    )
    from_mf = {
        (row["rater__gender"], row["dialogue__dataset_config"]): (
            float(row["yes_share"]),
            float(row["raters_per_item"]),
        )
        for row in rows
    }
    from_sql = {
        (gender, config): (share, per_item)
        for gender, config, share, per_item in query(
            warehouse,
            """
        select raters.gender, dialogues.dataset_config,
            count(*) filter (where ratings.value_label = 'Yes') / count(ratings.value_label),
            count(distinct ratings.rater_key || ' ' || ratings.dialogue_key) / count(distinct ratings.dialogue_key)
        from marts.ratings
        inner join marts.raters on ratings.rater_key = raters.rater_key
        inner join marts.dialogues on ratings.dialogue_key = dialogues.dialogue_key
        where ratings.question = 'Q_overall' group by all""",
        )
    }
    assert len(from_sql) >= 4 and set(from_mf) == set(from_sql)
    for key, (share, per_item) in from_sql.items():
        assert from_mf[key][0] == pytest.approx(share, abs=1e-12)
        assert from_mf[key][1] == pytest.approx(per_item, abs=1e-12)
    # every DICES-350 rater rates every item: the raters per item of the genders add up to 123
    assert sum(per_item for (_, config), (_, per_item) in from_mf.items() if config == "350") == pytest.approx(123)
