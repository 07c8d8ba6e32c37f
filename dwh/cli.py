"""The `dwh` command: ingest, build, sample, recipe, fetch, remove, tasks, summary, report, export, docs."""

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import NoReturn

from common.errors import DwhError
from common.paths import warehouse_path
from common.registry import built_in_names
from common.sources import SOURCES, movie_keyed_titles
from dwh import INTERRUPTED, INTERRUPTED_EXIT, TERMINATIONS, raise_if_terminated, terminate, was_terminated


def main(argv: list[str] | None = None) -> int:
    """Entry point: every failure ends as one line on stderr and a non-zero exit code."""
    _keep_pandas_out()
    _import_duckdb_before_interrupts_are_exceptions()
    _interrupt_on_termination()
    try:
        parser = build_parser()
        own_args, dbt_args = split_dbt_args(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(own_args)
        args.dbt_args = dbt_args
        returncode = args.handler(args)
        raise_if_terminated()
        sys.stdout.flush()  # a closed pipe is met here, inside the answers below, not at exit
        return returncode
    except BrokenPipeError:
        return _end_quietly_on_a_closed_pipe()
    except DwhError as exc:
        print(f"dwh: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return _say_interrupted()
    except Exception as exc:  # noqa: BLE001 - the contract: never a bare traceback
        # Ctrl-C reached DuckDB first, inside a running query, or its interrupt came back as another error
        if _is_duckdb_interrupt(exc) or was_terminated():
            return _say_interrupted()
        if os.environ.get("DWH_DEBUG"):
            raise
        print(
            f"dwh: unexpected error: {type(exc).__name__}: {exc} (set DWH_DEBUG=1 for the traceback)", file=sys.stderr
        )
        return 2


def run() -> NoReturn:
    """The `dwh` command (and `python -m dwh.cli`): `main`, then its exit code. An interrupted command
    ends at once with 130: Python's own exit would otherwise end it by SIGINT instead (exit -2) when
    the interrupt passed through C code on its way, or when a second Ctrl-C lands while it shuts down."""
    code = main()
    if code == INTERRUPTED_EXIT:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except OSError:
                pass  # a closed pipe or terminal: there is no one left to tell
        os._exit(INTERRUPTED_EXIT)
    sys.exit(code)


def _say_interrupted() -> int:
    """The one line every interrupt ends with; later Ctrl-Cs are ignored, as the answer is given."""
    for termination in TERMINATIONS:
        signal.signal(termination, signal.SIG_IGN)
    print(INTERRUPTED, file=sys.stderr)
    return INTERRUPTED_EXIT


# what a shell reports for a command a closed pipe stopped (128 + SIGPIPE), as `yes | head -1` does
CLOSED_PIPE_EXIT = 141


def _end_quietly_on_a_closed_pipe() -> int:
    """`dwh summary | head -1`: the reader has gone, so the rest of the output has nowhere to go.
    Ends without a word, as other command-line tools do; standard output goes to /dev/null first so
    that Python's own flush at exit does not complain about the pipe again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return CLOSED_PIPE_EXIT


def _import_duckdb_before_interrupts_are_exceptions() -> None:
    """Ctrl-C inside DuckDB's module initialisation leaves it half made ("ImportError: initialization
    failed", then a crash). Imported here, while Ctrl-C still ends `dwh` at once with its one line
    (nothing is written yet), every later interrupt meets a whole module."""
    import duckdb  # noqa: F401


def _interrupt_on_termination() -> None:
    """Ctrl-C, `kill` (SIGTERM) and a closed terminal (SIGHUP) all raise KeyboardInterrupt from here
    on: the staged copy is removed, a dbt child is stopped first, and the live warehouse stays as it was."""
    for termination in TERMINATIONS:
        signal.signal(termination, terminate)


def _is_duckdb_interrupt(exc: BaseException) -> bool:
    """DuckDB answers Ctrl-C inside a query with its own error ("Query interrupted"), in whichever
    thread ran the query."""
    while exc is not None:
        if "Query interrupted" in str(exc) or type(exc).__name__ == "InterruptException":
            return True
        exc = exc.__cause__ or exc.__context__
    return False


DWH_BUILD_FLAGS = ("--verbose", "--full")


def split_dbt_args(argv: list[str]) -> tuple[list[str], list[str]]:
    """Everything after `dwh build` belongs to `dbt build`, in its order (`--select x+`, `--vars …`),
    except a request for dwh's own help and dwh's own flags (dbt build has neither)."""
    if argv[:1] == ["build"] and not {"-h", "--help"} & set(argv[1:]):
        own = [arg for arg in DWH_BUILD_FLAGS if arg in argv[1:]]
        return [*argv[:1], *own], [arg for arg in argv[1:] if arg not in DWH_BUILD_FLAGS]
    return argv, []


def _keep_pandas_out() -> None:
    """The first query with bound parameters makes the duckdb module import pandas (and numpy)
    when they are installed, to recognise their types: over half a second per `dwh` process,
    for nothing, as no command here uses them. Marking pandas as absent skips that import."""
    sys.modules.setdefault("pandas", None)  # type: ignore[arg-type]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dwh", description="Conversational-AI evaluation warehouse (DuckDB + dbt).")
    commands = parser.add_subparsers(dest="command", required=True)

    ingest = commands.add_parser("ingest", help="land raw releases into the warehouse's raw schema")
    for source in SOURCES:
        ingest.add_argument(f"--{source.name}", type=Path, help=source.path_help)
    ingest.add_argument(
        "--judges",
        type=Path,
        action="append",
        help="judges' judgements: a file or a folder of files (CSV with a header, JSONL or Parquet, by extension) "
        f"with judge, dialogue_key, question, value (and movie_id for {movie_keyed_titles()}); checked against the "
        "last build's marts; repeatable (every path given loads); a load replaces each judge's earlier judgements of "
        "the sources it lands judgements of",
    )
    ingest.add_argument(
        "--dataset",
        type=Path,
        action="append",
        metavar="PATH",
        help="a dataset folder (dataset.yml, questions.csv, judgements*.csv|.jsonl|.parquet, optionally raters.csv "
        "and units.csv|.jsonl; docs/DATASETS.md); repeatable",
    )
    ingest.add_argument(
        "--replace",
        action="store_true",
        help="let a --dataset replace a loaded dataset of its name from another folder with another title, or "
        "empty a dataset whose judgements files now hold no row (refused without it; every reload names what it "
        "replaces)",
    )
    ingest.set_defaults(handler=cmd_ingest)

    build = commands.add_parser(
        "build",
        help="run dbt build (models and every test) on a staged copy and publish it if it passes",
        description="Runs `dbt build` on a staged copy of the warehouse and publishes it only if nothing fails. "
        "Without dbt arguments it rebuilds only what depends on the sources loaded since the last "
        "build (everything after a change to the dbt project, or with --full; nothing when nothing "
        "changed). Any dbt build argument passes through and chooses instead, e.g. "
        "`dwh build --select marts.agreement+` or `dwh build --full-refresh --threads 2`. Refused before "
        "anything is copied: what would publish no real, tested build (--empty, --sample, --resource-type, "
        "--exclude-resource-type, the DBT_* variables dbt reads as those, or DBT_INDIRECT_SELECTION), and "
        "with --full any selection (--select, -m, --exclude, …). A build whose vars leave the Monte Carlo out "
        "(`--vars '{agreement_monte_carlo: false}'`) runs dbt on one thread unless --threads is given.",
    )
    build.add_argument(
        "--verbose",
        action="store_true",
        help="show dbt's own output instead of a progress bar and a summary (dbt's log is dbt.log in "
        "$DBT_LOG_PATH when set, else in dbt's target folder: $DBT_TARGET_PATH, default target/)",
    )
    build.add_argument(
        "--full",
        action="store_true",
        help="rebuild everything, not only what depends on the sources loaded since the last build",
    )
    build.add_argument("dbt_args", nargs="*", metavar="DBT_ARG", help="passed to `dbt build` as given, in order")
    build.set_defaults(handler=cmd_build)

    sample = commands.add_parser("sample", help="write the embedded sample data in the real release layouts")
    sample.add_argument("out", type=Path, help="output folder (duo/, redial/, dices/ and judges/ are written inside)")
    sample.add_argument(
        "--scale",
        type=float,
        default=1.0,
        help="multiply the documented sizes by N, a fraction too: 0.1 for a quick try (default 1)",
    )
    sample.add_argument("--seed", type=int, default=0, help="random seed; the same seed writes the same bytes")
    sample.add_argument(
        "--force", action="store_true", help="write into a folder that already holds files, overwriting them"
    )
    sample.set_defaults(handler=cmd_sample)

    recipe = commands.add_parser(
        "recipe",
        help="turn a published multi-rater release into a dataset folder for dwh ingest --dataset",
        description="Reads a release as published (SRC) and writes a dataset folder (OUT, new or empty) in the "
        "long form `dwh ingest --dataset` lands: dataset.yml (with the release's license and citation), "
        "questions.csv, judgements, raters and units. `dwh recipe --list` lists the recipes.",
    )
    recipe.add_argument("name", nargs="?", metavar="NAME", help="the recipe (dwh recipe --list)")
    recipe.add_argument("src", nargs="?", type=Path, metavar="SRC", help="the folder holding the release's files")
    recipe.add_argument("out", nargs="?", type=Path, metavar="OUT", help="the dataset folder to write (new or empty)")
    recipe.add_argument("--list", action="store_true", help="list the recipes and what each reads")
    recipe.set_defaults(handler=cmd_recipe)

    fetch = commands.add_parser("fetch", help="download the real releases, verified by size and SHA-256")
    fetch.add_argument("out", type=Path, help="output folder (duo/, redial/, dices/ are written inside)")
    fetch.add_argument("--only", help=f"comma-separated subset of: {', '.join(built_in_names())}")
    fetch.add_argument("--mirror", help="base URL of a mirror laid out as <mirror>/<host>/<path>")
    fetch.set_defaults(handler=cmd_fetch)

    remove = commands.add_parser(
        "remove",
        help="take a dataset or a judge out of the warehouse, saying what it removed",
        description="Removes every raw row of one dataset (its tables, its rejects and the judges' judgements of "
        "its units) or of one judge (its judgements of every source), on a staged copy published whole, and "
        "prints the rows it removed per table. The next `dwh build` takes it out of the marts.",
    )
    removed = remove.add_mutually_exclusive_group(required=True)
    removed.add_argument("--dataset", metavar="NAME", help="the dataset to remove (the name in its dataset.yml)")
    removed.add_argument("--judge", metavar="NAME", help="the judge to remove")
    remove.set_defaults(handler=cmd_remove)

    tasks = commands.add_parser(
        "tasks",
        help="write the units to judge, one JSON object a line (for a judge run outside the warehouse)",
        description="Writes one JSON object a line per unit with human ratings in the built marts: dialogue_key, "
        f"question, movie_id ({movie_keyed_titles()}), the question's wording, its scale or labels, and the "
        "conversation's turns. "
        "A judge's answers load back with `dwh ingest --judges`.",
    )
    tasks.add_argument("out", type=Path, help="the JSONL file to write")
    tasks.add_argument(
        "--source",
        metavar="SOURCE",
        help=f"only this source's units: {', '.join(built_in_names())} or a loaded dataset's name",
    )
    tasks.set_defaults(handler=cmd_tasks)

    summary = commands.add_parser("summary", help="print row counts of the marts per source")
    summary.set_defaults(handler=cmd_summary)

    report = commands.add_parser("report", help="write one offline HTML page of charts from the warehouse")
    report.add_argument(
        "out",
        type=Path,
        nargs="?",
        default=Path("data") / "report.html",
        help="the HTML file to write (default data/report.html)",
    )
    report.set_defaults(handler=cmd_report)

    export = commands.add_parser("export", help="write every mart and reference seed as Parquet, with a manifest.json")
    export.add_argument("out", type=Path, help="output folder (created; must be empty or absent)")
    export.add_argument("--format", choices=["parquet"], default="parquet", help="file format (default parquet)")
    export.set_defaults(handler=cmd_export)

    docs = commands.add_parser("docs", help="write dbt's documentation site as one offline page (make docs)")
    docs.set_defaults(handler=cmd_docs)
    return parser


def cmd_ingest(args: argparse.Namespace) -> int:
    from common.database import check_memory_limit
    from dwh.load import run_ingest
    from ingest.loading import IngestRequest, SourceRequest, format_reports

    request = IngestRequest(
        sources=tuple(SourceRequest(source.name, path) for source in SOURCES if (path := getattr(args, source.name))),
        datasets=tuple(args.dataset or ()),
        judges=tuple(args.judges or ()),
        replace=args.replace,
    )
    db_path = warehouse_path()
    check_memory_limit()
    outcome = run_ingest(db_path, request, progress=say_progress)
    dataset_reports = [report for dataset in outcome.datasets for report in dataset.reports]
    reports = outcome.reports + dataset_reports + (outcome.judges.reports if outcome.judges else [])
    print(format_reports(reports))
    for dataset in outcome.datasets:
        print("\n".join(dataset.summary_lines()))
    for skipped in outcome.judges_skipped:
        print(skipped.line())
    if outcome.judges:
        print(outcome.judges.summary_line())
        for line in outcome.judges.replacements:
            print(line)
    print(f"warehouse: {db_path}")
    return 0


def say_progress(step: str) -> None:
    """One whole line per step, also when sources land side by side in threads: tqdm's write holds
    its lock over the text and the newline, and clears and redraws a progress bar around them."""
    from tqdm import tqdm

    tqdm.write(f"landing {step}", file=sys.stderr)


def cmd_build(args: argparse.Namespace) -> int:
    from common.database import check_memory_limit
    from dwh.building.build import build_and_publish

    db_path = warehouse_path()
    check_memory_limit(build=True)
    build_and_publish(db_path, dbt_args=args.dbt_args, verbose=args.verbose, full=args.full)
    return 0


def cmd_sample(args: argparse.Namespace) -> int:
    from sample_data import write_sample

    if not 0 < args.scale < float("inf"):
        raise DwhError(f"--scale must be a positive number (a fraction too, e.g. 0.1), got {args.scale:g}")
    scale = int(args.scale) if args.scale.is_integer() else args.scale
    for path in write_sample(args.out, scale=scale, seed=args.seed, force=args.force):
        print(path)
    return 0


def cmd_recipe(args: argparse.Namespace) -> int:
    from ingest.recipes import recipe_list, run_recipe

    if args.list:
        print("\n".join(recipe_list()))
        return 0
    if not (args.name and args.src and args.out):
        raise DwhError(
            "dwh recipe NAME SRC OUT: give a recipe, the release's folder and a new dataset folder "
            "(dwh recipe --list lists the recipes)"
        )
    for path in run_recipe(args.name, args.src, args.out):
        print(path)
    print(f"recipe {args.name}: load it with dwh ingest --dataset {args.out}")
    return 0


def cmd_fetch(args: argparse.Namespace) -> int:
    from dwh.transfer.fetch import OFFICIAL_RELEASES, fetch_releases

    built_in = built_in_names()
    wanted = {name.strip() for name in args.only.split(",")} if args.only else set(built_in)
    unknown = wanted - set(built_in)
    if unknown:
        raise DwhError(f"--only: unknown source(s) {', '.join(sorted(unknown))} (choose from {', '.join(built_in)})")
    releases = tuple(r for r in OFFICIAL_RELEASES if r.name.split("-")[0] in wanted)
    for path in fetch_releases(args.out, releases, mirror=args.mirror):
        print(path)
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    from dwh.remove import remove

    kind, name = ("dataset", args.dataset) if args.dataset else ("judge", args.judge)
    print("\n".join(remove(warehouse_path(), kind, name).lines()))
    return 0


def cmd_tasks(args: argparse.Namespace) -> int:
    from dwh.transfer.tasks import write_tasks

    units = write_tasks(warehouse_path(), args.out, args.source)
    print(f"tasks: {units:,} unit(s) to judge in {args.out}")
    return 0


def cmd_summary(args: argparse.Namespace) -> int:
    from dwh.summary import marts_summary

    print(marts_summary(warehouse_path()))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from dwh.reporting.report import write_report

    print(f"report: {write_report(warehouse_path(), args.out)}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from dwh.transfer.export import export_warehouse

    manifest = export_warehouse(warehouse_path(), args.out)
    print(f"export: {manifest.parent.resolve()} (manifest: {manifest.name})")
    return 0


def cmd_docs(args: argparse.Namespace) -> int:
    from dwh.building.docs import generate_docs

    print(f"docs: {generate_docs(warehouse_path())}")
    return 0


if __name__ == "__main__":
    run()
