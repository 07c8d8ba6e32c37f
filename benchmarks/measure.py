"""Run one command as a child process and report its wall time and peak memory.

    python benchmarks/measure.py RESULT_JSON -- COMMAND [ARG ...]

The command's stdout and stderr pass through unchanged. After the child has exited, RESULT_JSON
holds {"returncode", "wall_seconds", "cpu_seconds", "max_rss_kib"}:

- wall_seconds: time.perf_counter() around the child, from spawn to exit (this wrapper's own
  Python start-up is not included).
- cpu_seconds: user + system CPU time of the waited-for tree below this wrapper
  (`getrusage(RUSAGE_CHILDREN)`), summed over its processes and threads. The work done, steadier
  than wall time on a shared machine.
- max_rss_kib: resource.getrusage(RUSAGE_CHILDREN).ru_maxrss after waiting for the child. On
  Linux that is the largest resident set of any single process in the waited-for tree below this
  wrapper (the child, or any descendant the child itself waited for, e.g. dbt under `dwh build`),
  in KiB. It is the peak of the biggest process, not the sum of processes alive at the same time;
  this wrapper's own memory is not counted.

The wrapper exits with the child's exit code (128 + signal number if it was killed by a signal).
"""

import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def measure(command: list[str]) -> dict[str, float | int]:
    """Run `command`, wait for it, and return its exit code, wall and CPU seconds and peak RSS in KiB."""
    start = time.perf_counter()
    try:
        returncode = subprocess.run(command, check=False).returncode
    except OSError as exc:  # the program itself could not be started
        print(f"measure.py: cannot run {command[0]}: {exc}", file=sys.stderr)
        returncode = 127
    wall_seconds = time.perf_counter() - start
    returncode = returncode if returncode >= 0 else 128 - returncode
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "returncode": returncode,
        "wall_seconds": wall_seconds,
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "max_rss_kib": usage.ru_maxrss,
    }


def main(argv: list[str]) -> int:
    """Parse `RESULT_JSON -- COMMAND...`, run the command, write the result file."""
    if len(argv) < 3 or argv[1] != "--":
        print("usage: measure.py RESULT_JSON -- COMMAND [ARG ...]", file=sys.stderr)
        return 2
    result = measure(argv[2:])
    Path(argv[0]).write_text(json.dumps(result) + "\n", encoding="utf-8")
    return int(result["returncode"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
