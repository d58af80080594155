"""The printed, still blank map sheet, drawn procedurally (no artwork copied) and cached.

Two themes: ``"color"`` (the publisher's parchment sheet: dashed tinted grid, hatched double frame,
brown mountains with a gold coin, tinted ruins icons, torn rift) and ``"printfriendly"`` (the black
and white redraw: white paper, thin solid grid, outlined mountains with a circled 1, no labels and no
double frame).  Every position comes from ``scanner/geometry.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from models.synth.ink import (
    FRAME_INK,
    MOUNTAIN_BROWN,
    PAPER,
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
from models.synth.margins import coin_track, header, season_boxes
from rules.grid import ROW_LETTERS, Cell
from rules.grid import SIZE as GRID_SIZE
from scanner.geometry import Geometry, geometry

THEMES = ("color", "printfriendly")
PAPER_VARIANTS = 8  # cached parchment textures per side and theme


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    h, w = shape
    small = rng.standard_normal((max(2, h * cells // max(w, 1)), cells)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


# --------------------------------------------------------------------------------------------- paper


def _creases(img: np.ndarray, rng: np.random.Generator, count: int) -> None:
    """Fold and crumple lines: a thin light ridge with a soft shadow along one side."""
    h, w = img.shape[:2]
    for _ in range(count):
        m = np.zeros((h, w), np.float32)
        if rng.random() < 0.5:
            p0 = (int(rng.integers(0, w)), 0)
            p1 = (int(p0[0] + rng.normal(0, w * 0.15)), h)
        else:
            p0 = (0, int(rng.integers(0, h)))
            p1 = (w, int(p0[1] + rng.normal(0, h * 0.1)))
        cv2.line(m, p0, p1, 1.0, max(1, w // 400), cv2.LINE_AA)
        shadow = cv2.GaussianBlur(np.roll(m, 2, axis=1), (0, 0), w / 300)
        ridge = cv2.GaussianBlur(m, (0, 0), 0.8)
        k = rng.uniform(0.4, 1.0)
        img += (ridge * 10 - shadow * 18 * w / 600)[..., None] * k


_SYLLABLES = ("tor", "bel", "ven", "ara", "dun", "mor", "kel", "sha", "ith", "gal", "rin", "ost", "wy", "ard")


def _underprint(img: np.ndarray, lay: Layout, rng: np.random.Generator) -> None:
    """The faint old map printed under the grid: place names, little hills and trees, a coastline."""
    h, w = img.shape[:2]
    m = np.zeros((h, w), np.uint8)
    ppc = lay.ppc
    for _ in range(int(rng.integers(10, 26))):
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        kind = rng.random()
        if kind < 0.35:
            word = "".join(rng.choice(_SYLLABLES, int(rng.integers(2, 4)))).capitalize()
            font = int(
                rng.choice([cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_ITALIC])
            )
            cv2.putText(
                m,
                word,
                (x, y),
                font,
                ppc / 55 * rng.uniform(0.6, 1.2),
                255,
                max(1, round(ppc / 40)),
                cv2.LINE_AA,
            )
        elif kind < 0.65:  # a range of little hills
            for k in range(int(rng.integers(2, 6))):
                hx = x + int(k * ppc * 0.3)
                s = ppc * rng.uniform(0.12, 0.25)
                pts = np.array([(hx - s, y), (hx, y - s * 1.1), (hx + s, y)], np.int32)
                cv2.polylines(m, [pts], False, 255, max(1, round(ppc / 45)), cv2.LINE_AA)
        elif kind < 0.85:  # a copse of trees
            for _ in range(int(rng.integers(2, 6))):
                tx = x + int(rng.normal(0, ppc * 0.3))
                ty = y + int(rng.normal(0, ppc * 0.2))
                r = max(2, int(ppc * rng.uniform(0.06, 0.1)))
                cv2.circle(m, (tx, ty), r, 255, max(1, round(ppc / 50)), cv2.LINE_AA)
                cv2.line(m, (tx, ty + r), (tx, ty + 2 * r), 255, max(1, round(ppc / 50)), cv2.LINE_AA)
        else:  # a wandering coastline or river
            n = 30
            steps = rng.normal(0, 1, (n, 2)).cumsum(axis=0) * ppc * 0.15
            steps[:, 0] += np.arange(n) * ppc * 0.2
            pts = (steps + np.array([x, y])).astype(np.int32)
            cv2.polylines(m, [pts], False, 255, max(1, round(ppc / 40)), cv2.LINE_AA)
    faint = cv2.GaussianBlur(m, (0, 0), max(0.6, ppc / 60)).astype(np.float32) / 255
    img -= faint[..., None] * np.array([32, 34, 30], np.float32) * rng.uniform(0.5, 1.0)


def _veins(rng: np.random.Generator, lay: Layout) -> np.ndarray:
    """Crackle of the printed parchment: jagged light veins with a dark edge, several a cell, over a
    blotchy mottle a few blotches a cell across, heavier in some patches than others (signed grey
    levels, float32 (H, W)).

    The real print carries this marbling in every empty cell, the plain paper does not
    (``benchmarks/eval_print_gap.py`` measures what that hides)."""
    h, w = lay.height, lay.width
    across = w / lay.ppc
    out = np.zeros((h, w), np.float32)
    # warp the noise by a finer field so that veins wander and kink instead of running as contours
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bend = lay.ppc * 0.08
    mx = xx + _smooth_noise(rng, (h, w), max(4, int(across * 6))) * bend
    my = yy + _smooth_noise(rng, (h, w), max(4, int(across * 6))) * bend
    for per_cell, amp in ((2.0, 1.0), (4.0, 0.8), (8.0, 0.5)):
        n = _smooth_noise(rng, (h, w), max(4, int(across * per_cell)))
        bent: np.ndarray = cv2.remap(n, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        bent = bent / (float(np.std(bent)) + 1e-6)
        ridge = np.clip(1.0 - np.abs(bent) / 0.2, 0, 1) ** 2
        shade = np.roll(ridge, (1, 1), axis=(0, 1))
        out += (ridge - 0.8 * shade) * amp
    out += _smooth_noise(rng, (h, w), max(4, int(across * 4))) * 0.35
    patches = np.clip(_smooth_noise(rng, (h, w), max(2, int(across / 3))) * 0.4 + 0.85, 0.4, 1.3)
    return out * patches * np.float32(rng.uniform(7.0, 16.0))


def _specks(rng: np.random.Generator, lay: Layout, strength: float) -> np.ndarray:
    """Print and scan grain: sparse dark specks of a pixel or two and a fine speckle (grey levels to
    subtract, float32 (H, W)): faint and scattered, unlike a drawn dot field."""
    h, w = lay.height, lay.width
    dots = (rng.random((h, w)) < rng.uniform(0.002, 0.02)).astype(np.float32)
    dots = cv2.GaussianBlur(dots, (0, 0), rng.uniform(0.5, 1.1)) * rng.uniform(20, 60)
    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.7) * 3.0
    return (dots + fine) * np.float32(strength)


def _paper(lay: Layout, theme: str, rng: np.random.Generator, marks: bool = False) -> np.ndarray:
    h, w = lay.height, lay.width
    if theme == "printfriendly":
        # office paper; marked, from a dead flat white (the redraw's file) to toner-grey with specks
        base = np.full((h, w, 3), 246 + rng.integers(-4, 10 if marks else 6), np.float32)
        if not marks or rng.random() < 0.7:
            base += rng.normal(0, 1.2, (h, w, 1)).astype(np.float32)
            if marks:
                base -= _specks(rng, lay, float(rng.uniform(0.0, 0.6)))[..., None]
        _creases(base, rng, int(rng.integers(0, 2)))
        return base
    # warmer (yellower, like the scans) or cooler (pinker, like the prints), a little lighter or darker
    warm = rng.uniform(-1, 1)
    tone = np.asarray(PAPER, np.float32) + np.array([-7, 0, 2], np.float32) * warm
    tone += rng.normal(0, 4) + rng.normal(0, 1.5, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = tone
    blot = _smooth_noise(rng, (h, w), 7) * 3.0 + _smooth_noise(rng, (h, w), 23) * 1.5
    img += blot[..., None] * np.array([1.1, 1.0, 0.8], np.float32)
    # parchment mottling and fibres
    mottle = _smooth_noise(rng, (h, w), 70) * 2.2
    fib = cv2.GaussianBlur(
        rng.standard_normal((h, w)).astype(np.float32), (0, 0), sigmaX=lay.ppc * 0.12, sigmaY=0.6
    )
    img += (mottle + fib * 9.0)[..., None]
    # aged edges: darker, browner towards the border of the page
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d = np.minimum(np.minimum(xx, w - 1 - xx) / w, np.minimum(yy, h - 1 - yy) / h)
    edge = np.exp(-d / (0.01 + 0.015 * rng.random()))
    img -= edge[..., None] * np.array([45, 38, 25], np.float32) * (0.4 + 0.6 * rng.random())
    # faint map underprint, in patches: iso-lines of a smooth field, pale grey-brown
    field = _smooth_noise(rng, (h, w), 5) + 0.4 * _smooth_noise(rng, (h, w), 11)
    k = 2.5 + 2 * rng.random()
    frac = np.abs(((field * k) % 1.0) - 0.5)
    gy, gx = np.gradient(field * k)
    width = np.hypot(gx, gy) * (0.8 + 0.6 * rng.random())
    lines = np.clip(1.0 - (0.5 - frac) / np.maximum(width, 1e-4), 0, 1)
    patches = np.clip(_smooth_noise(rng, (h, w), 4) * 0.8 + 0.2, 0, 1)
    img -= (lines * patches)[..., None] * np.array([10, 12, 11], np.float32) * (0.4 + 0.6 * rng.random())
    _underprint(img, lay, rng)
    if marks:
        img += _veins(rng, lay)[..., None] * np.array([0.9, 1.0, 1.1], np.float32)
        specks = _specks(rng, lay, float(rng.uniform(0.3, 1.0)))
        img -= specks[..., None] * np.array([1.0, 0.9, 0.7], np.float32)
    # a few stains
    for _ in range(int(rng.integers(0, 4))):
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        ax = (int(rng.integers(w // 30, w // 8)), int(rng.integers(w // 30, w // 8)))
        stain: np.ndarray = np.zeros((h, w), np.float32)
        cv2.ellipse(stain, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        stain = cv2.GaussianBlur(stain, (0, 0), max(ax) / 3)
        img -= stain[..., None] * np.array([20, 14, 6], np.float32) * rng.random()
    _creases(img, rng, int(rng.integers(0, 4)))
    img += rng.normal(0, 2.0, (h, w, 1)).astype(np.float32)
    return img


# ---------------------------------------------------------------------------------------- grid/frame


def _dashed_grid(img: np.ndarray, lay: Layout, tint: tuple[int, int, int]) -> None:
    """Dashed grid lines: 3.5 dashes per cell from the frame on, so every other crossing is a `+`."""
    n = GRID_SIZE
    w = 0.035
    period = 1 / 3.5
    half = 0.072
    centers = np.arange(0, n + 1e-6, period)
    for k in range(1, n):
        for t in centers:
            a, b = max(0.0, t - half), min(float(n), t + half)
            draw_line(img, lay, (k, a), (k, b), tint, w)
            draw_line(img, lay, (a, k), (b, k), tint, w)


def _solid_grid(img: np.ndarray, lay: Layout) -> None:
    n = GRID_SIZE
    for k in range(n + 1):
        draw_line(img, lay, (k, 0), (k, n), (40, 40, 40), 0.018)
        draw_line(img, lay, (0, k), (n, k), (40, 40, 40), 0.018)


def _frame(img: np.ndarray, lay: Layout, geo: Geometry) -> None:
    n = float(GRID_SIZE)
    o = geo.frame_outer
    lw = geo.frame_line_width
    # hatched ruler blocks in the band between the two lines, every other cell, ticks across the band
    pitch = 0.048
    for c in geo.ruler_hatched_cells:
        for side in range(4):
            ts = np.arange(c + 0.04, c + 1 - 0.02, pitch)
            for t in ts:
                a: tuple[float, float]
                b: tuple[float, float]
                if side == 0:
                    a, b = (t, -o), (t, 0)
                elif side == 1:
                    a, b = (t, n), (t, n + o)
                elif side == 2:
                    a, b = (-o, t), (0, t)
                else:
                    a, b = (n, t), (n + o, t)
                draw_line(img, lay, a, b, FRAME_INK, 0.022)
            # the ruler's two long lines inside the block
            if side == 0:
                draw_line(img, lay, (c, -o * 0.5), (c + 1, -o * 0.5), FRAME_INK, 0.006)
    # inner and outer lines, slightly wavy like an ink drawing
    for r, wid in ((0.0, lw), (o, lw * 1.5)):
        x0, y0, x1, y1 = -r, -r, n + r, n + r
        draw_poly(img, lay, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], FRAME_INK, wid, closed=True)
    # block ends: short cross bars where hatched blocks start and stop
    for c in geo.ruler_hatched_cells:
        for t in (c, c + 1):
            draw_line(img, lay, (t, -o), (t, 0), FRAME_INK, 0.02)
            draw_line(img, lay, (t, n), (t, n + o), FRAME_INK, 0.02)
            draw_line(img, lay, (-o, t), (0, t), FRAME_INK, 0.02)
            draw_line(img, lay, (n, t), (n + o, t), FRAME_INK, 0.02)


def _labels(img: np.ndarray, lay: Layout, geo: Geometry, tint: tuple[int, int, int]) -> None:
    for r in range(GRID_SIZE):
        draw_text(img, lay, ROW_LETTERS[r], (geo.row_label_x, r + 0.5), 0.16, tint, cv2.FONT_HERSHEY_TRIPLEX,
                  0.12)
    for c in range(GRID_SIZE):
        draw_text(img, lay, str(c + 1), (c + 0.5, geo.col_label_y), 0.16, tint, cv2.FONT_HERSHEY_TRIPLEX,
                  0.12)


# ------------------------------------------------------------------------------------- cell features


def _ragged_square(rng: np.random.Generator, r: int, c: int, inset: float, amp: float) -> np.ndarray:
    pts = []
    for side in range(4):
        for t in np.linspace(0, 1, 14, endpoint=False):
            off = inset + amp * rng.random()
            if side == 0:
                pts.append((c + t, r + off))
            elif side == 1:
                pts.append((c + 1 - off, r + t))
            elif side == 2:
                pts.append((c + 1 - t, r + 1 - off))
            else:
                pts.append((c + off, r + 1 - t))
    return np.array(pts)


def _peaks(r: int, c: int) -> list[np.ndarray]:
    """White double-peak outline of a printed mountain (cell units), measured on the digital sheet."""
    base = r + 0.72
    left = np.array([(c + 0.08, base), (c + 0.33, r + 0.28), (c + 0.5, r + 0.52)])
    right = np.array([(c + 0.33, base), (c + 0.62, r + 0.14), (c + 0.92, base), (c + 0.08, base)])
    snow_l = np.array([(c + 0.24, r + 0.45), (c + 0.3, r + 0.41), (c + 0.34, r + 0.47), (c + 0.41, r + 0.42)])
    snow_r = np.array(
        [
            (c + 0.5, r + 0.33),
            (c + 0.57, r + 0.27),
            (c + 0.62, r + 0.34),
            (c + 0.68, r + 0.27),
            (c + 0.75, r + 0.33),
        ]
    )
    return [left, right, snow_l, snow_r]


def _mountain_color(
    img: np.ndarray, cover: np.ndarray, lay: Layout, rng: np.random.Generator, r: int, c: int
) -> None:
    # the scribbled square spills a little past the cell on every side
    sq = _ragged_square(rng, r, c, -0.04, 0.07)
    fill_poly(img, lay, sq, MOUNTAIN_BROWN)
    fill_poly(cover, lay, sq, (1,))
    # lighter scribble streaks, printed hatching of the brown square
    for _ in range(22):
        x = c + rng.uniform(-0.2, 1.0)
        y = r + rng.uniform(0.1, 1.1)
        ln = rng.uniform(0.12, 0.35)
        a = (min(c + 0.97, max(c + 0.03, x)), min(r + 0.97, max(r + 0.03, y)))
        b = (min(c + 0.97, max(c + 0.03, x + ln * 0.6)), min(r + 0.97, max(r + 0.03, y - ln)))
        draw_line(img, lay, a, b, (52, 62, 105), 0.018)
    for p in _peaks(r, c):
        draw_poly(img, lay, p, (240, 240, 238), 0.03)
    draw_coin(img, lay, (c + 0.55, r + 0.71), 0.17)


def _mountain_bw(img: np.ndarray, lay: Layout, r: int, c: int) -> None:
    """Printer-friendly mountain: two outlined peaks with snow lines and a circled 1 at their foot."""
    ink = (40, 40, 40)
    left = [(c + 0.12, r + 0.8), (c + 0.36, r + 0.36), (c + 0.6, r + 0.8)]
    right = [(c + 0.4, r + 0.8), (c + 0.64, r + 0.22), (c + 0.9, r + 0.8)]
    fill_poly(img, lay, right, (255, 255, 255))
    draw_poly(img, lay, right, ink, 0.02, closed=True)
    fill_poly(img, lay, left, (255, 255, 255))
    draw_poly(img, lay, left, ink, 0.02, closed=True)
    draw_poly(
        img,
        lay,
        [
            (c + 0.55, r + 0.42),
            (c + 0.6, r + 0.38),
            (c + 0.64, r + 0.45),
            (c + 0.68, r + 0.38),
            (c + 0.73, r + 0.42),
        ],
        ink,
        0.012,
    )
    draw_circle(img, lay, (c + 0.5, r + 0.78), 0.09, (250, 250, 250), -1)
    draw_circle(img, lay, (c + 0.5, r + 0.78), 0.09, (60, 60, 60), 0.014)
    draw_text(img, lay, "1", (c + 0.5, r + 0.78), 0.09, (60, 60, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.1)


def _ruins_solid(img: np.ndarray, lay: Layout, r: int, c: int, color: tuple[int, int, int]) -> None:
    """Column icon: a whole fluted column on the left, a broken one on the right, each on its base."""
    x, y = c + 0.2, r + 0.22
    w = 0.03
    # capital: a bar with curled ends
    fill_poly(img, lay, [(x, y), (x + 0.34, y), (x + 0.34, y + 0.05), (x, y + 0.05)], color)
    for ex, sgn in ((x + 0.02, 1), (x + 0.32, -1)):
        ctr = lay.px((ex, y + 0.07))
        cv2.ellipse(
            img,
            (round(ctr[0]), round(ctr[1])),
            (max(1, round(0.03 * lay.ppc)),) * 2,
            0,
            0 if sgn > 0 else 180,
            360 if sgn > 0 else 540,
            color,
            thickness(lay, 0.02),
            cv2.LINE_AA,
        )
    # shaft with flutes
    shaft = [(x + 0.07, y + 0.07), (x + 0.07, y + 0.5), (x + 0.27, y + 0.5), (x + 0.27, y + 0.07)]
    draw_poly(img, lay, shaft, color, w)
    for fx in (0.13, 0.17, 0.21):
        draw_line(img, lay, (x + fx, y + 0.12), (x + fx, y + 0.46), color, 0.016)
    # broken column
    bx = x + 0.4
    stump = [
        (bx, y + 0.5),
        (bx, y + 0.3),
        (bx + 0.05, y + 0.25),
        (bx + 0.09, y + 0.31),
        (bx + 0.15, y + 0.27),
        (bx + 0.17, y + 0.5),
    ]
    draw_poly(img, lay, stump, color, w)
    draw_line(img, lay, (bx + 0.06, y + 0.35), (bx + 0.06, y + 0.47), color, 0.016)
    draw_line(img, lay, (bx + 0.11, y + 0.35), (bx + 0.11, y + 0.47), color, 0.016)
    draw_circle(img, lay, (bx + 0.12, y + 0.16), 0.03, color, -1)
    # bases: two steps under each column
    for a, b in ((x - 0.01, x + 0.35), (bx - 0.03, bx + 0.2)):
        fill_poly(img, lay, [(a, y + 0.53), (b, y + 0.53), (b, y + 0.58), (a, y + 0.58)], color)
        fill_poly(
            img,
            lay,
            [(a - 0.02, y + 0.61), (b + 0.02, y + 0.61), (b + 0.02, y + 0.66), (a - 0.02, y + 0.66)],
            color,
        )


def _ruins_outline(
    img: np.ndarray, lay: Layout, r: int, c: int, color: tuple[int, int, int], w: float
) -> None:
    """The printer-friendly column icon: outlines only, a whole column and two broken ones, cracked,
    on a two-step base."""
    x, y = c + 0.18, r + 0.2
    draw_poly(img, lay, [(x, y), (x + 0.22, y), (x + 0.22, y + 0.06), (x, y + 0.06)], color, w, closed=True)
    shaft = [(x + 0.04, y + 0.06), (x + 0.04, y + 0.52), (x + 0.18, y + 0.52), (x + 0.18, y + 0.06)]
    draw_poly(img, lay, shaft, color, w)
    for bx, top in ((x + 0.24, 0.18), (x + 0.42, 0.3)):
        stump = [(bx, y + 0.52), (bx, y + top + 0.05), (bx + 0.05, y + top), (bx + 0.09, y + top + 0.07),
                 (bx + 0.14, y + top + 0.02), (bx + 0.14, y + 0.52)]
        draw_poly(img, lay, stump, color, w)
    for sx in (x + 0.11, x + 0.31, x + 0.49):
        crack = [(sx + 0.02 * (-1) ** i, y + 0.3 + 0.05 * i) for i in range(4)]
        draw_poly(img, lay, crack, color, w * 0.8)
    for a, b, top in ((-0.03, 0.62, 0.52), (-0.06, 0.65, 0.57)):
        step = [(x + a, y + top), (x + b, y + top), (x + b, y + top + 0.05), (x + a, y + top + 0.05)]
        draw_poly(img, lay, step, color, w, closed=True)


def _wear(rng: np.random.Generator, n: int, ppc: float, heavy: bool) -> np.ndarray:
    """(n, n) float32 in [0, 1]: how much of a printed icon's ink survives a worn print or a poor
    scan: pitted by specks, split by hairline cracks, paler in blotches."""
    keep = np.ones((n, n), np.float32)
    pits = (rng.random((n, n)) < (0.05 if heavy else 0.025)).astype(np.float32)
    keep -= np.clip(cv2.GaussianBlur(pits, (0, 0), max(0.5, ppc / 90)) * 3.0, 0, 1)
    for _ in range(int(rng.integers(3, 9))):
        p = rng.uniform(0.2, 0.8, 2) * n
        pts = [p.copy()]
        for _ in range(int(rng.integers(2, 5))):
            p = p + np.array([rng.normal(0, 0.04), rng.uniform(0.03, 0.09)]) * ppc
            pts.append(p.copy())
        line = np.round(np.array(pts)).astype(np.int32)
        cv2.polylines(keep, [line], False, 0.0, max(1, round(ppc / 45)), cv2.LINE_AA)
    keep *= np.clip(0.8 + 0.3 * _smooth_noise(rng, (n, n), 4), 0.45, 1.0)
    return np.clip(keep, 0, 1)


#: Looks of the printed ruins icon with the print's marks on, one per paper variant in turn. Colour
#: sheets: clean, worn, worn and faded; printer-friendly: filled grey, outlined, thin outline worn (the
#: real redraw's icon is outlined). The real colour icon has the clean look's colour, ink cover and
#: size (measured at 64 px a cell) with cracked flutes; a net trained on these looks still read it as
#: a farm (docs/TRIED.md, 2026-12-07, sixteenth).
RUINS_LOOKS = 3


def _ruins(
    img: np.ndarray,
    lay: Layout,
    r: int,
    c: int,
    color: tuple[int, int, int],
    theme: str,
    look: int,
    rng: np.random.Generator,
) -> None:
    """Print the ruins icon of cell (r, c) into the ink layer `img` in look `look`."""
    n = int(lay.ppc) + 2
    x0, y0 = int(lay.ox + c * lay.ppc), int(lay.oy + r * lay.ppc)
    sub = Layout(lay.ppc, lay.ox - x0, lay.oy - y0, n, n)
    icon = np.full((n, n, 3), 255, np.uint8)
    if theme == "printfriendly" and look:
        _ruins_outline(icon, sub, r, c, (30, 30, 30) if look == 1 else color, 0.022 if look == 1 else 0.014)
    else:
        _ruins_solid(icon, sub, r, c, color)
    if look:
        worn = (255.0 - icon.astype(np.float32)) * _wear(rng, n, lay.ppc, heavy=look == 2)[..., None]
        if theme != "printfriendly" and look == 2:
            worn *= 0.8
        icon = np.clip(255.5 - worn, 0, 255).astype(np.uint8)
    roi = img[y0 : y0 + n, x0 : x0 + n]
    h, w = roi.shape[:2]
    img[y0 : y0 + h, x0 : x0 + w] = cv2.multiply(roi, icon[:h, :w], scale=1.0 / 255.0)


def _rift_mask(lay: Layout, rng: np.random.Generator, cells: frozenset[Cell], shrink: float) -> np.ndarray:
    """Ragged mask of the torn hole over `cells` (page-sized float32, 0/1)."""
    h, w = lay.height, lay.width
    m = np.zeros((h, w), np.uint8)
    for r, c in cells:
        fill_poly(m, lay, [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)], (255,))
    inside = cv2.distanceTransform(m, cv2.DIST_L2, 3)
    outside = cv2.distanceTransform(255 - m, cv2.DIST_L2, 3)
    sd = inside - outside - shrink * lay.ppc
    fine = _smooth_noise(rng, (h, w), 300)
    # torn paper: a wavy edge with sharp splinters sticking in and out
    ragged = (
        _smooth_noise(rng, (h, w), 60) * 0.025
        + _smooth_noise(rng, (h, w), 140) * 0.03
        + fine * np.abs(fine) * 0.02
    ) * lay.ppc
    hole = ((sd + ragged) > 0).astype(np.uint8)
    # keep the hole in one piece per connected group of cells: drop specks and pinholes
    n, lab, stats, _ = cv2.connectedComponentsWithStats(hole, connectivity=4)
    keep = np.zeros(n, bool)
    keep[1:] = stats[1:, cv2.CC_STAT_AREA] > 0.1 * lay.ppc * lay.ppc
    hole = keep[lab].astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(1 - hole, connectivity=4)
    small = np.zeros(n, bool)
    small[1:] = stats[1:, cv2.CC_STAT_AREA] < 0.1 * lay.ppc * lay.ppc
    hole[small[lab]] = 1
    return hole.astype(np.float32)


def _rift_color(
    paint: np.ndarray,
    ink: np.ndarray,
    lay: Layout,
    rng: np.random.Generator,
    hole: np.ndarray,
    tone: tuple[int, int, int],
) -> None:
    """Torn hole: peach rim into `ink` (multiplied), grey-brown floor and dark torn edge into `paint`."""
    if not hole.any():
        return
    u8 = (hole * 255).astype(np.uint8)
    h, w = hole.shape
    # torn rim: pale peach paper fibres just outside the hole, wider in places
    grow = max(1, round(lay.ppc * 0.1))
    rim = cv2.dilate(u8, np.ones((3, 3), np.uint8), iterations=grow).astype(np.float32) / 255
    rim *= np.clip(0.5 + _smooth_noise(rng, (h, w), 80) * 0.6, 0, 1)
    rim_f = (cv2.GaussianBlur(rim, (0, 0), lay.ppc * 0.02) - hole).clip(0, 1) * 0.75
    del ink
    # brown streaks hang down from the upper edges: vertical structure, strongest near the top
    streak = cv2.resize(rng.standard_normal((1, max(2, w // 3))).astype(np.float32), (w, h))
    streak = np.clip(streak * 0.7 + 0.35, 0, 1.3)
    depth = np.zeros((h, w), np.float32)
    run = np.zeros(w, np.float32)
    for y in range(h):
        run = np.where(hole[y] > 0, run + 1, 0)
        depth[y] = run
    depth /= lay.ppc
    brown = (np.exp(-depth / rng.uniform(0.3, 0.5)) * streak)[..., None] * np.array([95, 75, 35], np.float32)
    mottle = _smooth_noise(rng, (h, w), 20)[..., None] * 6
    floor = np.asarray(tone, np.float32) + mottle - brown
    paint[:] = np.where(hole[..., None] > 0, floor, paint)
    peach = rim_f > 0.01
    paint[peach] = (176, 198, 226)
    edge = cv2.morphologyEx(u8, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    edge = cv2.dilate(edge, np.ones((2, 2), np.uint8)) if lay.ppc > 40 else edge
    paint[edge > 0] = (40, 40, 48)
    hole[:] = np.maximum(hole, rim_f)
    hole[edge > 0] = 1.0


def _rift_bw(paint: np.ndarray, lay: Layout, rng: np.random.Generator, hole: np.ndarray) -> None:
    u8 = (hole * 255).astype(np.uint8)
    paint[hole > 0] = 215
    contours, _ = cv2.findContours(u8, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cv2.drawContours(paint, contours, -1, (30, 30, 30), max(1, round(lay.ppc * 0.025)), cv2.LINE_AA)
    # cliff strokes hanging from the top edges
    _, xs = np.nonzero(hole)
    for _ in range(max(1, len(xs) // int(lay.ppc * lay.ppc / 3))):
        x = int(xs[int(rng.integers(0, len(xs)))])
        col = np.nonzero(hole[:, x])[0]
        y0 = int(col.min())
        ln = int(lay.ppc * rng.uniform(0.2, 0.5))
        cv2.line(paint, (x, y0), (x, min(y0 + ln, int(col.max()))), (120, 120, 120), 1, cv2.LINE_AA)
    edge = cv2.morphologyEx(u8, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    hole[edge > 0] = 1.0


# ------------------------------------------------------------------------------------------- public


@dataclass(frozen=True)
class Blank:
    """A printed blank sheet: pixels plus the mask of cells nobody draws in."""

    image: np.ndarray  # (H, W, 3) uint8
    protect: np.ndarray  # (H, W) float32: 1 inside printed mountain / wasteland cells
    layout: Layout
    protect_box: tuple[int, int, int, int]  # pixel box (x0, y0, x1, y1) holding the protected cells


# Blanks are drawn once at a master scale and resampled to the requested one: 64 px per cell for
# photo-sized pages, 24 for the thumbnails tests use (shrinking thin lines 3x would wash them out).
MASTER_PPCS = (24.0, 64.0)


def master_ppc(ppc: float) -> float:
    """The master scale a page at `ppc` is resampled from."""
    return MASTER_PPCS[0] if ppc <= 32 else MASTER_PPCS[1]


@lru_cache(maxsize=4 * PAPER_VARIANTS + 4)
def _paper_master(theme: str, variant: int, mppc: float, marks: bool = False) -> np.ndarray:
    """Parchment (or white) paper at a master scale, uint8 BGR, cached per theme, variant and marks."""
    lay = Layout.make(mppc)
    rng = np.random.default_rng([variant, THEMES.index(theme), 7])
    out = np.clip(_paper(lay, theme, rng, marks) + 0.5, 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=12 * RUINS_LOOKS)
def _print_master(
    side: str,
    theme: str,
    look: int,
    mountains: frozenset[Cell],
    wasteland: frozenset[Cell],
    ruins: frozenset[Cell],
    mppc: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The printing of one side at the master scale, independent of the paper.

    Returns ``(ink, paint, alpha)``: `ink` (uint8 BGR) multiplies into the paper like translucent
    printing ink; `paint` (uint8 BGR) with coverage `alpha` (uint8) lies on top, opaque (the brown
    mountains, the floor of the rift).
    """
    geo = geometry()
    lay = Layout.make(mppc, geo)
    seed = [ord(side[0]), THEMES.index(theme), len(mountains), len(wasteland)]
    rng = np.random.default_rng([*seed, look] if look else seed)
    tint = SIDE_TINT.get(side, SIDE_TINT["custom"])
    ink = np.full((lay.height, lay.width, 3), 255, np.uint8)
    if theme == "printfriendly":
        _solid_grid(ink, lay)
        x0, y0, x1, y1 = geo.page
        m = 0.35
        corners = [(x0 + m, y0 + m), (x1 - m, y0 + m), (x1 - m, y1 - m), (x0 + m, y1 - m)]
        draw_poly(ink, lay, corners, (30, 30, 30), 0.02, closed=True)
    else:
        _dashed_grid(ink, lay, tint)
        _frame(ink, lay, geo)
        _labels(ink, lay, geo, tint)
    coin_track(ink, lay, geo, side, theme)
    season_boxes(ink, lay, geo, side, theme)
    header(ink, lay, geo, side, theme, rng)
    ruin_tint = (95, 95, 95) if theme == "printfriendly" else tint
    for r, c in sorted(ruins):
        _ruins(ink, lay, r, c, ruin_tint, theme, look, rng)
    # opaque layer: drawn on mid-grey "paper", with its own coverage mask
    paint = np.full((lay.height, lay.width, 3), 255.0, np.float32)
    cover = np.zeros((lay.height, lay.width), np.float32)
    if wasteland:
        hole = _rift_mask(lay, rng, wasteland, 0.04)
        if theme == "printfriendly":
            _rift_bw(paint, lay, rng, hole)
        else:
            floor = (150, 152, 160) if side != "D" else (110, 130, 150)
            _rift_color(paint, ink, lay, rng, hole, floor)
        cover = np.maximum(cover, hole)
    for r, c in sorted(mountains):
        if theme == "printfriendly":
            _mountain_bw(ink, lay, r, c)
        else:
            m_cover = np.zeros_like(cover)
            _mountain_color(paint, m_cover, lay, rng, r, c)
            cover = np.maximum(cover, m_cover)
    # colours were chosen as they look on the standard paper: turn them into multiplicative ink
    ref = np.asarray(PAPER if theme == "color" else (246, 246, 246), np.float32)
    ink = np.clip(ink.astype(np.float32) * (255.0 / ref), 0, 255).astype(np.uint8)
    out = (
        ink,
        np.clip(paint + 0.5, 0, 255).astype(np.uint8),
        np.clip(cover * 255 + 0.5, 0, 255).astype(np.uint8),
    )
    for a in out:
        a.setflags(write=False)
    return out


