"""Pearson's r and Spearman's ρ with their p-values (`correlations`: the scores' and the judges')."""

import numpy as np
from scipy import special

Array = np.ndarray


def correlation_p_value(r: Array, n: Array) -> Array:
    """Two-sided p of a correlation r over n pairs from Student's t with n − 2 degrees of freedom, as
    scipy.stats.pearsonr and spearmanr give it: t = r √((n − 2) / (1 − r²)); NaN below 3 pairs.
    The tail is scipy.special's Student t distribution function, which scipy.stats.t.sf itself
    calls: importing scipy.stats costs every build a second, and this is all it would be used for."""
    r = np.asarray(r, dtype=float)
    n = np.asarray(n, dtype=float)
    degrees = n - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.abs(r) * np.sqrt(degrees / ((1 - r) * (1 + r)))
        p_value = 2 * special.stdtr(np.where(degrees >= 1, degrees, 1), -statistic)
    return np.where((degrees >= 1) & ~np.isnan(r), np.minimum(p_value, 1.0), np.nan)


def average_ranks(values: Array) -> Array:
    """Ranks from 1, tied values sharing the mean of their ranks (scipy.stats.rankdata's "average")."""
    values = np.asarray(values, dtype=float)
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts_a_tie = np.concatenate(([True], ordered[1:] != ordered[:-1]))
    first = np.flatnonzero(starts_a_tie)
    last = np.append(first[1:], values.size)  # a tie holds ranks first + 1 … last
    ranks = np.empty(values.size)
    ranks[order] = ((first + 1 + last) / 2)[np.cumsum(starts_a_tie) - 1]
    return ranks


def pearson_r(x: Array, y: Array) -> float:
    """Pearson's r of paired values; NaN with fewer than 2 pairs or a side that does not vary."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.size < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    # each side scaled to unit length before the product, as scipy.stats.pearsonr: a perfect
    # correlation comes out as 1 to the last bit, and its p as 0
    x_unit, y_unit = (side - side.mean() for side in (x, y))
    r = (x_unit / np.linalg.norm(x_unit)) @ (y_unit / np.linalg.norm(y_unit))
    return float(np.clip(r, -1.0, 1.0))


def correlations(x: Array, y: Array) -> dict[str, float]:
    """Pearson's r and Spearman's ρ (r of the average ranks) of paired values, each with its
    two-sided p (`correlation_p_value`), as scipy.stats.pearsonr and spearmanr give them: the one
    implementation of both, for `score_correlations` and the judges' ρ."""
    n = np.asarray(x).size
    r = pearson_r(x, y)
    rho = pearson_r(average_ranks(x), average_ranks(y))
    return {
        "pearson_r": r,
        "pearson_p": float(correlation_p_value(r, n)),
        "spearman_rho": rho,
        "spearman_p": float(correlation_p_value(rho, n)),
    }
