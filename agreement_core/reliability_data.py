"""Krippendorff's α of a reliability data matrix, for a reader's own data: one row per rater, one
column per unit, None (or NaN) where the rater gave the unit no value, as the `krippendorff`
package takes it. The figure is the marts' own (`maths.krippendorff_alpha` on `maths.label_distances`),
so a value computed here and a row of `agreement` agree to the last bits on the same values.

Krippendorff's worked example (2011, "Computing Krippendorff's Alpha-Reliability"): four raters,
twelve units.

>>> example = [
...     [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
...     [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
...     [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
...     [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
... ]
>>> round(alpha(example), 3)
0.743
>>> round(alpha(example, "ordinal"), 3), round(alpha(example, "interval"), 3), round(alpha(example, "ratio"), 3)
(0.815, 0.849, 0.797)

Labels of a nominal question may be any texts; an ordinal question's are ordered as they sort:

>>> round(alpha([["yes", "no", "yes"], ["yes", "no", "no"]]), 3)
0.444
>>> alpha([[1, 1], [1, 1]])  # no disagreement is possible: α is undefined
nan
"""

import math
from collections.abc import Sequence

import numpy as np

from agreement_core import maths


def alpha(reliability_data: Sequence[Sequence[object]], level_of_measurement: str = "nominal") -> float:
    """Krippendorff's α of `reliability_data` (raters × units; None or NaN: no value) at its level of
    measurement (`nominal`, `ordinal`, `interval` or `ratio`; the last two take numbers). NaN
    where it cannot be computed (fewer than two pairable values, or every value the same)."""
    if level_of_measurement not in maths.LEVELS:
        raise ValueError(f"level of measurement {level_of_measurement!r} is not one of {', '.join(maths.LEVELS)}")
    rows = [list(row) for row in reliability_data]
    n_units = max((len(row) for row in rows), default=0)
    if any(len(row) != n_units for row in rows):
        raise ValueError("every rater's row needs one entry per unit (None where the rater gave no value)")
    given = [(unit, value) for row in rows for unit, value in enumerate(row) if not _is_missing(value)]
    labels = sorted({value for _, value in given})
    position = {label: index for index, label in enumerate(labels)}
    counts = maths.one_hot_counts(
        np.array([unit for unit, _ in given], dtype=int),
        np.array([position[value] for _, value in given], dtype=int),
        n_units,
        len(labels),
    )
    codes = labels if level_of_measurement in ("interval", "ratio") else list(range(1, len(labels) + 1))
    metric = maths.label_distances(np.asarray(codes, dtype=float), level_of_measurement)
    return float(maths.krippendorff_alpha(counts, metric).alpha)


def _is_missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