@lru_cache(maxsize=12 * RUINS_LOOKS)
def _cover_box(
    side: str,
    theme: str,
    look: int,
    mountains: frozenset[Cell],
    wasteland: frozenset[Cell],
    ruins: frozenset[Cell],
    mppc: float,
) -> tuple[int, int, int, int] | None:
    """Pixel box (x0, y0, x1, y1) of the opaque paint of a master print, None without any."""
    cover = _print_master(side, theme, look, mountains, wasteland, ruins, mppc)[2]
    ys, xs = np.nonzero(cover)
    if not len(xs):
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _resample(
    img: np.ndarray, scale: float, size: tuple[int, int], flags: int = cv2.INTER_LINEAR
) -> np.ndarray:
    """Scale about the origin exactly (pixel centres map as x' = scale * x), anti-aliased when shrinking."""
    if abs(scale - 1.0) < 1e-9 and (img.shape[1], img.shape[0]) == size:
        return img
    if scale < 0.7:
        img = cv2.GaussianBlur(img, (0, 0), 0.42 / scale)
    m = np.array([[scale, 0, 0], [0, scale, 0]], np.float64)
    return cv2.warpAffine(img, m, size, flags=flags, borderMode=cv2.BORDER_REPLICATE)


def _protect_mask(lay: Layout, cells: frozenset[Cell]) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """(H, W) float32 mask, 1 inside the printed mountain and wasteland ``cells`` that nobody draws
    in (softened at its edge), and the pixel box holding them ((0, 0, 0, 0) when there are none)."""
    protect: np.ndarray = np.zeros((lay.height, lay.width), np.float32)
    inset = 0.14
    for r, c in cells:
        sq = [
            (c + inset, r + inset),
            (c + 1 - inset, r + inset),
            (c + 1 - inset, r + 1 - inset),
            (c + inset, r + 1 - inset),
        ]
        fill_poly(protect, lay, sq, (1,))
    box = (0, 0, 0, 0)
    if cells:
        protect = cv2.GaussianBlur(protect, (0, 0), max(0.5, 0.02 * lay.ppc))
        (bx0, by0), (bx1, by1) = lay.px(
            [
                (min(c for _, c in cells), min(r for r, _ in cells)),
                (max(c for _, c in cells) + 1, max(r for r, _ in cells) + 1),
            ]
        )
        box = (
            max(0, int(bx0) - 2),
            max(0, int(by0) - 2),
            min(lay.width, int(bx1) + 3),
            min(lay.height, int(by1) + 3),
        )
    return protect, box


