"""Where a test run's dbt time goes: every dbt invocation its logs recorded, how long dbt took to
parse the project and to run its nodes, and why it parsed from scratch where it did.

    python benchmarks/dbt_invocations.py /tmp/pytest-of-$USER/pytest-current

reads every `dbt.log` under the folder (pytest's base temporary folder of a run: the tests give their
builds log folders of their own) and prints one line per invocation, the longest first, then the
totals. An invocation's parse runs from dbt's "Running with dbt" to its "Found N models" line; its
run is the time dbt's own "Finished running … (N s)" line gives. dbt's start-up before its first
line (imports, about 2 s) is in neither. An invocation that never finished (a test stops it) is left
out and counted."""

import argparse
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

# `03:42:17  Running with dbt=…` (the info log), or `03:42:17.123456 [info ] [MainThread]: …` (debug)
LOG_LINE = re.compile(r"^(?:\x1b\[[0-9;]*m)?(\d\d):(\d\d):(\d\d(?:\.\d+)?)\s+(?:\[\w+\s*\]\s+\[[^\]]*\]:\s+)?(.*)$")
RUN_SECONDS = re.compile(r"\(([\d.]+)s\)\.?$")
NO_PARTIAL_PARSE = "Unable to do partial parsing because "


@dataclass(frozen=True)
class Invocation:
    """One dbt command as its log recorded it."""

    log: str  # the log's folder, relative to the folder read
    parse_s: float
    run_s: float
    finished: str  # what dbt ran, as its last line says ("3 seeds, 26 table models, …")
    reparse_reason: str  # why dbt parsed the whole project ("" when it reused a parse)

    @property
    def total_s(self) -> float:
        return self.parse_s + self.run_s


def seconds_of_day(match: re.Match) -> float:
    return int(match.group(1)) * 3600 + int(match.group(2)) * 60 + float(match.group(3))


def invocations_in(lines: Iterable[str], log: str) -> Iterator[Invocation | None]:
    """Each invocation of one log; None for one that started and never finished."""
    started = parsed = None
    reason = ""
    for line in lines:
        match = LOG_LINE.match(line)
        if not match:
            continue
        at, message = seconds_of_day(match), match.group(4)
        if message.startswith("Running with dbt="):
            if started is not None:
                yield None
            started, parsed, reason = at, None, ""
        elif started is None:
            continue
        elif message.startswith(NO_PARTIAL_PARSE):
            reason = message.removeprefix(NO_PARTIAL_PARSE)
        elif message.startswith("Found ") and parsed is None:
            parsed = at
        elif message.startswith("Finished running ") and not message.startswith("Finished running node"):
            run = RUN_SECONDS.search(message)
            parse_s = ((parsed or at) - started) % 86400  # a run past midnight
            finished = message.removeprefix("Finished running ").split(" in ")[0]
            yield Invocation(log, round(parse_s, 2), float(run.group(1)) if run else 0.0, finished, reason)
            started = None
    if started is not None:
        yield None


def read_invocations(folder: Path) -> tuple[list[Invocation], int]:
    """Every finished invocation under `folder`, and how many never finished."""
    finished, unfinished = [], 0
    for log_file in sorted(folder.rglob("dbt.log")):
        log = str(log_file.parent.relative_to(folder))
        for invocation in invocations_in(log_file.read_text(encoding="utf-8", errors="replace").splitlines(), log):
            if invocation is None:
                unfinished += 1
            else:
                finished.append(invocation)
    return finished, unfinished


def report(invocations: list[Invocation], unfinished: int) -> str:
    lines = ["parse s  run s  total s  log  (what ran; why the whole project was parsed)"]
    for each in sorted(invocations, key=lambda i: -i.total_s):
        why = f"; reparsed: {each.reparse_reason}" if each.reparse_reason else ""
        lines.append(f"{each.parse_s:7.1f} {each.run_s:6.1f} {each.total_s:8.1f}  {each.log}  ({each.finished}{why})")
    reparsed = [i for i in invocations if i.reparse_reason]
    lines.append(
        f"{len(invocations)} invocations ({unfinished} unfinished, left out): "
        f"parse {sum(i.parse_s for i in invocations):.0f} s, run {sum(i.run_s for i in invocations):.0f} s, "
        f"total {sum(i.total_s for i in invocations):.0f} s; {len(reparsed)} parsed the whole project "
        f"({sum(i.parse_s for i in reparsed):.0f} s)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a folder holding dbt.log files (pytest's base temporary folder)")
    args = parser.parse_args()
    print(report(*read_invocations(args.folder)))


if __name__ == "__main__":
    main()
