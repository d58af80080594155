"""The ``studio`` family's icon designs: a third author's pencil sketches of the six terrains.

Each design is how some player might fill a *Cartographers* cell by hand: outlines, single-line
symbols, clusters of small things, shapes scribbled dark with close strokes, rough circles and small
pictograms. Every call draws the design anew with its own proportions and counts (``rng``); the
renderer adds size, tilt and position on top. Strokes are in cell-local units (0..1, y downwards) and
kept inside about [0.12, 0.88].

The designs of a terrain are split by the fixed table :data:`STUDIO_DESIGNS` into a ``train`` half and
an ``eval`` half, so that the family's eval split measures designs of this author that no net trained
on. The eval half holds, where this author drew one, the designs nearest to the pictures other
families hold out (a pine, a hut, a grid of dots, a spiral, a boat, fangs, a bat, tentacles, a
banner), so training on this family does not hand those held-out pictures to the classifier.

Keys are ``stu:<terrain>:<name>`` (:func:`studio_key`); :func:`models.synth.icons.icon_paths` hands
them to :func:`studio_paths`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from models.synth.shapes import Path, circle_path, ellipse, poly, rect, turned, turning, wave, zigzag

PREFIX = "stu:"
#: The box every design is drawn inside (cell units): a stroke reaching further is scaled back in.
BOX = (0.12, 0.88)

Design = Callable[[np.random.Generator], list[Path]]
_DESIGNS: dict[tuple[str, str], Design] = {}


def _design(terrain: str, name: str) -> Callable[[Design], Design]:
    """Files a design under (terrain, name)."""

    def register(fn: Design) -> Design:
        if (terrain, name) in _DESIGNS:
            raise ValueError(f"studio design {terrain}:{name} defined twice")
        _DESIGNS[(terrain, name)] = fn
        return fn

    return register


# ---------------------------------------------------------------------------------------------------
# small helpers


def _u(rng: np.random.Generator, a: float, b: float) -> float:
    return float(rng.uniform(a, b))


def _n(rng: np.random.Generator, s: float) -> float:
    return float(rng.normal(0.0, s))


def _coin(rng: np.random.Generator, p: float = 0.5) -> bool:
    return bool(rng.random() < p)


def _seg(x0: float, y0: float, x1: float, y1: float) -> Path:
    return poly((x0, y0), (x1, y1))


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 12) -> Path:
    """An elliptic arc from ``a0`` to ``a1`` degrees (y down: 90 is the bottom, -90 the top)."""
    return ellipse(cx, cy, rx, ry, np.deg2rad(a0), np.deg2rad(a1), n)


def _bez(*ctrl: tuple[float, float], n: int = 14) -> Path:
    """A Bezier curve through its control points (de Casteljau): a hand's smooth bend."""
    pts = np.array(ctrl, float)
    t = np.linspace(0.0, 1.0, n)[:, None, None]
    layer = np.broadcast_to(pts, (n, *pts.shape)).copy()
    while layer.shape[1] > 1:
        layer = layer[:, :-1] * (1 - t) + layer[:, 1:] * t
    out: Path = layer[:, 0]
    return out


def _closed(p: Path) -> Path:
    return p if np.allclose(p[0], p[-1]) else np.vstack([p, p[:1]])


def _rough_circle(rng: np.random.Generator, cx: float, cy: float, r: float, n: int = 18) -> Path:
    """A pencil circle: a little lopsided, its end running past its start."""
    start = _u(rng, 0, 2 * np.pi)
    t = np.linspace(start, start + 2 * np.pi + _u(rng, 0.15, 0.5), n + 2)
    k, ph = _u(rng, 0.03, 0.08), _u(rng, 0, 2 * np.pi)
    rr = r * (1 + k * np.sin(2 * t + ph))
    return np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t) * _u(rng, 0.92, 1.05)], 1)


def _blob(
    rng: np.random.Generator, cx: float, cy: float, rx: float, ry: float, amp: float = 0.12, n: int = 26
) -> Path:
    """A closed irregular round shape: a lake, a crown of leaves, a slime."""
    t = np.linspace(0, 2 * np.pi, n + 1)
    r = np.ones_like(t)
    for k in (2, 3, 5):
        r += amp / k * 1.6 * np.sin(k * t + _u(rng, 0, 2 * np.pi))
    r[-1] = r[0]
    return np.stack([cx + rx * r * np.cos(t), cy + ry * r * np.sin(t)], 1)


def _dot(x: float, y: float, r: float = 0.016) -> Path:
    """A pencil dot: a tiny tight circle."""
    return circle_path(x, y, r, 6)


def _spiral(
    cx: float,
    cy: float,
    r0: float,
    r1: float,
    turns: float,
    start: float = 0.0,
    sign: float = 1.0,
    n: int | None = None,
) -> Path:
    m = n or int(10 * turns + 6)
    t = np.linspace(0, turns * 2 * np.pi, m)
    r = np.linspace(r0, r1, m)
    return np.stack([cx + r * np.cos(start + sign * t), cy + r * np.sin(start + sign * t)], 1)


def _star(cx: float, cy: float, ro: float, ri: float, k: int = 5, rot: float = -np.pi / 2) -> Path:
    """A closed star outline of ``k`` points."""
    t = rot + np.arange(2 * k + 1) * np.pi / k
    r = np.where(np.arange(2 * k + 1) % 2, ri, ro)
    return np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1)


def _drop(cx: float, top: float, w: float, h: float) -> Path:
    """A water drop outline, its point at (cx, top), ``w`` its half width, ``h`` its height."""
    t = np.linspace(0, 2 * np.pi, 21)
    return np.stack([cx + w * np.sin(t) * np.sin(t / 2) * 1.3, top + h * (1 - np.cos(t)) / 2], 1)


def _hatch(outline: Path, angle: float, gap: float, *, zig: bool = False) -> list[Path]:
    """Close parallel strokes filling a closed ``outline`` at ``angle`` degrees, ``gap`` apart; ``zig``
    joins them back and forth into one scribbled stroke, as a player darkens a shape quickly."""
    ring = _closed(np.asarray(outline, float))
    c = ring.mean(0)
    a = np.deg2rad(angle)
    pts = (ring - c) @ turning(-a).T
    segs: list[Path] = []
    for y in np.arange(pts[:, 1].min() + gap / 2, pts[:, 1].max(), gap):
        xs = sorted(
            float(x0 + (y - y0) * (x1 - x0) / (y1 - y0))
            for (x0, y0), (x1, y1) in itertools.pairwise(pts)
            if (y0 <= y < y1) or (y1 <= y < y0)
        )
        segs += [np.array([[xs[i], y], [xs[i + 1], y]]) for i in range(0, len(xs) - 1, 2)]
    if not segs:
        return []
    if zig:
        segs = [np.vstack([s if k % 2 == 0 else s[::-1] for k, s in enumerate(segs)])]
    return [s @ turning(a).T + c for s in segs]


def _tapered(centre: Path, w0: float, w1: float = 0.0) -> Path:
    """A closed outline round the line ``centre``, ``w0`` wide at its start narrowing to ``w1``: a horn,
    a tentacle, a claw."""
    d = np.gradient(centre, axis=0)
    nrm = np.stack([-d[:, 1], d[:, 0]], 1)
    nrm /= np.maximum(np.linalg.norm(nrm, axis=1, keepdims=True), 1e-9)
    w = np.linspace(w0, w1, len(centre))[:, None] / 2
    out: Path = np.vstack([centre + nrm * w, (centre - nrm * w)[::-1], centre[:1] + nrm[:1] * w[:1]])
    return out


def _mirror(paths: list[Path], cx: float = 0.5) -> list[Path]:
    return [np.stack([2 * cx - p[:, 0], p[:, 1]], 1) for p in paths]


def _fit(paths: list[Path], lo: float = BOX[0], hi: float = BOX[1]) -> list[Path]:
    """``paths`` scaled about their middle (never up) and moved so that they lie in [lo, hi]."""
    pts = np.vstack(paths)
    a, b = pts.min(0), pts.max(0)
    s = min(1.0, (hi - lo) / max(float((b - a).max()), 1e-9))
    mid = (a + b) / 2
    half = (b - a) * s / 2
    new_mid = np.clip(mid, lo + half, hi - half)
    return [(p - mid) * s + new_mid for p in paths]


# ---------------------------------------------------------------------------------------------------
# forest


@_design("F", "pine_tiers")
def _pine_tiers(rng: np.random.Generator) -> list[Path]:
    """Stacked triangles drawn as one outline, two to four tiers, on a short trunk."""
    tiers = int(rng.integers(2, 5))
    cx, top, base = 0.5, _u(rng, 0.14, 0.2), _u(rng, 0.68, 0.76)
    half = _u(rng, 0.2, 0.28)
    step = (base - top) / tiers
    left: list[tuple[float, float]] = [(cx, top)]
    for i in range(tiers):
        w = half * (0.45 + 0.55 * (i + 1) / tiers)
        y = top + step * (i + 1)
        left.append((cx - w, y))
        if i < tiers - 1:
            left.append((cx - w * _u(rng, 0.3, 0.55), y - step * _u(rng, 0.05, 0.2)))
    right = [(2 * cx - x, y) for x, y in reversed(left[1:])]
    tw, th = _u(rng, 0.025, 0.045), _u(rng, 0.07, 0.11)
    trunk = poly((cx - tw, base), (cx - tw, base + th), (cx + tw, base + th), (cx + tw, base))
    return [poly(*left, *right, (cx, top)), trunk]


@_design("F", "pine_zig")
def _pine_zig(rng: np.random.Generator) -> list[Path]:
    """A trunk with one zigzag stroke swinging across it, wider towards the ground: a quick fir."""
    cx, top, bottom = 0.5, _u(rng, 0.13, 0.18), _u(rng, 0.82, 0.87)
    foot = bottom - _u(rng, 0.08, 0.14)
    n = int(rng.integers(7, 13))
    ys = np.linspace(top + 0.05, foot, n)
    w = (ys - top) / (foot - top) * _u(rng, 0.2, 0.3) + 0.02
    sign = 1 if _coin(rng) else -1
    zig = [(cx, top)] + [(cx + sign * (w[k] if k % 2 else -w[k]), float(ys[k])) for k in range(n)]
    return [_seg(cx, top, cx + _n(rng, 0.01), bottom), poly(*zig)]


@_design("F", "fir_branches")
def _fir_branches(rng: np.random.Generator) -> list[Path]:
    """A trunk hung with drooping branches, each a bent stroke on either side."""
    cx, top, bottom = 0.5, _u(rng, 0.13, 0.18), _u(rng, 0.82, 0.87)
    k = int(rng.integers(4, 7))
    droop = _u(rng, 0.04, 0.1)
    paths = [_seg(cx, top, cx, bottom)]
    for i, y in enumerate(np.linspace(top + 0.04, bottom - 0.16, k)):
        w = 0.07 + (i + 1) / k * _u(rng, 0.18, 0.24)
        sag = _u(rng, -0.02, 0.02)
        paths.append(_bez((cx - w, y + droop), (cx - w * 0.45, y + sag), (cx, y)))
        paths.append(_bez((cx, y), (cx + w * 0.45, y + sag), (cx + w, y + droop)))
    return paths


@_design("F", "cone")
def _cone(rng: np.random.Generator) -> list[Path]:
    """A tall cone with a rounded foot, a few lines across it, on a stub of trunk."""
    cx, top, foot = 0.5, _u(rng, 0.14, 0.2), _u(rng, 0.66, 0.74)
    w = _u(rng, 0.12, 0.2)
    dip = _u(rng, 0.03, 0.07)
    outline = np.vstack([poly((cx - w, foot), (cx, top), (cx + w, foot)), _arc(cx, foot, w, dip, 0, 180, 10)])
    paths = [outline]
    for y in np.sort(rng.uniform(top + 0.12, foot - 0.04, int(rng.integers(0, 4)))):
        hw = w * (y - top) / (foot - top)
        paths.append(_bez((cx - hw * 0.8, y), (cx, y + dip * 0.8), (cx + hw * 0.8, y)))
    paths.append(_seg(cx, foot + dip, cx + _n(rng, 0.01), foot + dip + _u(rng, 0.08, 0.13)))
    return paths


@_design("F", "spruce_dark")
def _spruce_dark(rng: np.random.Generator) -> list[Path]:
    """A tall triangle with jagged sides, scribbled dark with close back-and-forth strokes."""
    cx, top, foot = 0.5, _u(rng, 0.13, 0.18), _u(rng, 0.7, 0.77)
    w = _u(rng, 0.15, 0.23)
    n = int(rng.integers(3, 6)) * 2 + 1
    ys = np.linspace(top, foot, n)
    left = [
        (cx - w * (y - top) / (foot - top) * (1.0 if k % 2 else 0.75), float(y)) for k, y in enumerate(ys)
    ]
    left[0] = (cx, top)
    outline = poly(*left, *[(2 * cx - x, y) for x, y in reversed(left)])
    fill = _hatch(outline, _u(rng, -20, 20), _u(rng, 0.025, 0.04), zig=True)
    tw = _u(rng, 0.02, 0.04)
    return [outline, *fill, rect(cx - tw, foot, cx + tw, foot + _u(rng, 0.07, 0.11))]


@_design("F", "round_tree")
def _round_tree(rng: np.random.Generator) -> list[Path]:
    """A round crown on a two-line trunk that flares at the ground."""
    r = _u(rng, 0.16, 0.22)
    cx, cy = 0.5, 0.15 + r + _u(rng, 0.0, 0.04)
    ground = _u(rng, 0.8, 0.86)
    tw = _u(rng, 0.025, 0.045)
    paths = [
        _rough_circle(rng, cx, cy, r),
        _bez((cx - tw, cy + r * 0.95), (cx - tw, ground - 0.04), (cx - tw * 2.2, ground)),
        _bez((cx + tw, cy + r * 0.95), (cx + tw, ground - 0.04), (cx + tw * 2.2, ground)),
    ]
    if _coin(rng):
        paths.append(_seg(cx - r * 1.1, ground, cx + r * 1.1, ground))
    return paths


@_design("F", "cloud_crown")
def _cloud_crown(rng: np.random.Generator) -> list[Path]:
    """A scalloped crown of bumps round a forked trunk."""
    k = int(rng.integers(6, 10))
    big = _u(rng, 0.15, 0.19)
    cx, cy = 0.5, 0.16 + big * 1.1 + _u(rng, 0.0, 0.03)
    t = np.linspace(0, 2 * np.pi, 8 * k + 1) + _u(rng, 0, 1)
    r = big * (0.85 + _u(rng, 0.2, 0.3) * np.abs(np.sin(k * t / 2)))
    crown = np.stack([cx + r * np.cos(t), cy + r * np.sin(t) * _u(rng, 0.85, 1.0)], 1)
    ground = _u(rng, 0.82, 0.87)
    fork = cy + big * _u(rng, 0.3, 0.6)
    spread = _u(rng, 0.05, 0.1)
    return [
        crown,
        _seg(cx, ground, cx, fork),
        _seg(cx, fork, cx - spread, fork - spread * 1.3),
        _seg(cx, fork, cx + spread, fork - spread * 1.1),
    ]


@_design("F", "scribble_crown")
def _scribble_crown(rng: np.random.Generator) -> list[Path]:
    """A trunk under a crown scribbled in small overlapping loops."""
    cx, cy = 0.5, _u(rng, 0.34, 0.4)
    rx, ry = _u(rng, 0.17, 0.24), _u(rng, 0.14, 0.2)
    loops = int(rng.integers(7, 12))
    t = np.linspace(0, 2 * np.pi * loops, loops * 9)
    phase = rng.uniform(0, 2 * np.pi, 2)
    ccx = cx + 0.65 * rx * np.sin(t / loops * 2.7 + phase[0])
    ccy = cy + 0.6 * ry * np.cos(t / loops * 3.4 + phase[1])
    rho = 0.4 * min(rx, ry) * (1 + 0.2 * np.sin(t * 0.31))
    crown = np.stack([ccx + rho * np.cos(t), ccy + rho * np.sin(t)], 1)
    ground = _u(rng, 0.82, 0.87)
    tw = _u(rng, 0.02, 0.035)
    return [
        crown,
        _seg(cx - tw, cy + ry * 0.7, cx - tw, ground),
        _seg(cx + tw, cy + ry * 0.7, cx + tw, ground),
    ]


@_design("F", "hatched_crown")
def _hatched_crown(rng: np.random.Generator) -> list[Path]:
    """An oval crown shaded with parallel strokes, on a single-line trunk."""
    cx, cy = 0.5, _u(rng, 0.34, 0.4)
    rx, ry = _u(rng, 0.16, 0.23), _u(rng, 0.15, 0.21)
    crown = ellipse(cx, cy, rx, ry, 0, 2 * np.pi, 20)
    shade = _hatch(crown, _u(rng, 20, 70) * (1 if _coin(rng) else -1), _u(rng, 0.04, 0.06))
    ground = _u(rng, 0.82, 0.87)
    return [crown, *shade, _seg(cx, cy + ry, cx + _n(rng, 0.01), ground)]


@_design("F", "bush")
def _bush(rng: np.random.Generator) -> list[Path]:
    """A low bush: three to five humps over a ground line, a curl or two inside."""
    ground = _u(rng, 0.68, 0.76)
    x0, x1 = _u(rng, 0.13, 0.2), 1 - _u(rng, 0.13, 0.2)
    k = int(rng.integers(3, 6))
    widths = rng.uniform(0.7, 1.3, k)
    edges = x0 + (x1 - x0) * np.concatenate([[0.0], np.cumsum(widths) / widths.sum()])
    parts = [poly((x0, ground))]
    for i in range(k):
        a, b = float(edges[i]), float(edges[i + 1])
        base = ground - _u(rng, 0.03, 0.1) * (1.6 if 0 < i < k - 1 else 1.0)
        parts.append(_arc((a + b) / 2, base, (b - a) / 2, (b - a) * _u(rng, 0.55, 0.95), 180, 360, 9))
    parts.append(poly((x1, ground)))
    paths = [np.vstack(parts), _seg(x0 - 0.02, ground, x1 + 0.02, ground)]
    for _ in range(int(rng.integers(1, 3))):
        x, y = _u(rng, x0 + 0.08, x1 - 0.08), ground - _u(rng, 0.08, 0.14)
        paths.append(_arc(x, y, 0.04, 0.03, 200, 340, 6))
    return paths


@_design("F", "grove_row")
def _grove_row(rng: np.random.Generator) -> list[Path]:
    """Three round trees side by side on one ground line, the middle one tallest."""
    ground = _u(rng, 0.74, 0.8)
    paths = [_seg(0.14, ground, 0.86, ground)]
    for x, tall in ((0.27, 0.0), (0.5, 1.0), (0.73, 0.0)):
        r = _u(rng, 0.08, 0.1) + 0.02 * tall
        stem = _u(rng, 0.08, 0.12) + 0.05 * tall
        cy = ground - stem - r
        paths += [_rough_circle(rng, x + _n(rng, 0.01), cy, r, 14), _seg(x, cy + r, x, ground)]
    return paths


