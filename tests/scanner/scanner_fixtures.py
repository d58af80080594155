"""Tiny synthetic sheets and photos for the scanner tests, drawn with cv2 (no shared reference files).

The page follows ``scanner/geometry.json``: a heavy double frame, dashed inner grid lines, dark
squares on the side's mountains, a grey rift on its wasteland, and the coin track of 14 circles.
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.grid import ROW_LETTERS, SIZE
from scanner.geometry import geometry
from scanner.orient import side_cells

N = SIZE
PAPER = (214, 232, 240)  # BGR cream
INK = (40, 60, 90)  # dark brown print
DASH = (40, 140, 230)  # orange dashed lines


def draw_page(
    side: str = "A", *, ppc: int = 24, mountains: bool = True, coins: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """A top-down page; returns (BGR image, grid corners A1, A11, K11, K1 in page px)."""
    g = geometry()
    x0, y0, x1, y1 = g.page
    w, h = round((x1 - x0) * ppc), round((y1 - y0) * ppc)
    img = np.full((h, w, 3), PAPER, np.uint8)

    def px(x: float, y: float) -> tuple[int, int]:
        return round((x - x0) * ppc), round((y - y0) * ppc)

    lw = max(1, round(0.04 * ppc))
    for off in (0.0, -g.frame_outer):
        cv2.rectangle(img, px(off, off), px(N - off, N - off), INK, lw)
    for c in g.ruler_hatched_cells:  # hatched ruler blocks in the frame band, top and left
        for k in range(5):
            t = c + 0.2 + 0.15 * k
            cv2.line(img, px(t, -g.frame_outer), px(t, 0), INK, 1)
            cv2.line(img, px(-g.frame_outer, t), px(0, t), INK, 1)
    dash = 0.12
    for i in range(1, N):
        for s in np.arange(0, N, 2 * dash):
            cv2.line(img, px(i, s), px(i, s + dash), DASH, lw)
            cv2.line(img, px(s, i), px(s + dash, i), DASH, lw)
    mtn, waste, _ = side_cells(side)
    if mountains:
        for r, c in mtn:
            cv2.rectangle(img, px(c + 0.05, r + 0.05), px(c + 0.95, r + 0.95), (30, 35, 60), -1)
            cv2.circle(img, px(c + 0.5, r + 0.6), max(2, ppc // 6), (40, 190, 230), -1)
    for r, c in waste:
        cv2.rectangle(img, px(c + 0.05, r + 0.05), px(c + 0.95, r + 0.95), (120, 125, 130), -1)
    if coins:
        bx0, by0, bx1, by1 = g.coin_band
        cv2.rectangle(img, px(bx0, by0), px(bx1, by1), (60, 170, 235), -1)
        for cx, cy in g.coin_centers():
            cv2.circle(img, px(cx, cy), round(g.coin_radius * ppc), (30, 120, 200), -1)
            cv2.circle(img, px(cx, cy), round(g.coin_radius * ppc), INK, 1)
    for r in range(N):
        cv2.putText(img, ROW_LETTERS[r], px(-0.65, r + 0.65), cv2.FONT_HERSHEY_SIMPLEX, ppc / 60, DASH, 1)
    corners = np.array([px(0, 0), px(N, 0), px(N, N), px(0, N)], np.float64)
    return img, corners


def photograph(
    page: np.ndarray,
    page_corners: np.ndarray,
    *,
    size: tuple[int, int] = (1000, 800),
    turn: int = 0,
    tilt: float = 0.0,
    fill: float = 0.8,
    background: tuple[int, int, int] = (60, 80, 100),
) -> tuple[np.ndarray, np.ndarray]:
    """Place a page in a photo: turned by ``turn`` quarter turns clockwise, rotated a little, with a
    perspective ``tilt`` (0..0.3).  Returns (photo, grid corners in photo px, sheet order)."""
    h, w = page.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    dst = src.copy() if turn % 4 == 0 else _turned(w, h, turn)
    dst[0] += [tilt * w, 0]
    dst[1] -= [tilt * w, 0]
    span = dst.max(axis=0) - dst.min(axis=0)
    scale = fill * min(size[0] / span[0], size[1] / span[1])
    dst = (dst - dst.min(axis=0)) * scale
    dst += (np.array(size) - dst.max(axis=0)) / 2
    hom = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    photo = cv2.warpPerspective(page, hom, size, borderValue=background)
    corners = cv2.perspectiveTransform(page_corners.reshape(-1, 1, 2).astype(np.float64), hom).reshape(4, 2)
    return photo, corners


def _turned(w: int, h: int, turn: int) -> np.ndarray:
    # Where the page's corners (TL, TR, BR, BL) land after `turn` clockwise quarter turns.
    if turn % 4 == 1:
        return np.array([[h, 0], [h, w], [0, w], [0, 0]], np.float64)
    if turn % 4 == 2:
        return np.array([[w, h], [0, h], [0, 0], [w, 0]], np.float64)
    return np.array([[0, w], [0, 0], [h, 0], [h, w]], np.float64)


def sheet_photo(
    side: str = "A", *, turn: int = 0, tilt: float = 0.0, **kw: object
) -> tuple[np.ndarray, np.ndarray]:
    """A photo of a fixture sheet and its true grid corners (sheet order)."""
    page, corners = draw_page(side)
    return photograph(page, corners, turn=turn, tilt=tilt, **kw)  # type: ignore[arg-type]
