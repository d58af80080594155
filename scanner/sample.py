"""Cut the canonical image into what the classifier reads: cells, coins and the edges between cells.

Every function takes the canonical image made by :func:`scanner.rectify.rectify` with the default
``CANON_PPC`` and ``CANON_MARGIN``; the classifier is trained on exactly these outputs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rules.grid import COIN_TRACK, SIZE
from scanner.constants import CANON_MARGIN, CANON_PPC, CELL_INSET, EDGE_ACROSS, EDGE_ALONG, PATCH
from scanner.geometry import geometry
from scanner.rectify import canon_size

_ORIGIN = round(CANON_MARGIN * CANON_PPC)  # canonical px of the A1 corner


class EdgeStrips(NamedTuple):
    """Strips centred on the internal cell edges, all laid out with the edge running left to right.

    Attributes
    ----------
    vertical : (11, 10, EDGE_ACROSS, EDGE_ALONG, 3) uint8
        ``[r, c]`` is the edge between cells ``(r, c)`` and ``(r, c + 1)`` (transposed, see Notes).
    horizontal : (10, 11, EDGE_ACROSS, EDGE_ALONG, 3) uint8
        ``[r, c]`` is the edge between cells ``(r, c)`` (top of the strip) and ``(r + 1, c)``.

    Notes
    -----
    Vertical strips are transposed (x and y swapped), so the top of the strip shows cell ``(r, c)``
    and the bottom cell ``(r, c + 1)``, just as in horizontal strips.
    """

    vertical: np.ndarray
    horizontal: np.ndarray


def _check(canonical: np.ndarray) -> None:
    size = canon_size(CANON_PPC, CANON_MARGIN)
    if canonical.shape[:2] != (size, size) or canonical.ndim != 3:
        raise ValueError(f"expected a canonical image of shape ({size}, {size}, 3), got {canonical.shape}")


def cell_patches(canonical: np.ndarray) -> np.ndarray:
    """The interior of every cell.

    Parameters
    ----------
    canonical : (S, S, 3) uint8
        Output of ``rectify`` at the default scale.

    Returns
    -------
    (11, 11, PATCH, PATCH, 3) uint8
        ``[r, c]`` is cell ``(r, c)``, inset ``CELL_INSET`` px from its printed edges.
    """
    _check(canonical)
    grid = canonical[_ORIGIN : _ORIGIN + SIZE * CANON_PPC, _ORIGIN : _ORIGIN + SIZE * CANON_PPC]
    cells = grid.reshape(SIZE, CANON_PPC, SIZE, CANON_PPC, 3).transpose(0, 2, 1, 3, 4)
    return np.ascontiguousarray(cells[:, :, CELL_INSET : CELL_INSET + PATCH, CELL_INSET : CELL_INSET + PATCH])


def coin_centers_px() -> np.ndarray:
    """Canonical px (x, y) of the 14 coin-track circles, shape (14, 2)."""
    return _ORIGIN + geometry().coin_centers() * CANON_PPC


def coin_patches(canonical: np.ndarray) -> np.ndarray:
    """A square around every coin-track circle.

    Returns
    -------
    (14, PATCH, PATCH, 3) uint8
        Left to right; each patch is centred on its circle and holds the whole circle plus the
        cross or fill a player draws on it.
    """
    _check(canonical)
    half = PATCH // 2
    out = np.empty((COIN_TRACK, PATCH, PATCH, 3), dtype=np.uint8)
    for i, (x, y) in enumerate(np.rint(coin_centers_px()).astype(int)):
        out[i] = canonical[y - half : y + half, x - half : x + half]
    return out


def edge_strips(canonical: np.ndarray) -> EdgeStrips:
    """Fixed-size strips centred on the 10x11 + 11x10 internal cell edges.

    Returns
    -------
    EdgeStrips
        See :class:`EdgeStrips`; each strip is ``(EDGE_ACROSS, EDGE_ALONG, 3)``.
    """
    _check(canonical)
    p, o = CANON_PPC, _ORIGIN
    a0 = (p - EDGE_ALONG) // 2  # offset of the strip along its edge, from the cell corner
    h = EDGE_ACROSS // 2
    # Every strip of a direction at once: the band of the canonical image the strips lie in, cut into
    # cell-sized blocks, each block's strip its first rows and columns (no Python loop over strips).
    band = canonical[o + a0 : o + a0 + SIZE * p, o + p - h : o + p - h + (SIZE - 1) * p]
    blocks = band.reshape(SIZE, p, SIZE - 1, p, 3)[:, :EDGE_ALONG, :, :EDGE_ACROSS]
    vert = np.ascontiguousarray(blocks.transpose(0, 2, 3, 1, 4))  # (r, c, across, along, 3)
    band = canonical[o + p - h : o + p - h + (SIZE - 1) * p, o + a0 : o + a0 + SIZE * p]
    blocks = band.reshape(SIZE - 1, p, SIZE, p, 3)[:, :EDGE_ACROSS, :, :EDGE_ALONG]
    horiz = np.ascontiguousarray(blocks.transpose(0, 2, 1, 3, 4))
    return EdgeStrips(vertical=vert, horizontal=horiz)