@_design("F", "pine_pair")
def _pine_pair(rng: np.random.Generator) -> list[Path]:
    """Two plain triangle trees on stick trunks, one taller."""
    paths: list[Path] = []
    big_left = _coin(rng)
    for x, big in ((0.34, big_left), (0.66, not big_left)):
        h = _u(rng, 0.44, 0.54) if big else _u(rng, 0.3, 0.38)
        w = _u(rng, 0.11, 0.15) if big else _u(rng, 0.09, 0.12)
        foot = _u(rng, 0.7, 0.74)
        paths.append(poly((x, foot - h), (x - w, foot), (x + w, foot), (x, foot - h)))
        paths.append(_seg(x, foot, x, foot + _u(rng, 0.07, 0.11)))
    return paths


@_design("F", "palm")
def _palm(rng: np.random.Generator) -> list[Path]:
    """A palm: a leaning ringed trunk, drooping fronds, sometimes coconuts."""
    lean = _u(rng, 0.06, 0.14) * (1 if _coin(rng) else -1)
    foot = (0.5 - lean * 0.5, _u(rng, 0.84, 0.87))
    head = (0.5 + lean * 0.5, _u(rng, 0.3, 0.36))
    mid = ((foot[0] + head[0]) / 2 + lean * 0.5, (foot[1] + head[1]) / 2)
    trunk_l = _bez((foot[0] - 0.035, foot[1]), (mid[0] - 0.025, mid[1]), (head[0] - 0.015, head[1]))
    trunk_r = _bez((foot[0] + 0.035, foot[1]), (mid[0] + 0.025, mid[1]), (head[0] + 0.015, head[1]))
    paths = [trunk_l, trunk_r]
    for f in np.linspace(0.2, 0.8, int(rng.integers(2, 5))):
        a, b = trunk_l[int(f * 13)], trunk_r[int(f * 13)]
        paths.append(poly((float(a[0]), float(a[1])), (float(b[0]), float(b[1]) + 0.015)))
    for ang in np.linspace(-170, -10, int(rng.integers(4, 7))) + rng.normal(0, 6):
        length = _u(rng, 0.2, 0.3)
        a = np.deg2rad(ang)
        tip = (head[0] + length * np.cos(a), head[1] + length * np.sin(a) + _u(rng, 0.08, 0.16))
        ctrl = (head[0] + length * 0.6 * np.cos(a), head[1] + length * 0.6 * np.sin(a) - 0.03)
        paths.append(_bez(head, ctrl, tip, n=10))
    if _coin(rng):
        for dx in (-0.03, 0.03):
            paths.append(_dot(head[0] + dx, head[1] + 0.04, 0.022))
    return paths


@_design("F", "leaf")
def _leaf(rng: np.random.Generator) -> list[Path]:
    """One big leaf: a pointed outline, its midrib and veins, a little stalk."""
    w = _u(rng, 0.14, 0.21)
    tip, base = (0.5, _u(rng, 0.14, 0.2)), (0.5, _u(rng, 0.7, 0.76))
    mid_y = (tip[1] + base[1]) / 2 + _u(rng, 0.0, 0.08)
    side_l = _bez(base, (0.5 - w * 1.6, mid_y), tip)
    side_r = _bez(tip, (0.5 + w * 1.6, mid_y), base)
    paths = [
        np.vstack([side_l, side_r[1:]]),
        _bez(base, (0.5, mid_y), tip, n=6),
        _bez(base, (0.5 + 0.02, base[1] + 0.06), (0.5 - 0.03, base[1] + 0.12), n=6),
    ]
    for y in np.linspace(tip[1] + 0.12, base[1] - 0.08, int(rng.integers(2, 5))):
        reach = w * 0.75 * np.sin(np.pi * (y - tip[1]) / (base[1] - tip[1]))
        paths += [_seg(0.5, y, 0.5 - reach, y - 0.07), _seg(0.5, y, 0.5 + reach, y - 0.07)]
    return turned(paths, np.deg2rad(_u(rng, -40, 40)))


@_design("F", "cypress")
def _cypress(rng: np.random.Generator) -> list[Path]:
    """A tall flame-shaped column scribbled up its middle with one zigzag, on a stub trunk."""
    w, top, foot = _u(rng, 0.1, 0.15), _u(rng, 0.12, 0.17), _u(rng, 0.72, 0.78)
    left = _bez((0.5, foot), (0.5 - w * 1.5, foot - 0.12), (0.5 - w * 0.6, top + 0.1), (0.5, top))
    right = _bez((0.5, top), (0.5 + w * 0.6, top + 0.1), (0.5 + w * 1.5, foot - 0.12), (0.5, foot))
    outline = np.vstack([left, right[1:]])
    n = int(rng.integers(6, 11))
    ys = np.linspace(foot - 0.05, top + 0.1, n)
    zig = np.stack(
        [0.5 + np.where(np.arange(n) % 2, 1, -1) * w * 0.5 * np.sin(np.linspace(1.2, 2.6, n)), ys], 1
    )
    return [outline, zig, _seg(0.5, foot, 0.5, foot + _u(rng, 0.07, 0.1))]


@_design("F", "oak")
def _oak(rng: np.random.Generator) -> list[Path]:
    """A broad lumpy crown with the trunk branching up into it, roots at the foot."""
    cx, cy = 0.5, _u(rng, 0.33, 0.38)
    rx, ry = _u(rng, 0.25, 0.3), _u(rng, 0.15, 0.19)
    ground = _u(rng, 0.83, 0.87)
    tw = _u(rng, 0.035, 0.05)
    split = cy + ry * _u(rng, 0.3, 0.6)
    paths = [
        _blob(rng, cx, cy, rx, ry, _u(rng, 0.12, 0.2)),
        _bez((cx - tw * 1.8, ground), (cx - tw, ground - 0.1), (cx - tw * 0.6, split), n=6),
        _bez((cx + tw * 1.8, ground), (cx + tw, ground - 0.1), (cx + tw * 0.6, split), n=6),
        _seg(cx - tw * 0.6, split, cx - rx * _u(rng, 0.3, 0.5), cy - ry * _u(rng, 0.0, 0.4)),
        _seg(cx + tw * 0.6, split, cx + rx * _u(rng, 0.3, 0.5), cy - ry * _u(rng, 0.0, 0.4)),
    ]
    if _coin(rng):
        paths.append(_seg(cx, split, cx + _n(rng, 0.03), cy - ry * 0.6))
    return paths


@_design("F", "treeline")
def _treeline(rng: np.random.Generator) -> list[Path]:
    """A row of tall narrow poplars on one ground line."""
    ground = _u(rng, 0.76, 0.82)
    k = int(rng.integers(3, 6))
    xs = np.linspace(0.22, 0.78, k) + rng.normal(0, 0.01, k)
    rx = 0.28 / k
    paths = [_seg(0.13, ground, 0.87, ground)]
    for x in xs:
        ry = _u(rng, 0.13, 0.22)
        cy = ground - _u(rng, 0.05, 0.08) - ry
        paths += [ellipse(float(x), cy, rx, ry, 0, 2 * np.pi, 14), _seg(float(x), cy + ry, float(x), ground)]
    return paths


@_design("F", "birch")
def _birch(rng: np.random.Generator) -> list[Path]:
    """A slim two-line trunk marked with short dashes, under a loose crown of small round leaves."""
    bend = _u(rng, -0.04, 0.04)
    foot, top = _u(rng, 0.84, 0.87), _u(rng, 0.36, 0.42)
    w = _u(rng, 0.022, 0.035)
    left = _bez((0.5 - w, foot), (0.5 - w + bend, (foot + top) / 2), (0.5 - w * 0.6, top))
    right = _bez((0.5 + w, foot), (0.5 + w + bend, (foot + top) / 2), (0.5 + w * 0.6, top))
    paths = [left, right]
    for i in rng.choice(np.arange(2, 12), int(rng.integers(3, 6)), replace=False):
        a, b = left[int(i)], right[int(i)]
        paths.append(poly(tuple(a + (b - a) * 0.1), tuple(a + (b - a) * _u(rng, 0.4, 0.7))))
    for k in range(int(rng.integers(6, 10))):
        ang, d = k * 2.4 + _u(rng, 0, 0.5), _u(rng, 0.06, 0.15)
        paths.append(
            _rough_circle(
                rng, 0.5 + d * np.cos(ang) * 1.4, top - 0.1 + d * np.sin(ang) * 0.9, _u(rng, 0.04, 0.06), 8
            )
        )
    return paths


@_design("F", "clover_tree")
def _clover_tree(rng: np.random.Generator) -> list[Path]:
    """A crown of three round clumps, left, right and on top, over a trunk."""
    r = _u(rng, 0.1, 0.13)
    cy = _u(rng, 0.4, 0.46)
    spread = r * _u(rng, 0.85, 1.1)
    paths = [
        _rough_circle(rng, 0.5 - spread, cy, r, 14),
        _rough_circle(rng, 0.5 + spread, cy, r, 14),
        _rough_circle(rng, 0.5, cy - r * _u(rng, 1.1, 1.5), r * _u(rng, 0.9, 1.1), 14),
    ]
    ground = _u(rng, 0.82, 0.87)
    paths.append(_seg(0.5, cy, 0.5, ground))
    if _coin(rng):
        paths.append(_seg(0.5, cy + 0.05, 0.5 - spread * 0.6, cy - 0.02))
    return paths


@_design("F", "brush")
def _brush(rng: np.random.Generator) -> list[Path]:
    """A bottle-brush conifer: a trunk crossed by level strokes, short at the top, long below."""
    top, foot = _u(rng, 0.13, 0.17), _u(rng, 0.84, 0.87)
    low = foot - _u(rng, 0.1, 0.15)
    k = int(rng.integers(6, 10))
    tilt = _u(rng, 0.0, 0.04)
    paths = [_seg(0.5, top, 0.5, foot)]
    for i, y in enumerate(np.linspace(top + 0.05, low, k)):
        w = 0.04 + (i + 1) / k * _u(rng, 0.2, 0.27)
        paths.append(poly((0.5 - w, y + tilt), (0.5, y), (0.5 + w, y + tilt)))
    return paths


# ---------------------------------------------------------------------------------------------------
# village


def _house(cx: float, ground: float, w: float, wall: float, roof: float, apex_dx: float = 0.0) -> Path:
    """A house front as one closed outline: walls and a pointed roof."""
    x0, x1, eave = cx - w / 2, cx + w / 2, ground - wall
    return poly((x0, ground), (x0, eave), (cx + apex_dx, eave - roof), (x1, eave), (x1, ground), (x0, ground))


def _door(cx: float, ground: float, w: float, h: float, arched: bool = False) -> Path:
    if arched:
        return np.vstack(
            [
                poly((cx - w / 2, ground)),
                _arc(cx, ground - h + w / 2, w / 2, w / 2, 180, 360, 8),
                poly((cx + w / 2, ground)),
            ]
        )
    return poly(
        (cx - w / 2, ground), (cx - w / 2, ground - h), (cx + w / 2, ground - h), (cx + w / 2, ground)
    )


def _window(cx: float, cy: float, s: float, cross: bool = True) -> list[Path]:
    box = rect(cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)
    return (
        [box, _seg(cx, cy - s / 2, cx, cy + s / 2), _seg(cx - s / 2, cy, cx + s / 2, cy)] if cross else [box]
    )


def _battlement(x0: float, x1: float, y: float, h: float, merlons: int) -> Path:
    """The top of a wall: a square wave of ``merlons`` teeth from ``x0`` to ``x1`` at height ``y``."""
    xs = np.linspace(x0, x1, 2 * merlons)
    pts: list[tuple[float, float]] = []
    for i in range(2 * merlons - 1):
        up = i % 2 == 0
        pts += [(float(xs[i]), y - h if up else y), (float(xs[i + 1]), y - h if up else y)]
    return poly(*pts)


@_design("V", "gable_house")
def _gable_house(rng: np.random.Generator) -> list[Path]:
    """The house every child draws: walls, a pointed roof, a door, perhaps a window."""
    w, wall, roof = _u(rng, 0.42, 0.58), _u(rng, 0.24, 0.32), _u(rng, 0.18, 0.26)
    ground = _u(rng, 0.8, 0.85)
    x0, x1, eave = 0.5 - w / 2, 0.5 + w / 2, ground - wall
    if _coin(rng):
        paths = [_house(0.5, ground, w, wall, roof)]
    else:  # walls and an overhanging roof drawn apart
        over = _u(rng, 0.03, 0.06)
        paths = [
            rect(x0, eave, x1, ground),
            poly((x0 - over, eave + over * 0.6), (0.5, eave - roof), (x1 + over, eave + over * 0.6)),
        ]
    dx = _u(rng, -0.1, 0.1) * w
    paths.append(_door(0.5 + dx, ground, _u(rng, 0.08, 0.11), wall * _u(rng, 0.5, 0.7), _coin(rng, 0.3)))
    if _coin(rng, 0.6):
        wx = 0.5 + dx + (w * 0.28 if dx < 0 else -w * 0.28)
        paths += _window(wx, eave + wall * 0.38, _u(rng, 0.07, 0.1), _coin(rng, 0.7))
    return paths


@_design("V", "saltbox")
def _saltbox(rng: np.random.Generator) -> list[Path]:
    """A house whose roof runs long and low down one side, one or two windows."""
    ground = _u(rng, 0.8, 0.85)
    x0, x1 = _u(rng, 0.16, 0.24), 1 - _u(rng, 0.16, 0.24)
    tall, short = _u(rng, 0.26, 0.32), _u(rng, 0.12, 0.17)
    apex = (x0 + (x1 - x0) * _u(rng, 0.6, 0.72), ground - tall - _u(rng, 0.16, 0.24))
    paths = [poly((x0, ground), (x0, ground - short), apex, (x1, ground - tall), (x1, ground), (x0, ground))]
    for k in range(int(rng.integers(1, 3))):
        paths += _window(x0 + (x1 - x0) * (0.3 + 0.4 * k), ground - short * 0.55, _u(rng, 0.06, 0.08), True)
    if _coin(rng):
        paths.append(_door(x1 - (x1 - x0) * 0.2, ground, 0.07, tall * 0.6))
    return _mirror(paths) if _coin(rng) else paths


@_design("V", "townhouse")
def _townhouse(rng: np.random.Generator) -> list[Path]:
    """A tall narrow town house with a stepped gable and rows of windows."""
    w, top, ground = _u(rng, 0.26, 0.36), _u(rng, 0.14, 0.2), _u(rng, 0.82, 0.86)
    x0 = 0.5 - w / 2
    steps = int(rng.integers(2, 4))
    rise = _u(rng, 0.04, 0.06)
    shoulder = top + rise * steps
    sw = w / (2 * steps + 1)
    pts: list[tuple[float, float]] = [(x0, ground), (x0, shoulder)]
    for i in range(steps):  # the stepped gable: up one, in one
        pts += [(x0 + i * sw, shoulder - rise * (i + 1)), (x0 + (i + 1) * sw, shoulder - rise * (i + 1))]
    right = [(1 - x, y) for x, y in reversed(pts)]
    paths = [poly(*pts, *right, (x0, ground))]
    rows = int(rng.integers(2, 4))
    s = _u(rng, 0.05, 0.07)
    low = ground - 0.2
    for r in range(rows):
        y = shoulder + 0.06 + r * (low - shoulder - 0.06) / max(rows - 1, 1)
        for x in (0.5 - w / 4, 0.5 + w / 4):
            paths += _window(x, y, s, cross=False)
    paths.append(_door(0.5, ground, 0.07, 0.11))
    return paths


@_design("V", "tower")
def _tower(rng: np.random.Generator) -> list[Path]:
    """A tall square tower with battlements, arrow slits and an arched door."""
    w, top, ground = _u(rng, 0.22, 0.3), _u(rng, 0.18, 0.24), _u(rng, 0.82, 0.86)
    x0, x1 = 0.5 - w / 2, 0.5 + w / 2
    flare = _u(rng, 0.0, 0.03)
    merlons = int(rng.integers(3, 5))
    teeth = _battlement(x0 - flare, x1 + flare, top + 0.06, 0.06, merlons)
    body = np.vstack(
        [
            poly(
                (x0 - flare, top + 0.06),
                (x0, top + 0.1),
                (x0, ground),
                (x1, ground),
                (x1, top + 0.1),
                (x1 + flare, top + 0.06),
            )
        ]
    )
    paths = [teeth, body, _door(0.5, ground, w * 0.4, 0.12, arched=True)]
    for y in np.linspace(top + 0.18, ground - 0.2, int(rng.integers(1, 3))):
        paths.append(_seg(0.5 + _n(rng, 0.01), y, 0.5, y + 0.06))
    return paths


@_design("V", "castle_wall")
def _castle_wall(rng: np.random.Generator) -> list[Path]:
    """A wide wall with battlements along its top and an arched gate, a few bricks drawn in."""
    x0, x1 = _u(rng, 0.13, 0.18), 1 - _u(rng, 0.13, 0.18)
    ground, top = _u(rng, 0.76, 0.82), _u(rng, 0.38, 0.46)
    teeth = _battlement(x0, x1, top, _u(rng, 0.06, 0.08), int(rng.integers(4, 7)))
    paths = [teeth, poly((x0, top), (x0, ground), (x1, ground), (x1, top))]
    gw = _u(rng, 0.12, 0.18)
    paths.append(_door(0.5, ground, gw, (ground - top) * _u(rng, 0.55, 0.75), arched=True))
    for _ in range(int(rng.integers(2, 5))):
        x, y = _u(rng, x0 + 0.03, x1 - 0.1), _u(rng, top + 0.04, ground - 0.04)
        if abs(x + 0.035 - 0.5) > gw / 2 + 0.05:
            paths.append(_seg(x, y, x + 0.07, y))
    return paths


@_design("V", "church")
def _church(rng: np.random.Generator) -> list[Path]:
    """A church: a long house with a steeple at one end, a small cross on the spire."""
    ground = _u(rng, 0.82, 0.86)
    wall, roof = _u(rng, 0.18, 0.24), _u(rng, 0.12, 0.16)
    x0, xs = _u(rng, 0.14, 0.2), _u(rng, 0.56, 0.62)
    sw = _u(rng, 0.13, 0.17)
    eave = ground - wall
    s_top = eave - _u(rng, 0.12, 0.18)
    spire = s_top - _u(rng, 0.14, 0.2)
    paths = [
        poly((xs, eave - roof), (x0 + 0.04, eave - roof), (x0, eave), (x0, ground), (xs + sw, ground)),
        poly((xs, ground), (xs, s_top), (xs + sw, s_top), (xs + sw, ground)),
        poly((xs, s_top), (xs + sw / 2, spire), (xs + sw, s_top)),
        _seg(xs + sw / 2, spire, xs + sw / 2, spire - 0.07),
        _seg(xs + sw / 2 - 0.025, spire - 0.05, xs + sw / 2 + 0.025, spire - 0.05),
        _door(xs + sw / 2, ground, sw * 0.5, wall * 0.55, arched=True),
    ]
    if _coin(rng):
        paths.append(circle_path(xs + sw / 2, s_top + 0.05, 0.025, 8))
    for x in np.linspace(x0 + 0.07, xs - 0.06, int(rng.integers(1, 4))):
        paths.append(_door(float(x), eave + wall * 0.55, 0.04, 0.08, arched=True))
    return _mirror(paths) if _coin(rng) else paths


