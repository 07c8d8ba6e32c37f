"""`make bench`: time `dwh ingest`, `dwh build`, a pandas baseline and a DuckDB floor; write BENCHMARKS.md.

    python benchmarks/run_benchmarks.py [--scales 1 10] [--runs 3] [--data-dir benchmarks/data]
        [--output BENCHMARKS.md] [--skip-build] [--seed 0] [--section bench]

For every scale the sample is written once with `dwh sample DATA/scale-N --scale N --seed S` and
reused while its marker file (scale, seed and a hash of the sample generator's source) matches.
Then each path runs as a whole subprocess `--runs` times, each on a fresh database file, through
benchmarks/measure.py, which reports wall time (perf_counter around the process) and the peak RSS
of the largest process in its tree (getrusage RUSAGE_CHILDREN). A run that exits non-zero is
recorded as failed with its exit code; the driver goes on.

(a) `dwh ingest` of DUO + ReDial + DICES; (b) `dwh build` on a copy of a database that one
untimed `dwh ingest` filled; dbt's target folder is removed before the first run only, so run 1
parses the project from scratch (as after a fresh checkout) and later runs use dbt's partial
parsing (as a user's repeated builds do): with three runs the median is a warm build;
(c) benchmarks/pandas_path.py; (d) benchmarks/duckdb_floor.py.

`--paths sample ...` also times `dwh sample` itself: the sample of each scale is then written afresh,
once, through measure.py (`make bench-large`: sample, ingest and build at scales 1, 10 and 30,
written between its own `--section bench-large` markers).
"""

import argparse
import hashlib
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
PROJECT_ROOT = BENCH_DIR.parent
MEASURE = BENCH_DIR / "measure.py"
START_MARKER = "<!-- bench:start -->"
END_MARKER = "<!-- bench:end -->"
SAMPLE_PATH = ("sample", "(s) dwh sample")  # timed only when --paths names it: the sample is then written afresh
SAMPLE_MARKER = ".bench-sample.json"
DB_NAME = "bench.duckdb"
# the last (b) run's warehouse and dbt manifest (the compiled SQL of every node), kept for (b″),
# (e) and the analyst queries: later builds ((b′), (b″)) compile only what they select
BUILT_DB_NAME = "built.duckdb"
BUILT_MANIFEST_NAME = "built-manifest.json"
# paths that start from the warehouse (b) built: they run after it at each scale
NEEDS_A_BUILD = (
    "build_incremental",
    "build_floor",
    "judges_ingest",
    "build_with_judges",
    "build_with_sample_judges",
    "build_with_datasets",
)
# the judge paths: this many judges, each judging every unit of the three datasets (bench_judges.py)
BENCH_JUDGES = 20
# the paths of the twenty judges, which run at scale 1 only unless `--paths` names them: at scale 1
# their build takes about 8 minutes a run, at scale 10 it would take hours
TWENTY_JUDGE_PATHS = ("judges_ingest", "build_with_judges")
REDIAL_ZIP = Path("redial") / "redial_dataset.zip"
JUDGES_DIR = "bench-judges"  # in the scale's work folder
DATASETS_DIR = "bench-datasets"  # the recipes' dataset folders, in the scale's work folder
SAMPLE_DATASET = Path("datasets") / "chatbot_study"
# the real releases the recipes read, where the machine has them (beside the project, as in CI)
RECIPE_RELEASES = {name: PROJECT_ROOT.parent / "shared" / "data" / name for name in ("convabuse", "multipico")}
LOG_TAIL_LINES = 15
# the agreement marts' Monte Carlo (bootstrap intervals, permutation p-values) switched off: (b) − (b′) is its cost
WITHOUT_MONTE_CARLO = ["--vars", "{agreement_monte_carlo: false}"]
# issue 34's bound on that cost at scale 1
MONTE_CARLO_TARGET_PERCENT = 30


@dataclass(frozen=True)
class Run:
    """One timed run of one command."""

    returncode: int
    wall_seconds: float
    max_rss_kib: int
    cpu_seconds: float = float("nan")

    @property
    def ok(self) -> bool:
        """Whether the command exited 0."""
        return self.returncode == 0


