"""Krippendorff's α from value counts `(labels, ..., units)`: 1 − D_o / D_e over the pairable units
(definitions: docs/AGREEMENT.md, "Definitions")."""

from dataclasses import dataclass

import numpy as np

from agreement_core.maths.distances import Metric, summed_distances
from agreement_core.maths.unit_sums import unit_sum, unit_weights_or_ones

Array = np.ndarray


@dataclass
class Reliability:
    """Krippendorff's α with what it is made of: the pairable units (≥ 2 values) and their values,
    the observed and the expected disagreement (NaN with fewer than 2 pairable values)."""

    n_units: Array
    n_values: Array
    observed_disagreement: Array
    expected_disagreement: Array
    alpha: Array


def krippendorff_alpha(counts: Array, metric: Metric, unit_weights: Array | None = None) -> Reliability:
    """α = 1 − D_o / D_e over the pairable units (≥ 2 values); α NaN with < 2 pairable values or D_e = 0."""
    counts = np.asarray(counts, dtype=float)
    weights = unit_weights_or_ones(unit_weights, counts.shape[-1])
    n_unit = metric.n_values(counts)
    pairable = n_unit >= 2
    n_values = unit_sum(weights, pairable * n_unit)
    label_totals = unit_sum(weights, pairable * counts)
    metric = metric.given(label_totals)
    within = summed_distances(counts, metric, counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_pairing = np.where(pairable, within / np.where(pairable, n_unit - 1, 1), 0.0)
        observed = unit_sum(weights, per_pairing) / n_values
        expected = summed_distances(label_totals, metric, label_totals) / (n_values * (n_values - 1))
        alpha = 1 - observed / expected
    computable = n_values >= 2
    return Reliability(
        n_units=unit_sum(weights, pairable.astype(float)),
        n_values=n_values,
        observed_disagreement=np.where(computable, observed, np.nan),
        expected_disagreement=np.where(computable, expected, np.nan),
        alpha=np.where(computable & (expected > 0), alpha, np.nan),
    )
