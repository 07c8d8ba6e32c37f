"""How the tests judge a figure: equal to its expected value (`same_figure`), and, for the
permutation tests' p-values, what every one of them promises: calibrated under no effect, and a
sequential test that keeps every decision of the test of all P shuffles (docs/INTERFACE.md,
"Uncertainty")."""

import math
import numbers

import numpy as np
import pandas as pd
import scipy.stats

# a figure and its independent computation agree to this, absolute or relative: two computations
# add floats in different orders (DuckDB in parallel, BLAS in blocks), and α near 0 or a GAI with an
# xRR near 0 magnify ~1e-15 to ~1e-9 relative
TOLERANCE = 1e-9


def is_null(value: object) -> bool:
    """None, pandas' NA or a float NaN: what a null figure arrives as, from SQL or from numpy."""
    return value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value))


def same_figure(expected: object, actual: object) -> bool:
    """Equal: numbers within TOLERANCE, null (None, NaN, pd.NA) only to null, booleans as booleans,
    integers exactly, lists and tuples element by element, anything else exactly."""
    if is_null(expected) or is_null(actual):
        return is_null(expected) and is_null(actual)
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple))
            and len(expected) == len(actual)
            and all(same_figure(e, a) for e, a in zip(expected, actual))
        )
    if isinstance(expected, (bool, np.bool_)) or isinstance(actual, (bool, np.bool_)):
        return bool(expected) == bool(actual)
    if isinstance(expected, numbers.Integral) and isinstance(actual, numbers.Integral):
        return expected == actual
    if isinstance(expected, numbers.Number) and isinstance(actual, numbers.Number):
        return math.isclose(float(expected), float(actual), rel_tol=TOLERANCE, abs_tol=TOLERANCE)
    return expected == actual


def assert_calibrated(full: np.ndarray, sequential: np.ndarray) -> None:
    """p-values of independent tests without an effect: of all P shuffles uniform (Kolmogorov–Smirnov,
    and about 5% below 0.05: within ±3 binomial SDs for 150 tests or more); sequential, the same at
    0.05 or below and never too small: P(p ≤ α) ≤ α within 3 binomial SDs for every α."""
    n = len(full)
    assert not np.isnan(full).any() and not np.isnan(sequential).any()
    assert ((full > 0) & (full <= 1)).all() and ((sequential > 0) & (sequential <= 1)).all()
    assert scipy.stats.kstest(full, "uniform").pvalue > 0.01
    assert 0.01 <= (full < 0.05).mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / n)
    assert_keeps_decisions(full, sequential)
    for level in (0.01, 0.05, 0.1, 0.2, 0.3, 0.5, 0.8):
        assert (sequential <= level).mean() <= level + 3 * np.sqrt(level * (1 - level) / n), level


def assert_keeps_decisions(
    p_full: np.ndarray, p: np.ndarray, q_full: np.ndarray | None = None, q: np.ndarray | None = None
) -> None:
    """A sequential test's p (and Benjamini–Hochberg q) against the test of all P shuffles: every
    p ≤ 0.05 the same, exactly; every other p above 0.05; q < 0.05 for the same figures, with the
    same q (`resampling.stopping_count`)."""
    significant = p_full <= 0.05
    assert np.array_equal(p[significant], p_full[significant]), (p, p_full)
    assert (p[~significant & ~np.isnan(p_full)] > 0.05).all(), (p, p_full)
    assert np.array_equal(np.isnan(p), np.isnan(p_full))
    if q is not None:
        assert np.array_equal(q < 0.05, q_full < 0.05) and np.array_equal(q[q < 0.05], q_full[q_full < 0.05])
