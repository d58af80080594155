"""The one drawing of overlays: cell readings, doubts and the cells each card scored.

The HTML report, the web page and the live camera window all show a reading through this module, so
they cannot disagree on a colour or on which cell a mark belongs to.  Two outputs from the same facts:

* arrays: :func:`draw_cells` draws on any image given the cells' quadrilaterals (the canonical
  top-down image: :func:`canonical_quads`; a camera frame: :func:`photo_quads` from the grid corners),
  :func:`draw_sheet` on the canonical image in one call;
* data: :func:`cell_layers` gives each cell's box, symbol, colour, doubt and the cards that scored it,
  for a page that draws its own SVG over the canonical image.

Pure functions, array in, array out; no window, no file.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

import cv2
import numpy as np

from rules import Cell, Sheet, cell_label
from rules.grid import SIZE
from scanner.constants import CANON_MARGIN, CANON_PPC

__all__ = [
    "DOUBT_COLOUR",
    "HIGHLIGHT_COLOUR",
    "TERRAIN_COLOURS",
    "canonical_quads",
    "cell_layers",
    "draw_cells",
    "draw_sheet",
    "hex_colour",
    "photo_quads",
]

#: BGR colour of each notation symbol's tint (empty cells are not tinted).
TERRAIN_COLOURS: dict[str, tuple[int, int, int]] = {
    "F": (60, 150, 40),  # forest green
    "V": (50, 50, 210),  # village red
    "P": (20, 190, 235),  # farm yellow
    "W": (210, 120, 30),  # water blue
    "M": (170, 50, 160),  # monster purple
    "H": (180, 170, 0),  # hero teal
    "^": (90, 90, 90),  # printed mountain
    "-": (140, 140, 140),  # printed wasteland
    "X": (30, 30, 30),  # destroyed
    ".": (255, 255, 255),
    "?": (0, 140, 255),
}
#: BGR of a doubtful cell's frame (orange: stands out against every terrain tint).
DOUBT_COLOUR = (0, 120, 255)
#: BGR of the frame of a cell a card scored (when one card is highlighted).
HIGHLIGHT_COLOUR = (255, 255, 0)
_TINT = 0.35  # how strongly a terrain tints its cell: the drawing under it must stay visible
_UNTINTED = frozenset(".?")


def hex_colour(symbol: str) -> str:
    """``"#rrggbb"`` of a symbol's colour, for HTML and SVG."""
    b, g, r = TERRAIN_COLOURS[symbol]
    return f"#{r:02x}{g:02x}{b:02x}"


def canonical_quads(ppc: int = CANON_PPC, margin: float = CANON_MARGIN) -> np.ndarray:
    """(11, 11, 4, 2) float corners (x, y) of every cell in the canonical image, clockwise from the
    top-left (:func:`scanner.rectify.rectify` puts the grid at ``margin * ppc``)."""
    o = margin * ppc
    rows, cols = np.mgrid[0:SIZE, 0:SIZE]
    x0, y0 = o + cols * ppc, o + rows * ppc
    quads = np.stack(
        [np.stack([x0, y0], -1), np.stack([x0 + ppc, y0], -1),
         np.stack([x0 + ppc, y0 + ppc], -1), np.stack([x0, y0 + ppc], -1)],
        axis=2,
    )
    return quads.astype(np.float64)


def photo_quads(corners: np.ndarray) -> np.ndarray:
    """(11, 11, 4, 2) cell corners in a photo, from the grid corners A1, A11, K11, K1 (photo px)."""
    unit = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
    grid = canonical_quads(ppc=1, margin=0.0).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grid, h).reshape(SIZE, SIZE, 4, 2).astype(np.float64)


