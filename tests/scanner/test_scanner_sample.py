"""sample: patch shapes and that each patch shows the cell / coin / edge it claims."""

from __future__ import annotations

import numpy as np

from scanner import cell_patches, coin_patches, edge_strips
from scanner.constants import CANON_MARGIN, CANON_PPC, EDGE_ACROSS, EDGE_ALONG, PATCH
from scanner.rectify import canon_size
from scanner.sample import coin_centers_px

SIZE = canon_size(CANON_PPC, CANON_MARGIN)
ORG = round(CANON_MARGIN * CANON_PPC)


def _blank() -> np.ndarray:
    return np.full((SIZE, SIZE, 3), 255, np.uint8)


def test_cell_patch_shows_its_own_cell() -> None:
    canon = _blank()
    r, c = 3, 7
    canon[
        ORG + r * CANON_PPC : ORG + (r + 1) * CANON_PPC, ORG + c * CANON_PPC : ORG + (c + 1) * CANON_PPC
    ] = (
        0,
        0,
        200,
    )
    patches = cell_patches(canon)
    assert patches.shape == (11, 11, PATCH, PATCH, 3) and patches.dtype == np.uint8
    red = patches[..., 2].astype(int) - patches[..., 0]
    assert (red[r, c] == 200).all()
    red[r, c] = 0
    assert (red == 0).all()


def test_cell_patches_leave_out_the_printed_edges() -> None:
    canon = _blank()
    for k in range(12):  # black grid lines 2 px wide
        canon[ORG + k * CANON_PPC - 1 : ORG + k * CANON_PPC + 1] = 0
        canon[:, ORG + k * CANON_PPC - 1 : ORG + k * CANON_PPC + 1] = 0
    assert (cell_patches(canon) == 255).all()


def test_coin_patches_are_centred_on_the_circles() -> None:
    canon = _blank()
    centers = np.rint(coin_centers_px()).astype(int)
    x, y = centers[4]
    canon[y - 3 : y + 3, x - 3 : x + 3] = 0
    coins = coin_patches(canon)
    assert coins.shape == (14, PATCH, PATCH, 3)
    dark = np.argwhere(coins[4, :, :, 0] == 0)
    assert abs(dark.mean(axis=0) - (PATCH / 2 - 0.5)).max() <= 1.0
    assert (np.delete(coins, 4, axis=0) == 255).all()


def test_edge_strips_are_centred_on_edges_and_oriented_alike() -> None:
    canon = _blank()
    r, c = 4, 2
    # the cell (r, c) is dark: its right edge strip (vertical) and bottom edge strip (horizontal)
    # both show it on their top half
    canon[
        ORG + r * CANON_PPC : ORG + (r + 1) * CANON_PPC, ORG + c * CANON_PPC : ORG + (c + 1) * CANON_PPC
    ] = 0
    strips = edge_strips(canon)
    assert strips.vertical.shape == (11, 10, EDGE_ACROSS, EDGE_ALONG, 3)
    assert strips.horizontal.shape == (10, 11, EDGE_ACROSS, EDGE_ALONG, 3)
    for strip in (strips.vertical[r, c], strips.horizontal[r, c]):
        assert (strip[: EDGE_ACROSS // 2] == 0).all()
        assert (strip[EDGE_ACROSS // 2 :] == 255).all()
    assert (strips.vertical[r, c - 1][EDGE_ACROSS // 2 :] == 0).all()  # left edge: the cell is below


def test_wrong_shape_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="canonical image"):
        cell_patches(np.zeros((100, 100, 3), np.uint8))