@_design("V", "hut")
def _hut(rng: np.random.Generator) -> list[Path]:
    """A round hut: a domed or conical thatch, its straw lines, a low arched door."""
    ground = _u(rng, 0.78, 0.84)
    w = _u(rng, 0.26, 0.34)
    paths: list[Path] = []
    if _coin(rng):  # a dome
        h = _u(rng, 0.3, 0.4)
        paths += [
            _arc(0.5, ground, w, h, 180, 360, 18),
            _seg(0.5 - w - 0.04, ground, 0.5 + w + 0.04, ground),
            _seg(0.5 - 0.04, ground - h + 0.02, 0.5 + 0.05, ground - h - 0.09),
            _seg(0.5 + 0.04, ground - h + 0.02, 0.5 - 0.05, ground - h - 0.09),
        ]
        for _ in range(int(rng.integers(3, 6))):  # straw hanging on the thatch
            a = np.deg2rad(_u(rng, 200, 340))
            x, y = 0.5 + w * 0.85 * np.cos(a), ground + h * 0.85 * np.sin(a)
            paths.append(_seg(x, y, x + 0.01 * np.cos(a), y + 0.05))
    else:  # short walls under a cone of thatch
        eave = ground - _u(rng, 0.12, 0.17)
        apex = eave - _u(rng, 0.3, 0.38)
        over = _u(rng, 0.04, 0.08)
        paths += [
            poly(
                (0.5 - w * 0.8, eave), (0.5 - w * 0.8, ground), (0.5 + w * 0.8, ground), (0.5 + w * 0.8, eave)
            ),
            _bez((0.5 - w - over, eave + 0.02), (0.5 - w * 0.4, eave - 0.1), (0.5, apex)),
            _bez((0.5, apex), (0.5 + w * 0.4, eave - 0.1), (0.5 + w + over, eave + 0.02)),
            _arc(0.5, eave - 0.02, w + over, 0.04, 0, 180, 10),
        ]
        for f in np.linspace(-0.6, 0.6, int(rng.integers(3, 6))):
            paths.append(_seg(0.5 + f * 0.15, apex + 0.08, 0.5 + f * w, eave - 0.03))
    paths.append(_door(0.5 + _u(rng, -0.06, 0.06), ground, _u(rng, 0.08, 0.12), _u(rng, 0.12, 0.17), True))
    return paths


@_design("V", "roof_row")
def _roof_row(rng: np.random.Generator) -> list[Path]:
    """A terrace of two to four houses: one long wall under a zigzag of roofs, a door each."""
    k = int(rng.integers(2, 5))
    x0, x1 = _u(rng, 0.13, 0.18), 1 - _u(rng, 0.13, 0.18)
    ground, eave = _u(rng, 0.76, 0.82), _u(rng, 0.52, 0.6)
    xs = np.linspace(x0, x1, k + 1)
    roof = [(x0, eave)]
    for i in range(k):
        roof += [((xs[i] + xs[i + 1]) / 2, eave - _u(rng, 0.16, 0.26)), (float(xs[i + 1]), eave)]
    paths = [poly(*roof), poly((x0, eave), (x0, ground), (x1, ground), (x1, eave))]
    for i in range(k):
        m = float((xs[i] + xs[i + 1]) / 2)
        paths.append(_door(m, ground, (x1 - x0) / k * 0.3, (ground - eave) * 0.6))
        if i < k - 1:
            paths.append(_seg(float(xs[i + 1]), eave, float(xs[i + 1]), ground))
    return paths


@_design("V", "facade")
def _facade(rng: np.random.Generator) -> list[Path]:
    """A house front seen square on: a ledge under the eaves, a door between two crossed windows."""
    x0, x1 = _u(rng, 0.17, 0.24), 1 - _u(rng, 0.17, 0.24)
    top, ground = _u(rng, 0.26, 0.34), _u(rng, 0.8, 0.85)
    over = _u(rng, 0.02, 0.05)
    paths = [
        rect(x0, top, x1, ground),
        poly((x0 - over, top), (x0 - over, top - 0.04), (x1 + over, top - 0.04), (x1 + over, top)),
    ]
    if _coin(rng, 0.4):  # a low gable over the ledge
        paths.append(poly((x0 - over, top - 0.04), (0.5, top - _u(rng, 0.1, 0.14)), (x1 + over, top - 0.04)))
    paths.append(_door(0.5, ground, _u(rng, 0.1, 0.14), (ground - top) * _u(rng, 0.45, 0.6), _coin(rng)))
    s = _u(rng, 0.08, 0.11)
    for x in (x0 + (0.5 - x0) * 0.45, x1 - (x1 - 0.5) * 0.45):
        paths += _window(x, top + (ground - top) * 0.42, s)
    return paths


@_design("V", "chimney_smoke")
def _chimney_smoke(rng: np.random.Generator) -> list[Path]:
    """A house with a chimney on its roof and curls of smoke rising from it."""
    w, wall, roof = _u(rng, 0.42, 0.52), _u(rng, 0.2, 0.26), _u(rng, 0.16, 0.22)
    ground = _u(rng, 0.82, 0.86)
    eave = ground - wall
    paths = [_house(0.5, ground, w, wall, roof)]
    cx = 0.5 + w * _u(rng, 0.18, 0.3)
    cw = _u(rng, 0.05, 0.07)
    roof_at = eave - roof * (1 - (cx - 0.5) / (w / 2))
    ctop = roof_at - _u(rng, 0.08, 0.12)
    paths.append(
        poly(
            (cx - cw / 2, roof_at + cw * 0.5),
            (cx - cw / 2, ctop),
            (cx + cw / 2, ctop),
            (cx + cw / 2, roof_at - cw * 0.5),
        )
    )
    y = ctop - 0.02
    for i in range(int(rng.integers(2, 4))):
        r = 0.025 + 0.008 * i
        paths.append(_arc(cx + 0.02 * i + _n(rng, 0.01), y - r, r, r, 90, 400, 10))
        y -= 2 * r + 0.005
    paths.append(_door(0.5 - w * 0.15, ground, 0.08, wall * 0.6))
    return _mirror(paths) if _coin(rng) else paths


@_design("V", "two_houses")
def _two_houses(rng: np.random.Generator) -> list[Path]:
    """Two houses side by side, one bigger and set back, each with its door."""
    paths: list[Path] = []
    ground = _u(rng, 0.8, 0.85)
    big = (_u(rng, 0.62, 0.66), ground - 0.04, _u(rng, 0.3, 0.36), _u(rng, 0.22, 0.28), _u(rng, 0.14, 0.2))
    small = (_u(rng, 0.3, 0.34), ground, _u(rng, 0.24, 0.3), _u(rng, 0.16, 0.22), _u(rng, 0.12, 0.16))
    for cx, g, w, wall, roof in (big, small):
        paths += [_house(cx, g, w, wall, roof), _door(cx, g, w * 0.3, wall * 0.6)]
    return _mirror(paths) if _coin(rng) else paths


@_design("V", "hip_roof")
def _hip_roof(rng: np.random.Generator) -> list[Path]:
    """A low house under a wide hipped roof with rows of tiles, a door and a window."""
    x0, x1 = _u(rng, 0.2, 0.26), 1 - _u(rng, 0.2, 0.26)
    ground, eave = _u(rng, 0.8, 0.85), _u(rng, 0.52, 0.58)
    over, ridge = _u(rng, 0.03, 0.06), _u(rng, 0.24, 0.3)
    inset = _u(rng, 0.1, 0.16)
    paths = [
        poly((x0, eave), (x0, ground), (x1, ground), (x1, eave)),
        poly(
            (x0 - over, eave), (x0 + inset, ridge), (x1 - inset, ridge), (x1 + over, eave), (x0 - over, eave)
        ),
    ]
    for f in np.linspace(0.3, 0.75, int(rng.integers(1, 4))):
        y = ridge + (eave - ridge) * f
        paths.append(
            _seg(
                x0 - over + (inset + over) * (1 - f) + 0.01, y, x1 + over - (inset + over) * (1 - f) - 0.01, y
            )
        )
    paths.append(_door(x0 + (x1 - x0) * 0.3, ground, 0.08, (ground - eave) * 0.7))
    paths += _window(x0 + (x1 - x0) * 0.72, (eave + ground) / 2, 0.08)
    return paths


@_design("V", "gatehouse")
def _gatehouse(rng: np.random.Generator) -> list[Path]:
    """Two round-topped towers with cone roofs and an arched gate between them."""
    ground = _u(rng, 0.8, 0.85)
    tw, gap = _u(rng, 0.12, 0.16), _u(rng, 0.14, 0.2)
    t_top, w_top = _u(rng, 0.34, 0.42), _u(rng, 0.5, 0.56)
    paths: list[Path] = []
    for cx in (0.5 - gap / 2 - tw / 2, 0.5 + gap / 2 + tw / 2):
        paths += [
            poly((cx - tw / 2, ground), (cx - tw / 2, t_top), (cx + tw / 2, t_top), (cx + tw / 2, ground)),
            poly((cx - tw / 2 - 0.02, t_top), (cx, t_top - _u(rng, 0.14, 0.2)), (cx + tw / 2 + 0.02, t_top)),
        ]
    paths.append(_seg(0.5 - gap / 2, w_top, 0.5 + gap / 2, w_top))
    paths.append(_door(0.5, ground, gap * 0.8, (ground - w_top) * 0.8, arched=True))
    if _coin(rng):
        for x in np.linspace(0.5 - gap * 0.25, 0.5 + gap * 0.25, 3):
            paths.append(_seg(float(x), ground - (ground - w_top) * 0.6, float(x), ground))
    return paths


@_design("V", "skyline")
def _skyline(rng: np.random.Generator) -> list[Path]:
    """The outline of a street in one stroke: roofs flat and peaked, then small windows."""
    ground = _u(rng, 0.78, 0.84)
    k = int(rng.integers(3, 6))
    cuts = np.sort(rng.uniform(0.2, 0.8, k - 1))
    xs = np.concatenate([[0.14], cuts, [0.86]])
    pts: list[tuple[float, float]] = [(0.14, ground)]
    windows: list[Path] = []
    for i in range(k):
        a, b = float(xs[i]), float(xs[i + 1])
        h = ground - _u(rng, 0.2, 0.42)
        if _coin(rng) and b - a > 0.1:
            pts += [(a, h), ((a + b) / 2, h - _u(rng, 0.08, 0.14)), (b, h)]
        else:
            pts += [(a, h), (b, h)]
        if b - a > 0.08 and _coin(rng, 0.7):
            windows += _window((a + b) / 2, h + 0.08, 0.045, cross=False)
    pts.append((0.86, ground))
    return [poly(*pts), _seg(0.12, ground, 0.88, ground), *windows]


@_design("V", "dark_roof")
def _dark_roof(rng: np.random.Generator) -> list[Path]:
    """A house whose roof is scribbled dark, walls and a door left as outline."""
    w, wall, roof = _u(rng, 0.42, 0.56), _u(rng, 0.22, 0.3), _u(rng, 0.18, 0.26)
    ground = _u(rng, 0.8, 0.85)
    eave = ground - wall
    over = _u(rng, 0.02, 0.05)
    tri = poly(
        (0.5 - w / 2 - over, eave), (0.5, eave - roof), (0.5 + w / 2 + over, eave), (0.5 - w / 2 - over, eave)
    )
    fill = _hatch(tri, _u(rng, -30, 30), _u(rng, 0.025, 0.035), zig=True)
    paths = [
        tri,
        *fill,
        poly((0.5 - w / 2, eave), (0.5 - w / 2, ground), (0.5 + w / 2, ground), (0.5 + w / 2, eave)),
        _door(0.5 + _u(rng, -0.1, 0.1), ground, 0.09, wall * 0.6),
    ]
    return paths


@_design("V", "a_frame")
def _a_frame(rng: np.random.Generator) -> list[Path]:
    """An A-frame: one big triangle, its rafters crossing at the top, a door and a round window."""
    w, ground = _u(rng, 0.26, 0.34), _u(rng, 0.8, 0.85)
    apex = ground - _u(rng, 0.48, 0.58)
    cross = _u(rng, 0.04, 0.07)
    dl, dr = np.array((-w, ground - apex)), np.array((w, ground - apex))
    dl, dr = dl / np.linalg.norm(dl), dr / np.linalg.norm(dr)
    paths = [
        _seg(0.5 - dl[0] * cross, apex - dl[1] * cross, 0.5 - w, ground),
        _seg(0.5 - dr[0] * cross, apex - dr[1] * cross, 0.5 + w, ground),
        _seg(0.5 - w, ground, 0.5 + w, ground),
        _door(0.5, ground, w * 0.4, (ground - apex) * 0.35, _coin(rng)),
    ]
    if _coin(rng, 0.7):
        paths.append(circle_path(0.5, apex + (ground - apex) * 0.35, _u(rng, 0.03, 0.05), 10))
    return paths


@_design("V", "keep")
def _keep(rng: np.random.Generator) -> list[Path]:
    """A square keep with a slim turret at each corner under a pointed cap."""
    x0, x1 = _u(rng, 0.26, 0.32), 1 - _u(rng, 0.26, 0.32)
    top, ground = _u(rng, 0.4, 0.48), _u(rng, 0.8, 0.85)
    tw = _u(rng, 0.07, 0.1)
    t_top = top - _u(rng, 0.06, 0.12)
    paths = [_seg(x0, top, x1, top), _seg(x0, ground, x1, ground)]
    for cx in (x0, x1):
        paths += [
            poly((cx - tw / 2, ground), (cx - tw / 2, t_top), (cx + tw / 2, t_top), (cx + tw / 2, ground)),
            poly(
                (cx - tw / 2 - 0.015, t_top), (cx, t_top - _u(rng, 0.13, 0.18)), (cx + tw / 2 + 0.015, t_top)
            ),
        ]
    paths.append(_door(0.5, ground, (x1 - x0) * 0.28, (ground - top) * 0.5, arched=True))
    if _coin(rng):
        paths.append(_seg(0.5, top + 0.06, 0.5, top + 0.11))
    return paths


@_design("V", "hamlet")
def _hamlet(rng: np.random.Generator) -> list[Path]:
    """Three little houses dotted about the cell, each just an outline and a door stroke."""
    spots = [(0.32, 0.42), (0.68, 0.4), (0.5, 0.78)] if _coin(rng) else [(0.3, 0.5), (0.7, 0.38), (0.62, 0.8)]
    paths: list[Path] = []
    for x, g in spots:
        w = _u(rng, 0.18, 0.22)
        wall, roof = w * _u(rng, 0.6, 0.8), w * _u(rng, 0.45, 0.65)
        paths += [_house(x + _n(rng, 0.015), g, w, wall, roof), _seg(x, g, x, g - wall * 0.55)]
    return paths


@_design("V", "dome")
def _dome(rng: np.random.Generator) -> list[Path]:
    """A domed hall: a low block, a dome with a spike and a ball on top, arched door and windows."""
    x0, x1 = _u(rng, 0.22, 0.28), 1 - _u(rng, 0.22, 0.28)
    ground, top = _u(rng, 0.8, 0.85), _u(rng, 0.54, 0.6)
    r = (x1 - x0) / 2 * _u(rng, 0.6, 0.85)
    h = _u(rng, 0.14, 0.2)
    paths = [
        rect(x0, top, x1, ground),
        _arc(0.5, top, r, h, 180, 360, 14),
        _seg(0.5, top - h, 0.5, top - h - 0.06),
        _dot(0.5, top - h - 0.08, 0.018),
        _door(0.5, ground, 0.08, (ground - top) * 0.7, arched=True),
    ]
    for x in (x0 + (0.5 - x0) * 0.45, x1 - (x1 - 0.5) * 0.45):
        paths.append(_door(x, top + (ground - top) * 0.65, 0.045, (ground - top) * 0.4, arched=True))
    return paths


@_design("V", "timber")
def _timber(rng: np.random.Generator) -> list[Path]:
    """A half-timbered house: beams cross its walls in panels, braces slanting in them."""
    w, wall, roof = _u(rng, 0.46, 0.58), _u(rng, 0.26, 0.34), _u(rng, 0.16, 0.22)
    ground = _u(rng, 0.8, 0.85)
    eave = ground - wall
    x0, x1 = 0.5 - w / 2, 0.5 + w / 2
    paths = [_house(0.5, ground, w, wall, roof), _seg(x0, eave + wall * 0.45, x1, eave + wall * 0.45)]
    panels = int(rng.integers(2, 4))
    xs = np.linspace(x0, x1, panels + 1)
    for i in range(1, panels):
        paths.append(_seg(float(xs[i]), eave, float(xs[i]), ground))
    for i in range(panels):
        if _coin(rng, 0.7):
            a, b = float(xs[i]), float(xs[i + 1])
            y0, y1 = (eave, eave + wall * 0.45) if _coin(rng) else (eave + wall * 0.45, ground)
            paths.append(_seg(a, y1, b, y0) if _coin(rng) else _seg(a, y0, b, y1))
    return paths


# ---------------------------------------------------------------------------------------------------
# farm


def _grain(x: float, y: float, ang: float, length: float, width: float) -> Path:
    """One grain of an ear: a small almond leaning ``ang`` degrees off upright, its foot at (x, y)."""
    a = np.deg2rad(ang)
    body = ellipse(0.0, -length / 2, width / 2, length / 2, 0, 2 * np.pi, 9)
    out: Path = body @ turning(a).T + (x, y)
    return out


@_design("P", "wheat_stalk")
def _wheat_stalk(rng: np.random.Generator) -> list[Path]:
    """One ear of wheat: a bending stalk, grains paired up its head, whiskers at the tip, a leaf."""
    bend = _u(rng, -0.1, 0.1)
    foot, head = (0.5 - bend / 2, _u(rng, 0.84, 0.87)), (0.5 + bend / 2, _u(rng, 0.44, 0.5))
    tip_y = _u(rng, 0.16, 0.2)
    stalk = _bez(foot, (0.5, (foot[1] + head[1]) / 2), head, n=10)
    paths = [stalk, _seg(head[0], head[1], head[0], tip_y + 0.04)]
    k = int(rng.integers(3, 6))
    size = (head[1] - tip_y) / (k + 0.5)
    for i in range(k):
        y = head[1] - i * size
        paths += [
            _grain(head[0] - 0.005, y, -_u(rng, 25, 40), size * 1.5, size * 0.8),
            _grain(head[0] + 0.005, y, _u(rng, 25, 40), size * 1.5, size * 0.8),
        ]
    for dx in np.linspace(-0.04, 0.04, int(rng.integers(2, 5))):
        paths.append(_seg(head[0] + dx * 0.3, tip_y + 0.05, head[0] + dx, tip_y - 0.02))
    if _coin(rng, 0.6):
        s = 1 if _coin(rng) else -1
        y = _u(rng, 0.62, 0.72)
        paths.append(_bez((0.5, y), (0.5 + s * 0.12, y - 0.02), (0.5 + s * 0.18, y - 0.12), n=8))
    return paths


@_design("P", "three_stalks")
def _three_stalks(rng: np.random.Generator) -> list[Path]:
    """Three stalks fanning from one foot, each headed with stacked chevrons of grain."""
    foot = (0.5, _u(rng, 0.84, 0.87))
    paths: list[Path] = []
    for x in (0.28, 0.5, 0.72):
        tip = (x + _n(rng, 0.02), _u(rng, 0.16, 0.26) + (0.04 if x != 0.5 else 0.0))
        paths.append(_seg(foot[0], foot[1], tip[0], tip[1] + 0.02))
        d = np.array(tip) - np.array(foot)
        d /= np.linalg.norm(d)
        side = np.array((-d[1], d[0]))
        for j in range(int(rng.integers(3, 5))):
            c = np.array(tip) - d * (0.03 + 0.05 * j)
            w = 0.04
            paths.append(poly(tuple(c - d * 0.04 + side * w), tuple(c), tuple(c - d * 0.04 - side * w)))
    return paths


