"""GAI (group association index) = α ÷ xRR, and each group's α, xRR with every rater outside it and
GAI in one call (`group_figures`)."""

from dataclasses import dataclass

import numpy as np

from agreement_core.maths.alpha import Reliability, krippendorff_alpha
from agreement_core.maths.distances import Metric
from agreement_core.maths.xrr import CrossReliability, cross_reliability

Array = np.ndarray

# below this, xRR is 0 and GAI = α ÷ xRR is float noise
XRR_ZERO = 1e-12


def group_association_index(alpha: Array, xrr: Array) -> Array:
    """GAI = α ÷ xRR; NaN where either is NaN or xRR is 0 within float noise."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(np.abs(xrr) >= XRR_ZERO, alpha / xrr, np.nan)


@dataclass
class GroupFigures:
    """Each group's α among its own values, its xRR with every rater outside it, and GAI."""

    reliability: Reliability
    cross: CrossReliability
    gai: Array

    @property
    def alpha(self) -> Array:
        return self.reliability.alpha

    @property
    def xrr(self) -> Array:
        return self.cross.xrr


def group_figures(
    group_counts: Array, all_counts: Array, metric: Metric, unit_weights: Array | None = None
) -> GroupFigures:
    """α of each group's own values, its xRR with every rater outside it (all values − the group's)
    and GAI. `group_counts` `(labels, ..., groups, units)`, `all_counts` `(labels, units)`."""
    reliability = krippendorff_alpha(group_counts, metric, unit_weights)
    outside = all_counts.reshape(all_counts.shape[0], *[1] * (group_counts.ndim - 2), -1) - group_counts
    cross = cross_reliability(group_counts, outside, metric, unit_weights)
    return GroupFigures(reliability=reliability, cross=cross, gai=group_association_index(reliability.alpha, cross.xrr))
