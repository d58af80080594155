"""models.compare: the paired bootstrap over sheets that says whether two models' readings differ."""

from __future__ import annotations

import numpy as np
import pytest

from models.compare import Difference, paired_difference


def test_the_same_readings_differ_by_nothing() -> None:
    a = np.array([100, 90, 95, 80])
    d = paired_difference(a, a, np.full(4, 110))
    assert d == Difference(0.0, 0.0, 0.0)
    assert not d.clear


def test_one_cell_more_on_every_sheet_is_a_clear_gain_of_its_share() -> None:
    a = np.array([50, 60, 70, 80, 90])
    d = paired_difference(a, a + 1, np.full(5, 100))
    assert d.points == pytest.approx(1.0)
    assert d.low == pytest.approx(1.0) and d.high == pytest.approx(1.0)
    assert d.clear


def test_a_difference_one_sheet_carries_is_not_clear_though_the_same_spread_out_is() -> None:
    # the case the module is for: a whole terrain of one sheet read differently
    totals = np.full(30, 100)
    a = np.full(30, 90)
    one = a.copy()
    one[7] += 30
    spread = a + 1
    lumped = paired_difference(a, one, totals)
    even = paired_difference(a, spread, totals)
    assert lumped.points == pytest.approx(even.points) == pytest.approx(1.0)
    assert lumped.low <= 0.0 < lumped.high
    assert not lumped.clear
    assert even.clear


def test_the_interval_holds_the_point_and_repeats_for_a_seed() -> None:
    rng = np.random.default_rng(3)
    totals = rng.integers(100, 120, 40)
    a = totals - rng.integers(0, 10, 40)
    b = totals - rng.integers(0, 12, 40)
    d = paired_difference(a, b, totals)
    assert d.low <= d.points <= d.high
    assert paired_difference(a, b, totals) == d
    assert paired_difference(b, a, totals).points == pytest.approx(-d.points)


def test_no_sheets_give_zeros_and_mismatched_lengths_are_refused() -> None:
    assert paired_difference(np.zeros(0), np.zeros(0), np.zeros(0)) == Difference(0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match="one length"):
        paired_difference(np.ones(3), np.ones(4), np.ones(3))


def test_text_shows_the_signed_points_and_interval() -> None:
    assert str(Difference(-1.5, -2.25, -0.75)) == "-1.50 [-2.25, -0.75]"
