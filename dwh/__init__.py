"""The `dwh` command and what it runs, over `ingest` (which only lands the releases into the raw
schema), `agreement_core` and `sample_data`: the command line (cli.py) and the commands that write or
read the warehouse whole (load.py, remove.py, summary.py) here; dbt's build and the atomic publish in
building/; the report in reporting/; the files in and out (fetch, export, the judges' tasks) in
transfer/. This module holds the command's process state: the termination signals every writer
checks before it publishes."""

import os
import signal
import sys

from common import __version__

__all__ = [
    "INTERRUPTED",
    "INTERRUPTED_EXIT",
    "TERMINATIONS",
    "__version__",
    "raise_if_terminated",
    "terminate",
    "was_terminated",
]

INTERRUPTED = "dwh: interrupted; the warehouse is left as it was before this command"
INTERRUPTED_EXIT = 130  # what a shell reports for a command Ctrl-C stopped (128 + SIGINT)

# what ends a running `dwh`: Ctrl-C, `kill` and a closed terminal
TERMINATIONS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)

# Set by the first Ctrl-C, `kill` or closed terminal. The signal also raises KeyboardInterrupt, but
# an exception raised while DuckDB's own code runs can be swallowed there (seen under load: an
# ingest interrupted early ran on and published); the flag is what `publish` checks before it swaps.
_terminated: list[int] = []


def terminate(signum: int, frame: object) -> None:
    """The handler of SIGINT, SIGTERM and SIGHUP once `dwh` runs: remember, then interrupt."""
    _terminated.append(signum)
    raise KeyboardInterrupt


def raise_if_terminated() -> None:
    """Interrupt now if a termination signal arrived at any moment before, even one swallowed."""
    if _terminated:
        raise KeyboardInterrupt


def was_terminated() -> bool:
    """Whether a termination signal arrived: its KeyboardInterrupt may come back as another error (a
    Ctrl-C while DuckDB imports a module to convert a result is DuckDB's InvalidInputException)."""
    return bool(_terminated)


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C before `dwh`'s main has its handlers (while Python imports it): the same one line as
    later, no traceback. (`dwh.cli.main` replaces this handler first thing.)"""
    sys.stderr.write(INTERRUPTED + "\n")
    os._exit(INTERRUPTED_EXIT)


# Only when this package is the `dwh` command (or `python -m dwh.cli`), never when imported by
# other code. sys.argv[0] is "-m" while `python -m` imports the module's package.
if os.path.basename(sys.argv[0]) in ("dwh", "-m"):
    signal.signal(signal.SIGINT, _interrupted_while_starting)
