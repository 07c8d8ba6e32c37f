"""Ingest and command line for the conversational-AI evaluation warehouse."""

import os
import signal
import sys

__version__ = "0.1.0"

INTERRUPTED = "dwh: interrupted; the warehouse is left as it was before this command"


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C before `dwh`'s main has its handlers (while Python imports it): the same one line as
    later, no traceback. (`ingest.cli.main` replaces this handler first thing.)"""
    sys.stderr.write(INTERRUPTED + "\n")
    os._exit(130)


# Only when this package is the `dwh` command (or `python -m ingest.cli`), never when imported by
# other code. sys.argv[0] is "-m" while `python -m` imports the module's package.
if os.path.basename(sys.argv[0]) in ("dwh", "-m"):
    signal.signal(signal.SIGINT, _interrupted_while_starting)
