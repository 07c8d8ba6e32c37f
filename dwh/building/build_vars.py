"""The dbt vars of a build, checked before anything is locked or copied: the project's defaults
(dbt_project.yml) with `--vars` over them, read as dbt reads them (YAML). A var of the agreement
figures that cannot be used is one line naming it and what to give, not a traceback from dbt."""

import csv
from pathlib import Path

import duckdb
import yaml

from agreement_core.settings import (
    VARS,
    MonteCarloSettings,
    SettingsError,
    alt_test_epsilon,
    alt_test_min_units,
    dataset_alt_test_epsilon,
)
from common.database import connect_read_only
from common.errors import DwhError
from common.paths import PROJECT_ROOT


def given_vars(dbt_args: list[str]) -> dict:
    """The vars `--vars` gives (the last one given, as dbt takes it), or none."""
    given: object = {}
    for position, arg in enumerate(dbt_args):
        if arg == "--vars" and position + 1 < len(dbt_args):
            given = _parsed(dbt_args[position + 1])
        elif arg.startswith("--vars="):
            given = _parsed(arg.split("=", 1)[1])
    if not isinstance(given, dict):
        raise DwhError(f"--vars: {given!r} is not a mapping of var names to values, e.g. '{{agreement_seed: 7}}'")
    return given


def _parsed(text: str) -> object:
    try:
        return yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        first_line = str(error).splitlines()[0]
        raise DwhError(f"--vars: {text!r} is not YAML ({first_line}); e.g. '{{agreement_seed: 7}}'") from None


def project_vars(root: Path = PROJECT_ROOT) -> dict:
    return yaml.safe_load((root / "dbt_project.yml").read_text())["vars"]


def seeded_questions(root: Path = PROJECT_ROOT) -> list[tuple[str, str]]:
    with (root / "seeds" / "judgement_questions.csv").open(newline="") as seed:
        return [(row["source"], row["question"]) for row in csv.DictReader(seed)]


def dataset_questions(db_path: Path | None) -> list[tuple[str, str]]:
    """The (dataset, question) of every dataset loaded in the warehouse (`dwh ingest --dataset`);
    none where there is no warehouse or it cannot be read yet (the build says why, after this)."""
    if db_path is None or not db_path.is_file():
        return []
    try:
        con = connect_read_only(db_path)
    except Exception:  # noqa: BLE001 - any warehouse the build refuses, it refuses with its own line
        return []
    try:
        return con.execute("select dataset, question from raw.dataset_questions").fetchall()
    except duckdb.Error:
        return []
    finally:
        con.close()


def refuse_unusable_dataset_epsilons(db_path: Path | None) -> None:
    """One line naming a loaded dataset's dataset.yml whose `alt_test_epsilon` the replacement test
    cannot use (a dataset loaded before `dwh ingest` checked it)."""
    if db_path is None or not db_path.is_file():
        return
    try:
        con = connect_read_only(db_path)
    except Exception:  # noqa: BLE001 - any warehouse the build refuses, it refuses with its own line
        return
    try:
        manifests = con.execute("select folder, manifest_text from raw.dataset_manifests order by dataset").fetchall()
    except duckdb.Error:
        return
    finally:
        con.close()
    for folder, text in manifests:
        try:
            dataset_alt_test_epsilon(text, f"{folder}/dataset.yml")
        except SettingsError as error:
            raise DwhError(f"{error}; fix it and load the dataset again (dwh ingest --dataset {folder})") from None


def checked_agreement_settings(dbt_args: list[str], db_path: Path | None = None) -> MonteCarloSettings:
    """The build's Monte Carlo settings (the project's vars, `--vars` over them). One line instead for
    an agreement var dbt would take but the figures cannot use: a seed below 0, draws below 1, not a
    whole number, or a question pattern that matches no question of the seed nor of a dataset loaded
    in the warehouse at `db_path`."""
    values = {**project_vars(), **given_vars(dbt_args)}
    try:
        settings = MonteCarloSettings.from_vars({name: values.get(name) for name in VARS})
        alt_test_epsilon(values.get("alt_test_epsilon"), "var alt_test_epsilon")
        alt_test_min_units(values.get("alt_test_min_units"))
    except SettingsError as error:
        raise DwhError(f"{error}; give it with --vars or in dbt_project.yml") from None
    refuse_unusable_dataset_epsilons(db_path)
    unmatched = settings.unmatched(seeded_questions() + dataset_questions(db_path))
    if unmatched:
        raise DwhError(
            f"var agreement_monte_carlo_questions: {', '.join(map(repr, unmatched))} matches no question of "
            "seeds/judgement_questions.csv nor of a loaded dataset ('<source>/<scope>/<question>', names as in "
            "marts.ratings.question, case counts); fix the pattern or use ['*']"
        )
    return settings
