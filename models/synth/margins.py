"""The printed sheet around the grid: the coin track, the season boxes and the header.

Drawn into the printing ink layer by :func:`models.synth.printed.printed_blank`'s master print; every
position comes from ``scanner/geometry.json``.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from models.synth.ink import (
    BAND_TINT,
    FRAME_INK,
    GOLD,
    MOUNTAIN_BROWN,
    SIDE_TINT,
    Layout,
    draw_circle,
    draw_coin,
    draw_line,
    draw_poly,
    draw_text,
    fill_poly,
    thickness,
)
from rules.grid import PRINTED_SIDES
from scanner.geometry import Geometry


def _brace(
    img: np.ndarray, lay: Layout, x: float, y0: float, y1: float, d: float, color: tuple[int, ...]
) -> None:
    ym = (y0 + y1) / 2
    pts = [
        (x + d, y0),
        (x, y0 + 0.05),
        (x, ym - 0.05),
        (x - d * 0.6, ym),
        (x, ym + 0.05),
        (x, y1 - 0.05),
        (x + d, y1),
    ]
    draw_poly(img, lay, pts, color, 0.018)


def coin_track(img: np.ndarray, lay: Layout, geo: Geometry, side: str, theme: str) -> None:
    x0, y0, x1, y1 = geo.coin_band
    centers = geo.coin_centers()
    ink = (40, 40, 40) if theme == "printfriendly" else FRAME_INK
    if theme == "printfriendly":
        draw_poly(img, lay, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], ink, 0.018, closed=True)
        for cx, cy in centers:
            draw_circle(img, lay, (cx, cy), geo.coin_radius * 0.85, (70, 70, 70), 0.014)
            draw_text(img, lay, "1", (cx, cy), 0.17, (70, 70, 70), cv2.FONT_HERSHEY_SIMPLEX, 0.1)
    else:
        band = BAND_TINT.get(side, BAND_TINT["custom"])
        fill_poly(
            img,
            lay,
            [(x0 + 0.05, y0 + 0.04), (x1 - 0.05, y0 + 0.04), (x1 - 0.05, y1 - 0.04), (x0 + 0.05, y1 - 0.04)],
            band,
        )
        _brace(img, lay, x0, y0, y1, 0.08, ink)
        _brace(img, lay, x1, y0, y1, -0.08, ink)
        for cx, cy in centers:
            draw_coin(img, lay, (cx, cy), geo.coin_radius)
    # plus-shaped icon: five squares with a little mountain in the middle
    ix, iy = geo.coin_icon
    s = 0.17
    fill = (250, 250, 250) if theme == "printfriendly" else BAND_TINT.get(side, BAND_TINT["custom"])
    for dx, dy in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
        sq = [
            (ix + (dx - 0.5) * s * 2, iy + (dy - 0.5) * s * 2),
            (ix + (dx + 0.5) * s * 2, iy + (dy - 0.5) * s * 2),
            (ix + (dx + 0.5) * s * 2, iy + (dy + 0.5) * s * 2),
            (ix + (dx - 0.5) * s * 2, iy + (dy + 0.5) * s * 2),
        ]
        fill_poly(img, lay, sq, fill)
        draw_poly(img, lay, sq, ink, 0.012, closed=True)
    mid = [(ix - s, iy - s), (ix + s, iy - s), (ix + s, iy + s), (ix - s, iy + s)]
    fill_poly(img, lay, mid, (240, 240, 240) if theme == "printfriendly" else MOUNTAIN_BROWN)
    draw_poly(
        img,
        lay,
        [
            (ix - 0.12, iy + 0.08),
            (ix - 0.03, iy - 0.08),
            (ix + 0.03, iy + 0.02),
            (ix + 0.07, iy - 0.06),
            (ix + 0.12, iy + 0.08),
        ],
        ink if theme == "printfriendly" else (230, 230, 230),
        0.012,
    )


def _monster_face(
    img: np.ndarray, lay: Layout, cx: float, cy: float, s: float, color: tuple[int, ...]
) -> None:
    draw_poly(
        img,
        lay,
        [
            (cx - s, cy - s * 0.9),
            (cx - s * 0.8, cy - s * 0.4),
            (cx - s * 0.7, cy + s * 0.4),
            (cx, cy + s),
            (cx + s * 0.7, cy + s * 0.4),
            (cx + s * 0.8, cy - s * 0.4),
            (cx + s, cy - s * 0.9),
        ],
        color,
        0.012,
    )
    draw_line(img, lay, (cx - s * 0.8, cy - s * 0.4), (cx + s * 0.8, cy - s * 0.4), color, 0.01)
    draw_line(img, lay, (cx - s * 0.4, cy), (cx - s * 0.15, cy + s * 0.1), color, 0.01)
    draw_line(img, lay, (cx + s * 0.4, cy), (cx + s * 0.15, cy + s * 0.1), color, 0.01)


def _rounded_rect(x0: float, y0: float, x1: float, y1: float, rr: float) -> np.ndarray:
    """Outline of a rectangle with quarter-circle corners of radius `rr`, as a closed point list."""
    arc = np.linspace(0, np.pi / 2, 6)
    pts = []
    for cx, cy, start in (
        (x1 - rr, y0 + rr, -np.pi / 2),
        (x1 - rr, y1 - rr, 0.0),
        (x0 + rr, y1 - rr, np.pi / 2),
        (x0 + rr, y0 + rr, np.pi),
    ):
        a = start + arc
        pts.append(np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1))
    return np.vstack(pts)


def season_boxes(img: np.ndarray, lay: Layout, geo: Geometry, side: str, theme: str) -> None:
    bw = theme == "printfriendly"
    ink = (40, 40, 40) if bw else (60, 85, 110)
    pale: tuple[int, ...] = (170, 170, 170) if bw else SIDE_TINT.get(side, SIDE_TINT["custom"])
    pale = tuple(int(v + (255 - v) * 0.3) for v in pale) if not bw else pale
    letters = ("AB", "BC", "CD", "DA")
    for i, (x0, y0, x1, y1) in enumerate(geo.season_boxes):
        w, h = x1 - x0, y1 - y0
        rr = 0.14
        box = _rounded_rect(x0, y0, x1, y1, rr)
        draw_poly(img, lay, box, ink, 0.032, closed=True)
        xa, xb = x0 + w * 0.36, x0 + w * 0.71
        draw_line(img, lay, (xa, y0), (xa, y1), ink, 0.026)
        draw_line(img, lay, (xb, y0), (xb, y1), ink, 0.026)
        draw_line(img, lay, (x0, y0 + h / 2), (xb, y0 + h / 2), ink, 0.026)
        for k, ch in enumerate(letters[i]):
            cx = x0 + w * (0.18 + 0.355 * k)
            draw_text(img, lay, ch, (cx, y0 + h * 0.25), 0.28, pale, cv2.FONT_HERSHEY_COMPLEX, 0.1)
        ccx, ccy = x0 + w * 0.18, y0 + h * 0.75
        if bw:
            draw_circle(img, lay, (ccx, ccy), 0.13, pale, 0.014)
            draw_text(img, lay, "1", (ccx, ccy), 0.12, pale, cv2.FONT_HERSHEY_SIMPLEX, 0.1)
        else:
            draw_circle(img, lay, (ccx, ccy), 0.12, tuple(int(v * 0.3 + 200 * 0.7) for v in GOLD), -1)
        _monster_face(img, lay, x0 + w * 0.535, y0 + h * 0.75, 0.12, pale)
        if i < 3:
            draw_text(
                img,
                lay,
                "+",
                ((x1 + geo.season_boxes[i + 1][0]) / 2, y0 + h / 2),
                0.2,
                ink,
                cv2.FONT_HERSHEY_SIMPLEX,
                0.12,
            )
    x1 = geo.season_boxes[-1][2]
    sx0, sy0, sx1, sy1 = geo.total_shield
    draw_text(img, lay, "=", ((x1 + sx0) / 2, (sy0 + sy1) / 2), 0.16, ink, cv2.FONT_HERSHEY_SIMPLEX, 0.12)
    _shield(img, lay, (sx0 + 0.25, sy0 + 0.1, sx1 - 0.25, sy1 - 0.25), ink, bw)
    # laurels
    leaf = (40, 40, 40) if bw else (40, 130, 190)
    for sgn in (-1, 1):
        for k in range(6):
            t = k / 5
            cx = (sx0 + sx1) / 2 + sgn * (0.5 - 0.15 * t) * (sx1 - sx0) * 0.9 * np.cos(t * 1.2)
            cy = sy0 + 0.6 + t * 0.7
            ctr = lay.px((cx, cy))
            cv2.ellipse(
                img,
                (round(ctr[0]), round(ctr[1])),
                (max(1, round(0.07 * lay.ppc)), max(1, round(0.04 * lay.ppc))),
                float(sgn * 40),
                0,
                360,
                leaf,
                -1,
                cv2.LINE_AA,
            )


def _shield(
    img: np.ndarray, lay: Layout, box: tuple[float, float, float, float], ink: tuple[int, ...], bw: bool
) -> None:
    """Heater shield filling `box`: slightly dipped top edge, straight sides, curved point."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    mx = x0 + w / 2
    arc = np.linspace(0, np.pi / 2, 10)
    side_r = [(mx + w / 2 * np.cos(a), y0 + h * 0.45 + h * 0.55 * np.sin(a)) for a in arc]
    side_l = [(mx - w / 2 * np.cos(a), y0 + h * 0.45 + h * 0.55 * np.sin(a)) for a in arc[::-1]]
    pts = [(x0, y0), (x0 + w / 2, y0 + h * 0.04), (x1, y0), *side_r, *side_l]
    fill_poly(img, lay, pts, (252, 252, 252) if bw else (205, 218, 230))
    draw_poly(img, lay, pts, ink, 0.03, closed=True)


