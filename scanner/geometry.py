"""The printed sheet's layout, in cell units, loaded once from ``geometry.json``.

The renderer draws with it and the scanner searches and cuts with it, so the two cannot drift apart.
Coordinates: origin at the top-left corner of cell A1, x right, y down, 1.0 = one cell pitch.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np

from rules.grid import COIN_TRACK, SIZE


@dataclass(frozen=True)
class Geometry:
    """Positions on the printed sheet in cell units (see module docstring)."""

    frame_outer: float
    frame_line_width: float
    ruler_hatched_cells: tuple[int, ...]
    row_label_x: float
    col_label_y: float
    coin_y: float
    coin_x0: float
    coin_dx: float
    coin_radius: float
    coin_band: tuple[float, float, float, float]
    coin_icon: tuple[float, float]
    season_boxes: tuple[tuple[float, float, float, float], ...]
    total_shield: tuple[float, float, float, float]
    page: tuple[float, float, float, float]

    def coin_centers(self) -> np.ndarray:
        """Centres of the 14 coin circles, shape (14, 2), as (x, y) in cell units."""
        xs = self.coin_x0 + self.coin_dx * np.arange(COIN_TRACK)
        return np.stack([xs, np.full(COIN_TRACK, self.coin_y)], axis=1)

    @staticmethod
    def grid_corners() -> np.ndarray:
        """The grid's outer corners A1, A11, K11, K1 (clockwise from top-left), shape (4, 2)."""
        n = float(SIZE)
        return np.array([[0.0, 0.0], [n, 0.0], [n, n], [0.0, n]])


@cache
def geometry() -> Geometry:
    """Load the sheet geometry (cached)."""
    raw = json.loads(resources.files("scanner").joinpath("geometry.json").read_text(encoding="utf-8"))
    ct = raw["coin_track"]
    return Geometry(
        frame_outer=raw["frame"]["outer"],
        frame_line_width=raw["frame"]["line_width"],
        ruler_hatched_cells=tuple(raw["frame"]["ruler_hatched_cells"]),
        row_label_x=raw["row_labels"]["x"],
        col_label_y=raw["col_labels"]["y"],
        coin_y=ct["y"],
        coin_x0=ct["x0"],
        coin_dx=ct["dx"],
        coin_radius=ct["radius"],
        coin_band=tuple(ct["band"]),
        coin_icon=tuple(ct["icon"]),
        season_boxes=tuple(tuple(b) for b in raw["season_boxes"]),
        total_shield=tuple(raw["total_shield"]),
        page=tuple(raw["page"]),
    )