@dataclass
class PathResult:
    """All runs of one path at one scale; `setup_error` is set when the path could not start."""

    scale: int
    key: str
    label: str
    runs: list[Run] = field(default_factory=list)
    setup_error: str = ""
    # the judges' builds (g) and (h): per run, dbt's node seconds of the replacement test's models and
    # the build's own seconds (`replacement_share_table`)
    replacement_seconds: list[tuple[float, float]] = field(default_factory=list)

    @property
    def ok_runs(self) -> list[Run]:
        """The runs that exited 0."""
        return [run for run in self.runs if run.ok]

    def median_seconds(self) -> float | None:
        """Median wall time of the successful runs, None when there is none."""
        times = [run.wall_seconds for run in self.ok_runs]
        return statistics.median(times) if times else None

    def median_cpu_seconds(self) -> float | None:
        """Median CPU time (user + system, whole process tree) of the successful runs."""
        times = [run.cpu_seconds for run in self.ok_runs]
        return statistics.median(times) if times else None

    def status(self) -> str:
        """`ok`, or what failed with the exit codes."""
        if self.setup_error:
            return f"failed: {self.setup_error}"
        failed = [run for run in self.runs if not run.ok]
        if not failed:
            return "ok"
        codes = ", ".join(str(run.returncode) for run in failed)
        return f"failed {len(failed)}/{len(self.runs)} (exit {codes})"


@dataclass(frozen=True)
class BenchPath:
    """A benchmarked path: its key, its label in the table and how to run it."""

    key: str
    label: str
    command: Callable[[Path, Path], list[str]]  # (sample_dir, database) -> argv


def dwh_command() -> list[str]:
    """The `dwh` console script beside this Python, or `python -m dwh.cli`."""
    script = Path(sys.executable).parent / "dwh"
    return [str(script)] if script.exists() else [sys.executable, "-m", "dwh.cli"]


def ingest_args(sample_dir: Path) -> list[str]:
    """`dwh ingest` arguments for the whole sample."""
    duo, dices = sample_dir / "duo", sample_dir / "dices"
    return ["ingest", "--duo", str(duo), "--redial", str(sample_dir / REDIAL_ZIP), "--dices", str(dices)]


def all_paths() -> list[BenchPath]:
    """The four paths, in table order."""
    return [
        BenchPath("ingest", "(a) dwh ingest", lambda sample, db: [*dwh_command(), *ingest_args(sample)]),
        BenchPath("build", "(b) dwh build", lambda sample, db: [*dwh_command(), "build"]),
        BenchPath(
            "build_without_monte_carlo",
            "(b′) dwh build without the Monte Carlo (agreement_monte_carlo: false)",
            lambda sample, db: [*dwh_command(), "build", *WITHOUT_MONTE_CARLO],
        ),
        BenchPath(
            "build_incremental",
            "(b″) dwh build after reloading the same ReDial release (incremental)",
            lambda sample, db: [*dwh_command(), "build"],
        ),
        BenchPath(
            "judges_ingest",
            f"(f) dwh ingest --judges: {BENCH_JUDGES} judges, every unit of the three datasets",
            lambda sample, db: [*dwh_command(), "ingest", "--judges", str(db.parent / JUDGES_DIR)],
        ),
        BenchPath(
            "build_with_judges",
            f"(g) dwh build after loading the {BENCH_JUDGES} judges (incremental)",
            lambda sample, db: [*dwh_command(), "build"],
        ),
        BenchPath(
            "build_with_sample_judges",
            "(h) dwh build after loading the sample's five judges (incremental)",
            lambda sample, db: [*dwh_command(), "build"],
        ),
        BenchPath(
            "build_with_datasets",
            "(i) dwh build after loading the sample's dataset and the ConvAbuse and MultiPICo recipes (incremental)",
            lambda sample, db: [*dwh_command(), "build"],
        ),
        BenchPath(
            "build_floor",
            "(e) build floor: the build's compiled SQL run directly in DuckDB",
            lambda sample, db: [
                sys.executable,
                str(BENCH_DIR / "build_floor.py"),
                str(db),
                "--built",
                str(db.parent / BUILT_DB_NAME),
                "--manifest",
                str(db.parent / BUILT_MANIFEST_NAME),
                "--top",
                "0",
            ],
        ),
        BenchPath("pandas", "(c) pandas + DuckDB", lambda sample, db: script_command("pandas_path.py", sample, db)),
        BenchPath("floor", "(d) DuckDB floor", lambda sample, db: script_command("duckdb_floor.py", sample, db)),
    ]


def script_command(script: str, sample_dir: Path, database: Path) -> list[str]:
    """`python benchmarks/SCRIPT DATABASE SAMPLE_DIR`."""
    return [sys.executable, str(BENCH_DIR / script), str(database), str(sample_dir)]


def log(message: str) -> None:
    """A progress line on stderr."""
    print(f"[bench] {message}", file=sys.stderr, flush=True)


# --- samples ---------------------------------------------------------------------------------


