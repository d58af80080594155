"""The printer's pen: page layout (cell units to pixels), printed ink colours and the drawing primitives
the printed sheet is made of (:mod:`models.synth.printed`, :mod:`models.synth.margins`).

Coordinates are cell units (:class:`Layout` maps them to page pixels); strokes are anti-aliased with
sub-pixel precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from scanner.geometry import Geometry, geometry

# Printed ink tints (BGR), sampled by eye and pipette from the reference sheets.
SIDE_TINT: dict[str, tuple[int, int, int]] = {
    "A": (49, 151, 210),  # orange
    "B": (118, 126, 124),  # grey-green
    "C": (70, 120, 60),  # plausible: green
    "D": (150, 100, 70),  # plausible: slate blue
    "custom": (90, 110, 140),
}
BAND_TINT: dict[str, tuple[int, int, int]] = {
    "A": (40, 160, 225),
    "B": (125, 160, 150),
    "C": (90, 160, 110),
    "D": (165, 140, 110),
    "custom": (120, 150, 170),
}
FRAME_INK = (28, 40, 52)

PAPER = (187, 203, 217)  # median paper of the reference sheets (print: hue 13, scan: hue 21)
MOUNTAIN_BROWN = (24, 30, 66)
GOLD = (40, 185, 235)


@dataclass(frozen=True)
class Layout:
    """Pixel placement of the page: cell units to pixels."""

    ppc: float
    ox: float
    oy: float
    width: int
    height: int

    @classmethod
    def make(cls, ppc: float, geo: Geometry | None = None) -> Layout:
        geo = geo or geometry()
        x0, y0, x1, y1 = geo.page
        return cls(ppc, -x0 * ppc, -y0 * ppc, round((x1 - x0) * ppc), round((y1 - y0) * ppc))

    def px(self, pts: np.ndarray | Sequence[Any]) -> np.ndarray:
        """Cell-unit points (..., 2) to page pixels."""
        a = np.asarray(pts, dtype=np.float64)
        return a * self.ppc + (self.ox, self.oy)


SHIFT = 4


def to_fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts) * (1 << SHIFT)).astype(np.int32).reshape(-1, 1, 2)


def thickness(lay: Layout, w: float) -> int:
    return max(1, round(w * lay.ppc))


def draw_line(
    img: np.ndarray,
    lay: Layout,
    a: tuple[float, float],
    b: tuple[float, float],
    color: tuple[int, ...],
    w: float,
) -> None:
    cv2.line(
        img,
        tuple(to_fixed(lay.px(a)).ravel()),
        tuple(to_fixed(lay.px(b)).ravel()),
        color,
        thickness(lay, w),
        cv2.LINE_AA,
        SHIFT,
    )


def draw_poly(
    img: np.ndarray,
    lay: Layout,
    pts: np.ndarray | Sequence[Any],
    color: tuple[int, ...],
    w: float,
    closed: bool = False,
) -> None:
    cv2.polylines(img, [to_fixed(lay.px(pts))], closed, color, thickness(lay, w), cv2.LINE_AA, SHIFT)


def fill_poly(img: np.ndarray, lay: Layout, pts: np.ndarray | Sequence[Any], color: tuple[int, ...]) -> None:
    cv2.fillPoly(img, [to_fixed(lay.px(pts))], color, cv2.LINE_AA, SHIFT)


def draw_circle(
    img: np.ndarray, lay: Layout, c: tuple[float, float], r: float, color: tuple[int, ...], w: float
) -> None:
    center = tuple(to_fixed(lay.px(c)).ravel())
    cv2.circle(
        img,
        center,
        round(r * lay.ppc * (1 << SHIFT)),
        color,
        -1 if w < 0 else thickness(lay, w),
        cv2.LINE_AA,
        SHIFT,
    )


def draw_text(
    img: np.ndarray,
    lay: Layout,
    s: str,
    center: tuple[float, float],
    height: float,
    color: tuple[int, ...],
    font: int = cv2.FONT_HERSHEY_TRIPLEX,
    weight: float = 0.08,
) -> None:
    """Text centred on `center`, about `height` cell units tall."""
    thick = max(1, round(weight * height * lay.ppc))
    (tw, th), _ = cv2.getTextSize(s, font, 1.0, thick)
    scale = height * lay.ppc / max(th, 1)
    (tw, th), _ = cv2.getTextSize(s, font, scale, thick)
    cx, cy = lay.px(center)
    cv2.putText(img, s, (round(cx - tw / 2), round(cy + th / 2)), font, scale, color, thick, cv2.LINE_AA)


def draw_coin(img: np.ndarray, lay: Layout, center: tuple[float, float], r: float) -> None:
    draw_circle(img, lay, center, r, (20, 110, 170), -1)
    draw_circle(img, lay, center, r * 0.86, GOLD, -1)
    draw_circle(img, lay, (center[0] - r * 0.1, center[1] - r * 0.1), r * 0.45, (110, 225, 250), -1)
    draw_circle(img, lay, center, r * 0.6, (30, 150, 210), max(0.01, r * 0.08))
