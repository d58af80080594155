"""front.overlay: one drawing of a reading, as pixels and as data, agreeing on boxes and colours."""

from __future__ import annotations

import numpy as np

from front.overlay import (
    DOUBT_COLOUR,
    HIGHLIGHT_COLOUR,
    TERRAIN_COLOURS,
    canonical_quads,
    cell_layers,
    draw_sheet,
    hex_colour,
    photo_quads,
)
from rules import Sheet
from scanner.constants import CANON_MARGIN, CANON_PPC

SIZE = round((11 + 2 * CANON_MARGIN) * CANON_PPC)


def _sheet() -> Sheet:
    return Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F", (4, 5): "W", (2, 2): "?"})


def _centre(r: int, c: int) -> tuple[int, int]:
    o = CANON_MARGIN * CANON_PPC
    return round(o + (c + 0.5) * CANON_PPC), round(o + (r + 0.5) * CANON_PPC)


def test_cells_are_tinted_with_their_terrain_and_doubts_framed() -> None:
    grey = np.full((SIZE, SIZE, 3), 200, np.uint8)
    out = draw_sheet(grey, _sheet(), [(2, 2)], highlight=[(0, 1)])
    assert out.shape == grey.shape and out is not grey and (grey == 200).all()  # input untouched
    x, y = _centre(4, 5)
    water = out[y + 10, x + 10].astype(int)
    assert water[0] > water[2] + 40  # blue over grey: blue channel (BGR 0) well above red
    x, y = _centre(3, 3)
    assert (out[y, x] == 200).all()  # an empty cell keeps the photo as it is
    frames = out.reshape(-1, 3)
    assert (frames == DOUBT_COLOUR).all(axis=1).sum() > 20
    assert (frames == HIGHLIGHT_COLOUR).all(axis=1).sum() > 20
    # no highlight asked: no highlight colour anywhere
    plain = draw_sheet(grey, _sheet()).reshape(-1, 3)
    assert not (plain == HIGHLIGHT_COLOUR).all(axis=1).any()


def test_the_page_data_matches_the_drawing() -> None:
    layers = cell_layers(_sheet(), [(2, 2)], {"sentinel_wood": [(0, 0)], "greenbough": [(0, 0), (0, 1)]})
    assert len(layers) == 121
    first = layers[0]
    assert first["cell"] == "A1" and first["symbol"] == "F" and first["tint"]
    assert first["colour"] == hex_colour("F")
    assert first["cards"] == ["sentinel_wood", "greenbough"] and layers[1]["cards"] == ["greenbough"]
    quads = canonical_quads()
    c22 = layers[2 * 11 + 2]
    assert c22["doubtful"] and c22["symbol"] == "?" and not c22["tint"]
    assert (c22["x"], c22["y"]) == tuple(quads[2, 2, 0])
    assert sum(layer["doubtful"] for layer in layers) == 1


def test_hex_colours_are_the_bgr_colours_reversed() -> None:
    b, g, r = TERRAIN_COLOURS["W"]
    assert hex_colour("W") == f"#{r:02x}{g:02x}{b:02x}"


def test_photo_quads_put_the_grid_corners_where_given() -> None:
    corners = np.array([[100.0, 50.0], [700.0, 80.0], [680.0, 640.0], [90.0, 600.0]])
    quads = photo_quads(corners)
    assert quads.shape == (11, 11, 4, 2)
    np.testing.assert_allclose(
        [quads[0, 0, 0], quads[0, 10, 1], quads[10, 10, 2], quads[10, 0, 3]], corners, atol=1e-3
    )
    # neighbouring cells share their corners
    np.testing.assert_allclose(quads[4, 4, 1], quads[4, 5, 0], atol=1e-6)