@_design("P", "furrows")
def _furrows(rng: np.random.Generator) -> list[Path]:
    """A ploughed field in perspective: furrows running from the near edge towards the horizon."""
    horizon = _u(rng, 0.26, 0.36)
    near = _u(rng, 0.82, 0.86)
    vx, vy = 0.5 + _u(rng, -0.15, 0.15), horizon - _u(rng, 0.1, 0.25)
    paths = [_seg(0.13, horizon, 0.87, horizon)]
    for x in np.linspace(0.14, 0.86, int(rng.integers(5, 8))):
        f = (horizon - near) / (vy - near)
        top = (float(x) + (vx - float(x)) * f, horizon)
        paths.append(poly((float(x), near), top))
    return paths


@_design("P", "crop_rows")
def _crop_rows(rng: np.random.Generator) -> list[Path]:
    """Rows of little plants: ridges across the cell, a stem with two leaves every so often."""
    rows = int(rng.integers(2, 4))
    tilt = _u(rng, -0.04, 0.04)
    paths: list[Path] = []
    for y in np.linspace(0.36, 0.8, rows):
        paths.append(_seg(0.14, float(y) - tilt, 0.86, float(y) + tilt))
        for x in np.linspace(0.22, 0.78, int(rng.integers(3, 5))):
            base = float(y) + tilt * (float(x) - 0.5) / 0.36
            h = _u(rng, 0.07, 0.1)
            paths += [
                _seg(float(x), base, float(x), base - h),
                poly((float(x), base - h * 0.5), (float(x) - 0.035, base - h * 0.9)),
                poly((float(x), base - h * 0.5), (float(x) + 0.035, base - h * 0.9)),
            ]
    return paths


@_design("P", "fenced_field")
def _fenced_field(rng: np.random.Generator) -> list[Path]:
    """A fence of pointed posts and two rails in front of rows of crop."""
    posts = int(rng.integers(3, 6))
    ground, top = _u(rng, 0.82, 0.86), _u(rng, 0.56, 0.64)
    paths: list[Path] = []
    for x in np.linspace(0.18, 0.82, posts):
        paths.append(
            poly(
                (float(x) - 0.02, ground),
                (float(x) - 0.02, top),
                (float(x), top - 0.04),
                (float(x) + 0.02, top),
                (float(x) + 0.02, ground),
            )
        )
    for f in (0.3, 0.7):
        y = top + (ground - top) * f
        paths.append(_seg(0.14, y + _n(rng, 0.01), 0.86, y + _n(rng, 0.01)))
    # the field behind: furrows running from the fence to the horizon (rows of short strokes read as rain)
    horizon = _u(rng, 0.2, 0.28)
    paths.append(_seg(0.14, horizon, 0.86, horizon))
    vx = 0.5 + _u(rng, -0.2, 0.2)
    for x in np.linspace(0.16, 0.84, int(rng.integers(4, 7))):
        paths.append(_seg(float(x), top - 0.05, float(x) + (vx - float(x)) * 0.45, horizon))
    return paths


@_design("P", "barn")
def _barn(rng: np.random.Generator) -> list[Path]:
    """A barn: the two-pitched roof of a hay barn, big doors crossed with an X, a loft hatch."""
    x0, x1 = _u(rng, 0.17, 0.23), 1 - _u(rng, 0.17, 0.23)
    ground, eave = _u(rng, 0.82, 0.86), _u(rng, 0.46, 0.54)
    knee = eave - _u(rng, 0.1, 0.14)
    apex = knee - _u(rng, 0.08, 0.12)
    inset = (x1 - x0) * _u(rng, 0.12, 0.18)
    paths = [
        poly(
            (x0, ground),
            (x0, eave),
            (x0 + inset, knee),
            (0.5, apex),
            (x1 - inset, knee),
            (x1, eave),
            (x1, ground),
            (x0, ground),
        )
    ]
    dw = (x1 - x0) * _u(rng, 0.4, 0.5)
    dtop = ground - (ground - eave) * _u(rng, 0.7, 0.85)
    door = rect(0.5 - dw / 2, dtop, 0.5 + dw / 2, ground)
    paths += [
        door,
        _seg(0.5 - dw / 2, dtop, 0.5 + dw / 2, ground),
        _seg(0.5 + dw / 2, dtop, 0.5 - dw / 2, ground),
    ]
    if _coin(rng, 0.7):
        paths.append(rect(0.46, knee - 0.01, 0.54, knee + 0.06))
    return paths


@_design("P", "sheaf")
def _sheaf(rng: np.random.Generator) -> list[Path]:
    """A sheaf: straws pinched at the waist by a band, the ears splayed above."""
    n = int(rng.integers(7, 12))
    waist = _u(rng, 0.52, 0.6)
    top, foot = _u(rng, 0.16, 0.22), _u(rng, 0.82, 0.86)
    spread_top, spread_foot = _u(rng, 0.22, 0.3), _u(rng, 0.14, 0.2)
    paths: list[Path] = []
    for f in np.linspace(-1, 1, n):
        wx = 0.5 + f * 0.04
        tip = (0.5 + f * spread_top, top + abs(f) * 0.1 + _n(rng, 0.01))
        paths.append(_bez((0.5 + f * spread_foot, foot), (wx, waist + 0.05), (wx, waist - 0.05), tip, n=10))
        if _coin(rng, 0.5):
            paths.append(_grain(tip[0], tip[1] + 0.04, f * 30, 0.06, 0.03))
    paths += [_seg(0.42, waist - 0.02, 0.58, waist - 0.02), _seg(0.42, waist + 0.02, 0.58, waist + 0.02)]
    return paths


@_design("P", "cabbage")
def _cabbage(rng: np.random.Generator) -> list[Path]:
    """A cabbage sat in two outer leaves: a round head, a fold or two, veins in the leaves."""
    cy = _u(rng, 0.44, 0.5)
    r = _u(rng, 0.15, 0.19)
    paths = [
        _rough_circle(rng, 0.5, cy, r),
        _bez(
            (0.5 - r * 0.95, cy - r * 0.2), (0.5 - r * 0.2, cy - r * 0.6), (0.5 + r * 0.5, cy - r * 0.85), n=8
        ),
    ]
    for a in np.linspace(-130, -50, int(rng.integers(3, 5))):
        t = np.deg2rad(a)
        paths.append(
            _bez(
                (0.5, cy + r * 0.8),
                (0.5 + r * 0.4 * np.cos(t), cy + r * 0.2),
                (0.5 + r * 0.85 * np.cos(t), cy + r * 0.85 * np.sin(t) + r * 0.2),
                n=6,
            )
        )
    for s in (-1, 1):
        base = (0.5, cy + r * 0.9)
        tip = (0.5 + s * _u(rng, 0.32, 0.38), cy + r * _u(rng, 0.2, 0.6))
        under = _bez(base, (0.5 + s * 0.2, cy + r + 0.14), tip, n=10)
        over = _bez(tip, (0.5 + s * 0.24, cy + r * 0.6), (0.5 + s * r * 0.9, cy + r * 0.4), n=8)
        paths += [np.vstack([under, over[1:]]), _bez(base, (0.5 + s * 0.18, cy + r + 0.05), tip, n=8)]
    return paths


@_design("P", "grapes")
def _grapes(rng: np.random.Generator) -> list[Path]:
    """A bunch of grapes: rows of small round berries narrowing downwards, a stalk, a leaf, a tendril."""
    r = _u(rng, 0.045, 0.06)
    rows = [4, 3, 2, 1] if _coin(rng) else [3, 3, 2, 1]
    top = _u(rng, 0.32, 0.38)
    paths: list[Path] = []
    for i, k in enumerate(rows):
        y = top + i * r * 1.75
        for j in range(k):
            x = 0.5 + (j - (k - 1) / 2) * r * 2.0 + _n(rng, 0.005)
            paths.append(circle_path(x, y, r, 10, 0, _u(rng, 0, 6)))
    paths.append(_bez((0.5, top - r), (0.5, top - 0.08), (0.54, top - 0.14), n=6))
    s = 1 if _coin(rng) else -1
    paths.append(
        np.vstack(
            [
                _bez((0.52, top - 0.1), (0.52 + s * 0.1, top - 0.18), (0.52 + s * 0.2, top - 0.1)),
                _bez((0.52 + s * 0.2, top - 0.1), (0.52 + s * 0.12, top - 0.02), (0.52, top - 0.1))[1:],
            ]
        )
    )
    if _coin(rng):
        paths.append(_spiral(0.5 - s * 0.1, top - 0.1, 0.01, 0.04, 1.2))
    return paths


@_design("P", "cart")
def _cart(rng: np.random.Generator) -> list[Path]:
    """A farm cart: an open box on a big spoked wheel, its shafts running out in front."""
    wy = _u(rng, 0.64, 0.7)
    r = _u(rng, 0.13, 0.17)
    wx = _u(rng, 0.42, 0.5)
    box_top = wy - r - _u(rng, 0.12, 0.18)
    x0, x1 = wx - _u(rng, 0.2, 0.24), wx + _u(rng, 0.16, 0.2)
    paths = [
        poly(
            (x0 - 0.02, box_top),
            (x0, wy - r * 0.4),
            (x1, wy - r * 0.4),
            (x1 + 0.02, box_top),
            (x0 - 0.02, box_top),
        ),
        _rough_circle(rng, wx, wy, r, 18),
        _dot(wx, wy, 0.02),
        _seg(x1, wy - r * 0.5, 0.86, wy + _u(rng, -0.02, 0.08)),
    ]
    for a in np.linspace(0, np.pi, int(rng.integers(3, 5)), endpoint=False) + _u(rng, 0, 1):
        paths.append(_seg(wx - r * np.cos(a), wy - r * np.sin(a), wx + r * np.cos(a), wy + r * np.sin(a)))
    if _coin(rng):  # a load heaped in the box
        paths.append(_arc((x0 + x1) / 2, box_top, (x1 - x0) / 2, 0.07, 180, 360, 10))
    return paths


@_design("P", "sun_field")
def _sun_field(rng: np.random.Generator) -> list[Path]:
    """The sun rising over a field: a half disc with rays on the horizon, furrows bending below."""
    horizon = _u(rng, 0.46, 0.54)
    r = _u(rng, 0.1, 0.13)
    cx = 0.5 + _u(rng, -0.12, 0.12)
    paths = [_seg(0.13, horizon, 0.87, horizon), _arc(cx, horizon, r, r, 180, 360, 12)]
    for a in np.linspace(195, 345, int(rng.integers(5, 8))):
        t = np.deg2rad(a)
        paths.append(
            _seg(
                cx + r * 1.3 * np.cos(t),
                horizon + r * 1.3 * np.sin(t),
                cx + r * 1.9 * np.cos(t),
                horizon + r * 1.9 * np.sin(t),
            )
        )
    for f in np.linspace(0.3, 1.0, int(rng.integers(2, 5))):
        y = horizon + (0.85 - horizon) * float(f)
        paths.append(_bez((0.14, y), (0.5, y - 0.05 * float(f)), (0.86, y), n=8))
    return paths


@_design("P", "dot_grid")
def _dot_grid(rng: np.random.Generator) -> list[Path]:
    """Seeds sown in a grid: dots in rows and columns, sometimes a square round them."""
    n, m = int(rng.integers(3, 5)), int(rng.integers(3, 5))
    lo, hi = _u(rng, 0.2, 0.26), 1 - _u(rng, 0.2, 0.26)
    paths = [
        _dot(float(x) + _n(rng, 0.008), float(y) + _n(rng, 0.008), _u(rng, 0.015, 0.025))
        for y in np.linspace(lo, hi, n)
        for x in np.linspace(lo, hi, m)
    ]
    if _coin(rng, 0.4):
        paths.append(rect(lo - 0.07, lo - 0.07, hi + 0.07, hi + 0.07))
    return paths


@_design("P", "pumpkin")
def _pumpkin(rng: np.random.Generator) -> list[Path]:
    """A pumpkin: ribbed lobes side by side, a stubby stalk, a curling tendril."""
    cy = _u(rng, 0.55, 0.6)
    rx, ry = _u(rng, 0.28, 0.34), _u(rng, 0.18, 0.22)
    paths = [ellipse(0.5, cy, rx, ry, 0, 2 * np.pi, 20)]
    for f in (0.35, 0.7) if _coin(rng) else (0.5,):
        paths.append(ellipse(0.5, cy, rx * f, ry * 0.98, 0, 2 * np.pi, 16))
    top = cy - ry
    paths.append(poly((0.48, top + 0.01), (0.47, top - 0.08), (0.52, top - 0.09), (0.53, top + 0.01)))
    if _coin(rng, 0.7):
        paths.append(_spiral(0.6, top - 0.05, 0.01, 0.04, 1.3, sign=-1))
    return paths


@_design("P", "carrot")
def _carrot(rng: np.random.Generator) -> list[Path]:
    """A carrot: a long tapering root with rings across it and a tuft of leaves."""
    w, top, tip = _u(rng, 0.07, 0.1), _u(rng, 0.36, 0.42), _u(rng, 0.84, 0.87)
    root = np.vstack(
        [
            _bez((0.5 - w, top), (0.5 - w * 0.7, (top + tip) / 2), (0.5, tip), n=10),
            _bez((0.5, tip), (0.5 + w * 0.7, (top + tip) / 2), (0.5 + w, top), n=10)[1:],
            poly((0.5 - w, top)),
        ]
    )
    paths = [root]
    for f in np.sort(rng.uniform(0.2, 0.7, int(rng.integers(2, 4)))):
        y = top + (tip - top) * f
        hw = w * (1 - f) * 0.8
        paths.append(_seg(0.5 - hw, y, 0.5 - hw * 0.2, y + 0.01))
    for a in np.linspace(-30, 30, int(rng.integers(2, 4))):
        t = np.deg2rad(a - 90)
        end = (0.5 + 0.22 * np.cos(t), top + 0.22 * np.sin(t))
        paths.append(_bez((0.5, top), (0.5 + 0.1 * np.cos(t) + 0.03, top - 0.12), end, n=8))
    return turned(paths, np.deg2rad(_u(rng, -35, 35)))


@_design("P", "ploughed")
def _ploughed(rng: np.random.Generator) -> list[Path]:
    """A field drawn as a slanted patch and scribbled over with close furrow strokes."""
    sk = _u(rng, 0.05, 0.12)
    y0, y1 = _u(rng, 0.28, 0.36), _u(rng, 0.74, 0.8)
    outline = poly((0.2 + sk, y0), (0.86 - sk * 0.2, y0), (0.84, y1), (0.14, y1), (0.2 + sk, y0))
    fill = _hatch(outline, _u(rng, -8, 8), _u(rng, 0.035, 0.05), zig=_coin(rng))
    return [outline, *fill]


@_design("P", "hay_bale")
def _hay_bale(rng: np.random.Generator) -> list[Path]:
    """A square bale of hay in perspective: box edges, two cords round it, straw ends on its face."""
    x0, x1 = _u(rng, 0.16, 0.22), _u(rng, 0.64, 0.7)
    y0, y1 = _u(rng, 0.42, 0.48), _u(rng, 0.76, 0.82)
    dx, dy = _u(rng, 0.12, 0.16), -_u(rng, 0.12, 0.16)
    paths = [
        rect(x0, y0, x1, y1),
        poly((x0, y0), (x0 + dx, y0 + dy), (x1 + dx, y0 + dy), (x1, y0)),
        poly((x1 + dx, y0 + dy), (x1 + dx, y1 + dy), (x1, y1)),
    ]
    for f in (0.3, 0.7):
        x = x0 + (x1 - x0) * f
        paths.append(poly((x, y1), (x, y0), (x + dx, y0 + dy)))
    for _ in range(int(rng.integers(4, 8))):
        x, y = _u(rng, x0 + 0.03, x1 - 0.05), _u(rng, y0 + 0.04, y1 - 0.04)
        paths.append(_seg(x, y, x + _u(rng, 0.03, 0.05), y + _n(rng, 0.015)))
    return paths


@_design("P", "haystack")
def _haystack(rng: np.random.Generator) -> list[Path]:
    """A haystack: a rounded mound on the ground, its straws drawn as short falling strokes."""
    ground = _u(rng, 0.78, 0.84)
    w, h = _u(rng, 0.26, 0.32), _u(rng, 0.44, 0.54)
    top = ground - h
    outline = np.vstack(
        [
            _bez(
                (0.5 - w, ground),
                (0.5 - w * 1.1, top + h * 0.2),
                (0.5 - w * 0.2, top - 0.02),
                (0.5, top),
                n=12,
            ),
            _bez(
                (0.5, top),
                (0.5 + w * 0.2, top - 0.02),
                (0.5 + w * 1.1, top + h * 0.2),
                (0.5 + w, ground),
                n=12,
            )[1:],
        ]
    )
    paths = [outline, _seg(0.13, ground, 0.87, ground)]
    for _ in range(int(rng.integers(6, 11))):
        y = _u(rng, top + 0.08, ground - 0.06)
        half = w * np.sqrt(max(0.0, (y - top) / h)) * 0.8
        x = _u(rng, 0.5 - half, 0.5 + half)
        lean = (x - 0.5) * 0.3
        paths.append(_seg(x, y, x + lean, y + _u(rng, 0.04, 0.07)))
    return paths


@_design("P", "corn")
def _corn(rng: np.random.Generator) -> list[Path]:
    """A corn cob: a long rounded cob checked with kernels, two husk leaves round its foot."""
    w, top, foot = _u(rng, 0.1, 0.13), _u(rng, 0.14, 0.2), _u(rng, 0.68, 0.74)
    cob = ellipse(0.5, (top + foot) / 2, w, (foot - top) / 2, 0, 2 * np.pi, 20)
    gap = _u(rng, 0.045, 0.06)
    paths = [cob, *_hatch(cob, 0, gap), *_hatch(cob, 90, gap * 0.8)]
    stem = _u(rng, 0.84, 0.87)
    for s in (-1, 1):
        paths.append(
            np.vstack(
                [
                    _bez((0.5, stem), (0.5 + s * w * 2.4, foot - 0.05), (0.5 + s * w * 0.7, top + 0.2)),
                    _bez((0.5 + s * w * 0.7, top + 0.2), (0.5 + s * w * 1.2, foot), (0.5, stem))[1:],
                ]
            )
        )
    return turned(paths, np.deg2rad(_u(rng, -25, 25)))


@_design("P", "patchwork")
def _patchwork(rng: np.random.Generator) -> list[Path]:
    """Fields seen from above: a patch of land cut into plots, each shaded its own way."""
    lo, hi = _u(rng, 0.16, 0.22), 1 - _u(rng, 0.16, 0.22)
    mx, my = _u(rng, 0.4, 0.6), _u(rng, 0.4, 0.6)
    tilt = _u(rng, -0.06, 0.06)
    plots = [
        poly((lo, lo), (mx + tilt, lo), (mx - tilt, my), (lo, my), (lo, lo)),
        poly((mx + tilt, lo), (hi, lo), (hi, my), (mx - tilt, my), (mx + tilt, lo)),
        poly((lo, my), (hi, my), (hi, hi), (lo, hi), (lo, my)),
    ]
    angles = rng.permutation([0.0, 90.0, 45.0, -45.0])
    paths = [rect(lo, lo, hi, hi), _seg(mx + tilt, lo, mx - tilt, my), _seg(lo, my, hi, my)]
    for plot, ang in zip(plots, angles, strict=False):
        if _coin(rng, 0.8):
            paths += _hatch(plot, float(ang), _u(rng, 0.045, 0.065))
    return paths


