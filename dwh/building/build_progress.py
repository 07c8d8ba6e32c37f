"""What `dwh build` shows while dbt runs: a progress bar fed by dbt's JSON event stream, then a
short summary. dbt's text log goes to a file (target/dbt.log); `dwh build --verbose` shows
dbt's own output instead."""

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

# dbt logs one event per node start and one per node end; the end events carry the node's index
START_EVENT = "LogStartLine"
SUMMARY_EVENT = "StatsLine"
# warnings that `dwh build` shows in its own words (the failing rows of each test), or sums up
RESULT_EVENTS = {
    "LogTestResult",
    "LogModelResult",
    "LogSeedResult",
    "RunResultWarning",
    "RunResultWarningMessage",
    "RunResultFailure",
    "RunResultError",
    "EndOfRunSummary",
    "StatsLine",
}


@dataclass
class BuildProgress:
    """Reads dbt's `--log-format json` lines, one at a time (`feed`), and keeps what to show."""

    log_file: Path
    show_bar: bool = field(default_factory=lambda: sys.stderr.isatty())
    bar: tqdm | None = None
    finished_nodes: set[int] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    stats_line: str = ""
    started: float = field(default_factory=time.monotonic)

    def feed(self, line: str) -> None:
        """One line of dbt's standard output."""
        try:
            event = json.loads(line)
            name, level, message = event["info"]["name"], event["info"]["level"], event["info"]["msg"]
            data = event.get("data") or {}
        except (ValueError, KeyError, TypeError):
            if line.strip():
                self._say(line.rstrip("\n"))  # not an event (a crash, a print): shown as it came
            return
        if level == "error":
            self.errors.append(message)
        elif level == "warn" and name not in RESULT_EVENTS:
            self.warnings.append(message)  # e.g. "Nothing to do", a deprecation
        if name == SUMMARY_EVENT:
            self.stats_line = message
        if "index" in data and "total" in data and name != START_EVENT:
            self._advance(int(data["index"]), int(data["total"]))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def summary(self) -> str:
        """dbt's own warnings about the run, its count of passes, warnings and errors, and where its
        log is."""
        seconds = time.monotonic() - self.started
        counted = self.stats_line or f"dbt ran {len(self.finished_nodes)} node(s)"
        return "\n".join([*self.warnings, f"{counted} ({seconds:.1f} s)", f"dbt's log: {self.log_file}"])

    def _advance(self, index: int, total: int) -> None:
        if index in self.finished_nodes:
            return
        self.finished_nodes.add(index)
        if not self.show_bar:
            return
        if self.bar is None:
            self.bar = tqdm(total=total, desc="dbt build", unit="node", file=sys.stderr, dynamic_ncols=True)
        self.bar.update(1)

    def _say(self, text: str) -> None:
        tqdm.write(text, file=sys.stderr)  # clears and redraws the bar around the line, if there is one
