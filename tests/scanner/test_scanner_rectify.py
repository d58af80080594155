"""rectify: the grid lands on [margin, margin + 11 * ppc]; crossings warp agrees with the homography."""

from __future__ import annotations

import numpy as np
import pytest
from scanner_fixtures import draw_page, photograph

from scanner.constants import CANON_MARGIN, CANON_PPC
from scanner.orient import min_channel
from scanner.rectify import apply_h, canon_size, grid_homography, rectify

NODES = np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0), indexing="xy"), axis=-1)


def _line_profile(canon: np.ndarray, axis: int) -> np.ndarray:
    profile: np.ndarray = (255.0 - min_channel(canon).astype(float)).mean(axis=axis)
    return profile


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_frame_lines_land_on_the_canonical_grid_edges(turn: int) -> None:
    page, corners = draw_page("A")
    photo, pc = photograph(page, corners, turn=turn, tilt=0.1)
    canon = rectify(photo, pc)
    size = canon_size(CANON_PPC, CANON_MARGIN)
    assert canon.shape == (size, size, 3)
    o, end = CANON_MARGIN * CANON_PPC, (CANON_MARGIN + 11) * CANON_PPC
    rows, cols = canon[int(o) : int(end)], canon[:, int(o) : int(end)]
    for prof in (_line_profile(rows, 0), _line_profile(cols, 1)):  # vertical lines, horizontal lines
        for edge in (o, end):
            window = prof[int(edge) - 6 : int(edge) + 7]
            assert abs(int(np.argmax(window)) - 6) <= 2  # the heavy frame line is at the grid edge


def test_crossing_warp_equals_homography_when_flat() -> None:
    page, corners = draw_page("A")
    photo, pc = photograph(page, corners, tilt=0.2)
    plain = rectify(photo, pc)
    curled = rectify(photo, pc, crossings=apply_h(grid_homography(pc), NODES))
    diff = np.abs(plain.astype(int) - curled)
    assert np.percentile(diff, 99.5) <= 2 and diff.mean() < 0.2  # only rounding at sharp edges


def test_crossing_warp_follows_a_bent_line() -> None:
    # Move the crossings of column line 5 right by 0.3 cell: the canonical line there must follow.
    page, corners = draw_page("A")
    photo, pc = photograph(page, corners)
    h = grid_homography(pc)
    bent_cells = NODES.copy()
    bent_cells[:, 5, 0] += 0.3
    canon = rectify(photo, pc, crossings=apply_h(h, bent_cells))
    o = CANON_MARGIN * CANON_PPC
    band = canon[int(o + 2 * CANON_PPC) : int(o + 9 * CANON_PPC)]
    prof = _line_profile(band, 0)
    x_line = o + 5 * CANON_PPC
    # the printed line at 5 now appears 0.3 cell to the LEFT of the canonical position 5
    left = prof[int(x_line - 0.3 * CANON_PPC) - 3 : int(x_line - 0.3 * CANON_PPC) + 4].max()
    there = prof[int(x_line) - 2 : int(x_line) + 3].max()
    assert left > there