def _header_geo() -> dict[str, list[float]]:
    """The header block of ``scanner/geometry.json`` (only the renderer draws the header)."""
    return _load_header()


@lru_cache(maxsize=1)
def _load_header() -> dict[str, list[float]]:
    import json
    from importlib import resources

    raw = json.loads(resources.files("scanner").joinpath("geometry.json").read_text(encoding="utf-8"))
    return {k: v for k, v in raw["header"].items() if isinstance(v, list)}


def header(
    img: np.ndarray, lay: Layout, geo: Geometry, side: str, theme: str, rng: np.random.Generator
) -> None:
    bw = theme == "printfriendly"
    hd = _header_geo()
    ink = (30, 30, 30) if bw else FRAME_INK
    tint = (30, 30, 30) if bw else SIDE_TINT.get(side, SIDE_TINT["custom"])
    for key, text in (("name_label", "CARTOGRAPHER:"), ("title_label", "TITLE:")):
        x, y = hd[key]
        (tw, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_TRIPLEX, 1.0, 1)
        (_, th), _ = cv2.getTextSize("C", cv2.FONT_HERSHEY_TRIPLEX, 1.0, 1)
        width = 0.22 * tw / th
        draw_text(img, lay, text, (x + width / 2, y), 0.22, ink, cv2.FONT_HERSHEY_TRIPLEX, 0.14)
    for key in ("name_line", "title_line"):
        x0, y, x1 = hd[key]
        draw_line(img, lay, (x0, y), (x1, y), tint, 0.025)
    # banner: an arched ribbon with folded tails
    bx0, by0, bx1, by1 = hd["banner"]
    t = np.linspace(0, 1, 40)
    cx0, cx1 = bx0 + 0.55, bx1 - 0.55
    top = np.stack([cx0 + t * (cx1 - cx0), by0 + 0.3 - np.sin(t * np.pi) * 0.3], 1)
    bot = top + np.array([0, 0.42])
    band = np.vstack([top, bot[::-1]])
    fill_poly(img, lay, band, (235, 240, 245) if not bw else (255, 255, 255))
    draw_poly(img, lay, band, ink, 0.03, closed=True)
    for sgn, (ex, ey) in ((-1, top[0]), (1, top[-1])):
        tail = [
            (ex, ey + 0.2),
            (ex + sgn * 0.55, ey + 0.25),
            (ex + sgn * 0.35, ey + 0.5),
            (ex + sgn * 0.6, by1),
            (ex, ey + 0.72),
            (ex, ey + 0.42),
        ]
        draw_poly(img, lay, tail, ink, 0.025, closed=True)
    # shield, with two swords crossing behind it
    sx0, sy0, sx1, sy1 = hd["title_shield"]
    mx = (sx0 + sx1) / 2
    for sgn in (-1, 1):
        hilt = np.array([mx + sgn * 0.95, sy0 - 0.55])
        tip = np.array([mx - sgn * 0.95, sy1 - 0.05])
        draw_line(img, lay, tuple(hilt), tuple(tip), ink, 0.05)
        d = (tip - hilt) / np.hypot(*(tip - hilt))
        guard = hilt + d * 0.25
        nrm = np.array([-d[1], d[0]]) * 0.15
        draw_line(img, lay, tuple(guard - nrm), tuple(guard + nrm), ink, 0.045)
        draw_circle(img, lay, tuple(hilt - d * 0.05), 0.06, ink, 0.025)
    _shield(img, lay, (sx0, sy0, sx1, sy1), ink, bw)
    if not bw:
        for k in range(2):
            for sgn in (-1, 1):
                draw_circle(img, lay, (mx + sgn * 0.38, sy0 + 0.12 + 0.0 * k), 0.02, ink, -1)
        # flourishes either side of the shield
        for sgn in (-1, 1):
            x_in, x_out = mx + sgn * 1.0, mx + sgn * 2.95
            y = -0.75
            draw_line(img, lay, (x_in, y), (x_out, y), ink, 0.035)
            ctr = lay.px((mx + sgn * 1.35, y - 0.05))
            cv2.ellipse(
                img,
                (round(ctr[0]), round(ctr[1])),
                (round(0.2 * lay.ppc), round(0.14 * lay.ppc)),
                0,
                0,
                300,
                ink,
                thickness(lay, 0.04),
                cv2.LINE_AA,
            )
            draw_line(img, lay, (mx + sgn * 2.0, y - 0.12), (mx + sgn * 2.5, y - 0.12), ink, 0.03)
    # crown
    cx, cy = hd["crown"]
    crown = [
        (cx - 0.18, cy + 0.12),
        (cx - 0.2, cy - 0.1),
        (cx - 0.08, cy),
        (cx, cy - 0.14),
        (cx + 0.08, cy),
        (cx + 0.2, cy - 0.1),
        (cx + 0.18, cy + 0.12),
    ]
    fill_poly(img, lay, crown, ink)
    # compass rose
    qx0, qy0, qx1, qy1 = hd["compass"]
    cc = ((qx0 + qx1) / 2, (qy0 + qy1) / 2)
    rad = min(qx1 - qx0, qy1 - qy0) / 2
    if bw:
        comp: tuple[int, ...] = (30, 30, 30)
    else:
        comp = {"A": (45, 155, 215), "B": (120, 140, 130)}.get(side, SIDE_TINT.get(side, SIDE_TINT["custom"]))
    draw_circle(img, lay, cc, rad * (0.8 if bw else 0.55), ink if bw else comp, 0.02)
    if not bw:
        draw_circle(img, lay, cc, rad * 0.62, comp, 0.012)
    for k in range(32 if not bw else 16):
        ang = k * np.pi / (16 if not bw else 8)
        main = k % (8 if not bw else 4) == 0
        ln = rad * (1.0 if main else 0.72 if k % 2 == 0 else 0.5)
        ray = (float(cc[0] + ln * np.sin(ang)), float(cc[1] - ln * np.cos(ang)))
        wing = rad * (0.09 if main else 0.05)
        l_ = (cc[0] + wing * np.sin(ang - np.pi / 2), cc[1] - wing * np.cos(ang - np.pi / 2))
        r_ = (cc[0] + wing * np.sin(ang + np.pi / 2), cc[1] - wing * np.cos(ang + np.pi / 2))
        fill_poly(img, lay, [l_, ray, cc], comp)
        fill_poly(img, lay, [cc, ray, r_], tuple(int(v * 0.7) for v in comp))
    draw_circle(img, lay, cc, rad * 0.07, ink, -1)
    if not bw:
        for k, ch in enumerate("NESW"):
            ang = k * np.pi / 2
            pos = (cc[0] + rad * 1.12 * np.sin(ang), cc[1] - rad * 1.12 * np.cos(ang))
            draw_text(img, lay, ch, pos, 0.12, comp, cv2.FONT_HERSHEY_COMPLEX, 0.1)
        if side in PRINTED_SIDES:
            pos = (hd["side_letter"][0], hd["side_letter"][1])
            draw_text(img, lay, f"({side})", pos, 0.18, ink, cv2.FONT_HERSHEY_TRIPLEX, 0.14)
    del rng, geo
