"""How much data a judge's figure needs before it is shown: the floors of `judge_agreement` and
`judge_comparison`, in a module of their own (no numpy, no pandas) so that `dwh report` reads the
same numbers the figures were computed with. Stated in docs/INTERFACE.md ("judge_agreement")."""

# a reference's rater counts in the human ceiling with at least this many units beside the others;
# a judge's xRR interval and its place among those raters (judge_percentile) need as many units
# shared with the reference: a handful of units is no finding
MIN_CEILING_UNITS = 10
MIN_JUDGE_UNITS = MIN_CEILING_UNITS
# an xRR needs two units (on one, observed and expected disagreement are the same pairs: 0 by
# construction) and an expected disagreement above float noise (constant values: no variation)
MIN_XRR_UNITS = 2
# alignment = xrr ÷ xrr_with_rest is read only where the judge agrees with the rest of the pool
# clearly above chance: below this xrr_with_rest the ratio of a figure to a chance-level one (−99.4,
# 303.0 for a random judge) is no number to read, and alignment is null. The permutation test
# (alignment_p, alignment_q) stays: it asks whether the judge sides with the group beyond chance,
# which a judge that follows only the group (xrr_with_rest near 0) does
ALIGNMENT_FLOOR = 0.1
