"""Sums over the unit axis (last) under unit weights `(..., units)`: 1 for the figure itself, the
number of times a bootstrap draw picked the unit otherwise. A figure's own sums are summed unit by
unit (einsum's own loop); a batch of bootstrap draws or swaps is summed as one matrix product (BLAS,
`draws_sum`), exact for counts and equal to float rounding for disagreements."""

import numpy as np

Array = np.ndarray


def unit_sum(unit_weights: Array, values: Array) -> Array:
    """Σ_u w_u · values_u over the unit axis (last), broadcasting the axes before it. Draws' weights
    (axes of their own, which `values` do not have) make it a matrix product (`draws_sum`); else
    it is summed in one pass without a temporary (einsum's own loop)."""
    if _draw_axes(unit_weights, values):
        return draws_sum(unit_weights, values)
    return np.einsum("...u,...u->...", unit_weights, values, optimize=False)


def _draw_axes(unit_weights: Array, values: Array) -> bool:
    """Whether the weights vary along axes (draws) where the values do not, and never along one
    where they do: Σ_u w_u · values_u is then an outer product over those axes."""
    n_axes = max(unit_weights.ndim, values.ndim) - 1
    weight_sizes = (1,) * (n_axes + 1 - unit_weights.ndim) + unit_weights.shape[:-1]
    value_sizes = (1,) * (n_axes + 1 - values.ndim) + values.shape[:-1]
    if any(w > 1 and v > 1 for w, v in zip(weight_sizes, value_sizes)):
        return False
    return any(w > 1 for w in weight_sizes)


def draws_sum(unit_weights: Array, values: Array) -> Array:
    """`unit_sum` as one matrix product `(values, units) @ (units, draws)`, its axes then put where
    broadcasting puts them. BLAS adds in an order of its own: sums of counts stay exact integers,
    sums of per-unit disagreements may differ from a unit-by-unit sum in their last bits."""
    n_axes = max(unit_weights.ndim, values.ndim) - 1
    weights = unit_weights.reshape((1,) * (n_axes + 1 - unit_weights.ndim) + unit_weights.shape)
    values = values.reshape((1,) * (n_axes + 1 - values.ndim) + values.shape)
    weight_axes = [axis for axis in range(n_axes) if weights.shape[axis] > 1]
    value_axes = [axis for axis in range(n_axes) if values.shape[axis] > 1]
    n_units = values.shape[-1]
    product = values.reshape(-1, n_units) @ weights.reshape(-1, n_units).T
    sizes = [values.shape[axis] for axis in value_axes] + [weights.shape[axis] for axis in weight_axes]
    in_order = np.argsort(value_axes + weight_axes)
    return product.reshape(sizes).transpose(in_order).reshape(np.broadcast_shapes(weights.shape, values.shape)[:-1])


def unit_weights_or_ones(unit_weights: Array | None, n_units: int) -> Array:
    return np.ones(n_units) if unit_weights is None else np.asarray(unit_weights, dtype=float)