@_design("P", "sprouts")
def _sprouts(rng: np.random.Generator) -> list[Path]:
    """Seedlings on a ridge of earth: a stem each with two round leaves opening like a V."""
    ground = _u(rng, 0.66, 0.74)
    paths = [_bez((0.13, ground + 0.03), (0.5, ground - 0.04), (0.87, ground + 0.03), n=10)]
    k = int(rng.integers(2, 5))
    for x in np.linspace(0.28, 0.72, k):
        h = _u(rng, 0.14, 0.22)
        top = ground - h
        paths += [
            _seg(float(x), ground, float(x), top),
            _grain(float(x), top, -_u(rng, 40, 65), 0.12, 0.06),
            _grain(float(x), top, _u(rng, 40, 65), 0.12, 0.06),
        ]
    return paths


# ---------------------------------------------------------------------------------------------------
# water


@_design("W", "wave_lines")
def _wave_lines(rng: np.random.Generator) -> list[Path]:
    """Two to four stacked wavy lines, the water sign everyone knows."""
    k = int(rng.integers(2, 5))
    gap = _u(rng, 0.13, 0.18) if k < 4 else _u(rng, 0.11, 0.14)
    amp, periods = _u(rng, 0.03, 0.055), _u(rng, 1.5, 2.6)
    y0 = 0.5 - gap * (k - 1) / 2
    paths: list[Path] = []
    for i in range(k):
        shift = _u(rng, -0.04, 0.04)
        paths.append(wave(0.16 + shift, 0.84 + shift, y0 + i * gap, amp, periods, 24))
    return paths


@_design("W", "crests")
def _crests(rng: np.random.Generator) -> list[Path]:
    """Rows of breaking crests: each wave rises and curls over at its top."""
    rows = int(rng.integers(1, 3))
    paths: list[Path] = []
    for r in range(rows):
        y = (0.62 if rows == 1 else 0.45 + r * 0.3) + _n(rng, 0.02)
        s = _u(rng, 1.05, 1.2) if rows == 1 else _u(rng, 0.85, 1.0)
        n = 2 if s > 1.2 else 3
        x = 0.5 - n * 0.11 * s
        for _ in range(n):
            # each crest rises gently and its top tips over forwards in a hook
            peak = (x + 0.15 * s, y - 0.17 * s)
            rise = _bez((x, y), (x + 0.13 * s, y - 0.01 * s), peak, n=8)
            curl = _arc(peak[0], peak[1] + 0.05 * s, 0.05 * s, 0.05 * s, -90, 130, 9)
            paths.append(np.vstack([rise, curl[1:]]))
            x += 0.22 * s
        paths.append(wave(0.5 - n * 0.11 * s - 0.02, 0.5 + n * 0.11 * s + 0.02, y + 0.01, 0.012, n, 6 * n))
    return paths


@_design("W", "scales")
def _scales(rng: np.random.Generator) -> list[Path]:
    """A scale pattern of water: rows of little cups, every other row shifted by half a cup."""
    rows = int(rng.integers(3, 5))
    w = _u(rng, 0.12, 0.16)
    paths: list[Path] = []
    for i, y in enumerate(np.linspace(0.3, 0.7, rows)):
        x0 = 0.2 + (w / 2 if i % 2 else 0.0)
        cups = [
            _arc(x0 + j * w + w / 2, float(y), w / 2, w * 0.45, 0, 180, 7)[::-1] for j in range(int(0.62 / w))
        ]
        paths.append(np.vstack(cups))
    return paths


@_design("W", "droplet")
def _droplet(rng: np.random.Generator) -> list[Path]:
    """One big water drop with a shine on its round side, sometimes a little one beside it."""
    w, h = _u(rng, 0.17, 0.22), _u(rng, 0.5, 0.62)
    top = 0.5 - h / 2
    paths = [_drop(0.5, top, w, h)]
    paths.append(_arc(0.5, top + h * 0.68, w * 0.65, h * 0.2, 110, 170, 6))
    if _coin(rng, 0.35):
        paths.append(_drop(0.78, top + 0.05, 0.05, 0.14))
    return paths


@_design("W", "drops")
def _drops(rng: np.random.Generator) -> list[Path]:
    """Three drops of rain of different sizes, falling together."""
    spots = [(0.32, 0.2, 1.0), (0.66, 0.36, 0.8), (0.4, 0.58, 0.65)]
    if _coin(rng):
        spots = [(1 - x, y, s) for x, y, s in spots]
    order = rng.permutation(3)
    paths: list[Path] = []
    for i, (x, y, _) in enumerate(spots):
        s = spots[int(order[i])][2] * _u(rng, 0.9, 1.1)
        paths.append(_drop(x + _n(rng, 0.02), y, 0.09 * s, 0.28 * s))
    return paths


@_design("W", "fish")
def _fish(rng: np.random.Generator) -> list[Path]:
    """A fish: a body of two curves, a forked tail, an eye and a gill line."""
    nose, joint = _u(rng, 0.14, 0.2), _u(rng, 0.66, 0.72)
    cy, h = _u(rng, 0.46, 0.54), _u(rng, 0.12, 0.18)
    top = _bez((nose, cy), (nose + 0.12, cy - h * 1.5), (joint - 0.1, cy - h), (joint, cy), n=12)
    bottom = _bez((nose, cy), (nose + 0.12, cy + h * 1.4), (joint - 0.1, cy + h * 0.9), (joint, cy), n=12)
    tail_w = _u(rng, 0.14, 0.2)
    tail = poly(
        (joint, cy),
        (joint + tail_w, cy - h * 1.1),
        (joint + tail_w * 0.7, cy),
        (joint + tail_w, cy + h * 1.1),
        (joint, cy),
    )
    paths = [
        top,
        bottom,
        tail,
        _dot(nose + 0.07, cy - h * 0.25, 0.018),
        _arc(nose + 0.16, cy, 0.05, h * 0.75, -70, 70, 6),
    ]
    if _coin(rng, 0.4):
        paths.append(circle_path(nose - 0.01, cy - h - 0.08, 0.025, 8))
    return _mirror(paths) if _coin(rng) else paths


@_design("W", "boat")
def _boat(rng: np.random.Generator) -> list[Path]:
    """A sailing boat: a hull on a wavy line, a mast and a triangle sail."""
    x0, x1 = _u(rng, 0.16, 0.22), 1 - _u(rng, 0.16, 0.22)
    deck, keel = _u(rng, 0.6, 0.66), _u(rng, 0.72, 0.77)
    hull = poly((x0, deck), (x1, deck), (x1 - 0.1, keel), (x0 + 0.1, keel), (x0, deck))
    mx = _u(rng, 0.45, 0.55)
    top = _u(rng, 0.14, 0.2)
    paths = [
        hull,
        _seg(mx, deck, mx, top),
        poly((mx, top + 0.02), (mx + _u(rng, 0.2, 0.26), deck - 0.05), (mx, deck - 0.05)),
    ]
    if _coin(rng):
        paths.append(
            poly((mx - 0.02, top + 0.08), (mx - _u(rng, 0.14, 0.2), deck - 0.05), (mx - 0.02, deck - 0.05))
        )
    paths.append(wave(0.13, 0.87, keel + 0.06, 0.02, 3, 24))
    return paths


@_design("W", "lake")
def _lake(rng: np.random.Generator) -> list[Path]:
    """A lake: an irregular shoreline with a few ripples drawn on the water."""
    rx, ry = _u(rng, 0.28, 0.34), _u(rng, 0.2, 0.26)
    paths = [_blob(rng, 0.5, 0.5, rx, ry, _u(rng, 0.1, 0.18))]
    for i in range(int(rng.integers(2, 4))):
        y = 0.5 + (i - 1) * ry * 0.45
        x = 0.5 + _u(rng, -0.06, 0.06)
        paths.append(wave(x - rx * 0.4, x + rx * 0.4, y, 0.018, 1.5, 12))
    return paths


@_design("W", "ripples")
def _ripples(rng: np.random.Generator) -> list[Path]:
    """Rings spreading on still water, flattened by the view, sometimes the drop that made them."""
    k = int(rng.integers(2, 5))
    cy = _u(rng, 0.54, 0.62)
    flat = _u(rng, 0.4, 0.65)
    rmax = _u(rng, 0.3, 0.36)
    paths: list[Path] = []
    for i in range(k):
        r = rmax * (i + 1) / k
        if _coin(rng, 0.3) and i == k - 1:
            paths.append(_arc(0.5, cy, r, r * flat, _u(rng, 10, 60), _u(rng, 200, 330), 14))
        else:
            paths.append(ellipse(0.5, cy, r, r * flat, 0, 2 * np.pi, 12 + 4 * i))
    if _coin(rng, 0.5):
        paths.append(_drop(0.5, cy - rmax * flat - 0.18, 0.04, 0.12))
    return paths


@_design("W", "shell")
def _shell(rng: np.random.Generator) -> list[Path]:
    """A scallop shell: a fan with a scalloped rim, ribs running to the hinge, two little ears."""
    hinge = (0.5, _u(rng, 0.74, 0.8))
    r = _u(rng, 0.4, 0.48)
    k = int(rng.integers(5, 8))
    t = np.linspace(np.deg2rad(210), np.deg2rad(330), 6 * k + 1)
    rr = r * (0.94 + 0.06 * np.abs(np.sin(k * (t - t[0]) / (t[-1] - t[0]) * np.pi)))
    rim = np.stack([hinge[0] + rr * np.cos(t), hinge[1] + rr * np.sin(t)], 1)
    paths = [np.vstack([poly(hinge), rim, poly(hinge)])]
    for a in np.linspace(t[0], t[-1], k + 1)[1:-1]:
        paths.append(_seg(hinge[0], hinge[1], hinge[0] + r * 0.9 * np.cos(a), hinge[1] + r * 0.9 * np.sin(a)))
    paths += [
        poly((0.46, hinge[1] - 0.02), (0.4, hinge[1] - 0.02), (0.42, hinge[1] + 0.04), (0.5, hinge[1])),
        poly((0.54, hinge[1] - 0.02), (0.6, hinge[1] - 0.02), (0.58, hinge[1] + 0.04), (0.5, hinge[1])),
    ]
    return paths


@_design("W", "bubbles")
def _bubbles(rng: np.random.Generator) -> list[Path]:
    """A cluster of bubbles of many sizes rising, a shine on the biggest."""
    circles: list[tuple[float, float, float]] = []
    for _ in range(200):
        if len(circles) >= int(rng.integers(5, 10)):
            break
        r = _u(rng, 0.035, 0.11)
        x, y = _u(rng, 0.14 + r, 0.86 - r), _u(rng, 0.14 + r, 0.86 - r)
        if all((x - a) ** 2 + (y - b) ** 2 > (r + c + 0.015) ** 2 for a, b, c in circles):
            circles.append((x, y, r))
    paths = [_rough_circle(rng, x, y, r, 14) for x, y, r in circles]
    x, y, r = max(circles, key=lambda c: c[2])
    paths.append(_arc(x, y, r * 0.6, r * 0.6, 200, 250, 5))
    return paths


@_design("W", "zigzag_water")
def _zigzag_water(rng: np.random.Generator) -> list[Path]:
    """Water in sharp strokes: two to four zigzag lines stacked."""
    k = int(rng.integers(2, 5))
    teeth = int(rng.integers(5, 10))
    h = _u(rng, 0.04, 0.07)
    paths: list[Path] = []
    for y in np.linspace(0.5 - 0.08 * (k - 1), 0.5 + 0.08 * (k - 1), k):
        shift = _u(rng, -0.03, 0.03)
        paths.append(zigzag(0.16 + shift, 0.84 + shift, teeth, float(y) - h / 2, float(y) + h / 2))
    return paths


@_design("W", "whirlpool")
def _whirlpool(rng: np.random.Generator) -> list[Path]:
    """A whirlpool: a spiral wound two or three times, an outer sweep or two around it."""
    turns = _u(rng, 2.0, 3.2)
    r = _u(rng, 0.24, 0.32)
    sign = 1.0 if _coin(rng) else -1.0
    flat = _u(rng, 0.7, 1.0)
    spiral = _spiral(0.5, 0.5, 0.01, r, turns, _u(rng, 0, 6), sign)
    spiral[:, 1] = 0.5 + (spiral[:, 1] - 0.5) * flat
    paths = [spiral]
    if _coin(rng, 0.6):
        a = _u(rng, 0, 360)
        paths.append(_arc(0.5, 0.5, r * 1.25, r * 1.25 * flat, a, a + sign * _u(rng, 90, 150), 10))
    return paths


@_design("W", "wave_block")
def _wave_block(rng: np.random.Generator) -> list[Path]:
    """A pond shaded with close wavy strokes, its rim drawn round them or left out."""
    rx, ry = _u(rng, 0.28, 0.34), _u(rng, 0.2, 0.28)
    gap = _u(rng, 0.045, 0.065)
    paths: list[Path] = []
    for y in np.arange(0.5 - ry + gap * 0.7, 0.5 + ry - gap * 0.5, gap):
        hw = rx * np.sqrt(max(0.0, 1 - ((y - 0.5) / ry) ** 2)) * 0.9
        if hw > 0.05:
            paths.append(wave(0.5 - hw, 0.5 + hw, float(y), gap * 0.25, hw * _u(rng, 6, 9), 18))
    if _coin(rng):
        paths.append(ellipse(0.5, 0.5, rx, ry, 0, 2 * np.pi, 20))
    return paths


@_design("W", "anchor")
def _anchor(rng: np.random.Generator) -> list[Path]:
    """An anchor: a ring, its shank and stock, the curved crown with barbed ends."""
    top, foot = _u(rng, 0.16, 0.2), _u(rng, 0.78, 0.84)
    r = _u(rng, 0.03, 0.045)
    w = _u(rng, 0.22, 0.3)
    stock = top + 2 * r + _u(rng, 0.06, 0.1)
    arc_ry = _u(rng, 0.12, 0.2)
    crown = _arc(0.5, foot - arc_ry, w, arc_ry, 0, 180, 14)
    paths = [
        circle_path(0.5, top + r, r, 10),
        _seg(0.5, top + 2 * r, 0.5, foot),
        _seg(0.5 - w * 0.5, stock, 0.5 + w * 0.5, stock),
        crown,
    ]
    for x, s in ((0.5 + w, 1), (0.5 - w, -1)):
        y = foot - arc_ry
        paths.append(poly((x - s * 0.05, y - 0.01), (x, y - 0.04), (x + s * 0.03, y + 0.02)))
    return paths


@_design("W", "river")
def _river(rng: np.random.Generator) -> list[Path]:
    """A river winding down the cell between two banks, a ripple or two on it."""
    periods, amp = _u(rng, 0.8, 1.4), _u(rng, 0.05, 0.09)
    w = _u(rng, 0.08, 0.11)
    t = np.linspace(0.14, 0.86, 18)
    centre = 0.5 + amp * np.sin((t - 0.14) / 0.72 * periods * 2 * np.pi + _u(rng, 0, 6))
    widen = w * (0.8 + 0.5 * (t - 0.14) / 0.72)
    paths = [np.stack([centre - widen, t], 1), np.stack([centre + widen, t], 1)]
    for i in rng.choice(np.arange(4, 14), int(rng.integers(1, 3)), replace=False):
        paths.append(wave(float(centre[i]) - 0.04, float(centre[i]) + 0.04, float(t[i]), 0.012, 1, 6))
    return turned(paths, np.deg2rad(_u(rng, -40, 40)))


@_design("W", "big_wave")
def _big_wave(rng: np.random.Generator) -> list[Path]:
    """One great wave: a swell rising from the left and curling over into a hollow, foam on its lip."""
    base = _u(rng, 0.74, 0.8)
    cx, cy = _u(rng, 0.52, 0.6), _u(rng, 0.42, 0.48)
    r = _u(rng, 0.17, 0.22)
    swell = _bez(
        (0.14, base),
        (0.22, base - 0.04),
        (cx - r * 1.3, cy - r * 0.2),
        (cx - r * 0.5, cy - r),
        (cx, cy - r),
        n=14,
    )
    curl = _spiral(cx, cy, r, r * 0.2, _u(rng, 0.85, 1.15), -np.pi / 2, 1.0)
    under = _bez((cx - r * 0.6, cy + r * 0.2), (cx - r * 0.5, base - 0.04), (cx - r * 1.2, base), n=8)
    paths = [np.vstack([swell, curl[1:]]), under, wave(0.13, 0.87, base + 0.04, 0.02, _u(rng, 2, 3), 24)]
    for a in np.linspace(-160, -100, int(rng.integers(2, 4))):  # spray off the lip
        t = np.deg2rad(a)
        paths.append(_dot(cx + r * 1.35 * np.cos(t), cy + r * 1.35 * np.sin(t), 0.014))
    return _mirror(paths) if _coin(rng) else paths


@_design("W", "splash")
def _splash(rng: np.random.Generator) -> list[Path]:
    """A splash: a ring on the water, a crown of spikes thrown up from it, drops flying off."""
    cy = _u(rng, 0.7, 0.76)
    rx = _u(rng, 0.28, 0.33)
    paths = [ellipse(0.5, cy, rx, rx * 0.25, 0, 2 * np.pi, 16)]
    n = int(rng.integers(4, 7))
    xs = np.linspace(0.5 - rx * 0.8, 0.5 + rx * 0.8, 2 * n - 1)
    ys = np.where(np.arange(2 * n - 1) % 2 == 0, cy - _u(rng, 0.22, 0.3), cy - 0.03)
    ys[0] = ys[-1] = cy - 0.05
    paths.append(np.stack([xs, ys], 1))
    for _ in range(int(rng.integers(2, 5))):
        x, y = _u(rng, 0.22, 0.78), _u(rng, 0.14, cy - 0.4)
        paths.append(_drop(x, y, 0.035, 0.09) if _coin(rng) else circle_path(x, y + 0.03, 0.028, 8))
    return paths


@_design("W", "whale_tail")
def _whale_tail(rng: np.random.Generator) -> list[Path]:
    """A whale's tail raised out of the sea: two flukes on a stem, the waterline waving past."""
    sea = _u(rng, 0.66, 0.72)
    top = _u(rng, 0.2, 0.26)
    span = _u(rng, 0.26, 0.34)
    left = np.vstack(
        [
            _bez((0.46, sea), (0.47, sea - 0.12), (0.5 - span * 0.4, top + 0.1), (0.5 - span, top), n=10),
            _bez((0.5 - span, top), (0.5 - span * 0.4, top + 0.04), (0.5, top + 0.1), n=8)[1:],
        ]
    )
    right = np.vstack(
        [
            _bez((0.5, top + 0.1), (0.5 + span * 0.4, top + 0.04), (0.5 + span, top), n=8),
            _bez((0.5 + span, top), (0.5 + span * 0.4, top + 0.1), (0.53, sea - 0.12), (0.54, sea), n=10)[1:],
        ]
    )
    return [
        np.vstack([left, right[1:]]),
        wave(0.13, 0.87, sea + 0.02, 0.025, _u(rng, 2, 3.2), 24),
        wave(0.22, 0.7, sea + 0.12, 0.02, 1.5, 14),
    ]


