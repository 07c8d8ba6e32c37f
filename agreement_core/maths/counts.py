"""Value counts `(labels, units)` or `(labels, sets, units)` from values given as label, unit and
rater numbers: the arrays every figure reads."""

import numpy as np
from scipy import sparse

Array = np.ndarray


def one_hot_counts(unit_index: Array, label_index: Array, n_units: int, n_labels: int) -> Array:
    """`(labels, units)` counts of values given as (unit number, label number) pairs."""
    flat = np.bincount(np.asarray(label_index) * n_units + np.asarray(unit_index), minlength=n_labels * n_units)
    return flat.reshape(n_labels, n_units).astype(float)


def values_by_rater(
    label_index: Array, unit_index: Array, rater_index: Array, n_labels: int, n_units: int, n_raters: int
) -> sparse.csr_array:
    """`(labels × units, raters)`: 1 where the rater gave the label on the unit (one entry per value)."""
    rows = np.asarray(label_index) * n_units + np.asarray(unit_index)
    return sparse.csr_array((np.ones(rows.size), (rows, rater_index)), shape=(n_labels * n_units, n_raters))


def counts_of_rater_sets(values: sparse.csr_array, membership: Array | sparse.sparray, n_labels: int) -> Array:
    """`(labels, sets, units)`: the counts of the values of each set of raters, as one sparse product
    of the values by rater (`values_by_rater`) and `membership` `(raters, sets)`, 1 where the rater
    is in the set (a group; a group in one permutation). Integers in float64: exact in any order."""
    counts = values @ membership
    counts = counts.toarray() if sparse.issparse(counts) else counts
    by_unit = counts.reshape(n_labels, -1, counts.shape[-1])
    return np.ascontiguousarray(by_unit.transpose(0, 2, 1))  # units last: the figures sum along them
