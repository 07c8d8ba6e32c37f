"""The agreement figures, each written once, one home each: the label distances δ of each level of
measurement (`distances`), Krippendorff's α (`alpha`), xRR (cross-replication reliability) and the
sums over units it is made of (`xrr`), GAI and a group's three figures together (`gai`), the value
counts every figure reads (`counts`), the weighted sums over units and their matrix products
(`unit_sums`), and Pearson's r and Spearman's ρ with their p-values (`correlation`: the scores'
and the judges'). Vectorised with numpy; the row's figure and every bootstrap draw and permutation
of it come from these functions (definitions: docs/AGREEMENT.md, "Definitions"). Each is named here
too, so that a figure reads as `maths.krippendorff_alpha(...)` wherever it is used.

Counts are arrays `(labels, ..., units)`: how many values of each label a set of raters gave on
each unit; the axes between are groups, permutations or bootstrap draws (labels first and units
last: numpy is fast over long contiguous axes and slow over a short last one). `metric` is δ,
the distance between two labels (`label_distances`). `unit_weights`
`(..., units)` say how often each unit counts: 1 for the figure itself, the number of times a
bootstrap draw picked it otherwise. Figures that cannot be computed are NaN.

Sums of counts are integers held exactly in float64. The figures themselves are summed unit by unit
(einsum's own loop); a batch of bootstrap draws or swaps is summed as one matrix product (BLAS,
`draws_sum`), exact for counts and equal to float rounding for disagreements.
"""

from agreement_core.maths.alpha import Reliability, krippendorff_alpha
from agreement_core.maths.correlation import average_ranks, correlation_p_value, correlations, pearson_r
from agreement_core.maths.counts import counts_of_rater_sets, one_hot_counts, values_by_rater
from agreement_core.maths.distances import LEVELS, Metric, label_distances, summed_distances
from agreement_core.maths.gai import XRR_ZERO, GroupFigures, group_association_index, group_figures
from agreement_core.maths.unit_sums import draws_sum, unit_sum
from agreement_core.maths.xrr import CrossReliability, CrossSums, CrossTerms, cross_reliability, cross_sums_of_sets

__all__ = [
    "LEVELS",
    "XRR_ZERO",
    "CrossReliability",
    "CrossSums",
    "CrossTerms",
    "GroupFigures",
    "Metric",
    "Reliability",
    "average_ranks",
    "correlation_p_value",
    "correlations",
    "counts_of_rater_sets",
    "cross_reliability",
    "cross_sums_of_sets",
    "draws_sum",
    "group_association_index",
    "group_figures",
    "krippendorff_alpha",
    "label_distances",
    "one_hot_counts",
    "pearson_r",
    "summed_distances",
    "unit_sum",
    "values_by_rater",
]
