"""Compute once: the figures of a slot (a question, a judge on a question, two judges on a
question) are a pure function of the arrays they are computed from, the Monte Carlo settings and
the code of this package. A fingerprint of exactly those keys the rows a model stored at its last
build; a build reuses the rows of every slot whose fingerprint is unchanged and computes only the
others (the models are dbt incremental models: `dbt build --full-refresh`, which `dwh build --full`
runs, computes every slot again).

What goes into a fingerprint is the figure's own business (`group_figures.inputs_of`,
`judge_references.inputs_of`): the arrays in the order the computation reads them, numbered by
rank (unit keys, rater keys and group names in sorted order), never by the warehouse's surrogate
ids, which another source's reload renumbers.

The stored rows themselves are checked before they are trusted: beside its fingerprint every row
carries a digest of its slot's rows as they were computed (`rows_digest`). A slot whose stored rows
no longer give that digest (rows deleted or edited by hand) is computed again, and the build says so
in one line (`memo: <model> <slot>: …`): never published as stored."""

import hashlib
import math
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import scipy

# the columns every memoized model adds to its rows
FINGERPRINT = "inputs_fingerprint"
COMPUTED_AT = "computed_at"
ROWS_DIGEST = "rows_digest"
# the memo's own columns: not part of a slot's rows as its digest reads them
MEMO_COLUMNS = (FINGERPRINT, COMPUTED_AT, ROWS_DIGEST)
PACKAGE = Path(__file__).resolve().parent


@cache
def code_version() -> str:
    """A hash of every module of this package (its subpackages' too) and of the versions of the
    libraries its figures are computed with (numpy's random streams, scipy's distributions): changed
    code computes every slot again."""
    digest = hashlib.sha256(f"numpy {np.__version__} scipy {scipy.__version__} pandas {pd.__version__}".encode())
    for module in sorted(PACKAGE.rglob("*.py")):
        digest.update(module.relative_to(PACKAGE).as_posix().encode() + b"\0" + module.read_bytes() + b"\0")
    return digest.hexdigest()


def fingerprint(parts: Iterable[object]) -> str:
    """A hash of the code version and of each part: arrays by dtype, shape and bytes (text arrays
    by their values), sequences element by element, anything else by its repr."""
    digest = hashlib.sha256(code_version().encode())
    for part in parts:
        _update(digest, part)
    return digest.hexdigest()


def _update(digest: "hashlib._Hash", part: object) -> None:
    if isinstance(part, np.ndarray) and part.dtype != object:
        array = np.ascontiguousarray(part)
        digest.update(f"array {array.dtype.str} {array.shape}\x1f".encode() + array.tobytes())
    elif isinstance(part, (np.ndarray, list, tuple)):
        digest.update(f"sequence {len(part)}\x1f".encode())
        for element in part:
            _update(digest, element)
    else:
        digest.update(f"{type(part).__name__} {part!r}".encode())
    digest.update(b"\x1e")


def sorted_rows(*columns: np.ndarray) -> list[np.ndarray]:
    """Parallel integer arrays (the columns of a table of numbers) with their rows sorted: the same
    rows in any order give the same fingerprint (no figure depends on the order values arrive in)."""
    order = np.lexsort(columns[::-1])
    return [np.asarray(column)[order].astype(np.int64) for column in columns]