def generator_hash() -> str:
    """A hash of the sample generator's source, so a changed generator rewrites the samples."""
    digest = hashlib.sha256()
    for source in sorted((PROJECT_ROOT / "sample_data").glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()[:16]


def ensure_sample(data_dir: Path, scale: int, seed: int, timed: PathResult | None = None) -> Path:
    """The sample folder of `scale`, written with `dwh sample` unless its marker matches; with `timed`,
    written afresh in any case and the measured run added to it."""
    sample_dir = data_dir / f"scale-{scale}"
    marker = sample_dir / SAMPLE_MARKER
    wanted = {"scale": scale, "seed": seed, "generator": generator_hash()}
    if timed is None and marker.exists() and json.loads(marker.read_text(encoding="utf-8")) == wanted:
        log(f"scale {scale}: reusing sample in {sample_dir}")
        return sample_dir
    if sample_dir.exists():
        shutil.rmtree(sample_dir)
    log(f"scale {scale}: writing sample to {sample_dir}")
    command = [*dwh_command(), "sample", str(sample_dir), "--scale", str(scale), "--seed", str(seed)]
    log_path = data_dir / "work" / f"scale-{scale}" / "logs" / "sample.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    run = measured_run(command, {**os.environ}, log_path)
    if not run.ok:
        show_failure(log_path)
        raise SystemExit(f"[bench] `{shlex.join(command)}` exited {run.returncode}; no sample to benchmark")
    if timed is not None:
        timed.runs.append(run)
        log(f"scale {scale}: {timed.label}: {run.wall_seconds:.2f} s, {mib(run.max_rss_kib):.0f} MiB, ok")
    marker.write_text(json.dumps(wanted) + "\n", encoding="utf-8")
    return sample_dir


def tree_bytes(folder: Path) -> int:
    """Total size of the files below `folder`."""
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


# --- running ---------------------------------------------------------------------------------


def bench_env(work_dir: Path, database: Path, target: str = "dbt-target") -> dict[str, str]:
    """The environment of a benchmarked command: its database and dbt folders inside `work_dir`."""
    env = {**os.environ, "DWH_DB_PATH": str(database)}
    env["DBT_TARGET_PATH"] = str(work_dir / target)
    env["DBT_LOG_PATH"] = str(work_dir / "dbt-logs")
    env.pop("DWH_DEBUG", None)
    return env


def remove_database(database: Path) -> None:
    """Delete a database file and everything `dwh` keeps beside it (.next, .failed, .lock, .wal)."""
    for path in database.parent.glob(database.name + "*"):
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()


def measured_run(command: list[str], env: dict[str, str], log_path: Path) -> Run:
    """Run `command` through measure.py, its output going to `log_path`; the measured Run."""
    result_path = log_path.with_suffix(".json")
    result_path.unlink(missing_ok=True)
    with log_path.open("w", encoding="utf-8") as out:
        completed = subprocess.run(
            [sys.executable, str(MEASURE), str(result_path), "--", *command],
            cwd=PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if not result_path.exists():
        return Run(completed.returncode or 1, float("nan"), 0)
    result = json.loads(result_path.read_text(encoding="utf-8"))
    return Run(
        int(result["returncode"]),
        float(result["wall_seconds"]),
        int(result["max_rss_kib"]),
        float(result.get("cpu_seconds", "nan")),
    )


def show_failure(log_path: Path) -> None:
    """The last lines of a failed run's output, on stderr."""
    lines = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_TAIL_LINES:]
    log(f"last lines of {log_path}:\n    " + "\n    ".join(lines))


_INGESTED: set[Path] = set()


def prepare_build(sample_dir: Path, work_dir: Path) -> tuple[Path | None, str]:
    """One untimed `dwh ingest` into a seed database for the build paths (once per scale and
    invocation); (its path, error or '')."""
    seed_db = work_dir / "ingested.duckdb"
    if seed_db in _INGESTED:
        return seed_db, ""
    remove_database(seed_db)
    log_path = work_dir / "logs" / "build-setup-ingest.log"
    run = measured_run([*dwh_command(), *ingest_args(sample_dir)], bench_env(work_dir, seed_db), log_path)
    if not run.ok:
        show_failure(log_path)
        return None, f"setup `dwh ingest` exit {run.returncode}"
    _INGESTED.add(seed_db)
    return seed_db, ""


def bench_path(path: BenchPath, scale: int, sample_dir: Path, work_dir: Path, runs: int) -> PathResult:
    """Every timed run of one path at one scale, each on a fresh database file."""
    result = PathResult(scale, path.key, path.label)
    seed_db = None
    if path.key in ("build", "build_without_monte_carlo", "build_floor"):
        log(f"scale {scale}: {path.label}: untimed `dwh ingest` to build on")
        seed_db, result.setup_error = prepare_build(sample_dir, work_dir)
        if seed_db is None:
            return result
    database = work_dir / DB_NAME
    built = work_dir / BUILT_DB_NAME
    if path.key in NEEDS_A_BUILD and not built.exists():
        result.setup_error = "no warehouse from path (b) build to start from (run it in the same invocation)"
        return result
    for index in range(1, runs + 1):
        remove_database(database)
        if path.key == "build_incremental":
            shutil.copyfile(built, database)
            if not reload_redial(sample_dir, work_dir, database, index):
                result.setup_error = "setup `dwh ingest --redial` failed"
                return result
        elif path.key == "build_with_sample_judges":
            shutil.copyfile(built, database)
            if not load_sample_judges(sample_dir, work_dir, database, index):
                result.setup_error = "setup `dwh ingest --judges` of the sample's judges failed"
                return result
        elif path.key == "build_with_datasets":
            shutil.copyfile(built, database)
            if not load_datasets(sample_dir, work_dir, database, index):
                result.setup_error = "setup `dwh ingest --dataset` failed"
                return result
        elif path.key in ("judges_ingest", "build_with_judges"):
            shutil.copyfile(built, database)
            if not prepare_judges(work_dir, database, index, load=path.key == "build_with_judges"):
                result.setup_error = "setup of the judges failed"
                return result
        elif seed_db is not None:
            if index == 1 and path.key == "build":
                shutil.rmtree(work_dir / "dbt-target", ignore_errors=True)
            shutil.copyfile(seed_db, database)
        log_path = work_dir / "logs" / f"{path.key}-run{index}.log"
        run = measured_run(path.command(sample_dir, database), bench_env(work_dir, database, target_of(path)), log_path)
        result.runs.append(run)
        outcome = "ok" if run.ok else f"FAILED exit {run.returncode}"
        measured = f"{run.wall_seconds:.2f} s, {mib(run.max_rss_kib):.0f} MiB"
        log(f"scale {scale}: {path.label} run {index}/{runs}: {measured}, {outcome}")
        if not run.ok:
            show_failure(log_path)
        if path.key in REPLACEMENT_PATHS and run.ok:
            taken = replacement_node_seconds(work_dir / target_of(path) / "run_results.json")
            if taken:
                result.replacement_seconds.append(taken)
        if path.key == "build" and run.ok:
            remove_database(built)
            shutil.copyfile(database, built)
            shutil.copyfile(work_dir / "dbt-target" / "manifest.json", work_dir / BUILT_MANIFEST_NAME)
    remove_database(database)
    return result


# the judges' builds whose replacement test is measured, and its models
REPLACEMENT_PATHS = ("build_with_judges", "build_with_sample_judges")
REPLACEMENT_MODELS = ("int_judges__replacement", "judge_replacement", "judge_replacement_raters")


def replacement_node_seconds(run_results: Path) -> tuple[float, float] | None:
    """dbt's execution seconds of the replacement test's models in a build, and the build's elapsed
    seconds, from its run_results.json (None where it cannot be read)."""
    try:
        results = json.loads(run_results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    node_seconds = sum(
        node["execution_time"]
        for node in results.get("results", [])
        if node.get("unique_id", "").rsplit(".", 1)[-1] in REPLACEMENT_MODELS
    )
    return node_seconds, float(results.get("elapsed_time", 0.0))


def replacement_share_table(results: list[PathResult]) -> list[str]:
    """What the replacement test adds to the judges' builds: its models' node seconds (run one after
    another, they would add at most these) beside the build's dbt seconds; issue 64 asks for at most 10%."""
    measured = [result for result in results if result.replacement_seconds]
    if not measured:
        return []
    lines = [
        "The replacement test in the judges' builds (dbt's node seconds of `int_judges__replacement`, "
        "`judge_replacement`, `judge_replacement_raters`, medians over the runs, beside dbt's elapsed seconds "
        "of the build; the target is at most 10%):",
        "",
        "| scale | path | replacement s | build s (dbt) | share |",
        "|---|---|---|---|---|",
    ]
    for result in measured:
        node = statistics.median(seconds for seconds, _ in result.replacement_seconds)
        build = statistics.median(elapsed for _, elapsed in result.replacement_seconds)
        share = f"{node / build:.1%}" if build else "—"
        lines.append(f"| {result.scale} | {result.label} | {node:.2f} | {build:.2f} | {share} |")
    return lines


def target_of(path: BenchPath) -> str:
    """dbt's target folder of a path's runs. The build with other vars (b′) has its own: dbt parses the
    project again for other vars, and its parse must not be the one the paths after it start from, as a
    user's next plain build starts from the last plain build's parse."""
    return "dbt-target-other-vars" if path.key == "build_without_monte_carlo" else "dbt-target"


def prepare_judges(work_dir: Path, database: Path, index: int, load: bool) -> bool:
    """Untimed: the judges' files written from the warehouse (b) built (once per scale), and with
    `load` their `dwh ingest --judges` into `database`, which the next `dwh build` builds on."""
    judges_dir = work_dir / JUDGES_DIR
    log_path = work_dir / "logs" / f"judges-setup{index}.log"
    if not judges_dir.exists():
        command = [sys.executable, str(BENCH_DIR / "bench_judges.py"), str(work_dir / BUILT_DB_NAME), str(judges_dir)]
        run = measured_run([*command, "--judges", str(BENCH_JUDGES)], bench_env(work_dir, database), log_path)
        if not run.ok:
            show_failure(log_path)
            shutil.rmtree(judges_dir, ignore_errors=True)
            return False
    if not load:
        return True
    run = measured_run([*dwh_command(), "ingest", "--judges", str(judges_dir)], bench_env(work_dir, database), log_path)
    if not run.ok:
        show_failure(log_path)
    return run.ok


def load_sample_judges(sample_dir: Path, work_dir: Path, database: Path, index: int) -> bool:
    """An untimed `dwh ingest --judges` of the five judges `dwh sample` writes into a built warehouse."""
    log_path = work_dir / "logs" / f"build_with_sample_judges-setup{index}.log"
    run = measured_run(
        [*dwh_command(), "ingest", "--judges", str(sample_dir / "judges")], bench_env(work_dir, database), log_path
    )
    if not run.ok:
        show_failure(log_path)
    return run.ok


def load_datasets(sample_dir: Path, work_dir: Path, database: Path, index: int) -> bool:
    """An untimed `dwh ingest --dataset` into a built warehouse of the sample's chatbot study and of
    the ConvAbuse and MultiPICo recipes' folders (written once per scale, where the releases are at
    hand)."""
    log_path = work_dir / "logs" / f"build_with_datasets-setup{index}.log"
    folders = [sample_dir / SAMPLE_DATASET]
    for name, release in RECIPE_RELEASES.items():
        folder = work_dir / DATASETS_DIR / name
        if not release.is_dir():
            log(f"{name}: no release at {release}; path (i) goes on without it")
            continue
        if not folder.exists():
            run = measured_run([*dwh_command(), "recipe", name, str(release), str(folder)], os.environ.copy(), log_path)
            if not run.ok:
                show_failure(log_path)
                return False
        folders.append(folder)
    command = [*dwh_command(), "ingest", *(arg for folder in folders for arg in ("--dataset", str(folder)))]
    run = measured_run(command, bench_env(work_dir, database), log_path)
    if not run.ok:
        show_failure(log_path)
    return run.ok


def reload_redial(sample_dir: Path, work_dir: Path, database: Path, index: int) -> bool:
    """An untimed `dwh ingest --redial` of the same release into a built warehouse: a new load of one
    source with the same data, which the next `dwh build` sees as such (it rebuilds the load
    bookkeeping, and no figure is computed again)."""
    log_path = work_dir / "logs" / f"build_incremental-setup{index}.log"
    command = [*dwh_command(), "ingest", "--redial", str(sample_dir / REDIAL_ZIP)]
    run = measured_run(command, bench_env(work_dir, database), log_path)
    if not run.ok:
        show_failure(log_path)
    return run.ok


def bench_scale(scale: int, sample_dir: Path, data_dir: Path, paths: list[BenchPath], runs: int) -> list[PathResult]:
    """Every path at one scale."""
    work_dir = data_dir / "work" / f"scale-{scale}"
    (work_dir / "logs").mkdir(parents=True, exist_ok=True)
    remove_database(work_dir / BUILT_DB_NAME)  # (b″) and (e) start from this invocation's build only
    return [bench_path(path, scale, sample_dir, work_dir, runs) for path in paths]


def time_analyst_queries(scale: int, data_dir: Path, runs: int) -> dict[str, dict]:
    """benchmarks/analyst_queries.py on the warehouse path (b) built at `scale`; {} without one."""
    built = data_dir / "work" / f"scale-{scale}" / BUILT_DB_NAME
    if not built.exists():
        return {}
    result_path = built.with_name("analyst_queries.json")
    command = [
        sys.executable,
        str(BENCH_DIR / "analyst_queries.py"),
        str(built),
        "--runs",
        str(runs),
        "--json",
        str(result_path),
    ]
    if subprocess.run(command, cwd=PROJECT_ROOT, check=False, stdout=subprocess.DEVNULL).returncode != 0:
        log(f"scale {scale}: the analyst queries failed")
        return {}
    return json.loads(result_path.read_text(encoding="utf-8"))


def analyst_table(timings: dict[int, dict[str, dict]]) -> list[str]:
    """The analyst queries' medians per scale (target: each ≤ 1 s at scale 10)."""
    scales = sorted(timings)
    names = list(dict.fromkeys(name for scale in scales for name in timings[scale]))
    lines = [
        "Analyst queries on the warehouse (b) built (`benchmarks/analyst_queries.py`, median s; target ≤ 1 s):",
        "",
        "| query | " + " | ".join(f"scale {scale}" for scale in scales) + " |",
        "|---|" + "---:|" * len(scales),
    ]
    for name in names:
        cells = [f"{timings[scale][name]['median_s']:.3f}" if name in timings[scale] else "—" for scale in scales]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


# --- the report ------------------------------------------------------------------------------


def mib(kib: int) -> float:
    """KiB to MiB."""
    return kib / 1024


def machine_info() -> dict[str, str]:
    """Cores, memory, CPU model and the versions that matter."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    info = {
        "cores (nproc)": str(cores),
        "memory (MemTotal)": meminfo_total(),
        "CPU": cpu_model(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
    }
    for package in ("duckdb", "dbt-core", "dbt-duckdb", "pandas"):
        info[package] = package_version(package)
    return info


def meminfo_total() -> str:
    """Total memory from /proc/meminfo, in GiB."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024**2:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def package_version(name: str) -> str:
    """Installed version of a distribution, or 'not installed'."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def fmt_seconds(value: float | None) -> str:
    """Seconds with two decimals, or an em dash."""
    return "—" if value is None else f"{value:.2f}"


def results_table(results: list[PathResult]) -> list[str]:
    """The main table: one row per (scale, path)."""
    lines = [
        "| scale | path | runs ok | median s | min s | max s | median CPU s | max RSS MiB | status |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for result in results:
        times = [run.wall_seconds for run in result.ok_runs]
        rss = max((run.max_rss_kib for run in result.ok_runs), default=None)
        cells = [
            str(result.scale),
            result.label,
            f"{len(result.ok_runs)}/{len(result.runs)}",
            fmt_seconds(result.median_seconds()),
            fmt_seconds(min(times, default=None)),
            fmt_seconds(max(times, default=None)),
            fmt_seconds(result.median_cpu_seconds()),
            "—" if rss is None else f"{mib(rss):.0f}",
            result.status(),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def ratio(numerator: float | None, denominator: float | None) -> str:
    """numerator / denominator with two decimals and an x, or an em dash."""
    if numerator is None or not denominator:
        return "—"
    return f"{numerator / denominator:.2f}x"


def median_of(results: list[PathResult], scale: int, key: str, cpu: bool = False) -> float | None:
    """Median wall (or CPU) seconds of path `key` at `scale`, None when it did not run or never succeeded."""
    for result in results:
        if result.scale == scale and result.key == key:
            return result.median_cpu_seconds() if cpu else result.median_seconds()
    return None


def monte_carlo_share_table(results: list[PathResult], scales: list[int]) -> list[str]:
    """What the agreement marts' Monte Carlo adds to `dwh build`: (b) − (b′), in wall and CPU seconds
    and in percent."""
    lines = [
        "What the agreement marts' Monte Carlo (bootstrap intervals, permutation tests) adds to `dwh build` "
        f"((b) − (b′), medians; issue 34's bound: ≤ {MONTE_CARLO_TARGET_PERCENT}% at scale 1):",
        "",
        "| scale | wall s added | wall % added | CPU s added | CPU % added |",
        "|---:|---:|---:|---:|---:|",
    ]
    for scale in scales:
        cells = []
        for cpu in (False, True):
            full = median_of(results, scale, "build", cpu)
            without = median_of(results, scale, "build_without_monte_carlo", cpu)
            added = None if full is None or without is None else full - without
            cells += [fmt_seconds(added), "—" if added is None or not without else f"{100 * added / without:.0f}%"]
        lines.append(f"| {scale} | " + " | ".join(cells) + " |")
    return lines


def build_targets_table(results: list[PathResult], scales: list[int]) -> list[str]:
    """Issue 15's build targets per scale: ingest + build, the build against its floor, the
    incremental build against the full one, and the build's peak memory."""
    lines = [
        "The build's targets (issue 15; medians): ingest + build ≤ 60 s at scale 10 and ≤ 12 s at scale 1, "
        "build ≤ 1.2× its floor (e), build peak < 2 GiB at scale 10:",
        "",
        "| scale | ingest + build s | build / floor (e) | incremental (b″) / build | build max RSS MiB |",
        "|---:|---:|---:|---:|---:|",
    ]
    for scale in scales:
        ingest, build = median_of(results, scale, "ingest"), median_of(results, scale, "build")
        total = None if ingest is None or build is None else ingest + build
        rss = max(
            (
                run.max_rss_kib
                for result in results
                if result.scale == scale and result.key == "build"
                for run in result.ok_runs
            ),
            default=None,
        )
        cells = [
            fmt_seconds(total),
            ratio(build, median_of(results, scale, "build_floor")),
            ratio(median_of(results, scale, "build_incremental"), build),
            "—" if rss is None else f"{mib(rss):.0f}",
        ]
        lines.append(f"| {scale} | " + " | ".join(cells) + " |")
    return lines


def ratio_tables(results: list[PathResult], scales: list[int]) -> list[str]:
    """Ingest vs pandas and vs the floor per scale, and each path's time growth across scales."""
    lines = []
    if {"ingest", "pandas", "floor"} & {result.key for result in results}:
        lines += [
            "| scale | ingest speedup vs pandas (pandas / ingest) | ingest vs floor (ingest / floor) |",
            "|---:|---:|---:|",
        ]
        for scale in scales:
            ingest = median_of(results, scale, "ingest")
            pandas = ratio(median_of(results, scale, "pandas"), ingest)
            lines.append(f"| {scale} | {pandas} | {ratio(ingest, median_of(results, scale, 'floor'))} |")
    if len(scales) > 1:
        base = scales[0]
        header = " | ".join(f"scale {scale} / scale {base}" for scale in scales[1:])
        lines += [*([""] if lines else []), f"| path | {header} |", "|---|" + "---:|" * (len(scales) - 1)]
        for key, label in dict.fromkeys((result.key, result.label) for result in results):
            cells = [ratio(median_of(results, s, key), median_of(results, base, key)) for s in scales[1:]]
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def section_markers(section: str) -> tuple[str, str]:
    """The start and end markers of a generated section (`bench`: START_MARKER and END_MARKER)."""
    return f"<!-- {section}:start -->", f"<!-- {section}:end -->"


def growth_table(results: list[PathResult], scales: list[int]) -> list[str]:
    """Sample, ingest and build side by side per scale: median wall time and peak RSS of each."""
    steps = [("sample", "sample"), ("ingest", "ingest"), ("build", "build")]
    lines = [
        "How time and memory grow with the scale (median wall s / max RSS MiB, default memory bounds):",
        "",
        "| scale | " + " | ".join(f"{name} s | {name} max RSS MiB" for _, name in steps) + " |",
        "|---:|" + "---:|---:|" * len(steps),
    ]
    for scale in scales:
        cells = []
        for key, _ in steps:
            found = [r for r in results if r.scale == scale and r.key == key]
            rss = max((run.max_rss_kib for r in found for run in r.ok_runs), default=None)
            cells += [fmt_seconds(median_of(results, scale, key)), "—" if rss is None else f"{mib(rss):.0f}"]
        lines.append(f"| {scale} | " + " | ".join(cells) + " |")
    return lines


def render_section(
    results: list[PathResult],
    scales: list[int],
    context: dict[str, str],
    analyst: dict[int, dict] | None = None,
    section: str = "bench",
) -> str:
    """The generated part of BENCHMARKS.md, markers included."""
    keys = {result.key for result in results}
    start_marker, end_marker = section_markers(section)
    lines = [
        start_marker,
        "## Results" if section == "bench" else f"## Results ({section})",
        "",
        "_Generated by `benchmarks/run_benchmarks.py`; everything between the bench markers is replaced on each run._",
        "",
        f"- Date: {context.get('date', '')}",
        f"- Command: `{context.get('command', '')}`",
    ]
    lines += [f"- {key}: {value}" for key, value in context.items() if key not in ("date", "command")]
    lines += [
        "",
        "Wall time is the median (and min / max) over the successful runs of each whole process; max RSS is",
        "the peak resident set of the largest single process in its tree (`getrusage(RUSAGE_CHILDREN)` in",
        "`benchmarks/measure.py`); CPU is user + system time of the whole tree, steadier than wall time on a",
        "shared machine. Every run starts from a fresh database file.",
        "",
        *([*growth_table(results, scales), ""] if "sample" in keys else []),
        *results_table(results),
        "",
        *ratio_tables(results, scales),
        *(["", *monte_carlo_share_table(results, scales)] if {"build", "build_without_monte_carlo"} <= keys else []),
        *(["", *build_targets_table(results, scales)] if "build" in keys else []),
        *(["", *share] if (share := replacement_share_table(results)) else []),
        *(["", *analyst_table(analyst)] if analyst else []),
        end_marker,
    ]
    return "\n".join(lines) + "\n"


def update_markdown(output: Path, section: str, name: str = "bench") -> None:
    """Replace the generated section `name` of `output`, keeping any text above and below its markers."""
    if not output.exists():
        intro = "# Benchmarks\n\nHand-written findings go above or below the generated section.\n\n"
        output.write_text(intro + section, encoding="utf-8")
        return
    text = output.read_text(encoding="utf-8")
    start_marker, end_marker = section_markers(name)
    start, end = text.find(start_marker), text.find(end_marker)
    if start != -1 and end > start:
        after = text[end + len(end_marker) :].removeprefix("\n")
        output.write_text(text[:start] + section + after, encoding="utf-8")
    else:
        output.write_text(text.rstrip("\n") + "\n\n" + section, encoding="utf-8")


# --- entry point -----------------------------------------------------------------------------


def parse_args(argv: list[str]) -> argparse.Namespace:
    """Command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scales", type=int, nargs="+", default=[1, 10], help="sample scales (default 1 10)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs per scale and path (default 3)")
    parser.add_argument("--data-dir", type=Path, default=BENCH_DIR / "data", help="samples and scratch databases")
    parser.add_argument("--output", type=Path, default=PROJECT_ROOT / "BENCHMARKS.md", help="markdown file to update")
    parser.add_argument("--skip-build", action="store_true", help="leave out the build paths (b) and (b′)")
    parser.add_argument(
        "--paths",
        nargs="+",
        choices=[SAMPLE_PATH[0], *(path.key for path in all_paths())],
        help="run only these paths (default: all but `sample`, which times `dwh sample` itself)",
    )
    parser.add_argument(
        "--section", default="bench", help="name of the markers to write between (default bench: <!-- bench:start -->)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of `dwh sample` (default 0)")
    args = parser.parse_args(argv)
    if args.runs < 1 or any(scale < 1 for scale in args.scales):
        parser.error("--runs and every scale must be positive")
    args.scales = sorted(set(args.scales))
    return args


def paths_at(scale: int, paths: list[BenchPath], named: bool) -> list[BenchPath]:
    """The paths to run at `scale`: all of them, but the twenty judges' above scale 1 when no
    `--paths` named them (said on stderr)."""
    if named or scale == 1:
        return paths
    left_out = [path for path in paths if path.key in TWENTY_JUDGE_PATHS]
    if left_out:
        labels = ", ".join(path.label.split(" ", 1)[0] for path in left_out)
        log(f"scale {scale}: {labels} left out (the twenty judges run at scale 1 unless --paths names them)")
    return [path for path in paths if path not in left_out]


def main(argv: list[str] | None = None) -> int:
    """Write the samples, run every path at every scale, write the markdown; 1 if any run failed."""
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    data_dir = args.data_dir.resolve()
    paths = [
        path
        for path in all_paths()
        if not (args.skip_build and path.key.startswith("build")) and (not args.paths or path.key in args.paths)
    ]
    context = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": shlex.join(["python", "benchmarks/run_benchmarks.py", *argv]),
        **machine_info(),
        "load average at start (1 / 5 / 15 min)": " / ".join(f"{load:.2f}" for load in os.getloadavg()),
    }
    results, sizes, analyst = [], [], {}
    for scale in args.scales:
        timed_sample = PathResult(scale, *SAMPLE_PATH) if args.paths and SAMPLE_PATH[0] in args.paths else None
        sample_dir = ensure_sample(data_dir, scale, args.seed, timed_sample)
        sizes.append(f"scale {scale}: {tree_bytes(sample_dir) / 1024**2:.0f} MiB")
        results += [timed_sample] if timed_sample else []
        results += bench_scale(scale, sample_dir, data_dir, paths_at(scale, paths, named=bool(args.paths)), args.runs)
        timings = time_analyst_queries(scale, data_dir, args.runs)
        if timings:
            analyst[scale] = timings
    context["sample size on disk"] = ", ".join(sizes) + f" (seed {args.seed})"
    context["load average at end"] = " / ".join(f"{load:.2f}" for load in os.getloadavg())
    update_markdown(args.output, render_section(results, args.scales, context, analyst, args.section), args.section)
    log(f"wrote {args.output}")
    print("\n".join(results_table(results)))
    return 0 if all(result.status() == "ok" for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
