"""Shared fixtures: the real DUO release beside the project, and the warehouses built once per test run.

Each warehouse below is ingested and built once per test run, the first time a test asks for it, and
shared by every test after: read it (read-only), or work on `build.copy_to(tmp_path)` when a test
changes it. `make test` runs the tests in two pytest-xdist workers (one per core); the first worker
to ask for a warehouse builds it and the other waits for it and shares it.
A test builds a warehouse of its own only where the build itself is what it tests.
Helper functions are in tests/helpers.py."""

import fcntl
import json
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import Phase, settings

from sample_data.dices import write_dices_sample
from sample_data.duo import write_duo_sample
from sample_data.redial import generate_conversations, write_redial_sample
from tests.bad_input import duo_release, ingest_args, redial_folder
from tests.dataset_folders import rated_study
from tests.helpers import (
    REAL_DUO,
    SAMPLE_BUILD_MEMORY_LIMIT,
    BuiltWarehouse,
    dbt_folders,
    ingest_and_build,
    parse_project,
    run_dwh,
    sample_ingest_args,
)

Built = TypeVar("Built")

# Property tests run derandomized by default (`make test`, CI): the same examples on every run, a
# bounded number of them and no shrinking, so that the suite passes or fails the same way each time.
# `make test-explore` searches with fresh random examples (and shrinks what fails): there a failure
# is a finding to keep as an `@example`, not a red main.
settings.register_profile(
    "repeatable", derandomize=True, database=None, phases=[Phase.explicit, Phase.reuse, Phase.generate]
)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


