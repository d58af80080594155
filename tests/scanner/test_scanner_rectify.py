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


@pytest.mark.parametrize(("ppc", "margin"), [(CANON_PPC, CANON_MARGIN), (24, 2.0), (33, 1.3)])
def test_crossing_maps_banded_are_the_whole_image_formula(ppc: int, margin: float) -> None:
    # the maps are computed a band of rows at a time: the same numbers as the formula over the
    # whole image (the homography in float64, plus the residual, stored as float32)
    import cv2

    from scanner.rectify import _crossing_maps, canon_matrix

    rng = np.random.default_rng(ppc)
    corners = np.array([[200.0, 400.0], [1200.0, 500.0], [1300.0, 1500.0], [190.0, 1500.0]])
    h = grid_homography(corners + rng.normal(0.0, 60.0, (4, 2)))
    crossings = apply_h(h, NODES) + rng.normal(0.0, 1.5, (12, 12, 2))
    size = canon_size(ppc, margin)
    map_x, map_y = _crossing_maps(h, crossings, ppc, margin, size)
    zero = _crossing_maps(h, apply_h(h, NODES), ppc, margin, size)  # no residual: the homography
    m = h @ np.linalg.inv(canon_matrix(ppc, margin))
    u = np.arange(size, dtype=np.float64)
    den = m[2, 0] * u[None, :] + (m[2, 1] * u + m[2, 2])[:, None]
    plain_x = (m[0, 0] * u[None, :] + (m[0, 1] * u + m[0, 2])[:, None]) / den
    plain_y = (m[1, 0] * u[None, :] + (m[1, 1] * u + m[1, 2])[:, None]) / den
    np.testing.assert_array_equal(zero[0], plain_x.astype(np.float32))
    np.testing.assert_array_equal(zero[1], plain_y.astype(np.float32))
    # the residual moves the maps by at most its own size, smoothly (bilinear between crossings)
    moved = np.hypot(map_x - zero[0], map_y - zero[1])
    resid = crossings - apply_h(h, NODES)
    assert 0.0 < float(moved.max()) <= float(np.hypot(resid[..., 0], resid[..., 1]).max()) + 1e-3
    assert cv2.Laplacian(moved, cv2.CV_32F).std() < 0.05