@_design("W", "tildes")
def _tildes(rng: np.random.Generator) -> list[Path]:
    """Short wave marks sprinkled in staggered rows across the water."""
    rows = int(rng.integers(3, 5))
    length = _u(rng, 0.12, 0.17)
    paths: list[Path] = []
    for i, y in enumerate(np.linspace(0.26, 0.74, rows)):
        xs = np.arange(0.2 + (0.12 if i % 2 else 0.0), 0.8 - length + 0.01, length * 1.7)
        for x in xs:
            paths.append(wave(float(x), float(x) + length, float(y) + _n(rng, 0.01), 0.022, 1.0, 9))
    return paths


# ---------------------------------------------------------------------------------------------------
# monster


def _angry_eyes(cx: float, y: float, gap: float, rng: np.random.Generator) -> list[Path]:
    """Two eyes under brows slanting down to the nose: the cross look of any monster."""
    r = _u(rng, 0.018, 0.028)
    out: list[Path] = []
    for s in (-1, 1):
        x = cx + s * gap
        out += [_dot(x, y, r), _seg(x - s * 0.05, y - 0.035, x + s * 0.045, y - 0.075)]
    return out


def _teeth(x0: float, x1: float, y: float, n: int, h: float) -> Path:
    """A row of pointed teeth in one stroke: a jagged mouth."""
    return zigzag(x0, x1, 2 * n + 1, y, y + h)


@_design("M", "horned_face")
def _horned_face(rng: np.random.Generator) -> list[Path]:
    """A round face with two curved horns, cross eyes and a jagged grin."""
    r = _u(rng, 0.17, 0.21)
    cy = _u(rng, 0.56, 0.62)
    paths = [_rough_circle(rng, 0.5, cy, r)]
    for s in (-1, 1):
        root = (0.5 + s * r * 0.6, cy - r * 0.78)
        tip = (0.5 + s * _u(rng, 0.3, 0.38), _u(rng, 0.14, 0.2))
        centre = _bez(root, (0.5 + s * r * 1.4, cy - r * 1.1), tip, n=10)
        paths.append(_tapered(centre, _u(rng, 0.07, 0.1))[:-1])
    paths += _angry_eyes(0.5, cy - r * 0.15, r * 0.4, rng)
    paths.append(
        _teeth(0.5 - r * 0.55, 0.5 + r * 0.55, cy + r * 0.4, int(rng.integers(3, 6)), _u(rng, 0.04, 0.06))
    )
    return paths


@_design("M", "skull")
def _skull(rng: np.random.Generator) -> list[Path]:
    """A skull: a rounded cranium, a narrower jaw, hollow eyes, a nose hole and a row of teeth."""
    cy, r = _u(rng, 0.42, 0.48), _u(rng, 0.22, 0.27)
    jaw_w, jaw_b = r * _u(rng, 0.55, 0.7), cy + r * _u(rng, 1.2, 1.45)
    cran = np.vstack(
        [
            _arc(0.5, cy, r, r * 0.95, 140, 400, 18),
            poly(
                (0.5 + jaw_w, cy + r * 0.75),
                (0.5 + jaw_w, jaw_b),
                (0.5 - jaw_w, jaw_b),
                (0.5 - jaw_w, cy + r * 0.75),
            ),
            _arc(0.5, cy, r, r * 0.95, 140, 141, 2),
        ]
    )
    paths = [cran]
    er = r * _u(rng, 0.25, 0.32)
    dark = _coin(rng, 0.5)
    for s in (-1, 1):
        eye = circle_path(0.5 + s * r * 0.42, cy + r * 0.05, er, 10)
        paths.append(eye)
        if dark:
            paths += _hatch(eye, 35, 0.025, zig=True)
    paths.append(
        poly((0.5, cy + r * 0.35), (0.47, cy + r * 0.55), (0.53, cy + r * 0.55), (0.5, cy + r * 0.35))
    )
    for x in np.linspace(0.5 - jaw_w * 0.7, 0.5 + jaw_w * 0.7, int(rng.integers(3, 6))):
        paths.append(_seg(float(x), cy + r * 0.85, float(x), jaw_b - 0.01))
    return paths


@_design("M", "spider")
def _spider(rng: np.random.Generator) -> list[Path]:
    """A spider: a round body and head, eight bent legs, sometimes its thread from above."""
    cy = _u(rng, 0.5, 0.58)
    br = _u(rng, 0.09, 0.12)
    body = _rough_circle(rng, 0.5, cy + br * 0.4, br, 12)
    head = circle_path(0.5, cy - br * 0.8, br * 0.55, 10)
    paths = [body, head]
    if _coin(rng, 0.4):
        paths += _hatch(body, 45, 0.025, zig=True)
    for s in (-1, 1):
        for i, a in enumerate(np.linspace(-50, 40, 4)):
            t = np.deg2rad(a)
            root = (0.5 + s * br * 0.7, cy + (i - 1.5) * 0.035)
            knee = (root[0] + s * 0.15 * np.cos(t), root[1] + 0.15 * np.sin(t) - 0.07)
            foot = (knee[0] + s * _u(rng, 0.06, 0.1), knee[1] + _u(rng, 0.12, 0.18))
            paths.append(poly(root, knee, foot))
    if _coin(rng, 0.4):
        paths.append(_seg(0.5, cy - br * 1.35, 0.5, 0.12))
    return paths


@_design("M", "dragon_head")
def _dragon_head(rng: np.random.Generator) -> list[Path]:
    """A dragon's head in profile: a long snout, a toothed open jaw, a horn swept back, a slit eye."""
    brow_y = _u(rng, 0.3, 0.36)
    snout = _u(rng, 0.8, 0.86)
    gape = _u(rng, 0.06, 0.12)
    mouth_y = brow_y + _u(rng, 0.14, 0.18)
    upper = poly(
        (0.24, brow_y + 0.1),
        (0.42, brow_y),
        (snout - 0.04, mouth_y - 0.08),
        (snout, mouth_y - 0.02),
        (snout - 0.02, mouth_y),
        (0.5, mouth_y),
    )
    lower = poly(
        (0.5, mouth_y),
        (snout - 0.06, mouth_y + gape),
        (snout - 0.1, mouth_y + gape + 0.05),
        (0.45, mouth_y + gape + 0.1),
        (0.38, 0.84),
    )
    n_teeth = int(rng.integers(2, 4))
    neck = _bez((0.24, brow_y + 0.1), (0.2, 0.5), (0.18, 0.84), n=9)
    spikes = [tuple(neck[0])]
    for i in range(1, 9):  # a spine every other point, standing out behind the neck
        spikes.append(
            (float(neck[i, 0]) - (0.06 if i % 2 else 0.0), float(neck[i, 1]) - (0.02 if i % 2 else 0.0))
        )
    paths = [
        np.vstack([upper, lower[1:]]),
        poly(*spikes),
        _teeth(0.56, snout - 0.06, mouth_y, n_teeth, 0.045),
        _teeth(0.56, snout - 0.1, mouth_y + gape * 0.75 + 0.02, n_teeth, -0.04),
        _tapered(
            _bez((0.36, brow_y + 0.02), (0.28, brow_y - 0.06), (0.16, brow_y - _u(rng, 0.1, 0.16)), n=8), 0.05
        )[:-1],
        ellipse(0.48, brow_y + 0.05, 0.035, 0.018, 0, 2 * np.pi, 9),
        _seg(0.48, brow_y + 0.035, 0.48, brow_y + 0.065),
        _dot(snout - 0.06, mouth_y - 0.06, 0.012),
    ]
    return _mirror(paths) if _coin(rng) else paths


@_design("M", "claw_marks")
def _claw_marks(rng: np.random.Generator) -> list[Path]:
    """Three or four torn slashes, thick in the middle and sharp at both ends."""
    k = int(rng.integers(3, 5))
    paths: list[Path] = []
    bow = _u(rng, 0.04, 0.08)
    for i in range(k):
        x = 0.5 + (i - (k - 1) / 2) * _u(rng, 0.12, 0.15)
        top, foot = _u(rng, 0.14, 0.22), _u(rng, 0.74, 0.84)
        centre = _bez((x + 0.08, top), (x + bow, (top + foot) / 2), (x - 0.08, foot), n=12)
        w = np.sin(np.linspace(0, np.pi, 12)) * _u(rng, 0.04, 0.06)
        d = np.gradient(centre, axis=0)
        nrm = np.stack([-d[:, 1], d[:, 0]], 1) / np.linalg.norm(d, axis=1, keepdims=True)
        paths.append(np.vstack([centre + nrm * w[:, None] / 2, (centre - nrm * w[:, None] / 2)[::-1]]))
    return paths


@_design("M", "evil_eye")
def _evil_eye(rng: np.random.Generator) -> list[Path]:
    """One staring eye: an almond, a round iris with a slit pupil, spikes standing off its lid."""
    w, h = _u(rng, 0.3, 0.36), _u(rng, 0.14, 0.2)
    cy = _u(rng, 0.52, 0.58)
    upper = _bez((0.5 - w, cy), (0.5, cy - h * 2), (0.5 + w, cy), n=16)
    lower = _bez((0.5 + w, cy), (0.5, cy + h * 1.6), (0.5 - w, cy), n=16)
    ir = h * _u(rng, 0.75, 0.95)
    paths = [
        np.vstack([upper, lower[1:]]),
        circle_path(0.5, cy, ir, 14),
        np.vstack(
            [
                _bez((0.5, cy - ir * 0.95), (0.53, cy), (0.5, cy + ir * 0.95), n=6),
                _bez((0.5, cy + ir * 0.95), (0.47, cy), (0.5, cy - ir * 0.95), n=6)[1:],
            ]
        ),
    ]
    for f in np.linspace(0.15, 0.85, int(rng.integers(4, 7))):
        p = upper[int(f * 15)]
        out = np.array((f - 0.5, -1.0))
        out /= np.linalg.norm(out)
        paths.append(poly(tuple(p), tuple(p + out * _u(rng, 0.06, 0.1))))
    return paths


@_design("M", "ghost")
def _ghost(rng: np.random.Generator) -> list[Path]:
    """A ghost: a domed sheet with a ragged hem, two dark eyes and a round mouth."""
    w = _u(rng, 0.2, 0.26)
    top, hem = _u(rng, 0.16, 0.22), _u(rng, 0.78, 0.84)
    n = int(rng.integers(3, 6))
    dome = _arc(0.5, top + w, w, w, 180, 360, 14)
    hem_x = np.linspace(0.5 + w, 0.5 - w, 2 * n + 1)
    hem_y = np.where(np.arange(2 * n + 1) % 2, hem - _u(rng, 0.05, 0.08), hem)
    outline = np.vstack([poly((0.5 - w, hem)), dome, poly((0.5 + w, hem)), np.stack([hem_x, hem_y], 1)])
    paths = [outline]
    ey = top + w * _u(rng, 0.9, 1.2)
    for s in (-1, 1):
        eye = ellipse(0.5 + s * w * 0.38, ey, w * 0.14, w * 0.22, 0, 2 * np.pi, 9)
        paths += [eye, *_hatch(eye, 90, 0.02, zig=True)]
    paths.append(circle_path(0.5, ey + w * 0.6, w * _u(rng, 0.1, 0.18), 9))
    return turned(paths, np.deg2rad(_u(rng, -15, 15)))


@_design("M", "tentacles")
def _tentacles(rng: np.random.Generator) -> list[Path]:
    """Tentacles rearing out of the ground, curling at their tips, a few suckers on them."""
    ground = _u(rng, 0.8, 0.85)
    k = int(rng.integers(2, 5))
    paths = [_seg(0.13, ground, 0.87, ground)]
    for i, x in enumerate(np.linspace(0.26, 0.74, k)):
        s = 1 if i % 2 else -1
        h = _u(rng, 0.4, 0.55)
        tip = (float(x) + s * 0.06, ground - h)
        centre = _bez(
            (float(x), ground),
            (float(x) - s * 0.16, ground - h * 0.45),
            (float(x) + s * 0.16, ground - h * 0.8),
            tip,
            n=14,
        )
        curl = _spiral(tip[0] + s * 0.055, tip[1] + 0.005, 0.055, 0.015, 1.0, np.pi if s > 0 else 0.0, s, 10)
        paths.append(np.vstack([_tapered(centre, _u(rng, 0.1, 0.12), 0.02)[:-1], curl]))
        for j in (3, 6, 9):
            paths.append(circle_path(float(centre[j, 0]), float(centre[j, 1]), 0.016, 6))
    return paths


@_design("M", "bat")
def _bat(rng: np.random.Generator) -> list[Path]:
    """A bat: pointed ears, a small body, wings spread with a scalloped trailing edge."""
    cy = _u(rng, 0.46, 0.54)
    span = _u(rng, 0.34, 0.38)
    lift = _u(rng, 0.18, 0.26)
    k = int(rng.integers(2, 4))
    wing_l = [poly((0.46, cy - 0.02), (0.5 - span * 0.5, cy - lift), (0.5 - span, cy - lift * 0.6))]
    xs = np.linspace(0.5 - span, 0.46, k + 1)
    for i in range(k):
        a, b = float(xs[i]), float(xs[i + 1])
        wing_l.append(
            _arc((a + b) / 2, cy + 0.02 - lift * 0.6 * (1 - i / k), (b - a) / 2, 0.07, 180, 0, 7)[::-1]
        )
    left = np.vstack(wing_l)
    right = np.stack([1 - left[:, 0], left[:, 1]], 1)
    body = ellipse(0.5, cy + 0.04, 0.045, 0.08, 0, 2 * np.pi, 10)
    ears = poly(
        (0.47, cy - 0.03),
        (0.465, cy - 0.11),
        (0.49, cy - 0.06),
        (0.51, cy - 0.06),
        (0.535, cy - 0.11),
        (0.53, cy - 0.03),
    )
    return [left, right, body, ears, _dot(0.485, cy - 0.02, 0.008), _dot(0.515, cy - 0.02, 0.008)]


@_design("M", "fangs")
def _fangs(rng: np.random.Generator) -> list[Path]:
    """A gaping mouth with two long fangs hanging from its upper lip, mean eyes above."""
    w = _u(rng, 0.26, 0.32)
    my = _u(rng, 0.56, 0.62)
    open_h = _u(rng, 0.12, 0.2)
    upper = _bez((0.5 - w, my - 0.02), (0.5, my - 0.08), (0.5 + w, my - 0.02), n=12)
    lower = _bez((0.5 + w, my - 0.02), (0.5, my + open_h * 1.6), (0.5 - w, my - 0.02), n=12)
    paths = [np.vstack([upper, lower[1:]])]
    fl = _u(rng, 0.12, 0.18)
    for s in (-1, 1):
        x = 0.5 + s * w * _u(rng, 0.4, 0.55)
        y = my - 0.05
        paths.append(poly((x - 0.035, y), (x + s * 0.01, y + fl), (x + 0.035, y)))
    paths += _angry_eyes(0.5, my - _u(rng, 0.18, 0.24), w * 0.45, rng)
    if _coin(rng, 0.4):
        paths.append(_rough_circle(rng, 0.5, my - 0.08, w * 1.3, 20))
    return paths


@_design("M", "slime")
def _slime(rng: np.random.Generator) -> list[Path]:
    """A slime: a melting blob dripping at its foot, two goggling eyes and a wobbly mouth."""
    w = _u(rng, 0.26, 0.32)
    top, base = _u(rng, 0.22, 0.3), _u(rng, 0.68, 0.72)
    dome = _bez((0.5 + w, base), (0.5 + w * 1.1, top), (0.5 - w * 1.1, top), (0.5 - w, base), n=16)
    drips = [poly((0.5 - w, base))]
    k = int(rng.integers(2, 4))
    xs = np.linspace(0.5 - w, 0.5 + w, k + 2)[1:-1]
    for x in xs:
        d = _u(rng, 0.06, 0.14)
        drips += [
            poly((float(x) - 0.03, base)),
            _arc(float(x), base + d - 0.025, 0.025, 0.025, 180, 0, 7),
            poly((float(x) + 0.03, base)),
        ]
    drips.append(poly((0.5 + w, base)))
    paths = [np.vstack([dome, *drips])]
    ey = top + (base - top) * 0.4
    for s in (-1, 1):
        paths += [circle_path(0.5 + s * w * 0.35, ey, 0.05, 10), _dot(0.5 + s * w * 0.35, ey + 0.015, 0.015)]
    paths.append(wave(0.5 - w * 0.35, 0.5 + w * 0.35, ey + 0.12, 0.015, 1.5, 10))
    return paths


@_design("M", "shadow_beast")
def _shadow_beast(rng: np.random.Generator) -> list[Path]:
    """A beast scribbled black: a hunched body filled with back-and-forth strokes, horns and clawed legs."""
    cy = _u(rng, 0.46, 0.54)
    rx, ry = _u(rng, 0.22, 0.27), _u(rng, 0.14, 0.18)
    body = _blob(rng, 0.5, cy, rx, ry, 0.08, 20)
    paths = [body, *_hatch(body, _u(rng, 20, 70), _u(rng, 0.022, 0.032), zig=True)]
    for x in np.linspace(0.5 - rx * 0.5, 0.5 + rx * 0.5, int(rng.integers(2, 4))):
        paths.append(
            poly(
                (float(x) - 0.04, cy - ry * 0.8),
                (float(x) + _n(rng, 0.02), cy - ry - _u(rng, 0.08, 0.14)),
                (float(x) + 0.04, cy - ry * 0.8),
            )
        )
    for x in np.linspace(0.5 - rx * 0.7, 0.5 + rx * 0.7, int(rng.integers(2, 5))):
        foot = cy + ry + _u(rng, 0.1, 0.16)
        paths += [
            _seg(float(x), cy + ry * 0.7, float(x), foot),
            poly((float(x) - 0.03, foot + 0.02), (float(x), foot), (float(x) + 0.03, foot + 0.02)),
        ]
    return paths


@_design("M", "goblin")
def _goblin(rng: np.random.Generator) -> list[Path]:
    """A goblin's face: long pointed ears, slanted eyes, a hooked nose and a toothy grin."""
    cy = _u(rng, 0.5, 0.56)
    rx, ry = _u(rng, 0.15, 0.18), _u(rng, 0.2, 0.24)
    face = np.vstack(
        [
            _arc(0.5, cy, rx, ry, 180, 360, 12),
            _bez((0.5 + rx, cy), (0.5 + rx * 0.9, cy + ry), (0.5, cy + ry * 1.1), n=6)[1:],
            _bez((0.5, cy + ry * 1.1), (0.5 - rx * 0.9, cy + ry), (0.5 - rx, cy), n=6)[1:],
        ]
    )
    paths = [face]
    for s in (-1, 1):
        ear_tip = (0.5 + s * _u(rng, 0.34, 0.38), cy - _u(rng, 0.1, 0.18))
        paths.append(
            poly((0.5 + s * rx * 0.97, cy - ry * 0.3), ear_tip, (0.5 + s * rx * 0.95, cy + ry * 0.1))
        )
        paths.append(_seg(0.5 + s * rx * 0.25, cy - ry * 0.2, 0.5 + s * rx * 0.6, cy - ry * 0.35))
        paths.append(_dot(0.5 + s * rx * 0.42, cy - ry * 0.12, 0.015))
    paths.append(poly((0.5, cy - ry * 0.1), (0.55, cy + ry * 0.25), (0.5, cy + ry * 0.3)))
    grin = _bez(
        (0.5 - rx * 0.6, cy + ry * 0.45), (0.5, cy + ry * 0.75), (0.5 + rx * 0.6, cy + ry * 0.45), n=10
    )
    paths.append(grin)
    for f in (0.3, 0.7):
        p = grin[int(f * 9)]
        paths.append(poly((p[0] - 0.02, p[1] - 0.005), (p[0], p[1] + 0.04), (p[0] + 0.02, p[1] - 0.005)))
    return paths


