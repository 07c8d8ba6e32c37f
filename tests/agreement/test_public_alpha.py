"""`agreement_core.alpha()`, the marts' α for a reader's own raters × units matrix: its doctests
(Krippendorff's worked example) run, and on any matrix it equals the `krippendorff` package's α."""

import doctest
import math

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agreement_core
from agreement_core import reliability_data

LEVELS = ["nominal", "ordinal", "interval", "ratio"]


def test_the_doctests_hold() -> None:
    outcome = doctest.testmod(reliability_data)

    assert outcome.attempted >= 5 and outcome.failed == 0


@st.composite
def matrices(draw: st.DrawFn) -> list[list[float | None]]:
    """2–6 raters × 2–25 units of values from a small positive scale, a third of the cells missing at most."""
    n_raters, n_units = draw(st.integers(2, 6)), draw(st.integers(2, 25))
    scale = draw(st.lists(st.integers(1, 20), min_size=2, max_size=6, unique=True))
    cell = st.one_of(st.sampled_from(scale), st.none()) if draw(st.booleans()) else st.sampled_from(scale)
    return [[draw(cell) for _ in range(n_units)] for _ in range(n_raters)]


@settings(max_examples=150, deadline=None)
@given(data=matrices(), level=st.sampled_from(LEVELS))
def test_alpha_equals_the_krippendorff_package_on_any_matrix(data: list[list[float | None]], level: str) -> None:
    as_numbers = np.array([[np.nan if value is None else value for value in row] for row in data], dtype=float)
    values = as_numbers[~np.isnan(as_numbers)]
    pairable = (~np.isnan(as_numbers)).sum(axis=0) >= 2
    if len(np.unique(values[np.repeat(pairable[None, :], len(data), axis=0)[~np.isnan(as_numbers)]])) < 2:
        assert math.isnan(agreement_core.alpha(data, level))  # no disagreement possible: undefined, not 1
        return

    expected = krippendorff.alpha(reliability_data=as_numbers, level_of_measurement=level)

    assert agreement_core.alpha(data, level) == pytest.approx(expected, rel=1e-12, abs=1e-12, nan_ok=True)


def test_a_nominal_question_takes_texts_and_an_unknown_level_or_a_ragged_matrix_is_refused() -> None:
    assert agreement_core.alpha([["a", "b", None], ["a", "b", "b"]]) == agreement_core.alpha([[1, 2, None], [1, 2, 2]])
    with pytest.raises(ValueError, match="not one of nominal, ordinal, interval, ratio"):
        agreement_core.alpha([[1, 2]], "cardinal")
    with pytest.raises(ValueError, match="one entry per unit"):
        agreement_core.alpha([[1, 2], [1]])