def draw_cells(
    image: np.ndarray,
    quads: np.ndarray,
    sheet: Sheet,
    doubtful: Collection[Cell] = (),
    *,
    highlight: Collection[Cell] = (),
    letters: bool = True,
) -> np.ndarray:
    """Draw a reading over `image`: each drawn cell tinted with its terrain's colour and labelled with
    its symbol, doubtful cells framed in :data:`DOUBT_COLOUR`, `highlight` cells framed in
    :data:`HIGHLIGHT_COLOUR`.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR (not modified).
    quads : (11, 11, 4, 2) cell corners in `image` px (:func:`canonical_quads`, :func:`photo_quads`).
    sheet : the reading (``?`` cells are drawn as doubtful too).
    doubtful : (row, col) cells read without confidence.
    highlight : (row, col) cells to frame, e.g. those one card scored.
    letters : write each cell's symbol in its top-left corner.

    Returns
    -------
    (H, W, 3) uint8 BGR, a new image.
    """
    out = image.copy()
    tint = image.copy()
    pts = np.round(quads).astype(np.int32)
    for r in range(SIZE):
        for c in range(SIZE):
            symbol = str(sheet[r, c])
            if symbol not in _UNTINTED:
                cv2.fillConvexPoly(tint, pts[r, c], TERRAIN_COLOURS[symbol], cv2.LINE_AA)
    cv2.addWeighted(tint, _TINT, out, 1 - _TINT, 0, dst=out)
    side = float(np.median(np.linalg.norm(quads[:, :, 1] - quads[:, :, 0], axis=-1)))
    thick = max(1, round(side / 16))
    scale = side / 48
    doubt = set(doubtful) | set(sheet.unknown)
    for r in range(SIZE):
        for c in range(SIZE):
            symbol = str(sheet[r, c])
            quad = pts[r, c]
            if letters and symbol != ".":
                x, y = quads[r, c, 0]
                origin = (round(x + 3 * scale), round(y + 15 * scale))
                colour = DOUBT_COLOUR if (r, c) in doubt else (0, 0, 0)
                pen = max(1, round(scale))
                for ink, width in (((255, 255, 255), pen + 2), (colour, pen)):  # a halo keeps it legible
                    cv2.putText(out, symbol, origin, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, ink, width,
                                cv2.LINE_AA)
            if (r, c) in highlight:
                cv2.polylines(out, [quad], True, HIGHLIGHT_COLOUR, thick + 1, cv2.LINE_AA)
            if (r, c) in doubt:
                inset = _shrink(quads[r, c], 0.08)
                cv2.polylines(out, [inset], True, DOUBT_COLOUR, thick + 1, cv2.LINE_AA)
    return out


def _shrink(quad: np.ndarray, by: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    out: np.ndarray = np.round(centre + (quad - centre) * (1 - 2 * by)).astype(np.int32)
    return out


def draw_sheet(
    canonical: np.ndarray,
    sheet: Sheet,
    doubtful: Collection[Cell] = (),
    *,
    highlight: Collection[Cell] = (),
) -> np.ndarray:
    """:func:`draw_cells` on the canonical top-down image (``Reading.canonical``)."""
    return draw_cells(canonical, canonical_quads(), sheet, doubtful, highlight=highlight)


def cell_layers(
    sheet: Sheet,
    doubtful: Collection[Cell] = (),
    scored: Mapping[str, Iterable[Cell]] | None = None,
    *,
    ppc: int = CANON_PPC,
    margin: float = CANON_MARGIN,
) -> list[dict[str, Any]]:
    """The overlay as data: one dict per cell, row-major, for a page drawing SVG over the canonical
    image (same colours and boxes as :func:`draw_sheet`).

    Parameters
    ----------
    sheet : the reading; doubtful : its doubtful cells.
    scored : card id -> the cells that card scored (``rules`` card results' ``cells``).

    Returns
    -------
    list of ``{"cell": "C4", "row", "col", "x", "y", "size", "symbol", "colour", "tint", "doubtful",
    "cards"}``: box in canonical px, ``colour`` ``#rrggbb``, ``tint`` whether the cell is tinted,
    ``cards`` the ids of the cards that scored it.
    """
    doubt = set(doubtful) | set(sheet.unknown)
    by_cell: dict[Cell, list[str]] = {}
    for card_id, cells in (scored or {}).items():
        for cell in cells:
            by_cell.setdefault(tuple(cell), []).append(card_id)  # type: ignore[arg-type]
    quads = canonical_quads(ppc, margin)
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            symbol = str(sheet[r, c])
            x, y = quads[r, c, 0]
            out.append({
                "cell": cell_label((r, c)),
                "row": r,
                "col": c,
                "x": round(float(x), 1),
                "y": round(float(y), 1),
                "size": ppc,
                "symbol": symbol,
                "colour": hex_colour(symbol),
                "tint": symbol not in _UNTINTED,
                "doubtful": (r, c) in doubt,
                "cards": by_cell.get((r, c), []),
            })
    return out
