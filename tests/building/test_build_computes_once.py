"""Each figure is computed once per input (`agreement_core.memo`): a build reuses the stored rows of
every question, judge and pair of judges whose inputs did not change, and computes the others.

One warehouse (the small sample, every question's Monte Carlo: the default) goes through what users
do, one build after each step; `computed_at` says which rows each build computed. The steps: load
three of the sample's judges; reload an unchanged ReDial release; load one more judge; exclude one DICES 350
rater; change the seed. Beside them, a copy built with `--full-refresh` (what `dwh build --full` runs)
from the same state: the figures the memo kept equal those computed from scratch. The steps whose
subject is not dwh's plan build only the figures' models and what they read."""

import csv
import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from sample_data.judges import write_judges_sample
from tests.helpers import PROJECT_ROOT, BuiltWarehouse, copy_of_project, dbt_folders, query, run_dwh

# each memoized model, with the columns naming a slot: the rows computed together
SLOTS = {
    "int_agreement__group_figures": ["source", "scope", "rating_kind", "question"],
    "int_judges__agreement": ["judge", "source", "scope", "rating_kind", "question"],
    "int_judges__comparison": ["judge_a", "judge_b", "source", "scope", "rating_kind", "question"],
    "int_judges__replacement": ["judge", "source", "scope", "rating_kind", "question"],
}
# the memoized models with no Monte Carlo: another seed computes none of their figures
WITHOUT_MONTE_CARLO = {"int_judges__replacement"}
NEW_JUDGE = "judge_newcomer"
# the sample's judges of DUO alone, left out: the three others judge every source (judge_random) and
# share questions of DICES and ReDial with it, which is what the steps need (pairs of judges, a
# DICES scope); DUO's forty-odd questions would make each judges' build three times as long
DUO_ONLY_JUDGES = {"judge_like_users", "judge_like_annotators"}
# the marts the memoized models feed
MARTS = ["agreement", "judge_agreement", "judge_comparison", "judge_replacement", "judge_replacement_raters"]

Computed = dict[str, dict[tuple, datetime]]  # model -> slot -> when its rows were computed


def computed_at(db_path: Path) -> Computed:
    """When each slot's rows of each memoized model were computed."""
    return {
        model: {
            tuple(row[:-1]): row[-1]
            for row in query(db_path, f"select distinct {', '.join(slot)}, computed_at from intermediate.{model}")
        }
        for model, slot in SLOTS.items()
    }


def recomputed(before: Computed, after: Computed) -> dict[str, set[tuple]]:
    """The slots each model computed in the build between the two (new, or computed again)."""
    return {model: {slot for slot, at in after[model].items() if before[model].get(slot) != at} for model in SLOTS}


@dataclass
class History:
    after: dict[str, Computed]  # step -> when each slot was computed after its build
    outputs: dict[str, str]  # step -> what its build printed
    from_scratch: Path  # the state after the exclusion, built again with --full
    incremental: Path  # the same state as the memo left it


