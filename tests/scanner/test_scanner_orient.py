"""orient.judge on canonical images of drawn sheets: every quarter turn, side A and B, non-sheets."""

from __future__ import annotations

import numpy as np
import pytest
from scanner_fixtures import draw_page

from scanner import Failure, Orientation, judge
from scanner.constants import ORIENT_PPC
from scanner.orient import SIDES, side_cells, side_scores
from scanner.rectify import rectify


def _canonical(side: str, **kw: bool) -> np.ndarray:
    page, corners = draw_page(side, **kw)
    return rectify(page, corners, ppc=ORIENT_PPC)


@pytest.mark.parametrize("side", ["A", "B"])
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_every_quarter_turn_is_undone(side: str, k: int) -> None:
    turned = np.rot90(_canonical(side), -k)  # k quarter turns clockwise
    verdict = judge(turned)
    assert isinstance(verdict, Orientation), verdict
    assert verdict.side == side and verdict.turns == k
    assert verdict.side_confidence > 0.5 and verdict.turn_confidence > 0.2


def test_side_a_half_turn_is_told_by_the_coin_track() -> None:
    # side A's mountains are symmetric under a half turn: without the coin track the two tie
    with_coins = judge(np.rot90(_canonical("A"), 2))
    assert isinstance(with_coins, Orientation) and with_coins.turns == 2
    bare = side_scores(np.zeros((4, 11, 11)))
    assert bare.shape == (len(SIDES),)


def test_a_grid_without_landmarks_is_no_sheet() -> None:
    got = judge(_canonical("A", mountains=False, coins=False))
    assert isinstance(got, Failure) and got.reason == "no_sheet"


def test_side_cells_come_from_the_rules() -> None:
    mountains, waste, ruins = side_cells("B")
    assert len(mountains) == 5 and len(waste) == 7 and len(ruins) == 6
    assert (5, 5) in waste  # F6 lies in side B's rift



def test_the_true_sides_mountains_look_alike_and_drawings_do_not() -> None:
    # the fixture prints side A's mountains as dark squares; drawings in two of side B's mountain
    # cells (a dark square, a pencil stroke) must not make B's cells look like one printed glyph
    import cv2

    from scanner.constants import CANON_MARGIN
    from scanner.orient import cell_likeness

    p = ORIENT_PPC
    canon = np.ascontiguousarray(_canonical("A"))
    o = round(CANON_MARGIN * p)
    (r, c), (r2, c2) = side_cells("B")[0][:2]
    cv2.rectangle(canon, (o + c * p + 5, o + r * p + 5), (o + c * p + 19, o + r * p + 19), (40, 60, 90), -1)
    cv2.line(canon, (o + c2 * p + 4, o + r2 * p + 4), (o + c2 * p + 20, o + r2 * p + 20), (70, 70, 70), 2)
    a, b = cell_likeness(canon, [side_cells("A")[0], side_cells("B")[0]])
    assert a > 0.7 and b < 0.4, (a, b)