def blank_on_image(image: np.ndarray, corners: np.ndarray, protected: frozenset[Cell]) -> Blank:
    """A printed sheet from elsewhere (a photo or scan lying flat and upright) to draw on.

    Parameters
    ----------
    image : (H, W, 3) uint8
        The sheet, grid rows horizontal.
    corners : (4, 2)
        Grid corners A1, A11, K11, K1 in ``image`` pixels.
    protected : the printed mountain and wasteland cells.

    Raises
    ------
    ValueError
        The corners are not an upright, unskewed square grid (then one scale and origin cannot place
        the drawing).
    """
    pts = np.asarray(corners, np.float64)
    across = np.linalg.norm(pts[1] - pts[0]), np.linalg.norm(pts[2] - pts[3])
    down = np.linalg.norm(pts[3] - pts[0]), np.linalg.norm(pts[2] - pts[1])
    side = float(np.mean([*across, *down]))
    fit = pts[0] + np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * side
    if np.abs(pts - fit).max() > 0.02 * side:
        raise ValueError("the grid corners are not an upright square: straighten the image first")
    lay = Layout(side / GRID_SIZE, float(pts[0, 0]), float(pts[0, 1]), image.shape[1], image.shape[0])
    protect, box = _protect_mask(lay, protected)
    img = np.ascontiguousarray(image[..., :3], np.uint8)
    img.setflags(write=False)
    protect.setflags(write=False)
    return Blank(img, protect, lay, box)