@pytest.fixture(scope="session", autouse=True)
def dbt_folders_of_this_worker(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every `dwh build` of a test that names no dbt target or log folder of its own writes them in
    its worker's temporary folder, never in the project's target/ where another worker builds too.
    A run with builds (tests marked slow) parses the project once, and every dbt run starts from that
    parse (DBT_PARTIAL_PARSE_FILE_PATH, which `dwh build` passes on): dbt then parses only what
    differs, not the whole project again for each new target folder (about 15 s a build). dbt
    reuses it where the profile, the vars and the files are those it was made with."""
    if any(item.get_closest_marker("slow") for item in request.session.items):
        parsed = built_once_per_run("project_parse", tmp_path_factory, parse_project)
        os.environ["DBT_PARTIAL_PARSE_FILE_PATH"] = str(parsed)
    os.environ.update(dbt_folders(tmp_path_factory.mktemp("dbt")))


def built_once_per_run(name: str, tmp_path_factory: pytest.TempPathFactory, build: Callable[[Path], Built]) -> Built:
    """`build(folder)` once for the whole test run: under pytest-xdist the first worker to get here
    builds while the others wait on the lock, then read what it built."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return build(tmp_path_factory.mktemp(name))
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
    folder, built_file = shared / name, shared / f"{name}.built.pickle"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if built_file.exists():
            return pickle.loads(built_file.read_bytes())
        folder.mkdir(exist_ok=True)
        built = build(folder)
        built_file.write_bytes(pickle.dumps(built))
        return built


@pytest.fixture(scope="session")
def project_manifest(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """dbt's manifest of the project, from the run's one parse (the one every build starts from)."""
    parsed = built_once_per_run("project_parse", tmp_path_factory, parse_project)
    return json.loads((parsed.parent / "manifest.json").read_text())


# the questions the scale-1 sample's build computes the Monte Carlo for: every DUO and ReDial question and
# DICES's overall verdict (GRASP's), as the tests of its intervals and p-values read them
SAMPLE_MONTE_CARLO_QUESTIONS = ["duo/*/*", "redial/*/*", "dices/*/Q_overall"]

# fixtures whose tests need a dbt build (the `slow` marker is given to every test that uses one),
# the longest build first
BUILT_WAREHOUSES = ("sample_build", "real_duo_build", "small_sample_build", "rated_study_build")


@pytest.fixture(scope="session")
def real_duo() -> Path:
    """The real DUO release in ../shared/data/duo; tests using it are skipped where it is absent."""
    if not REAL_DUO.is_dir():
        pytest.skip(f"real DUO release not found at {REAL_DUO} (only the project's CI machine has it)")
    return REAL_DUO


@pytest.fixture(scope="session")
def sample_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`dwh sample` at scale 1 (duo/, redial/redial_dataset.zip, dices/), written once: read it, never change it."""
    root = tmp_path_factory.mktemp("sample_release")
    run_dwh(["sample", str(root / "sample")], root / "unused.duckdb", check=True)
    return root / "sample"


@pytest.fixture(scope="session")
def sample_build(sample_release: Path, tmp_path_factory: pytest.TempPathFactory) -> BuiltWarehouse:
    """The embedded sample at scale 1, all three datasets, ingested and built as `make demo` does,
    under a memory bound far below the default (SAMPLE_BUILD_MEMORY_LIMIT: the build fitting in it is
    test_memory_bound.py's subject, which this saves a build of its own), with the Monte Carlo for
    the questions SAMPLE_MONTE_CARLO_QUESTIONS names (the default, every question, is tested on the
    small sample: at this size it would hold both workers up for minutes)."""
    return built_once_per_run(
        "sample_build",
        tmp_path_factory,
        lambda folder: ingest_and_build(
            folder,
            sample_ingest_args(sample_release),
            build_env={"DWH_BUILD_MEMORY_LIMIT": SAMPLE_BUILD_MEMORY_LIMIT},
            build_args=["--vars", json.dumps({"agreement_monte_carlo_questions": SAMPLE_MONTE_CARLO_QUESTIONS})],
        ),
    )


@pytest.fixture(scope="session")
def real_duo_build(real_duo: Path, tmp_path_factory: pytest.TempPathFactory) -> BuiltWarehouse:
    """The real DUO release (and nothing else) ingested and built."""
    return built_once_per_run(
        "real_duo_build", tmp_path_factory, lambda folder: ingest_and_build(folder, ["--duo", str(real_duo)])
    )


@pytest.fixture(scope="session")
def small_sample_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small sample of all three datasets: DUO's sample (455 dialogues), 80 ReDial conversations,
    32 DICES items. Read it, never change it (copy what a test edits)."""
    root = tmp_path_factory.mktemp("small_sample_release")
    write_duo_sample(root / "sample")
    write_redial_sample(root / "sample", n_train=60, n_test=20)
    write_dices_sample(root / "sample", items_350=12, items_990=20)
    return root / "sample"


@pytest.fixture(scope="session")
def small_sample_build(small_sample_release: Path, tmp_path_factory: pytest.TempPathFactory) -> BuiltWarehouse:
    """The small sample ingested and built: every model and test runs, on little data."""
    return built_once_per_run(
        "small_sample_build",
        tmp_path_factory,
        lambda folder: ingest_and_build(folder, sample_ingest_args(small_sample_release)),
    )


@pytest.fixture(scope="session")
def rated_study_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The rated study `rated_study` (tests/dataset_folders.py, seed 1) landed as a dataset and built:
    where the memo's and the partial builds' cases start. Read it, or work on a copy."""

    def ingest_and_build_study(folder: Path) -> Path:
        db_path = folder / "warehouse.duckdb"
        run_dwh(["ingest", "--dataset", str(rated_study(folder / "study", "rated_study", 1))], db_path, check=True)
        run_dwh(["build"], db_path, check=True, env_overrides=dbt_folders(folder))
        return db_path

    return built_once_per_run("rated_study_build", tmp_path_factory, ingest_and_build_study)


# The bad-input tests' small releases of all three sources (tests/*/test_bad_input_*.py): per test module,
# as each module's own.


@pytest.fixture(scope="module")
def small_releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The corpus's small releases of all three sources, as `dwh ingest` takes them."""
    root = tmp_path_factory.mktemp("bad-input-releases")
    dices = write_dices_sample(root / "dices-input", seed=2, items_350=1, items_990=1)[0].parent.parent
    train, _ = generate_conversations(6, 2, seed=3)  # without CONVERSATION_391, which the first one repeats
    redial = redial_folder(root / "redial-input", "".join(json.dumps(c) + "\n" for c in train).encode())
    return {"duo": duo_release(root / "duo-input"), "redial": redial, "dices": dices}


@pytest.fixture(scope="module")
def small_loaded(small_releases: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A warehouse the small releases were ingested into, never built; tests build copies of it."""
    db_path = tmp_path_factory.mktemp("bad-input-loaded") / "warehouse.duckdb"
    run_dwh(ingest_args(small_releases), db_path, check=True)
    return db_path


@pytest.fixture(scope="module")
def small_built(small_loaded: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small releases built once, for the tests that read a built warehouse (none writes it)."""
    root = tmp_path_factory.mktemp("bad-input-built")
    db_path = root / "warehouse.duckdb"
    shutil.copyfile(small_loaded, db_path)
    run_dwh(["build"], db_path, check=True, env_overrides=dbt_folders(root))
    return db_path


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`real_data` on the tests that read the real release, `slow` on those that need a shared build;
    then the modules in the order that keeps two workers from waiting on one build (`_interleaved`)."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "real_duo" in fixtures:
            item.add_marker(pytest.mark.real_data)
        if fixtures & set(BUILT_WAREHOUSES):
            item.add_marker(pytest.mark.slow)
    items[:] = _interleaved(items)


def _interleaved(items: list[pytest.Item]) -> list[pytest.Item]:
    """The test modules taken in turn from each shared warehouse's queue (the modules that first need
    the sample's build, then the real DUO release's, the small sample's, none): the two xdist workers,
    which take modules in this order, start on different builds rather than one waiting for the other's."""
    modules: dict[Path, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(item.path, []).append(item)
    queues: dict[str, list[list[pytest.Item]]] = {name: [] for name in (*BUILT_WAREHOUSES, "none")}
    for module_items in modules.values():
        used = {name for item in module_items for name in getattr(item, "fixturenames", ()) if name in BUILT_WAREHOUSES}
        first_needed = next((name for name in BUILT_WAREHOUSES if name in used), "none")
        queues[first_needed].append(module_items)
    ordered: list[pytest.Item] = []
    while any(queues.values()):
        for queue in queues.values():
            if queue:
                ordered.extend(queue.pop(0))
    return ordered