@_design("M", "one_eye")
def _one_eye(rng: np.random.Generator) -> list[Path]:
    """A one-eyed brute: an egg of a body, one huge eye, a single horn, a toothed mouth, stubby legs."""
    cy = _u(rng, 0.5, 0.56)
    rx, ry = _u(rng, 0.2, 0.24), _u(rng, 0.24, 0.28)
    paths = [ellipse(0.5, cy, rx, ry, 0, 2 * np.pi, 20)]
    er = rx * _u(rng, 0.38, 0.48)
    ey = cy - ry * 0.25
    paths += [
        circle_path(0.5, ey, er, 14),
        _dot(0.5 + _n(rng, 0.01), ey, er * 0.35),
        poly(
            (0.46, cy - ry * 0.95),
            (0.5 + _n(rng, 0.02), cy - ry - _u(rng, 0.08, 0.12)),
            (0.54, cy - ry * 0.95),
        ),
    ]
    mouth_y = cy + ry * 0.45
    paths.append(_seg(0.5 - rx * 0.5, mouth_y, 0.5 + rx * 0.5, mouth_y))
    paths.append(_teeth(0.5 - rx * 0.4, 0.5 + rx * 0.4, mouth_y, int(rng.integers(2, 4)), 0.03))
    for s in (-1, 1):
        paths.append(_seg(0.5 + s * rx * 0.45, cy + ry * 0.88, 0.5 + s * rx * 0.5, min(cy + ry + 0.08, 0.88)))
    return paths


@_design("M", "serpent")
def _serpent(rng: np.random.Generator) -> list[Path]:
    """A serpent rising in an S: a banded body narrowing to the tail, a head with a forked tongue."""
    s = 1 if _coin(rng) else -1
    head = (0.5 + s * 0.12, _u(rng, 0.2, 0.26))
    centre = _bez(
        (0.5 - s * 0.18, 0.84), (0.5 + s * 0.32, 0.74), (0.5 - s * 0.34, 0.5), (head[0], head[1] + 0.1), n=18
    )
    body = _tapered(centre[::-1], _u(rng, 0.14, 0.17), 0.01)
    paths = [
        body[:-1],
        ellipse(head[0], head[1] + 0.04, 0.07, 0.055, 0, 2 * np.pi, 12),
        _dot(head[0] - 0.025, head[1] + 0.02, 0.011),
        _dot(head[0] + 0.025, head[1] + 0.02, 0.011),
    ]
    tongue_root = (head[0], head[1] + 0.095)
    paths.append(poly(tongue_root, (head[0], head[1] + 0.15)))
    paths.append(
        poly((head[0] - 0.025, head[1] + 0.18), (head[0], head[1] + 0.15), (head[0] + 0.025, head[1] + 0.18))
    )
    d = np.gradient(centre, axis=0)
    for j in range(5, 16, int(rng.integers(4, 6))):
        n = np.array((-d[j, 1], d[j, 0]))
        n /= np.linalg.norm(n)
        w = 0.055 * (1 - j / 22)
        paths.append(poly(tuple(centre[j] - n * w), tuple(centre[j] + n * w)))
    return paths


@_design("M", "claw_hand")
def _claw_hand(rng: np.random.Generator) -> list[Path]:
    """A clawed hand reaching up: a palm, three or four bony fingers, each ending in a hooked talon."""
    k = int(rng.integers(3, 5))
    wrist = _u(rng, 0.84, 0.87)
    palm_top = _u(rng, 0.56, 0.62)
    pw = _u(rng, 0.13, 0.17)
    paths = [
        poly((0.5 - pw * 0.6, wrist), (0.5 - pw, palm_top + 0.04), (0.5 - pw * 0.9, palm_top)),
        poly((0.5 + pw * 0.6, wrist), (0.5 + pw, palm_top + 0.04), (0.5 + pw * 0.9, palm_top)),
    ]
    for i, x in enumerate(np.linspace(0.5 - pw * 0.8, 0.5 + pw * 0.8, k)):
        f = (i - (k - 1) / 2) / max((k - 1) / 2, 1)
        tip = (float(x) + f * 0.08, _u(rng, 0.22, 0.3) + abs(f) * 0.06)
        knuckle = (float(x) + f * 0.04 + 0.02, (palm_top + tip[1]) / 2)
        paths.append(poly((float(x), palm_top), knuckle, tip))
        hook = _bez(tip, (tip[0] + 0.01, tip[1] - 0.07), (tip[0] + 0.06, tip[1] - 0.06), n=6)
        paths.append(np.vstack([hook, poly((tip[0] + 0.015, tip[1] - 0.015))]))
    return paths


@_design("M", "devil")
def _devil(rng: np.random.Generator) -> list[Path]:
    """A devil's face: broad brow narrowing to a pointed chin, two horns, slit eyes and a sly grin."""
    top, chin = _u(rng, 0.34, 0.4), _u(rng, 0.8, 0.86)
    w = _u(rng, 0.2, 0.25)
    face = np.vstack(
        [
            _bez((0.5, chin), (0.5 - w * 1.2, chin - 0.12), (0.5 - w * 1.1, top), (0.5, top), n=12),
            _bez((0.5, top), (0.5 + w * 1.1, top), (0.5 + w * 1.2, chin - 0.12), (0.5, chin), n=12)[1:],
        ]
    )
    paths = [face]
    for s in (-1, 1):
        root = 0.5 + s * w * 0.55
        paths.append(
            poly(
                (root - s * 0.04, top + 0.01),
                (root + s * 0.08, top - _u(rng, 0.14, 0.2)),
                (root + s * 0.04, top + 0.03),
            )
        )
        ey = top + (chin - top) * 0.32
        paths.append(
            poly(
                (0.5 + s * w * 0.15, ey - 0.015),
                (0.5 + s * w * 0.55, ey + 0.02),
                (0.5 + s * w * 0.3, ey + 0.03),
            )
        )
    my = top + (chin - top) * 0.62
    paths.append(_bez((0.5 - w * 0.5, my - 0.03), (0.5, my + 0.08), (0.5 + w * 0.55, my - 0.05), n=10))
    return paths


@_design("M", "spiky_ball")
def _spiky_ball(rng: np.random.Generator) -> list[Path]:
    """A round creature bristling with spikes all round, scowling."""
    r = _u(rng, 0.17, 0.21)
    k = int(rng.integers(9, 15))
    cy = 0.5 + _u(rng, -0.03, 0.03)
    paths = [_star(0.5, cy, r * _u(rng, 1.45, 1.7), r, k, _u(rng, 0, 1))]
    paths += _angry_eyes(0.5, cy - r * 0.1, r * 0.4, rng)
    paths.append(
        _bez((0.5 - r * 0.45, cy + r * 0.55), (0.5, cy + r * 0.3), (0.5 + r * 0.45, cy + r * 0.55), n=8)
    )
    return paths


@_design("M", "maw")
def _maw(rng: np.random.Generator) -> list[Path]:
    """A round maw seen head on: a ring of teeth pointing in, a second ring deeper down."""
    r = _u(rng, 0.28, 0.34)
    k = int(rng.integers(8, 13))
    paths = [
        _rough_circle(rng, 0.5, 0.5, r, 22),
        _star(0.5, 0.5, r * 0.92, r * _u(rng, 0.55, 0.65), k, _u(rng, 0, 1)),
    ]
    if _coin(rng, 0.6):
        paths.append(_star(0.5, 0.5, r * 0.45, r * 0.25, max(k - 3, 5), _u(rng, 0, 1)))
    return paths


@_design("M", "footprint")
def _footprint(rng: np.random.Generator) -> list[Path]:
    """A monster's footprint: a broad pad, three or four toes, a long claw gouged past each."""
    pad_y = _u(rng, 0.62, 0.68)
    pad = _blob(rng, 0.5, pad_y, _u(rng, 0.14, 0.17), _u(rng, 0.11, 0.14), 0.06, 18)
    paths = [pad]
    k = int(rng.integers(3, 5))
    for a in np.linspace(-145, -35, k):
        t = np.deg2rad(a)
        tx, ty = 0.5 + 0.22 * np.cos(t), pad_y - 0.04 + 0.22 * np.sin(t)
        paths += turned([ellipse(tx, ty, 0.06, 0.045, 0, 2 * np.pi, 10)], t, (tx, ty))
        tip = (tx + 0.13 * np.cos(t), ty + 0.13 * np.sin(t))
        paths.append(
            poly(
                (tx + 0.07 * np.cos(t) - 0.015, ty + 0.07 * np.sin(t)),
                tip,
                (tx + 0.07 * np.cos(t) + 0.015, ty + 0.07 * np.sin(t)),
            )
        )
    return turned(paths, np.deg2rad(_u(rng, -25, 25)))


# ---------------------------------------------------------------------------------------------------
# hero


def _sword(tip: float, guard: float, end: float, w: float, guard_w: float, cx: float = 0.5) -> list[Path]:
    """An upright sword, point at ``tip``, crossguard at ``guard``, pommel at ``end``."""
    return [
        poly(
            (cx - w / 2, guard), (cx - w / 2, tip + w), (cx, tip), (cx + w / 2, tip + w), (cx + w / 2, guard)
        ),
        rect(cx - guard_w / 2, guard, cx + guard_w / 2, guard + 0.035),
        _seg(cx, guard + 0.035, cx, end - 0.03),
        circle_path(cx, end - 0.015, 0.022, 8),
    ]


def _shield_outline(cx: float, top: float, w: float, h: float, dip: float = 0.02) -> Path:
    """A heater shield: a flat top, straight upper sides curving in to a point."""
    side = _bez((cx - w, top), (cx - w, top + h * 0.6), (cx - w * 0.3, top + h * 0.85), (cx, top + h), n=12)
    other = np.stack([2 * cx - side[::-1, 0], side[::-1, 1]], 1)
    brim = _bez((cx + w, top), (cx, top + dip), (cx - w, top), n=8)
    return np.vstack([side, other[1:], brim[1:]])


@_design("H", "sword")
def _sword_up(rng: np.random.Generator) -> list[Path]:
    """A sword: a long pointed blade, a crossguard, a wrapped grip and a round pommel."""
    w, gw = _u(rng, 0.06, 0.09), _u(rng, 0.22, 0.32)
    tip, guard = _u(rng, 0.12, 0.16), _u(rng, 0.6, 0.66)
    paths = _sword(tip, guard, _u(rng, 0.8, 0.86), w, gw)
    if _coin(rng):
        paths.append(_seg(0.5, guard - 0.02, 0.5, tip + w + 0.06))
    return turned(paths, np.deg2rad(_u(rng, -45, 45)))


@_design("H", "heater_shield")
def _heater_shield(rng: np.random.Generator) -> list[Path]:
    """A knight's shield bearing a cross, a chevron or a band, sometimes a second rim inside."""
    w, top, h = _u(rng, 0.24, 0.3), _u(rng, 0.15, 0.2), _u(rng, 0.6, 0.68)
    outline = _shield_outline(0.5, top, w, h)
    paths = [outline]
    if _coin(rng, 0.35):
        paths.append((outline - (0.5, top + h * 0.45)) * 0.82 + (0.5, top + h * 0.45))
    mark = int(rng.integers(3))
    if mark == 0:
        paths += [
            _seg(0.5, top + 0.03, 0.5, top + h - 0.04),
            _seg(0.5 - w * 0.95, top + h * 0.35, 0.5 + w * 0.95, top + h * 0.35),
        ]
    elif mark == 1:
        paths.append(
            poly((0.5 - w * 0.9, top + h * 0.55), (0.5, top + h * 0.25), (0.5 + w * 0.9, top + h * 0.55))
        )
    else:
        paths += [
            _seg(0.5 - w * 0.95, top + 0.1, 0.5 + w * 0.7, top + h * 0.7),
            _seg(0.5 - w * 0.95, top + 0.2, 0.5 + w * 0.5, top + h * 0.82),
        ]
    return paths


@_design("H", "round_shield")
def _round_shield(rng: np.random.Generator) -> list[Path]:
    """A round shield: its rim, a boss in the middle, rivets round the edge or planks across."""
    r = _u(rng, 0.26, 0.32)
    paths = [_rough_circle(rng, 0.5, 0.5, r, 22), circle_path(0.5, 0.5, r * _u(rng, 0.18, 0.25), 10)]
    if _coin(rng):
        paths.append(circle_path(0.5, 0.5, r * 0.85, 20))
        for a in np.linspace(0, 2 * np.pi, int(rng.integers(6, 10)), endpoint=False):
            paths.append(_dot(0.5 + r * 0.72 * np.cos(a), 0.5 + r * 0.72 * np.sin(a), 0.012))
    else:
        for x in (-0.45, 0.45):
            h = r * np.sqrt(1 - x * x) * 0.95
            paths.append(_seg(0.5 + x * r, 0.5 - h, 0.5 + x * r, 0.5 + h))
    return paths


@_design("H", "crowned_head")
def _crowned_head(rng: np.random.Generator) -> list[Path]:
    """A king's head: a round face, a pointed crown on it, shoulders below."""
    r = _u(rng, 0.13, 0.17)
    cy = _u(rng, 0.48, 0.54)
    crown_base = cy - r * 0.7
    pts = int(rng.integers(3, 6))
    ch = _u(rng, 0.1, 0.15)
    paths = [
        _rough_circle(rng, 0.5, cy, r, 16),
        np.vstack(
            [
                poly((0.5 - r * 0.85, crown_base)),
                zigzag(0.5 - r * 0.85, 0.5 + r * 0.85, 2 * pts - 1, crown_base - ch, crown_base - ch * 0.35),
                poly((0.5 + r * 0.85, crown_base), (0.5 - r * 0.85, crown_base)),
            ]
        ),
        _dot(0.5 - r * 0.35, cy + 0.01, 0.013),
        _dot(0.5 + r * 0.35, cy + 0.01, 0.013),
        _arc(0.5, cy + r * 0.25, r * 0.35, r * 0.25, 20, 160, 6),
    ]
    if _coin(rng, 0.7):
        paths.append(_arc(0.5, cy + r + 0.2, 0.28, 0.18, 200, 340, 12))
    return paths


@_design("H", "stick_hero")
def _stick_hero(rng: np.random.Generator) -> list[Path]:
    """A stick figure with a sword raised high, sometimes a small round shield on the other arm."""
    head_y, r = _u(rng, 0.3, 0.36), _u(rng, 0.05, 0.065)
    hip = _u(rng, 0.6, 0.64)
    cx = 0.45
    neck = head_y + r
    shoulder = neck + 0.05
    hand = (cx + _u(rng, 0.15, 0.2), shoulder - _u(rng, 0.02, 0.08))
    blade_dir = np.array((_u(rng, 0.1, 0.3), -1.0))
    blade_dir /= np.linalg.norm(blade_dir)
    tip = np.array(hand) + blade_dir * _u(rng, 0.24, 0.3)
    gn = np.array((-blade_dir[1], blade_dir[0])) * 0.045
    paths = [
        circle_path(cx, head_y, r, 12),
        _seg(cx, neck, cx, hip),
        poly((cx, shoulder + 0.02), hand),
        poly((cx - 0.1, hip + 0.22), (cx, hip), (cx + 0.1, hip + 0.22)),
        poly(tuple(np.array(hand) - blade_dir * 0.04), tuple(tip)),
        poly(tuple(np.array(hand) + gn), tuple(np.array(hand) - gn)),
    ]
    if _coin(rng):
        paths += [
            poly((cx, shoulder + 0.02), (cx - 0.12, shoulder + 0.1)),
            circle_path(cx - 0.13, shoulder + 0.1, _u(rng, 0.06, 0.08), 10),
        ]
    else:
        paths.append(poly((cx, shoulder + 0.02), (cx - 0.11, shoulder + 0.16)))
    return paths


@_design("H", "helmet")
def _helmet(rng: np.random.Generator) -> list[Path]:
    """A knight's barrel helm from the front: domed top, a ridge down the middle, two eye slits, holes
    punched in one cheek."""
    w, top, foot = _u(rng, 0.2, 0.25), _u(rng, 0.16, 0.22), _u(rng, 0.78, 0.84)
    dome_h = _u(rng, 0.14, 0.2)
    side = top + dome_h
    bulge = _u(rng, 0.01, 0.04)
    outline = np.vstack(
        [
            _bez((0.5 - w * 0.85, foot), (0.5 - w - bulge, (side + foot) / 2), (0.5 - w, side), n=8),
            _arc(0.5, side, w, dome_h, 180, 360, 14)[1:],
            _bez((0.5 + w, side), (0.5 + w + bulge, (side + foot) / 2), (0.5 + w * 0.85, foot), n=8)[1:],
            _bez((0.5 + w * 0.85, foot), (0.5, foot + 0.04), (0.5 - w * 0.85, foot), n=6)[1:],
        ]
    )
    slit = side + _u(rng, 0.03, 0.07)
    sh = _u(rng, 0.02, 0.035)
    paths = [
        outline,
        _seg(0.5, top + 0.01, 0.5, foot + 0.02),
        rect(0.5 - w * 0.8, slit, 0.5 - 0.03, slit + sh),
        rect(0.5 + 0.03, slit, 0.5 + w * 0.8, slit + sh),
    ]
    s = 1 if _coin(rng) else -1
    for i in range(int(rng.integers(2, 4))):
        for j in range(2):
            paths.append(_dot(0.5 + s * (0.07 + j * 0.06), slit + 0.1 + i * 0.06, 0.011))
    if _coin(rng, 0.3):  # a plume on top
        paths.append(_bez((0.5, top), (0.46, top - 0.08), (0.6, top - 0.1), n=6))
    return paths


@_design("H", "bow_arrow")
def _bow_arrow(rng: np.random.Generator) -> list[Path]:
    """A bow drawn back: the bent bow, its string pulled to a point, an arrow on it."""
    h, bend = _u(rng, 0.32, 0.36), _u(rng, 0.14, 0.2)
    bx = _u(rng, 0.56, 0.62)
    pull = _u(rng, 0.0, 0.16)
    bow = _arc(bx - bend, 0.5, bend, h, -90, 90, 16)
    nock = (bx - bend - pull, 0.5)
    paths = [bow, poly((bx - bend, 0.5 - h), nock, (bx - bend, 0.5 + h))]
    head_x = min(nock[0] + _u(rng, 0.5, 0.58), 0.88)
    paths += [
        _seg(nock[0], 0.5, head_x, 0.5),
        poly((head_x - 0.05, 0.46), (head_x, 0.5), (head_x - 0.05, 0.54)),
        _seg(nock[0], 0.5, nock[0] - 0.04, 0.46),
        _seg(nock[0] + 0.04, 0.5, nock[0], 0.46),
        _seg(nock[0], 0.5, nock[0] - 0.04, 0.54),
        _seg(nock[0] + 0.04, 0.5, nock[0], 0.54),
    ]
    return turned(paths, np.deg2rad(_u(rng, -60, 30)))