def _canonical(value: object) -> str | None:
    """A stored value as the digest reads it (None: null): numbers by their value as a double, so
    that a value reads the same computed and as DuckDB gives it back."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, (bool, np.bool_)):
        return f"b{bool(value)}"
    if isinstance(value, (int, float, np.integer, np.floating)):
        number = float(value)
        return None if math.isnan(number) else f"n{number!r}"
    return f"s{value}"


def rows_digest(rows: pd.DataFrame) -> str:
    """A digest of a slot's rows, in any order, every column but the memo's own; a null reads as an
    absent column (a computed frame may lack columns its model's result fills with nulls)."""
    columns = sorted(column for column in rows.columns if column not in MEMO_COLUMNS)
    texts = sorted(
        "\x1f".join(
            f"{column}={text}" for column, value in zip(columns, values) if (text := _canonical(value)) is not None
        )
        for values in rows[columns].itertuples(index=False, name=None)
    )
    digest = hashlib.sha256(f"{len(texts)}\x1e".encode())
    for text in texts:
        digest.update(text.encode() + b"\x1e")
    return digest.hexdigest()


@dataclass
class Memo:
    """The rows a model stored at its last build, by slot (a tuple of the slot columns' values),
    with the fingerprint they were computed from; `model` names the model in what it says."""

    slot_columns: list[str]
    stored: dict[tuple, tuple[str, pd.DataFrame]] = field(default_factory=dict)
    computed_at: pd.Timestamp = field(default_factory=lambda: pd.Timestamp.now(tz="UTC").tz_localize(None))
    model: str = "memo"

    @classmethod
    def of(cls, stored_rows: pd.DataFrame | None, slot_columns: list[str], model: str = "memo") -> "Memo":
        """From the model's own table as it was (None on a first build or `--full-refresh`)."""
        if stored_rows is None or stored_rows.empty or FINGERPRINT not in stored_rows:
            return cls(slot_columns, model=model)  # nothing stored, or stored by a version without fingerprints
        by_slot = stored_rows.groupby(slot_columns, sort=False, dropna=False)
        stored = {_as_tuple(slot): (rows[FINGERPRINT].iloc[0], rows) for slot, rows in by_slot}
        return cls(slot_columns, stored, model=model)

    def holds(self, slot: tuple, inputs_fingerprint: str) -> bool:
        """Whether the slot's stored rows were computed from these inputs and are still the rows
        computed then (their digest); a slot whose rows are not is said so, once."""
        stored = self.stored.get(slot)
        if stored is None or stored[0] != inputs_fingerprint:
            return False
        if self._intact(stored[1]):
            return True
        said = (
            f"memo: {self.model} {'/'.join(map(str, slot))}: its stored rows no longer match their digest "
            f"({len(stored[1])} row(s) left, edited or deleted since they were computed): computed again\n"
        )
        os.write(sys.stderr.fileno(), said.encode())  # one write: a whole line between dbt's own
        del self.stored[slot]
        return False

    @staticmethod
    def _intact(rows: pd.DataFrame) -> bool:
        if ROWS_DIGEST not in rows or rows[ROWS_DIGEST].isna().any() or rows[ROWS_DIGEST].nunique() != 1:
            return False
        return rows[ROWS_DIGEST].iloc[0] == rows_digest(rows)

    def rows(self, slot: tuple, inputs_fingerprint: str, compute: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        """The slot's stored rows when they were computed from the same inputs and are intact, else
        `compute()`'s (which name their slot), marked with the fingerprint, the time they were
        computed and their digest."""
        if self.holds(slot, inputs_fingerprint):
            return self.stored[slot][1]
        computed = compute()
        return computed.assign(
            **{FINGERPRINT: inputs_fingerprint, COMPUTED_AT: self.computed_at, ROWS_DIGEST: rows_digest(computed)}
        )


def rows_of(
    stored: Memo | None, slot: tuple, inputs: Callable[[], list[object]], compute: Callable[[], pd.DataFrame]
) -> pd.DataFrame:
    """A slot's rows: `compute()`'s without a memo (no fingerprint columns), else those `stored`
    holds under the fingerprint of `inputs()`, or computed and marked with it."""
    return marked(stored, slot, None if stored is None else fingerprint(inputs()), compute)


def stale_slots(
    stored: Memo | None, inputs: dict[tuple, Callable[[], list[object]]]
) -> tuple[dict[tuple, str], list[tuple]]:
    """Each slot's fingerprint of `inputs[slot]()` and the slots whose rows must be computed: without
    a memo every slot (no fingerprint taken), else those `stored` does not hold under theirs. For a
    model whose slots computed together share work (`marked` then takes each slot's rows)."""
    if stored is None:
        return {}, list(inputs)
    fingerprints = {slot: fingerprint(inputs_of()) for slot, inputs_of in inputs.items()}
    return fingerprints, [slot for slot, taken in fingerprints.items() if not stored.holds(slot, taken)]


def marked(
    stored: Memo | None, slot: tuple, inputs_fingerprint: str | None, compute: Callable[[], pd.DataFrame]
) -> pd.DataFrame:
    """`rows_of` for a fingerprint already taken (None without a memo)."""
    if stored is None:
        return compute()
    return stored.rows(slot, inputs_fingerprint, compute)


def _as_tuple(slot: object) -> tuple:
    return slot if isinstance(slot, tuple) else (slot,)


def stored_memo(dbt: object, session: object, slot_columns: list[str]) -> Memo:
    """A dbt Python model's memo: its own table as the last build left it, by slot."""
    this = getattr(dbt, "this", None)
    model = str(getattr(this, "identifier", None) or this or "memo")
    return Memo.of(stored_rows(dbt, session), slot_columns, model=model)


def stored_rows(dbt: object, session: object) -> pd.DataFrame | None:
    """A dbt Python model's own table as the last build left it, when dbt builds it incrementally
    (None on its first build and with `--full-refresh`: every slot is computed)."""
    if not getattr(dbt, "is_incremental", False):
        return None
    return session.sql(f"select * from {dbt.this}").df()