def build(db_path: Path, root: Path, *args: str, project: Path | None = None) -> str:
    """`dwh build` (from a copy of the project when given), which must pass; what it printed."""
    env = {**os.environ, "DWH_DB_PATH": str(db_path), **dbt_folders(root)}
    env.pop("DWH_DEBUG", None)
    completed = subprocess.run(
        [sys.executable, "-m", "dwh.cli", "build", *args],
        cwd=project or PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout[-5000:] + completed.stderr
    return completed.stdout


def newcomer(judges_folder: Path, destination: Path) -> Path:
    """One more judge: judge_random's judgements under another name, in the reverse order."""
    rows = list(csv.DictReader((judges_folder / "judge_random.csv").open(encoding="utf-8")))
    destination.mkdir(parents=True)
    with (destination / f"{NEW_JUDGE}.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({**row, "judge": NEW_JUDGE} for row in reversed(rows))
    return destination


def a_dices_350_rater(db_path: Path) -> str:
    [(rater_id,)] = query(db_path, "select min(rater_id) from raw.dices_350")
    return f"dices:rater:{rater_id}"


@pytest.fixture(scope="module")
def history(small_sample_build: BuiltWarehouse, small_sample_release: Path, tmp_path_factory) -> History:
    root = tmp_path_factory.mktemp("computes-once")
    db_path = small_sample_build.copy_to(root / "db")
    sample = Path(shutil.copytree(small_sample_release, root / "sample"))
    for judge_file in write_judges_sample(sample, seed=0):
        if judge_file.stem in DUO_ONLY_JUDGES:
            judge_file.unlink()
    after, outputs = {"built": computed_at(db_path)}, {}

    # what the steps whose subject is not dwh's plan build: the memoized models, the marts they feed
    # and what they read, without data tests (the plain builds run those)
    figures_only = ["--select", *(f"+{mart}" for mart in MARTS), "--indirect-selection", "empty"]

    def step(name: str, *build_args: str, project: Path | None = None) -> None:
        outputs[name] = build(db_path, root / "dbt", *build_args, project=project)
        after[name] = computed_at(db_path)

    run_dwh(["ingest", "--judges", str(sample / "judges")], db_path, check=True)
    step("judges")
    run_dwh(["ingest", "--redial", str(sample / "redial" / "redial_dataset.zip")], db_path, check=True)
    step("same redial")
    run_dwh(["ingest", "--judges", str(newcomer(sample / "judges", root / "newcomer"))], db_path, check=True)
    step("one more judge")
    project = copy_of_project(root / "project")
    excluded = a_dices_350_rater(db_path)
    (project / "seeds" / "excluded_raters.csv").write_text(f"rater_key,reason\n{excluded},a test\n", encoding="utf-8")
    step("one rater excluded", *figures_only, project=project)
    (root / "scratch").mkdir()
    from_scratch = Path(shutil.copyfile(db_path, root / "scratch" / "warehouse.duckdb"))
    incremental = Path(shutil.copyfile(db_path, root / "incremental.duckdb"))
    # what `dwh build --full` runs (tests/building/test_build_plan_states.py), for the figures' models
    outputs["from scratch"] = build(
        from_scratch, root / "dbt-scratch", *figures_only, "--full-refresh", project=project
    )
    step("another seed", *figures_only, "--vars", json.dumps({"agreement_seed": 7}), project=project)
    return History(after, outputs, from_scratch, incremental)


def test_loading_judges_computes_their_figures_and_no_question_again(history: History) -> None:
    computed = recomputed(history.after["built"], history.after["judges"])
    assert computed["int_agreement__group_figures"] == set()
    assert len(computed["int_judges__agreement"]) >= 10
    assert computed["int_judges__agreement"] == set(history.after["judges"]["int_judges__agreement"])


def test_reloading_an_unchanged_release_computes_nothing(history: History) -> None:
    assert "incremental build: only the load bookkeeping" in history.outputs["same redial"]
    assert recomputed(history.after["judges"], history.after["same redial"]) == {model: set() for model in SLOTS}


def test_loading_a_judge_computes_that_judges_figures_only(history: History) -> None:
    before, after = history.after["same redial"], history.after["one more judge"]
    computed = recomputed(before, after)
    assert computed["int_agreement__group_figures"] == set()
    of_newcomer = {slot for slot in after["int_judges__agreement"] if slot[0] == NEW_JUDGE}
    assert of_newcomer and computed["int_judges__agreement"] == of_newcomer
    with_newcomer = {slot for slot in after["int_judges__comparison"] if NEW_JUDGE in slot[:2]}
    assert with_newcomer and computed["int_judges__comparison"] == with_newcomer
    replaced_by_newcomer = {slot for slot in after["int_judges__replacement"] if slot[0] == NEW_JUDGE}
    assert replaced_by_newcomer and computed["int_judges__replacement"] == replaced_by_newcomer


def test_excluding_a_dices_350_rater_computes_that_scopes_questions_only(history: History) -> None:
    before, after = history.after["one more judge"], history.after["one rater excluded"]
    computed = recomputed(before, after)
    questions = computed["int_agreement__group_figures"]
    in_scope = {slot for slot in after["int_agreement__group_figures"] if slot[:2] == ("dices", "350")}
    assert questions == in_scope and len(in_scope) >= 10
    # the judges' references of that scope changed too: their figures there, nothing elsewhere
    for model in ("int_judges__agreement", "int_judges__comparison", "int_judges__replacement"):
        scopes = {slot[-4:-2] for slot in computed[model]}
        assert scopes == {("dices", "350")}, model


def test_another_seed_computes_every_figure(history: History) -> None:
    before, after = history.after["one rater excluded"], history.after["another seed"]
    computed = recomputed(before, after)
    assert all(
        computed[model] == set(after[model]) and computed[model] for model in SLOTS if model not in WITHOUT_MONTE_CARLO
    )
    assert all(computed[model] == set() for model in WITHOUT_MONTE_CARLO)


def rows_of(db_path: Path, table: str) -> pd.DataFrame:
    """Every row of the table but when it was computed, sorted by every column."""
    with duckdb.connect(str(db_path), read_only=True) as con:
        rows = con.sql(f"select * from {table}").df().drop(columns="computed_at", errors="ignore")
    return rows.sort_values(list(rows.columns)).reset_index(drop=True)


@pytest.mark.parametrize("table", [*(f"intermediate.{model}" for model in SLOTS), *(f"marts.{mart}" for mart in MARTS)])
def test_the_figures_kept_equal_those_computed_from_scratch(history: History, table: str) -> None:
    """The memoized models' rows to the last bit; the marts' doubles to 1e-9 (their SQL averages,
    e.g. mean_negentropy, add in the order DuckDB's threads finish, which varies between builds)."""
    kept, scratch = rows_of(history.incremental, table), rows_of(history.from_scratch, table)
    assert len(kept) > 0
    exact = table.startswith("intermediate.")
    pd.testing.assert_frame_equal(kept, scratch, check_exact=exact, rtol=1e-9, atol=1e-12, obj=table)
