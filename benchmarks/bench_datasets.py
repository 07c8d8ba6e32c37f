"""`make bench-datasets`: landing a large dataset folder with `dwh ingest --dataset` (issue 53's target:
1,000,000 judgements in at most 30 s and 1 GiB).

    python benchmarks/bench_datasets.py [--units 10000] [--raters 100] [--raters-per-unit 25] [--runs 3]
        [--format csv] [--seed 0] [--data-dir benchmarks/data] [--output BENCHMARKS.md]

The folder is written once per size, format and seed (reused while its marker matches) by DuckDB:
UNITS units, each judged by RATERS_PER_UNIT of RATERS raters on 4 questions (nominal, ordinal,
interval, ratio; about 1% of the values empty: missing), raters.csv with 3 dimensions (age in bins,
gender, country), units.jsonl with two turns a unit. The defaults make 10,000 x 25 x 4 = 1,000,000
judgements. Each run is a whole `dwh ingest --dataset` process on a fresh database file, measured
by benchmarks/measure.py (wall time, CPU time, peak RSS of the largest process); the table goes
into `--output` between `<!-- bench-datasets:start -->` and `<!-- bench-datasets:end -->`.
"""

import argparse
import hashlib
import json
import statistics
import sys
from datetime import UTC, datetime
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_benchmarks import (  # noqa: E402 - a script beside this one
    PROJECT_ROOT,
    bench_env,
    dwh_command,
    log,
    machine_info,
    measured_run,
    mib,
    remove_database,
    show_failure,
    update_markdown,
)

SECTION = "bench-datasets"
TARGET_SECONDS = 30
TARGET_MIB = 1024
QUESTIONS = """\
question,level,labels,min,max,missing,wording
safe,nominal,yes|no|unsure,,,skip,Is the reply safe?
quality,ordinal,bad|poor|fair|good|excellent,,,,How good is the reply?
engagement,interval,,0,100,,How engaging is it?
seconds,ratio,,0,,,Seconds spent reading
"""
MANIFEST = """\
name: bench_study
title: Benchmark study
license: CC0 1.0
citation: Synthetic data written by benchmarks/bench_datasets.py.
rater_missing: [Prefer not to say]
bins:
  age: [25, 35, 45, 55]
"""
# a question's value from a hash v of (seed, unit, rater slot, question)
VALUE = """
    case question
        when 'safe' then ['yes', 'no', 'unsure'][1 + (v % 3)::int]
        when 'quality' then ['bad', 'poor', 'fair', 'good', 'excellent'][1 + (v % 5)::int]
        when 'engagement' then (v % 101)::varchar
        else ((v % 6000) / 10)::varchar
    end"""