@lru_cache(maxsize=16)
def printed_blank(
    side: str,
    theme: str,
    ppc: float,
    variant: int,
    mountains: frozenset[Cell],
    wasteland: frozenset[Cell],
    ruins: frozenset[Cell],
    marks: bool = False,
) -> Blank:
    """The printed, undrawn sheet at `ppc` (cached; parts are cached at a master scale).

    Parameters
    ----------
    side : "A".."D" or "custom"
    theme : "color" or "printfriendly"
    ppc : float
        Pixels per cell.
    variant : int
        Paper texture seed, ``0 <= variant < 4 * PAPER_VARIANTS`` (the paper is also mirrored, so
        four variants share one cached texture).
    mountains, wasteland, ruins : frozenset of (row, col)
    marks : bool
        The real print's fine marks: veins and specks in the paper, and the ruins icon in one of
        :data:`RUINS_LOOKS` looks (``variant % RUINS_LOOKS``). Off by default: the committed nets and
        every cached benchmark were made without them (see ``benchmarks/eval_print_gap.py``).
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: expected one of {', '.join(THEMES)}")
    lay = Layout.make(ppc)
    size = (lay.width, lay.height)
    mppc = master_ppc(ppc)
    scale = ppc / mppc
    paper = _paper_master(theme, variant % PAPER_VARIANTS, mppc, marks)
    flip = (variant // PAPER_VARIANTS) % 4
    if flip:
        paper = cv2.flip(paper, {1: 0, 2: 1, 3: -1}[flip])
    look = variant % RUINS_LOOKS if marks else 0
    ink, paint, cover = _print_master(side, theme, look, mountains, wasteland, ruins, mppc)
    cover_box = _cover_box(side, theme, look, mountains, wasteland, ruins, mppc)
    # printing ink multiplies into the paper
    paper_px = _resample(paper, scale, size)
    ink_px = _resample(ink, scale, size)
    # print runs differ in ink density: a fixed strength per variant, from pale to heavy
    strength = 0.8 + 0.35 * ((variant * 7919) % 31) / 30
    ink_px = cv2.addWeighted(ink_px, strength, np.full_like(ink_px, 255), 0.0, 255 * (1 - strength))
    img = cv2.multiply(paper_px, ink_px, scale=1.0 / 255.0)
    if cover_box is not None:
        x0 = max(0, int(cover_box[0] * scale) - 2)
        y0 = max(0, int(cover_box[1] * scale) - 2)
        x1 = min(size[0], int(cover_box[2] * scale) + 3)
        y1 = min(size[1], int(cover_box[3] * scale) + 3)
        m = np.array([[scale, 0, -x0], [0, scale, -y0]], np.float64)
        sub = (x1 - x0, y1 - y0)
        src_c, src_p = cover, paint
        if scale < 0.7:
            src_c = cv2.GaussianBlur(cover, (0, 0), 0.42 / scale)
            src_p = cv2.GaussianBlur(paint, (0, 0), 0.42 / scale)
        a = cv2.warpAffine(src_c, m, sub, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255.0
        top = cv2.warpAffine(src_p, m, sub, flags=cv2.INTER_LINEAR).astype(np.float32)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        # opaque paint keeps a little of the paper's mottling, as printed ink on parchment does
        under = paper_px[y0:y1, x0:x1].astype(np.float32).mean(axis=2, keepdims=True)
        shade = np.clip(under / np.float32(np.mean(PAPER) if theme == "color" else 246.0), 0.85, 1.1)
        img[y0:y1, x0:x1] = np.clip(roi + a * (top * shade - roi) + 0.5, 0, 255).astype(np.uint8)
    protect, box = _protect_mask(lay, mountains | wasteland)
    image = img
    image.setflags(write=False)
    protect.setflags(write=False)
    return Blank(image, protect, lay, box)
