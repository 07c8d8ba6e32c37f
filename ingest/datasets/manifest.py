"""A dataset's dataset.yml: its name, its attribution, and how its raters' attributes are read.

Every problem is one line naming the file (and key): nothing of the dataset is loaded.
"""

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from common.errors import DwhError
from common.sources import SOURCES

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{1,31}")
NAME_RULE = "2-32 of a-z, 0-9 and _, starting with a letter"
# what a dataset may not be called: the built-in sources and what their dialogue keys start with
# (`Source.key_prefixes`), the judges' and the ingest's own source names, and the source of dataset loads
RESERVED_NAMES = frozenset(
    {name for source in SOURCES for name in (source.name, *source.key_prefixes)}
    | {"judge", "judges", "ingest", "dataset", "datasets"}
)
NEEDED_KEYS = ("name", "title", "license", "citation")
OPTIONAL_TEXT_KEYS = ("url", "description")
KEYS_HINT = "a dataset.yml gives name, title, license and citation (and optionally url, description, "
KEYS_HINT += "rater_missing, bins, dimensions, alt_test_epsilon)"


@dataclass(frozen=True)
class Manifest:
    """dataset.yml as given (`text`) and its fields; `dimensions` None when not given."""

    path: Path
    text: str
    name: str
    title: str
    license: str
    citation: str
    url: str | None = None
    description: str | None = None
    rater_missing: tuple[str, ...] = ()
    bins: dict[str, tuple[float, ...]] = field(default_factory=dict)
    dimensions: tuple[str, ...] | None = None
    alt_test_epsilon: float | None = None


def read_manifest(path: Path) -> Manifest:
    """dataset.yml parsed and checked: a valid, free name, the needed texts, ascending bins."""
    text = _read_text(path)
    fields = _parse(path, text)
    for key in NEEDED_KEYS:
        if not _text_of(fields.get(key)):
            raise DwhError(f"{path}: no {key!r} ({KEYS_HINT}); nothing was loaded")
    name = _text_of(fields["name"])
    refuse_bad_name(path, name)
    optional = {key: _optional_text(path, fields, key) for key in OPTIONAL_TEXT_KEYS}
    return Manifest(
        path=path,
        text=text,
        name=name,
        title=_text_of(fields["title"]),
        license=_text_of(fields["license"]),
        citation=_text_of(fields["citation"]),
        rater_missing=_texts(path, fields, "rater_missing"),
        bins=_bins(path, fields.get("bins")),
        dimensions=_texts(path, fields, "dimensions") if fields.get("dimensions") is not None else None,
        alt_test_epsilon=_epsilon(path, fields.get("alt_test_epsilon")),
        **optional,
    )


def refuse_bad_name(path: Path, name: str) -> None:
    """A dataset's name is its `source`: a valid identifier, and not one the warehouse already uses."""
    if not NAME_PATTERN.fullmatch(name):
        raise DwhError(f"{path}: name {name!r} is not a dataset name ({NAME_RULE}); nothing was loaded")
    if name in RESERVED_NAMES:
        raise DwhError(
            f"{path}: name {name!r} is taken (built-in sources and the warehouse's own: "
            f"{', '.join(sorted(RESERVED_NAMES))}); choose another; nothing was loaded"
        )


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DwhError(f"{path}: not UTF-8 text (byte {exc.start}); nothing was loaded") from exc
    except OSError as exc:
        raise DwhError(f"{path}: cannot be read ({exc.strerror or exc}); nothing was loaded") from exc


def _parse(path: Path, text: str) -> dict:
    try:
        fields = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not YAML"
        raise DwhError(f"{path}: {where}{problem} (not valid YAML); nothing was loaded") from exc
    if not isinstance(fields, dict):
        raise DwhError(f"{path}: not a YAML mapping of keys ({KEYS_HINT}); nothing was loaded")
    return fields


def _text_of(value: object) -> str:
    """A scalar as text, stripped ('' for nothing)."""
    if value is None or isinstance(value, (dict, list)):
        return ""
    return str(value).strip()


def _optional_text(path: Path, fields: dict, key: str) -> str | None:
    value = fields.get(key)
    if isinstance(value, (dict, list)):
        raise DwhError(f"{path}: {key} is not a text; nothing was loaded")
    return _text_of(value) or None


def _texts(path: Path, fields: dict, key: str) -> tuple[str, ...]:
    """A list of texts (a single text is a list of one)."""
    value = fields.get(key)
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    if any(isinstance(item, (dict, list)) or item is None for item in items):
        raise DwhError(f"{path}: {key} is not a list of texts; nothing was loaded")
    return tuple(str(item).strip() for item in items)


def _bins(path: Path, value: object) -> dict[str, tuple[float, ...]]:
    """`bins`: a rater column's ascending cut points, per column."""
    if value is None:
        return {}
    example = "e.g. bins: {age: [25, 35, 45, 55]}"
    if not isinstance(value, dict):
        raise DwhError(
            f"{path}: bins is not a mapping of a rater column to its cut points ({example}); nothing was loaded"
        )
    bins = {}
    for column, points in value.items():
        numbers = points if isinstance(points, list) else [points]
        if not numbers or not all(_is_number(point) for point in numbers):
            raise DwhError(f"{path}: bins of {str(column)!r}: not a list of numbers ({example}); nothing was loaded")
        for before, after in zip(numbers, numbers[1:]):
            if not after > before:
                raise DwhError(
                    f"{path}: bins of {str(column)!r}: not ascending ({after} after {before}); cut points are "
                    f"ascending numbers ({example}); nothing was loaded"
                )
        bins[str(column)] = tuple(float(point) for point in numbers)
    return bins


def _epsilon(path: Path, value: object) -> float | None:
    """`alt_test_epsilon`: the replacement test's margin ε for the dataset's references, in [0, 1)."""
    if value is None:
        return None
    if not _is_number(value) or not 0 <= value < 1:
        raise DwhError(
            f"{path}: alt_test_epsilon {value!r} is not a number in [0, 1) (the replacement test's margin, "
            "e.g. 0.1 for crowd raters, 0.2 for experts); nothing was loaded"
        )
    return float(value)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Band:
    """One band of a binned attribute: lower <= x < upper (None: unbounded)."""

    order: int
    lower: float | None
    upper: float | None
    label: str


def bands(cut_points: tuple[float, ...]) -> list[Band]:
    """The bands cut points make: `<25`, `25-34`, …, `55+` (integral points; else `[1.5, 2.5)`)."""
    edges: list[float | None] = [None, *cut_points, None]
    return [
        Band(order, lower, upper, _band_label(lower, upper))
        for order, (lower, upper) in enumerate(zip(edges, edges[1:]), start=1)
    ]


def _band_label(lower: float | None, upper: float | None) -> str:
    if lower is None:
        return f"<{_number_text(upper)}"
    if upper is None:
        return f"{_number_text(lower)}+"
    if lower.is_integer() and upper.is_integer():
        return f"{int(lower)}-{int(upper) - 1}"
    return f"[{_number_text(lower)}, {_number_text(upper)})"


def _number_text(value: float | None) -> str:
    return str(int(value)) if value is not None and value.is_integer() else str(value)
