"""The per-question figures on every core: questions are independent (each draws its random numbers
from its own name, `resampling.generator`), and numpy's work on large arrays runs outside Python's
lock, so threads compute them side by side with the same result as one after another.

The draws' matrix products (`maths.draws_sum`) go through BLAS, which by default starts threads of
its own on every core for each product: beside one figure thread per core, and two models at once,
they oversubscribe the cores and spin while they wait. Measured on 2 cores, four DICES questions'
comparisons of twenty judges: 163.7 s (301 CPU s) with BLAS's threads, 70.8 s (122 CPU s) with one.
So `dwh build` runs dbt with OPENBLAS_NUM_THREADS=1 (numpy's BLAS reads it when it loads); a plain
`dbt build` gets the same speed with that variable set. (Setting the limit from here, with
threadpoolctl, deadlocked a build: its search of the loaded libraries holds the loader's lock
while it calls back into Python, and another model's thread, holding Python's lock, was loading a
library.)"""

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def default_workers() -> int:
    """One thread per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def ordered_map(
    function: Callable[[Item], Result], items: Iterable[Item], workers: int | None = None
) -> Iterator[Result]:
    """`function(item)` for every item, in the items' order, on `workers` threads. The items are
    read one at a time in the calling thread (a database cursor is not shared between threads), and
    at most two per worker wait at once: memory holds a few questions, not all of them."""
    workers = workers or default_workers()
    pending: deque[Future] = deque()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for item in items:
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
            pending.append(pool.submit(function, item))
        while pending:
            yield pending.popleft().result()