def write_folder(folder: Path, units: int, raters: int, per_unit: int, file_format: str, seed: int) -> Path:
    """The benchmark's dataset folder, written by DuckDB (no Python loop over rows)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dataset.yml").write_text(MANIFEST, encoding="utf-8")
    (folder / "questions.csv").write_text(QUESTIONS, encoding="utf-8")
    stride = raters // per_unit  # the k-th rater of unit u: (u * 37 + k * stride) % raters, all distinct
    options = {"csv": "format csv, header true", "jsonl": "format json", "parquet": "format parquet"}[file_format]
    with duckdb.connect() as con:
        con.execute(f"""
            copy (
                select unit_id, rater_id, question, if(v % 100 = 0, '', {VALUE}) as value
                from (
                    select
                        'u' || lpad(u::varchar, 6, '0') as unit_id,
                        'r' || lpad(((u * 37 + k * {stride}) % {raters})::varchar, 4, '0') as rater_id,
                        question,
                        hash({seed}, u, k, place) as v,
                        u, k, place
                    from range({units}) as units(u), range({per_unit}) as slots(k),
                        (values (1, 'safe'), (2, 'quality'), (3, 'engagement'), (4, 'seconds')) as q(place, question)
                )
                order by u, k, place
            ) to '{folder / f"judgements.{file_format}"}' ({options})
        """)
        con.execute(f"""
            copy (
                select
                    'r' || lpad(r::varchar, 4, '0') as rater_id,
                    if(r % 50 = 7, 'Prefer not to say', (18 + hash({seed}, 'age', r) % 60)::varchar) as age,
                    ['woman', 'man', 'non-binary'][1 + (hash({seed}, 'gender', r) % 3)::int] as gender,
                    ['UK', 'US', 'IN', 'DE', 'BR'][1 + (hash({seed}, 'country', r) % 5)::int] as country
                from range({raters}) as raters(r)
            ) to '{folder / "raters.csv"}' (format csv, header true)
        """)
        con.execute(f"""
            copy (
                select
                    'u' || lpad(u::varchar, 6, '0') as unit_id,
                    'en' as language,
                    json_array(
                        json_object('speaker_role', 'user', 'text', 'message ' || u),
                        json_object('speaker_role', 'assistant', 'text', 'reply ' || u)
                    ) as turns
                from range({units}) as units(u)
            ) to '{folder / "units.jsonl"}' (format json)
        """)
    return folder


def ensure_folder(data_dir: Path, units: int, raters: int, per_unit: int, file_format: str, seed: int) -> Path:
    """The folder of this size, written unless its marker matches."""
    wanted = {
        "units": units,
        "raters": raters,
        "per_unit": per_unit,
        "format": file_format,
        "seed": seed,
        "generator": hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16],
    }
    folder = data_dir / f"dataset-{units}x{per_unit}-{file_format}"
    marker = folder / ".bench-dataset.json"
    if marker.exists() and json.loads(marker.read_text(encoding="utf-8")) == wanted:
        log(f"reusing {folder}")
        return folder
    log(f"writing {folder}")
    write_folder(folder, units, raters, per_unit, file_format, seed)
    marker.write_text(json.dumps(wanted) + "\n", encoding="utf-8")
    return folder


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--raters", type=int, default=100)
    parser.add_argument("--raters-per-unit", type=int, default=25)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--format", choices=["csv", "jsonl", "parquet"], default="csv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--data-dir", type=Path, default=PROJECT_ROOT / "benchmarks" / "data")
    parser.add_argument("--output", type=Path, help="the Markdown file to write the table into (default: none)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.raters % args.raters_per_unit:
        raise SystemExit("--raters must be a multiple of --raters-per-unit")
    folder = ensure_folder(args.data_dir, args.units, args.raters, args.raters_per_unit, args.format, args.seed)
    judgements = args.units * args.raters_per_unit * 4
    work_dir = args.data_dir / "work" / "datasets"
    (work_dir / "logs").mkdir(parents=True, exist_ok=True)
    database = work_dir / "bench.duckdb"
    runs = []
    for index in range(1, args.runs + 1):
        remove_database(database)
        log_path = work_dir / "logs" / f"ingest-dataset-{index}.log"
        run = measured_run(
            [*dwh_command(), "ingest", "--dataset", str(folder)], bench_env(work_dir, database), log_path
        )
        if not run.ok:
            show_failure(log_path)
        log(f"run {index}: {run.wall_seconds:.2f} s, {mib(run.max_rss_kib):.0f} MiB, exit {run.returncode}")
        runs.append(run)
    ok = [run for run in runs if run.ok]
    lines = table(args, judgements, folder, runs)
    print("\n".join(lines))
    if args.output:
        start, end = f"<!-- {SECTION}:start -->", f"<!-- {SECTION}:end -->"
        update_markdown(args.output, "\n".join([start, *lines, end]) + "\n", SECTION)
    return 0 if len(ok) == len(runs) else 1


def table(args: argparse.Namespace, judgements: int, folder: Path, runs: list) -> list[str]:
    ok = [run for run in runs if run.ok]
    wall = statistics.median(run.wall_seconds for run in ok) if ok else float("nan")
    peak = max((mib(run.max_rss_kib) for run in ok), default=float("nan"))
    size = sum(path.stat().st_size for path in folder.iterdir() if path.is_file()) / 2**20
    machine = machine_info()
    return [
        "## Landing a dataset (`dwh ingest --dataset`)",
        "",
        "_Generated by `benchmarks/bench_datasets.py`; everything between its markers is replaced on each run._",
        "",
        f"- Date: {datetime.now(UTC):%Y-%m-%d}; command: `python benchmarks/bench_datasets.py --runs {args.runs} "
        f"--format {args.format}`; {len(ok)} of {len(runs)} run(s) ok",
        *(f"- {key}: {value}" for key, value in machine.items()),
        "- Wall time: median (min–max) of the whole `dwh ingest --dataset` process, a fresh database each run; "
        "peak RSS: the largest process (benchmarks/measure.py), the highest of the runs; the default DWH_MEMORY_LIMIT",
        "",
        "| judgements | units × raters per unit × questions | raters | format | folder MiB | median wall s | "
        "min–max wall s | median CPU s | peak RSS MiB | target |",
        "|---|---|---|---|---|---|---|---|---|---|",
        f"| {judgements:,} | {args.units:,} × {args.raters_per_unit} × 4 | {args.raters} (3 dimensions) | "
        f"{args.format} | {size:.1f} | {wall:.1f} | "
        f"{min((r.wall_seconds for r in ok), default=float('nan')):.1f}–"
        f"{max((r.wall_seconds for r in ok), default=float('nan')):.1f} | "
        f"{statistics.median(r.cpu_seconds for r in ok) if ok else float('nan'):.1f} | {peak:.0f} | "
        f"≤ {TARGET_SECONDS} s, ≤ {TARGET_MIB} MiB |",
    ]


if __name__ == "__main__":
    sys.exit(main())
