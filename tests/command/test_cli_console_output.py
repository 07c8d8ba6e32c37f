"""What `dwh` writes to the screen: whole progress lines from threads, and the build's summary from dbt's events."""

import io
import json
import sys
import threading
import time
from pathlib import Path

import pytest

from dwh.building.build_progress import BuildProgress
from dwh.cli import say_progress


class SlowTerminal(io.StringIO):
    """A stream that lets other threads run between the writes of one `print` (text, then newline),
    as a real terminal does when its buffer blocks."""

    def write(self, text: str) -> int:
        time.sleep(0.0005)
        return super().write(text)


def test_progress_lines_from_sources_landing_side_by_side_stay_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = SlowTerminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    sources = ["duo: data/sample/duo", "redial: data/sample/redial/redial_dataset.zip", "dices: data/sample/dices"]
    threads = [threading.Thread(target=lambda s=source: [say_progress(s) for _ in range(100)]) for source in sources]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    lines = terminal.getvalue().splitlines()
    assert len(lines) == 300
    assert set(lines) == {f"landing {source}" for source in sources}


def event(name: str, level: str = "info", msg: str = "", **data: object) -> str:
    return json.dumps({"info": {"name": name, "level": level, "msg": msg}, "data": data}) + "\n"


def test_build_summary_counts_nodes_and_keeps_dbts_own_warnings_and_errors(tmp_path: Path) -> None:
    progress = BuildProgress(tmp_path / "dbt.log", show_bar=False)
    for line in [
        event("FoundStats", stat_line="3 models"),
        event("LogStartLine", index=1, total=3),
        event("LogModelResult", index=1, total=3, status="OK"),
        event("LogTestResult", "warn", "2 of 3 WARN 5 some_test", index=2, total=3),
        event("LogTestResult", "warn", "2 of 3 WARN 5 some_test", index=2, total=3),  # the same node twice
        event("Deprecation", "warn", "a deprecated config"),
        event("RunResultError", "error", "Runtime Error in model x"),
        event("StatsLine", msg="Done. PASS=1 WARN=1 ERROR=1 SKIP=0 NO-OP=0 TOTAL=3"),
    ]:
        progress.feed(line)
    assert progress.finished_nodes == {1, 2}
    assert progress.errors == ["Runtime Error in model x"]
    summary = progress.summary().splitlines()
    assert summary[0] == "a deprecated config"  # a test's warning is shown with its rows, not here
    assert summary[1].startswith("Done. PASS=1 WARN=1 ERROR=1 SKIP=0 NO-OP=0 TOTAL=3 (")
    assert summary[2] == f"dbt's log: {tmp_path / 'dbt.log'}"


def test_lines_that_are_not_dbt_events_are_shown_as_they_came(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    progress = BuildProgress(tmp_path / "dbt.log", show_bar=False)
    progress.feed("Traceback (most recent call last):\n")
    progress.feed("\n")
    assert capsys.readouterr().err == "Traceback (most recent call last):\n"
    assert progress.summary().splitlines()[0].startswith("dbt ran 0 node(s)")