@_design("H", "axe")
def _axe(rng: np.random.Generator) -> list[Path]:
    """A battle axe: a long haft, a broad blade flaring to a curved edge, sometimes a blade each side."""
    top, foot = _u(rng, 0.14, 0.18), _u(rng, 0.84, 0.87)
    bw, bh = _u(rng, 0.2, 0.26), _u(rng, 0.16, 0.22)
    hx = 0.5 + _u(rng, -0.08, -0.03)
    y0 = top + 0.05
    paths = [_seg(hx, top, hx + _n(rng, 0.01), foot)]
    for s in (1, -1) if _coin(rng, 0.4) else (1,):
        flare = _u(rng, 0.03, 0.07)
        # the blade narrows to a neck at the haft and flares to its edge: a flag would not
        blade = np.vstack(
            [
                _bez(
                    (hx, y0 + bh * 0.35), (hx + s * bw * 0.5, y0 + bh * 0.3), (hx + s * bw, y0 - flare), n=6
                ),
                _bez(
                    (hx + s * bw, y0 - flare),
                    (hx + s * (bw + 0.08), y0 + bh / 2),
                    (hx + s * bw, y0 + bh + flare),
                    n=10,
                )[1:],
                _bez(
                    (hx + s * bw, y0 + bh + flare),
                    (hx + s * bw * 0.5, y0 + bh * 0.7),
                    (hx, y0 + bh * 0.65),
                    n=6,
                )[1:],
            ]
        )
        paths.append(blade)
    return turned(paths, np.deg2rad(_u(rng, -35, 35)))


@_design("H", "flag")
def _flag(rng: np.random.Generator) -> list[Path]:
    """A banner on a pole: the cloth waving out from the top, a knob on the pole, a mound at its foot."""
    px = _u(rng, 0.24, 0.3)
    top, foot = _u(rng, 0.14, 0.18), _u(rng, 0.82, 0.86)
    fw, fh = _u(rng, 0.42, 0.52), _u(rng, 0.2, 0.28)
    amp = _u(rng, 0.02, 0.04)
    y0 = top + 0.04
    upper = wave(px, px + fw, y0, amp, 1.0, 14)
    lower = wave(px, px + fw, y0 + fh, amp, 1.0, 14)[::-1]
    if _coin(rng):  # a swallowtail end
        end = poly((px + fw, y0), (px + fw - 0.08, y0 + fh / 2), (px + fw, y0 + fh))
    else:
        end = poly((px + fw, y0), (px + fw, y0 + fh))
    paths = [np.vstack([upper, end[1:-1], lower]), _seg(px, top, px, foot), _dot(px, top - 0.015, 0.018)]
    if _coin(rng):
        paths.append(_star(px + fw * 0.45, y0 + fh / 2, fh * 0.3, fh * 0.12))
    if _coin(rng):
        paths.append(_arc(px, foot, 0.1, 0.04, 180, 360, 8))
    return paths


@_design("H", "star")
def _star_badge(rng: np.random.Generator) -> list[Path]:
    """A five-pointed star, as an outline or in one crossing stroke, sometimes with sparkles."""
    r = _u(rng, 0.3, 0.36)
    rot = -np.pi / 2 + _n(rng, 0.12)
    if _coin(rng):
        paths = [_star(0.5, 0.52, r, r * _u(rng, 0.38, 0.48), 5, rot)]
    else:
        t = rot + np.arange(6) * 4 * np.pi / 5
        paths = [np.stack([0.5 + r * np.cos(t), 0.52 + r * np.sin(t)], 1)]
    if _coin(rng, 0.4):
        paths.append(_star(0.5, 0.52, r * 0.55, r * 0.25, 5, rot))
    return paths


@_design("H", "crossed_swords")
def _crossed_swords(rng: np.random.Generator) -> list[Path]:
    """Two swords crossed point upward."""
    ang = _u(rng, 30, 45)
    paths: list[Path] = []
    for s in (-1, 1):
        one = _sword(_u(rng, 0.12, 0.16), _u(rng, 0.64, 0.68), _u(rng, 0.82, 0.86), 0.05, 0.16)
        paths += turned(one, np.deg2rad(s * ang))
    return paths


@_design("H", "war_hammer")
def _war_hammer(rng: np.random.Generator) -> list[Path]:
    """A war hammer: a haft with a heavy block across its head, a spike on top."""
    top, foot = _u(rng, 0.18, 0.22), _u(rng, 0.84, 0.87)
    bw, bh = _u(rng, 0.18, 0.24), _u(rng, 0.12, 0.16)
    paths = [
        rect(0.5 - bw, top, 0.5 + bw, top + bh),
        _seg(0.48, top + bh, 0.48, foot),
        _seg(0.52, top + bh, 0.52, foot),
    ]
    if _coin(rng):
        paths.append(poly((0.47, top), (0.5, top - 0.06), (0.53, top)))
    if _coin(rng):
        paths += [_seg(0.47, foot - 0.12, 0.53, foot - 0.1), _seg(0.47, foot - 0.07, 0.53, foot - 0.05)]
    return turned(paths, np.deg2rad(_u(rng, -40, 40)))


@_design("H", "crown")
def _crown(rng: np.random.Generator) -> list[Path]:
    """A crown on its own: a band, its points each topped with a ball, jewels on the band."""
    pts = int(rng.integers(3, 6))
    x0, x1 = _u(rng, 0.16, 0.22), 1 - _u(rng, 0.16, 0.22)
    base, band = _u(rng, 0.7, 0.76), _u(rng, 0.08, 0.12)
    tips = _u(rng, 0.3, 0.36)
    zig = zigzag(x0, x1, 2 * pts - 1, tips, base - band - _u(rng, 0.04, 0.1))
    paths = [
        np.vstack([poly((x0, base)), zig, poly((x1, base), (x0, base))]),
        _seg(x0, base - band, x1, base - band),
    ]
    for x in zig[::2, 0]:
        paths.append(circle_path(float(x), tips - 0.025, 0.022, 8))
    for x in np.linspace(x0 + 0.08, x1 - 0.08, int(rng.integers(2, 4))):
        paths.append(_dot(float(x), base - band / 2, 0.016))
    return paths


@_design("H", "medal")
def _medal(rng: np.random.Generator) -> list[Path]:
    """A medal on a ribbon: two straps meeting in a V, a disc with a star on it."""
    cy, r = _u(rng, 0.62, 0.68), _u(rng, 0.14, 0.18)
    top = _u(rng, 0.13, 0.17)
    spread = _u(rng, 0.14, 0.2)
    paths = [
        poly((0.5 - spread - 0.06, top), (0.5 - 0.04, cy - r + 0.02)),
        poly((0.5 - spread + 0.04, top), (0.5 + 0.04, cy - r + 0.02)),
        poly((0.5 + spread + 0.06, top), (0.5 + 0.04, cy - r + 0.02)),
        poly((0.5 + spread - 0.04, top), (0.5 - 0.02, cy - r + 0.02)),
        circle_path(0.5, cy, r, 16),
        _star(0.5, cy + 0.01, r * 0.65, r * 0.28),
    ]
    return paths


@_design("H", "dagger")
def _dagger(rng: np.random.Generator) -> list[Path]:
    """A dagger: a short leaf-shaped blade, a small guard and grip, held slanting."""
    tip, guard = _u(rng, 0.18, 0.24), _u(rng, 0.56, 0.62)
    w = _u(rng, 0.05, 0.08)
    blade = np.vstack(
        [
            _bez((0.5 - w / 2, guard), (0.5 - w * 0.9, (tip + guard) / 2), (0.5, tip), n=8),
            _bez((0.5, tip), (0.5 + w * 0.9, (tip + guard) / 2), (0.5 + w / 2, guard), n=8)[1:],
        ]
    )
    paths = [
        blade,
        _bez((0.5 - 0.1, guard - 0.02), (0.5, guard + 0.03), (0.5 + 0.1, guard - 0.02), n=6),
        rect(0.485, guard + 0.015, 0.515, guard + 0.15),
        _dot(0.5, guard + 0.17, 0.02),
    ]
    return turned(paths, np.deg2rad(_u(rng, 20, 55) * (1 if _coin(rng) else -1)))


@_design("H", "plumed_helmet")
def _plumed_helmet(rng: np.random.Generator) -> list[Path]:
    """An old warrior's helmet from the front: a round bowl, cheek guards leaving a T-shaped opening for
    eyes and nose, a crest of stiff plumes standing across the top."""
    w, cy = _u(rng, 0.2, 0.24), _u(rng, 0.5, 0.56)
    foot = cy + _u(rng, 0.26, 0.3)
    brow = cy + _u(rng, 0.0, 0.04)
    bowl = np.vstack(
        [
            poly((0.5 - w * 0.75, foot)),
            _bez((0.5 - w * 0.75, foot), (0.5 - w * 1.1, cy + 0.1), (0.5 - w, cy), n=6)[1:],
            _arc(0.5, cy, w, w * 1.05, 180, 360, 14)[1:],
            _bez((0.5 + w, cy), (0.5 + w * 1.1, cy + 0.1), (0.5 + w * 0.75, foot), n=6)[1:],
        ]
    )
    gap = _u(rng, 0.03, 0.045)
    opening = poly(
        (0.5 - w * 0.75, foot),
        (0.5 - gap * 1.5, foot - 0.02),
        (0.5 - gap, brow + 0.06),
        (0.5 - w * 0.75, brow + 0.04),
        (0.5 - w * 0.8, brow),
        (0.5 + w * 0.8, brow),
        (0.5 + w * 0.75, brow + 0.04),
        (0.5 + gap, brow + 0.06),
        (0.5 + gap * 1.5, foot - 0.02),
        (0.5 + w * 0.75, foot),
    )
    crest_top = cy - w * 1.05 - _u(rng, 0.1, 0.15)
    crest = _arc(0.5, cy - w * 0.2, w * 0.95, cy - w * 0.2 - crest_top, 200, 340, 12)
    paths = [bowl, opening, crest]
    for i in range(1, 12, int(rng.integers(1, 3))):
        p = crest[i]
        paths.append(_seg(float(p[0]), float(p[1]), 0.5 + (float(p[0]) - 0.5) * 0.9, cy - w * 0.95))
    return paths


@_design("H", "caped_hero")
def _caped_hero(rng: np.random.Generator) -> list[Path]:
    """A hero standing in a cape: a round head, the cape flaring down behind, a sword at the side."""
    head_y, r = _u(rng, 0.22, 0.26), _u(rng, 0.055, 0.07)
    shoulders = head_y + r + 0.04
    hem = _u(rng, 0.72, 0.78)
    flare = _u(rng, 0.16, 0.22)
    paths = [
        circle_path(0.5, head_y, r, 12),
        poly(
            (0.5 - 0.07, shoulders),
            (0.5 - flare, hem),
            (0.5 + flare * 0.8, hem + 0.02),
            (0.5 + 0.07, shoulders),
            (0.5 - 0.07, shoulders),
        ),
        _seg(0.46, hem - 0.02, 0.44, 0.86),
        _seg(0.54, hem - 0.02, 0.56, 0.86),
    ]
    sx = 0.5 + flare + 0.04
    paths += [
        _seg(sx, shoulders + 0.08, sx, hem),
        _seg(sx - 0.04, shoulders + 0.1, sx + 0.04, shoulders + 0.1),
    ]
    return _mirror(paths) if _coin(rng) else paths


@_design("H", "sword_shield")
def _sword_shield(rng: np.random.Generator) -> list[Path]:
    """A shield with a sword behind it, hilt over one shoulder and point out below the other."""
    ang = _u(rng, 30, 50) * (1 if _coin(rng) else -1)
    sword = turned(
        _sword(_u(rng, 0.08, 0.12), _u(rng, 0.28, 0.32), _u(rng, 0.42, 0.46), 0.05, 0.16),
        np.deg2rad(ang + 180),
    )
    w = _u(rng, 0.18, 0.22)
    shield = _shield_outline(0.5, 0.3, w, _u(rng, 0.44, 0.5))
    paths = [shield, *sword]
    if _coin(rng):
        paths.append(_seg(0.5, 0.32, 0.5, 0.72))
    return paths


@_design("H", "staff")
def _staff(rng: np.random.Generator) -> list[Path]:
    """A hero's staff: a long shaft, a crystal held in prongs at its head, sparkle strokes round it."""
    top, foot = _u(rng, 0.3, 0.34), _u(rng, 0.84, 0.87)
    cw, ch = _u(rng, 0.05, 0.07), _u(rng, 0.1, 0.14)
    cy = top - ch / 2
    paths = [
        _seg(0.5, top, 0.5 + _n(rng, 0.01), foot),
        poly((0.5, cy - ch / 2), (0.5 + cw, cy), (0.5, cy + ch / 2), (0.5 - cw, cy), (0.5, cy - ch / 2)),
        _bez((0.5, top + 0.04), (0.5 - cw * 1.8, top), (0.5 - cw * 1.2, cy - 0.02), n=6),
        _bez((0.5, top + 0.04), (0.5 + cw * 1.8, top), (0.5 + cw * 1.2, cy - 0.02), n=6),
    ]
    for a in np.linspace(-160, -20, int(rng.integers(2, 5))):
        t = np.deg2rad(a)
        paths.append(
            _seg(0.5 + 0.12 * np.cos(t), cy + 0.12 * np.sin(t), 0.5 + 0.17 * np.cos(t), cy + 0.17 * np.sin(t))
        )
    if _coin(rng):
        paths += [_seg(0.48, 0.6, 0.52, 0.62), _seg(0.48, 0.64, 0.52, 0.66)]
    return turned(paths, np.deg2rad(_u(rng, -25, 25)))


@_design("H", "quiver")
def _quiver(rng: np.random.Generator) -> list[Path]:
    """A quiver slung at a slant: a tapered case, its strap, feathered arrows standing out of it."""
    top, foot = _u(rng, 0.36, 0.42), _u(rng, 0.82, 0.86)
    tw, fw = _u(rng, 0.1, 0.13), _u(rng, 0.07, 0.09)
    paths = [
        poly((0.5 - tw, top), (0.5 - fw, foot), (0.5 + fw, foot), (0.5 + tw, top)),
        ellipse(0.5, top, tw, 0.025, 0, 2 * np.pi, 10),
        _bez((0.5 - tw, top + 0.06), (0.5 - tw - 0.12, (top + foot) / 2), (0.5 - fw, foot - 0.06), n=8),
    ]
    for dx in np.linspace(-tw * 0.6, tw * 0.6, int(rng.integers(2, 4))):
        x = 0.5 + float(dx)
        end = top - _u(rng, 0.16, 0.22)
        paths += [
            _seg(x, top, x + dx * 0.3, end),
            poly(
                (x + dx * 0.3 - 0.025, end + 0.06),
                (x + dx * 0.3, end + 0.03),
                (x + dx * 0.3 + 0.025, end + 0.06),
            ),
            poly((x + dx * 0.3 - 0.025, end + 0.03), (x + dx * 0.3, end), (x + dx * 0.3 + 0.025, end + 0.03)),
        ]
    return turned(paths, np.deg2rad(_u(rng, -30, 30)))


# ---------------------------------------------------------------------------------------------------
# the public table

#: Each terrain's designs: ``train`` (drawn by training hands and the params split) and ``eval`` (only
#: the eval split draws them). Fixed by hand, not drawn at random: the eval half holds the designs
#: nearest to the pictures other families hold out, and one or two more of each terrain.
STUDIO_DESIGNS: dict[str, dict[str, tuple[str, ...]]] = {
    "F": {
        "train": (
            "pine_zig",
            "fir_branches",
            "cone",
            "spruce_dark",
            "round_tree",
            "cloud_crown",
            "scribble_crown",
            "hatched_crown",
            "bush",
            "grove_row",
            "cypress",
            "oak",
            "treeline",
            "clover_tree",
            "brush",
        ),
        "eval": ("pine_tiers", "pine_pair", "palm", "leaf", "birch"),
    },
    "V": {
        "train": (
            "gable_house",
            "saltbox",
            "townhouse",
            "tower",
            "church",
            "roof_row",
            "chimney_smoke",
            "two_houses",
            "hip_roof",
            "gatehouse",
            "skyline",
            "dark_roof",
            "keep",
            "hamlet",
            "timber",
        ),
        "eval": ("hut", "castle_wall", "facade", "a_frame", "dome"),
    },
    "P": {
        "train": (
            "wheat_stalk",
            "three_stalks",
            "furrows",
            "crop_rows",
            "fenced_field",
            "barn",
            "sheaf",
            "cabbage",
            "cart",
            "pumpkin",
            "carrot",
            "ploughed",
            "hay_bale",
            "patchwork",
            "sprouts",
        ),
        "eval": ("grapes", "sun_field", "dot_grid", "haystack", "corn"),
    },
    "W": {
        "train": (
            "wave_lines",
            "crests",
            "scales",
            "droplet",
            "drops",
            "fish",
            "lake",
            "ripples",
            "bubbles",
            "wave_block",
            "anchor",
            "river",
            "big_wave",
            "splash",
            "tildes",
        ),
        "eval": ("boat", "shell", "zigzag_water", "whirlpool", "whale_tail"),
    },
    "M": {
        "train": (
            "horned_face",
            "skull",
            "spider",
            "dragon_head",
            "claw_marks",
            "evil_eye",
            "ghost",
            "shadow_beast",
            "goblin",
            "one_eye",
            "serpent",
            "claw_hand",
            "devil",
            "spiky_ball",
            "footprint",
        ),
        "eval": ("tentacles", "bat", "fangs", "slime", "maw"),
    },
    "H": {
        "train": (
            "sword",
            "heater_shield",
            "round_shield",
            "stick_hero",
            "helmet",
            "axe",
            "star",
            "crossed_swords",
            "war_hammer",
            "crown",
            "dagger",
            "plumed_helmet",
            "sword_shield",
            "staff",
            "quiver",
        ),
        "eval": ("crowned_head", "bow_arrow", "flag", "medal", "caped_hero"),
    },
}


def studio_key(terrain: str, name: str) -> str:
    """The icon key of design ``name`` of ``terrain``: ``stu:<terrain>:<name>``.

    >>> studio_key("W", "fish")
    'stu:W:fish'
    """
    if (terrain, name) not in _DESIGNS:
        raise ValueError(f"no studio design {name!r} for terrain {terrain!r}")
    return f"{PREFIX}{terrain}:{name}"


def is_studio(variant: str) -> bool:
    """Whether ``variant`` is a studio icon key."""
    return variant.startswith(PREFIX)


def studio_paths(variant: str, rng: np.random.Generator) -> list[Path]:
    """Strokes of the studio design ``variant`` (``stu:<terrain>:<name>``), drawn anew from ``rng``."""
    parts = variant.split(":")
    maker = _DESIGNS.get((parts[1], parts[2])) if len(parts) == 3 and is_studio(variant) else None
    if maker is None:
        raise ValueError(f"unknown studio design {variant!r}")
    return _fit(maker(rng))


def _check_table() -> None:
    """Every design is in exactly one half of its terrain's table, and every name in the table is drawn."""
    for terrain, halves in STUDIO_DESIGNS.items():
        listed = [*halves["train"], *halves["eval"]]
        drawn = [name for t, name in _DESIGNS if t == terrain]
        if sorted(listed) != sorted(drawn) or len(set(listed)) != len(listed):
            raise AssertionError(f"STUDIO_DESIGNS[{terrain!r}] does not match the designs drawn")


_check_table()

__all__ = ["BOX", "PREFIX", "STUDIO_DESIGNS", "is_studio", "studio_key", "studio_paths"]
