"""The ``outsider`` drawing family: pencil icons by a second author, held out from every training family.

Every other icon design in :mod:`models.synth` was drawn by one hand, so a classifier measured on
them is measured on that author's habits as much as on new drawings. These designs were drawn by
someone who never saw the training designs (nor :mod:`models.synth.grammar`), the way players sketch
Cartographers cells: quick, recognisable pictures of each terrain, common motifs and rarer ones.

They are evaluation material only: no training family may draw them (the family is listed in
:data:`models.synth.style.HELD_OUT_FAMILIES`, which :meth:`~models.synth.style.DrawStyle.random`
refuses in the train split). A design is named by a variant key ``out:<terrain>:<name>`` (for
example ``out:F:fir``); :func:`outsider_paths` draws it, with small proportions varying per call
through ``rng`` (the renderer varies size, tilt and place per cell on top).

Strokes are in cell-local units (0..1 across the cell, y grows downward) and stay within about
[0.12, 0.88].
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from models.synth.shapes import Path, circle_path, ellipse, poly, rect, turned, wave, zigzag

Design = Callable[[np.random.Generator], list[Path]]

#: The prefix of every outsider variant key.
PREFIX = "out:"

_DESIGNS: dict[str, dict[str, Design]] = {t: {} for t in ("F", "V", "P", "W", "M", "H")}


def _design(terrain: str, name: str) -> Callable[[Design], Design]:
    """A decorator filing a design under ``terrain`` and ``name``; a name used twice is a mistake."""

    def register(fn: Design) -> Design:
        if name in _DESIGNS[terrain]:
            raise ValueError(f"outsider design {terrain}:{name} defined twice")
        _DESIGNS[terrain][name] = fn
        return fn

    return register


# --- small helpers ---------------------------------------------------------------------------------


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    """One uniform draw as a plain float."""
    return float(rng.uniform(lo, hi))


def _bez(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float], n: int = 12) -> Path:
    """A quadratic Bezier curve from ``p0`` to ``p2`` pulled towards ``p1``: a hand's single curved stroke."""
    t = np.linspace(0.0, 1.0, n)[:, None]
    a, b, c = np.asarray(p0, float), np.asarray(p1, float), np.asarray(p2, float)
    out: Path = (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c
    return out


def _outside_circle(path: Path, cx: float, cy: float, r: float, step: float = 0.01) -> list[Path]:
    """The parts of ``path`` outside a circle: what shows of a thing drawn behind a round shape."""
    dense: list[np.ndarray] = []
    for a, b in itertools.pairwise(path):
        k = max(2, int(np.ceil(np.linalg.norm(b - a) / step)))
        dense.append(a + (b - a) * np.linspace(0.0, 1.0, k, endpoint=False)[:, None])
    dense.append(path[-1:])
    pts = np.vstack(dense)
    out = np.hypot(pts[:, 0] - cx, pts[:, 1] - cy) > r
    runs: list[Path] = []
    start = None
    for i, o in enumerate(out):
        if o and start is None:
            start = i
        if (not o or i == len(out) - 1) and start is not None:
            end = i + 1 if o else i
            if end - start >= 2:
                runs.append(pts[start:end])
            start = None
    return runs


def _teardrop(cx: float, tip_y: float, height: float, width: float, n: int = 24) -> Path:
    """A closed drop: pointed at the top (``tip_y``), round below."""
    t = np.linspace(0.0, 2 * np.pi, n + 1)
    x = cx + width * np.sin(t) * np.sin(t / 2)
    y = tip_y + height * (1 - np.cos(t)) / 2
    return np.stack([x, y], 1)


# --- forest ----------------------------------------------------------------------------------------


@_design("F", "fir")
def _fir(rng: np.random.Generator) -> list[Path]:
    """A trunk with drooping branch chevrons widening downward."""
    top = _u(rng, 0.14, 0.18)
    n = int(rng.integers(3, 6))
    droop = _u(rng, 0.06, 0.1)
    ys = np.linspace(top + 0.06, 0.7, n)
    ws = np.linspace(0.1, 0.3, n) * _u(rng, 0.9, 1.05)
    paths = [poly((0.5, top), (0.5, 0.86))]
    paths += [poly((0.5 - w, y + droop), (0.5, y), (0.5 + w, y + droop)) for y, w in zip(ys, ws, strict=True)]
    return paths


@_design("F", "round_tree")
def _round_tree(rng: np.random.Generator) -> list[Path]:
    """A round crown over a two-line trunk that forks inside the crown."""
    r = _u(rng, 0.2, 0.24)
    cy = 0.16 + r
    crown = circle_path(0.5, cy, r, n=22, bump=_u(rng, 0.0, 0.05), start=_u(rng, 0, 6.3))
    base = cy + r * 0.92
    return [
        crown,
        poly((0.46, base), (0.44, 0.86)),
        poly((0.54, base), (0.56, 0.86)),
        poly((0.5, base + 0.02), (0.5, cy + 0.04), (0.42, cy - 0.06)),
        poly((0.5, cy + 0.08), (0.59, cy - 0.02)),
    ]


@_design("F", "three_pines")
def _three_pines(rng: np.random.Generator) -> list[Path]:
    """Three closed triangle trees on stems, the middle one tallest."""
    base = _u(rng, 0.72, 0.76)
    paths: list[Path] = []
    for cx, h in ((0.28, _u(rng, 0.34, 0.42)), (0.5, _u(rng, 0.5, 0.56)), (0.72, _u(rng, 0.34, 0.42))):
        w = 0.1
        paths.append(poly((cx - w, base), (cx, base - h), (cx + w, base), (cx - w, base)))
        paths.append(poly((cx, base), (cx, base + 0.1)))
    return paths


@_design("F", "zigzag_spruce")
def _zigzag_spruce(rng: np.random.Generator) -> list[Path]:
    """One zigzag stroke from the tip, each left-right swing wider and lower, over a box trunk."""
    m = int(rng.integers(3, 6))
    drop = 0.57 / m
    pts = [(0.5, 0.15)]
    for j in range(1, m + 1):
        w = 0.3 * j / m
        y = 0.15 + drop * (j - 0.55)
        pts += [(0.5 - w, y), (0.5 + w, y + drop * 0.55)]
    low = pts[-1][1]
    pts.append((0.5, low))
    return [np.array(pts), poly((0.46, low), (0.46, 0.86), (0.54, 0.86), (0.54, low))]


@_design("F", "oak")
def _oak(rng: np.random.Generator) -> list[Path]:
    """A lobed cloud crown on a thick trunk with roots."""
    r = _u(rng, 0.22, 0.25)
    cy = 0.15 + r * 1.08
    crown = circle_path(0.5, cy, r, n=45, bump=0.08, start=_u(rng, 0, 6.3))
    top = cy + r * 0.85
    return [
        crown,
        poly((0.45, top), (0.44, 0.82), (0.36, 0.87)),
        poly((0.55, top), (0.56, 0.82), (0.64, 0.87)),
        poly((0.5, 0.84), (0.5, 0.8)),
    ]


@_design("F", "two_trees")
def _two_trees(rng: np.random.Generator) -> list[Path]:
    """A round tree and a pointed one side by side."""
    r = _u(rng, 0.13, 0.16)
    h = _u(rng, 0.5, 0.6)
    return [
        circle_path(0.3, 0.5 - r, r, n=16),
        poly((0.3, 0.5), (0.3, 0.84)),
        poly((0.56, 0.76), (0.7, 0.76 - h), (0.84, 0.76), (0.56, 0.76)),
        poly((0.7, 0.76), (0.7, 0.86)),
    ]


@_design("F", "tiered")
def _tiered(rng: np.random.Generator) -> list[Path]:
    """Three overlapping closed triangles stacked like a Christmas tree, on a box trunk."""
    paths: list[Path] = []
    step = _u(rng, 0.15, 0.17)
    for i in range(3):
        y = 0.15 + i * step
        w = 0.14 + 0.07 * i
        paths.append(poly((0.5 - w, y + 0.22), (0.5, y), (0.5 + w, y + 0.22), (0.5 - w, y + 0.22)))
    low = 0.15 + 2 * step + 0.22
    paths.append(poly((0.46, low), (0.46, 0.86), (0.54, 0.86), (0.54, low)))
    return paths


@_design("F", "poplar")
def _poplar(rng: np.random.Generator) -> list[Path]:
    """A tall narrow crown with the trunk running up through it and branch ticks."""
    rx, ry = _u(rng, 0.12, 0.15), _u(rng, 0.26, 0.29)
    cy = 0.14 + ry
    paths = [ellipse(0.5, cy, rx, ry, n=24), poly((0.5, 0.86), (0.5, cy - ry * 0.6))]
    for y in np.linspace(cy - ry * 0.35, cy + ry * 0.55, int(rng.integers(3, 5))):
        paths.append(poly((0.5, y + 0.04), (0.5 - rx * 0.6, y - 0.03)))
        paths.append(poly((0.5, y + 0.04), (0.5 + rx * 0.6, y - 0.03)))
    return paths


@_design("F", "leaf")
def _leaf(rng: np.random.Generator) -> list[Path]:
    """One big leaf with its midrib, veins and stalk."""
    a, b = np.array([0.3, 0.76]), np.array([0.74, 0.18])
    axis = b - a
    normal = np.array([-axis[1], axis[0]]) / np.linalg.norm(axis)
    width = _u(rng, 0.14, 0.18)
    t = np.linspace(0.0, 1.0, 14)[:, None]
    half = width * np.sin(np.pi * t) ** 0.8
    left, right = a + axis * t + normal * half, a + axis * t - normal * half
    outline = np.vstack([left, right[::-1]])
    paths = [outline, poly(tuple(a - axis * 0.12), tuple(b - axis * 0.06))]
    for s in (0.3, 0.5, 0.7):
        p = a + axis * s
        reach = width * 0.75 * np.sin(np.pi * s)
        for sign in (1.0, -1.0):
            paths.append(np.stack([p, p + axis * 0.1 + sign * normal * reach]))
    return paths


# --- village ---------------------------------------------------------------------------------------


@_design("V", "gable")
def _gable(rng: np.random.Generator) -> list[Path]:
    """A box house under an overhanging pointed roof, with a door."""
    eave = _u(rng, 0.48, 0.54)
    peak = _u(rng, 0.16, 0.22)
    return [
        poly((0.25, eave), (0.25, 0.84), (0.75, 0.84), (0.75, eave)),
        poly((0.19, eave + 0.03), (0.5, peak), (0.81, eave + 0.03)),
        poly((0.45, 0.84), (0.45, 0.68), (0.55, 0.68), (0.55, 0.84)),
    ]


@_design("V", "row_houses")
def _row_houses(rng: np.random.Generator) -> list[Path]:
    """Two or three houses wall to wall under a row of pointed roofs, a window each."""
    k = int(rng.integers(2, 4))
    xs = np.linspace(0.17, 0.83, k + 1)
    eave, base = _u(rng, 0.52, 0.58), 0.82
    roof = [(float(xs[0]), eave)]
    paths: list[Path] = [poly((float(xs[0]), base), (float(xs[-1]), base))]
    for i in range(k):
        x0, x1 = float(xs[i]), float(xs[i + 1])
        roof += [((x0 + x1) / 2, eave - (x1 - x0) * _u(rng, 0.75, 0.95)), (x1, eave)]
        mx, s = (x0 + x1) / 2, (x1 - x0) * 0.16
        paths.append(rect(mx - s, eave + 0.07, mx + s, eave + 0.07 + 2 * s))
    paths.append(np.array(roof))
    paths += [poly((float(x), eave), (float(x), base)) for x in xs]
    return paths


@_design("V", "cottage_smoke")
def _cottage_smoke(rng: np.random.Generator) -> list[Path]:
    """A house with a cross window and a chimney puffing a curl of smoke."""
    s = np.linspace(0.0, 1.0, 14)
    smoke = np.stack([0.65 + 0.12 * s + 0.025 * np.sin(s * 3 * np.pi), 0.21 - 0.08 * s], 1)
    wx = _u(rng, 0.33, 0.38)
    return [
        rect(0.24, 0.54, 0.72, 0.84),
        poly((0.19, 0.56), (0.46, _u(rng, 0.27, 0.31)), (0.77, 0.56)),
        poly((0.6, 0.42), (0.6, 0.24), (0.68, 0.24), (0.68, 0.49)),
        smoke,
        rect(wx, 0.62, wx + 0.11, 0.73),
        poly((wx + 0.055, 0.62), (wx + 0.055, 0.73)),
        poly((wx, 0.675), (wx + 0.11, 0.675)),
        poly((0.54, 0.84), (0.54, 0.68), (0.63, 0.68), (0.63, 0.84)),
    ]


@_design("V", "tower_house")
def _tower_house(rng: np.random.Generator) -> list[Path]:
    """A crenellated stone tower beside a little house."""
    top = _u(rng, 0.2, 0.26)
    cren = [(0.22, top + 0.06)]
    for i, x in enumerate(np.linspace(0.22, 0.42, 5)):
        y = top if i % 2 == 0 else top + 0.06
        cren += [(float(x), y)] if i == 0 else [(float(x), cren[-1][1]), (float(x), y)]
    cren.append((0.42, top + 0.06))
    eave = _u(rng, 0.54, 0.6)
    return [
        np.array(cren),
        poly((0.22, top + 0.06), (0.22, 0.84), (0.8, 0.84)),
        poly((0.42, top + 0.06), (0.42, 0.84)),
        poly((0.29, 0.42), (0.29, 0.36), (0.35, 0.36), (0.35, 0.42)),
        poly((0.42, eave), (0.6, eave - 0.18), (0.8, eave), (0.78, eave), (0.78, 0.84)),
        poly((0.56, 0.84), (0.56, 0.72), (0.64, 0.72), (0.64, 0.84)),
    ]


@_design("V", "skyline")
def _skyline(rng: np.random.Generator) -> list[Path]:
    """Three blocks of different heights, the middle one gabled, with little windows."""
    t0, t1, t2 = _u(rng, 0.42, 0.5), _u(rng, 0.3, 0.36), _u(rng, 0.5, 0.58)
    outline = poly(
        (0.16, 0.84), (0.16, t0), (0.38, t0), (0.38, t1), (0.49, t1 - 0.12), (0.6, t1), (0.6, t2),
        (0.84, t2), (0.84, 0.84), (0.16, 0.84),
    )
    paths = [outline, poly((0.38, t1), (0.38, 0.84)), poly((0.6, t2), (0.6, 0.84))]
    for x0, top in ((0.21, t0), (0.43, t1), (0.66, t2)):
        for dy in (0.07, 0.2):
            if top + dy + 0.06 < 0.8:
                paths.append(rect(x0, top + dy, x0 + 0.06, top + dy + 0.06))
                paths.append(rect(x0 + 0.1, top + dy, x0 + 0.16, top + dy + 0.06))
    return paths


@_design("V", "steeple")
def _steeple(rng: np.random.Generator) -> list[Path]:
    """A house with a tall pointed steeple tower at one end."""
    spire = _u(rng, 0.13, 0.17)
    return [
        rect(0.18, 0.56, 0.6, 0.84),
        poly((0.15, 0.58), (0.38, _u(rng, 0.36, 0.4)), (0.6, 0.52)),
        rect(0.6, 0.42, 0.78, 0.84),
        poly((0.58, 0.43), (0.69, spire), (0.8, 0.43)),
        poly((0.65, 0.84), (0.65, 0.7), (0.73, 0.7), (0.73, 0.84)),
        circle_path(0.69, 0.52, 0.03, n=10),
    ]


@_design("V", "perspective")
def _perspective(rng: np.random.Generator) -> list[Path]:
    """A house drawn in three-quarter view: gabled front, side wall going back, roof."""
    peak = _u(rng, 0.26, 0.32)
    back = _u(rng, 0.76, 0.82)
    return [
        poly((0.2, 0.5), (0.2, 0.84), (0.52, 0.84), (0.52, 0.5), (0.36, peak), (0.2, 0.5)),
        poly((0.52, 0.84), (back, 0.78), (back, 0.45), (0.52, 0.5)),
        poly((0.36, peak), (back - 0.16, peak - 0.06), (back, 0.45)),
        poly((0.31, 0.84), (0.31, 0.66), (0.41, 0.66), (0.41, 0.84)),
        poly((0.6, 0.56), (0.7, 0.54), (0.7, 0.64), (0.6, 0.66), (0.6, 0.56)),
    ]


@_design("V", "hamlet")
def _hamlet(rng: np.random.Generator) -> list[Path]:
    """A house in front of a smaller one; only what shows of the one behind."""
    lift = _u(rng, -0.03, 0.03)
    return [
        poly((0.6, 0.41 + lift), (0.69, 0.3 + lift), (0.84, 0.48 + lift)),
        poly((0.82, 0.47 + lift), (0.82, 0.74), (0.6, 0.74)),
        poly((0.14, 0.58), (0.38, 0.32), (0.62, 0.58)),
        poly((0.18, 0.56), (0.18, 0.86), (0.58, 0.86), (0.58, 0.56)),
        poly((0.34, 0.86), (0.34, 0.72), (0.43, 0.72), (0.43, 0.86)),
        rect(0.7, 0.55, 0.76, 0.61),
    ]


# --- farm ------------------------------------------------------------------------------------------


def _ear(stem_top: np.ndarray, direction: np.ndarray, grains: int, size: float) -> list[Path]:
    """Grains of a wheat ear as small leaning ovals in pairs up a stem, and one at the tip."""
    paths: list[Path] = []
    angle = float(np.arctan2(direction[1], direction[0]))
    for i in range(grains):
        p = stem_top - direction * (i * size * 1.5 + size * 0.9)
        for sign in (1.0, -1.0):
            tilt = angle + sign * 0.6
            c = p + np.array([np.cos(tilt), np.sin(tilt)]) * size * 0.9
            g = ellipse(float(c[0]), float(c[1]), size, size * 0.42, n=10)
            paths += turned([g], tilt, (float(c[0]), float(c[1])))
    tip = stem_top + direction * size * 0.6
    tc = (float(tip[0]), float(tip[1]))
    paths += turned([ellipse(tc[0], tc[1], size, size * 0.42, n=10)], angle, tc)
    return paths


@_design("P", "wheat")
def _wheat(rng: np.random.Generator) -> list[Path]:
    """Three wheat stalks, each topped with an ear of paired grains."""
    paths: list[Path] = []
    for x in (0.3, 0.5, 0.7):
        lean = _u(rng, -0.05, 0.05)
        top = np.array([x + lean, _u(rng, 0.3, 0.36)])
        foot = np.array([x, 0.86])
        d = (top - foot) / np.linalg.norm(top - foot)
        paths.append(np.stack([foot, top]))
        paths += _ear(top, d, 3, 0.04)
    return paths


@_design("P", "perspective_field")
def _perspective_field(rng: np.random.Generator) -> list[Path]:
    """A field going back to the horizon: a trapezoid with its furrows converging."""
    top = _u(rng, 0.28, 0.34)
    k = int(rng.integers(4, 7))
    paths = [poly((0.14, 0.84), (0.86, 0.84), (0.64, top), (0.36, top), (0.14, 0.84))]
    for f in np.linspace(0.0, 1.0, k + 1)[1:-1]:
        paths.append(poly((0.14 + 0.72 * f, 0.84), (0.36 + 0.28 * f, top)))
    return paths


@_design("P", "sprout_rows")
def _sprout_rows(rng: np.random.Generator) -> list[Path]:
    """Three ground lines, each with a row of two-leaved seedlings."""
    paths: list[Path] = []
    n = int(rng.integers(3, 5))
    for j, y in enumerate((0.38, 0.6, 0.82)):
        paths.append(poly((0.15, y), (0.85, y)))
        shift = 0.04 if j % 2 else 0.0
        for x in np.linspace(0.24, 0.76, n) + shift - 0.02:
            x = float(x)
            paths.append(poly((x, y), (x, y - 0.1)))
            paths.append(_bez((x, y - 0.05), (x - 0.05, y - 0.06), (x - 0.06, y - 0.12), 6))
            paths.append(_bez((x, y - 0.05), (x + 0.05, y - 0.06), (x + 0.06, y - 0.12), 6))
    return paths


@_design("P", "haystack")
def _haystack(rng: np.random.Generator) -> list[Path]:
    """A ragged-edged haystack with a pitchfork stuck in it."""
    h = _u(rng, 0.4, 0.46)
    base = 0.82
    t = np.linspace(np.pi, 2 * np.pi, 29)
    # a ragged rim: every other point pushed out, the way straw edges are scribbled
    rr = 1 + np.where(np.arange(29) % 2 == 0, 0.0, 0.07)
    rr[[0, -1]] = 1.0
    dome = np.stack([0.46 + 0.3 * rr * np.cos(t), base + h * rr * np.sin(t)], 1)
    paths = [dome, poly((0.14, base), (0.84, base))]
    for x in (0.3, 0.44, 0.58):  # a few straws on its face
        paths.append(poly((x, base - 0.05), (x + 0.04, base - 0.15)))
    # the pitchfork: its shaft leaning out of the stack, three tines at its head
    a = np.array([0.56, base - h * 0.6])
    b = np.array([0.8, _u(rng, 0.16, 0.2)])
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([-d[1], d[0]])
    paths.append(np.stack([a, b]))
    paths.append(np.stack([b - n * 0.05, b + n * 0.05]))
    paths += [np.stack([b + n * k * 0.05, b + n * k * 0.05 + d * 0.08]) for k in (-1, 0, 1)]
    return paths


@_design("P", "bundle")
def _bundle(rng: np.random.Generator) -> list[Path]:
    """A bundle of stalks tied at the waist, fanning out above and below, grains on top."""
    waist = _u(rng, 0.58, 0.62)
    k = int(rng.integers(5, 8))
    paths: list[Path] = []
    for f in np.linspace(-1.0, 1.0, k):
        top = (0.5 + 0.22 * f, 0.24 + 0.05 * f * f)
        paths.append(poly(top, (0.5 + 0.04 * f, waist), (0.5 + 0.15 * f, 0.86)))
        grain = (top[0], top[1] - 0.04)
        paths += turned([ellipse(grain[0], grain[1], 0.025, 0.05, n=10)], 0.5 * f, grain)
    paths.append(ellipse(0.5, waist, 0.08, 0.03, n=14))
    return paths


@_design("P", "patchwork")
def _patchwork(rng: np.random.Generator) -> list[Path]:
    """A square of four fields, each ploughed in its own direction."""
    a, b, m = 0.18, 0.82, _u(rng, 0.46, 0.54)
    paths = [rect(a, a, b, b), poly((m, a), (m, b)), poly((a, m), (b, m))]
    n = int(rng.integers(3, 5))
    for y in np.linspace(a, m, n + 2)[1:-1]:  # top left: rows
        paths.append(poly((a + 0.03, float(y)), (m - 0.03, float(y))))
    for x in np.linspace(m, b, n + 2)[1:-1]:  # top right: columns
        paths.append(poly((float(x), a + 0.03), (float(x), m - 0.03)))
    for x in np.linspace(a, m, n + 2)[1:-1]:  # bottom left: columns
        paths.append(poly((float(x), m + 0.03), (float(x), b - 0.03)))
    for y in np.linspace(m, b, n + 2)[1:-1]:  # bottom right: rows
        paths.append(poly((m + 0.03, float(y)), (b - 0.03, float(y))))
    return paths


@_design("P", "corn")
def _corn(rng: np.random.Generator) -> list[Path]:
    """A corn cob with a kernel grid, between two husk leaves."""
    ry = _u(rng, 0.24, 0.27)
    cy = 0.16 + ry
    paths = [ellipse(0.5, cy, 0.11, ry, n=22), poly((0.5, cy - ry * 0.9), (0.5, cy + ry * 0.9))]
    for y in np.linspace(cy - ry * 0.7, cy + ry * 0.7, 5):
        half = 0.11 * np.sqrt(max(0.0, 1 - ((y - cy) / ry) ** 2))
        paths.append(_bez((0.5 - half, float(y)), (0.5, float(y) + 0.025), (0.5 + half, float(y)), 7))
    foot = (0.5, 0.86)
    paths.append(_bez(foot, (0.3, 0.72), (0.28, 0.42), 10))
    paths.append(_bez(foot, (0.72, 0.72), (0.73, 0.46), 10))
    return paths


@_design("P", "fence")
def _fence(rng: np.random.Generator) -> list[Path]:
    """A picket fence with crop tufts growing behind it."""
    paths: list[Path] = []
    k = int(rng.integers(4, 6))
    for x in np.linspace(0.2, 0.8, k):
        x = float(x)
        paths.append(poly((x - 0.03, 0.86), (x - 0.03, 0.6), (x, 0.55), (x + 0.03, 0.6), (x + 0.03, 0.86)))
    paths += [poly((0.15, 0.66), (0.85, 0.66)), poly((0.15, 0.78), (0.85, 0.78))]
    for x in np.linspace(0.26, 0.74, k - 1):
        x = float(x)
        h = _u(rng, 0.22, 0.28)
        paths += [poly((x, 0.5), (x - 0.05, 0.5 - h)), poly((x, 0.5), (x, 0.46 - h))]
        paths.append(poly((x, 0.5), (x + 0.05, 0.5 - h)))
    return paths


@_design("P", "grain_ear")
def _grain_ear(rng: np.random.Generator) -> list[Path]:
    """One big ear of barley on a bending stalk, whiskers rising from its top grains."""
    paths: list[Path] = [_bez((0.5, 0.88), (0.5 + _u(rng, -0.06, 0.06), 0.72), (0.5, 0.56), 10)]
    size = 0.055
    for i in range(4):
        y = 0.54 - i * 0.085
        for sign in (1.0, -1.0):
            c = (0.5 + sign * 0.05, y - 0.03)
            paths += turned([ellipse(c[0], c[1], size * 0.45, size, n=10)], sign * 0.4, c)
        if i == 3:  # the awns of the top pair, splaying up and out
            for sign in (1.0, -1.0):
                paths.append(poly((0.5 + sign * 0.06, y - 0.08), (0.5 + sign * 0.14, y - 0.22)))
    paths.append(ellipse(0.5, 0.2, size * 0.45, size, n=10))
    paths.append(poly((0.5, 0.145), (0.5, 0.12)))
    return turned(paths, _u(rng, -0.15, 0.15))


# --- water -----------------------------------------------------------------------------------------


@_design("W", "scallops")
def _scallops(rng: np.random.Generator) -> list[Path]:
    """Staggered rows of little arches, like the sea on an old map."""
    paths: list[Path] = []
    w = _u(rng, 0.15, 0.17)
    for j, y in enumerate((0.36, 0.56, 0.76)):
        x0 = 0.17 + (w / 2 if j % 2 else 0.0)
        count = int((0.84 - x0) // w)
        row = [ellipse(x0 + w * (i + 0.5), y, w / 2, w * 0.45, np.pi, 2 * np.pi, n=8) for i in range(count)]
        paths.append(np.vstack(row))
    return paths


@_design("W", "teardrop")
def _teardrop_design(rng: np.random.Generator) -> list[Path]:
    """A big water drop with a highlight on its lower side."""
    h = _u(rng, 0.64, 0.7)
    tip = 0.5 - h / 2
    return [
        _teardrop(0.5, tip, h, _u(rng, 0.27, 0.31), n=30),
        ellipse(0.5, tip + h * 0.62, 0.15, 0.15, np.pi * 0.65, np.pi * 0.95, n=6),
    ]


@_design("W", "breaker")
def _breaker(rng: np.random.Generator) -> list[Path]:
    """A big wave curling over, with a flat swell below."""
    crest = (_u(rng, 0.5, 0.56), _u(rng, 0.2, 0.24))
    face = _bez((0.15, 0.78), (0.3, crest[1] - 0.02), crest, 14)
    curl = _bez(crest, (0.76, 0.24), (0.68, 0.42), 8)
    hook = _bez((0.68, 0.42), (0.6, 0.46), (0.6, 0.38), 5)
    back = _bez((0.64, 0.36), (0.72, 0.62), (0.86, 0.76), 10)
    return [np.vstack([face, curl[1:], hook[1:]]), back, wave(0.15, 0.86, 0.84, 0.02, 2.5, n=20)]


@_design("W", "pond")
def _pond(rng: np.random.Generator) -> list[Path]:
    """An oval pond with ripples, reeds with cattails at one side."""
    cy = _u(rng, 0.6, 0.64)
    paths = [
        ellipse(0.52, cy, 0.32, 0.18, n=28),
        wave(0.38, 0.6, cy - 0.04, 0.015, 1.5, 10),
        wave(0.46, 0.7, cy + 0.06, 0.015, 1.5, 10),
    ]
    for x, top in ((0.2, 0.24), (0.27, 0.3)):
        paths.append(poly((x + 0.02, cy - 0.04), (x, top + 0.08)))
        paths.append(ellipse(x, top + 0.04, 0.018, 0.045, n=10))
    return paths


@_design("W", "jumping_fish")
def _jumping_fish(rng: np.random.Generator) -> list[Path]:
    """A fish leaping out of a wave, drops splashing below it."""
    body = ellipse(0.5, 0.4, 0.18, 0.08, n=20)
    tail = poly((0.32, 0.4), (0.22, 0.32), (0.22, 0.48), (0.32, 0.4))
    eye = circle_path(0.6, 0.38, 0.015, n=8)
    fish = turned([body, tail, eye], _u(rng, -0.5, -0.3), (0.5, 0.4))
    return [
        *fish,
        wave(0.14, 0.86, 0.72, 0.04, 2.0, n=22),
        poly((0.44, 0.62), (0.4, 0.56)),
        poly((0.5, 0.6), (0.5, 0.53)),
        poly((0.56, 0.62), (0.6, 0.56)),
    ]


@_design("W", "splash")
def _splash(rng: np.random.Generator) -> list[Path]:
    """A drop falling into two rings of ripples."""
    cy = _u(rng, 0.68, 0.72)
    return [
        _teardrop(0.5, 0.14, 0.24, 0.1, n=20),
        ellipse(0.5, cy, 0.34, 0.12, n=26),
        ellipse(0.5, cy, 0.18, 0.06, n=18),
    ]


@_design("W", "anchor")
def _anchor(rng: np.random.Generator) -> list[Path]:
    """A ship's anchor: ring, shank, stock and curved arms with flukes."""
    arm = _u(rng, 0.24, 0.28)
    return [
        circle_path(0.5, 0.2, 0.055, n=12),
        poly((0.5, 0.255), (0.5, 0.84)),
        poly((0.38, 0.36), (0.62, 0.36)),
        ellipse(0.5, 0.6, arm, 0.24, 0.0, np.pi, n=18),
        poly((0.5 + arm - 0.06, 0.56), (0.5 + arm, 0.6), (0.5 + arm + 0.04, 0.53)),
        poly((0.5 - arm + 0.06, 0.56), (0.5 - arm, 0.6), (0.5 - arm - 0.04, 0.53)),
    ]


@_design("W", "tildes")
def _tildes(rng: np.random.Generator) -> list[Path]:
    """Short wavy marks scattered in staggered rows."""
    paths: list[Path] = []
    for j, y in enumerate((0.3, 0.5, 0.7)):
        xs = (0.18, 0.52) if j % 2 == 0 else (0.3, 0.62)
        for x in xs:
            w = _u(rng, 0.18, 0.22)
            paths.append(wave(x, min(x + w, 0.86), y + _u(rng, -0.02, 0.02), 0.035, 1.0, n=12))
    return paths


@_design("W", "creek")
def _creek(rng: np.random.Generator) -> list[Path]:
    """A winding stream crossing the cell: two banks and a ripple in the flow."""
    amp = _u(rng, 0.04, 0.06)
    banks = [wave(0.14, 0.86, 0.41, amp, 1.0, n=22), wave(0.14, 0.86, 0.59, amp, 1.0, n=22)]
    flow = [wave(0.3, 0.48, 0.5, 0.02, 1.0, n=8), wave(0.56, 0.72, 0.5, 0.02, 1.0, n=8)]
    return turned(banks + flow, _u(rng, 0.5, 0.8))


# --- monster ---------------------------------------------------------------------------------------


@_design("M", "grin")
def _grin(rng: np.random.Generator) -> list[Path]:
    """A round head with angry brows and a mouth full of pointed teeth."""
    r = _u(rng, 0.3, 0.33)
    teeth = int(rng.integers(4, 7))
    return [
        circle_path(0.5, 0.5, r, n=28),
        poly((0.32, 0.34), (0.45, 0.41)),
        poly((0.68, 0.34), (0.55, 0.41)),
        circle_path(0.41, 0.46, 0.03, n=8),
        circle_path(0.59, 0.46, 0.03, n=8),
        poly((0.3, 0.6), (0.7, 0.6)),
        zigzag(0.3, 0.7, 2 * teeth + 1, 0.6, 0.6 + 0.08),  # teeth pointing down
        _bez((0.3, 0.6), (0.5, 0.8), (0.7, 0.6), 12),
    ]


@_design("M", "slime")
def _slime(rng: np.random.Generator) -> list[Path]:
    """A dripping blob with two goggling eyes and an open mouth."""
    dome = ellipse(0.5, 0.56, 0.3, 0.36, np.pi, 2 * np.pi, n=20)
    drips = [int(i) for i in rng.choice(5, size=2, replace=False)]
    bottom = [(0.8, 0.56), (0.8, 0.7)]
    for i, x in enumerate(np.linspace(0.8, 0.2, 6)[1:]):
        xm = float(x) + 0.06
        if i in drips:
            bottom += [(xm + 0.03, 0.7), (xm + 0.02, 0.82), (xm - 0.02, 0.82), (xm - 0.03, 0.7)]
        else:
            bottom += [(xm, 0.74)]
        bottom.append((float(x), 0.7))
    bottom.append((0.2, 0.56))
    body = np.vstack([dome, np.array(bottom[1:])])
    return [
        body,
        circle_path(0.4, 0.42, 0.06, n=12),
        circle_path(0.61, 0.42, 0.06, n=12),
        circle_path(0.41, 0.43, 0.015, n=6),
        circle_path(0.6, 0.43, 0.015, n=6),
        ellipse(0.5, 0.58, 0.08, _u(rng, 0.04, 0.06), n=14),
    ]


@_design("M", "devil")
def _devil(rng: np.random.Generator) -> list[Path]:
    """A face with curved horns, slanted eyes and a smile with two fangs."""
    horn = _u(rng, 0.13, 0.17)
    horns: list[Path] = []
    for sign in (-1.0, 1.0):
        # each horn one stroke: up the outer curve to its point, back down the inner one
        outer = _bez((0.5 + sign * 0.17, 0.4), (0.5 + sign * 0.28, 0.32), (0.5 + sign * 0.26, horn), 7)
        inner = _bez((0.5 + sign * 0.26, horn), (0.5 + sign * 0.2, 0.3), (0.5 + sign * 0.09, 0.32))
        horns.append(np.vstack([outer, inner]))
    return [
        ellipse(0.5, 0.57, 0.25, 0.27, n=26),
        *horns,
        poly((0.36, 0.48), (0.46, 0.53), (0.38, 0.54), (0.36, 0.48)),
        poly((0.64, 0.48), (0.54, 0.53), (0.62, 0.54), (0.64, 0.48)),
        _bez((0.34, 0.64), (0.5, 0.76), (0.66, 0.64), 12),
        poly((0.42, 0.68), (0.44, 0.75), (0.46, 0.7)),
        poly((0.58, 0.68), (0.56, 0.75), (0.54, 0.7)),
    ]


@_design("M", "serpent")
def _serpent(rng: np.random.Generator) -> list[Path]:
    """A spiny serpent rearing up, with an eye and a forked tongue."""
    s = np.linspace(0.0, 1.0, 24)
    wig = _u(rng, 0.07, 0.11)
    body = np.stack([0.18 + 0.46 * s, 0.82 - 0.46 * s + wig * np.sin(2 * np.pi * s)], 1)
    head = body[-1]
    paths: list[Path] = [body]
    for i in range(3, 21, 3):
        p, tangent = body[i], body[i + 1] - body[i - 1]
        tangent = tangent / np.linalg.norm(tangent)
        nrm = np.array([tangent[1], -tangent[0]])  # the left of travel: the back, up-left
        paths.append(np.stack([p - tangent * 0.03, p + nrm * 0.06, p + tangent * 0.03]))
    hx, hy = float(head[0]) + 0.06, float(head[1])
    paths += [
        ellipse(hx, hy, 0.09, 0.06, n=16),
        circle_path(hx + 0.02, hy - 0.02, 0.012, n=6),
        poly((hx + 0.09, hy + 0.01), (hx + 0.15, hy + 0.01)),
        poly((hx + 0.19, hy - 0.02), (hx + 0.15, hy + 0.01), (hx + 0.19, hy + 0.04)),
    ]
    return paths


@_design("M", "spider")
def _spider(rng: np.random.Generator) -> list[Path]:
    """A round-bodied spider: body, head, eight bent legs and fangs."""
    spread = _u(rng, 0.9, 1.1)
    paths: list[Path] = [circle_path(0.5, 0.58, 0.13, n=18), circle_path(0.5, 0.38, 0.075, n=12)]
    for i, y in enumerate(np.linspace(0.5, 0.66, 4)):
        y = float(y)
        knee_y = y - 0.12 + 0.05 * i
        foot_y = min(0.86, y + 0.06 + 0.05 * i)
        for sign in (1.0, -1.0):
            paths.append(
                poly(
                    (0.5 + sign * 0.11, y),
                    (0.5 + sign * 0.25 * spread, knee_y),
                    (0.5 + sign * 0.35 * spread, foot_y),
                )
            )
    paths += [poly((0.47, 0.45), (0.46, 0.5)), poly((0.53, 0.45), (0.54, 0.5))]
    paths += [circle_path(0.47, 0.36, 0.012, n=6), circle_path(0.53, 0.36, 0.012, n=6)]
    return paths


@_design("M", "alien")
def _alien(rng: np.random.Generator) -> list[Path]:
    """A blob with three eyes on stalks and a jagged mouth."""
    paths: list[Path] = [ellipse(0.5, 0.64, 0.27, 0.2, n=24)]
    for bx, tx, ty in ((0.4, 0.3, 0.24), (0.5, 0.5, _u(rng, 0.18, 0.22)), (0.6, 0.7, 0.24)):
        paths.append(_bez((bx, 0.46), (bx + (tx - bx) * 0.2, (0.46 + ty) / 2), (tx, ty + 0.05), 6))
        paths.append(circle_path(tx, ty, 0.05, n=12))
        paths.append(circle_path(tx, ty, 0.015, n=6))
    paths.append(zigzag(0.38, 0.62, 2 * 4 + 1, 0.68, 0.68 + 0.05))
    return paths


@_design("M", "goblin")
def _goblin(rng: np.random.Generator) -> list[Path]:
    """A goblin face: long pointed ears, slit eyes, hooked nose, tusks."""
    ear = _u(rng, 0.14, 0.18)
    return [
        ellipse(0.5, 0.55, 0.2, 0.26, n=26),
        poly((0.31, 0.46), (ear, 0.32), (0.31, 0.6)),
        poly((0.69, 0.46), (1 - ear, 0.32), (0.69, 0.6)),
        poly((0.37, 0.44), (0.46, 0.48)),
        poly((0.63, 0.44), (0.54, 0.48)),
        poly((0.5, 0.5), (0.46, 0.6), (0.52, 0.6)),
        _bez((0.38, 0.66), (0.5, 0.74), (0.62, 0.66), 10),
        poly((0.42, 0.69), (0.42, 0.62)),
        poly((0.58, 0.69), (0.58, 0.62)),
    ]


@_design("M", "chomp")
def _chomp(rng: np.random.Generator) -> list[Path]:
    """A wide open mouth: two lips and rows of fangs top and bottom."""
    gape = _u(rng, 0.22, 0.26)
    teeth = int(rng.integers(4, 6))
    u = np.linspace(0.0, 1.0, 25)
    x = 0.16 + 0.68 * u
    upper = np.stack([x, 0.5 - gape * np.sin(np.pi * u)], 1)
    lower = np.stack([x, 0.5 + gape * np.sin(np.pi * u)], 1)

    def fangs(edge: Path, sign: float, offset: float) -> Path:
        # teeth hang from the lip towards the middle, shortest at the corners where the lips meet
        ks = np.linspace(0.08 + offset, 0.92 - offset, 2 * teeth + 1)
        pts = []
        for i, k in enumerate(ks):
            ex = 0.16 + 0.68 * k
            ey = 0.5 + sign * gape * np.sin(np.pi * k)
            depth = 0.6 * gape * np.sin(np.pi * k) if i % 2 else 0.0
            pts.append((ex, ey - sign * depth))
        return np.array(pts)

    return [upper, lower, fangs(upper, -1.0, 0.0), fangs(lower, 1.0, 0.05)]


# --- hero ------------------------------------------------------------------------------------------


def _sword(length: float, guard: float) -> list[Path]:
    """An upright sword centred on (0.5, 0.5), tip up: blade outline, crossguard, grip, pommel."""
    tip = 0.5 - length / 2
    hilt = tip + length * 0.72
    return [
        poly((0.48, hilt), (0.48, tip + 0.06), (0.5, tip), (0.52, tip + 0.06), (0.52, hilt)),
        poly((0.5 - guard, hilt), (0.5 + guard, hilt)),
        poly((0.5, hilt), (0.5, tip + length - 0.03)),
        circle_path(0.5, tip + length - 0.015, 0.018, n=8),
    ]


@_design("H", "stick_sword")
def _stick_sword(rng: np.random.Generator) -> list[Path]:
    """A stick figure raising a sword."""
    hand = (_u(rng, 0.6, 0.64), _u(rng, 0.3, 0.34))
    return [
        circle_path(0.42, 0.25, 0.07, n=14),
        poly((0.42, 0.32), (0.42, 0.6)),
        poly((0.32, 0.86), (0.42, 0.6), (0.52, 0.86)),
        poly((0.42, 0.4), (0.3, 0.54)),
        poly((0.42, 0.4), hand),
        poly(hand, (hand[0] + 0.12, hand[1] - 0.17)),
        poly((hand[0] - 0.04, hand[1] - 0.04), (hand[0] + 0.05, hand[1] + 0.03)),
    ]


@_design("H", "crossed_swords")
def _crossed_swords(rng: np.random.Generator) -> list[Path]:
    """Two swords crossed in an X."""
    length = _u(rng, 0.66, 0.72)
    angle = _u(rng, 0.65, 0.8)
    sword = _sword(length, 0.08)
    return turned(sword, angle) + turned(sword, -angle)


@_design("H", "crest")
def _crest(rng: np.random.Generator) -> list[Path]:
    """A knight's shield with a chevron on it."""
    side = _u(rng, 0.48, 0.54)
    outline = np.vstack([
        poly((0.24, side), (0.24, 0.18), (0.76, 0.18), (0.76, side)),
        _bez((0.76, side), (0.76, 0.76), (0.5, 0.86), 10)[1:],
        _bez((0.5, 0.86), (0.24, 0.76), (0.24, side), 10)[1:],
    ])
    chevrons = [poly((0.32, 0.56), (0.5, 0.38), (0.68, 0.56)), poly((0.36, 0.64), (0.5, 0.5), (0.64, 0.64))]
    return [outline, *chevrons]


@_design("H", "star")
def _star(rng: np.random.Generator) -> list[Path]:
    """A five-pointed star, as an outline or as the one-stroke pentagram."""
    r = _u(rng, 0.33, 0.36)
    cy = 0.15 + r
    ang = -np.pi / 2 + np.arange(5) * 2 * np.pi / 5
    outer = np.stack([0.5 + r * np.cos(ang), cy + r * np.sin(ang)], 1)
    if rng.random() < 0.5:
        return [outer[[0, 2, 4, 1, 3, 0]]]
    inner = np.stack([0.5 + 0.4 * r * np.cos(ang + np.pi / 5), cy + 0.4 * r * np.sin(ang + np.pi / 5)], 1)
    pts = np.empty((11, 2))
    pts[0:10:2], pts[1:10:2], pts[10] = outer, inner, outer[0]
    return [pts]


@_design("H", "spear_guard")
def _spear_guard(rng: np.random.Generator) -> list[Path]:
    """A stick figure standing guard: a round shield on one arm, a tall spear in the other hand."""
    sx = _u(rng, 0.68, 0.72)
    return [
        circle_path(0.48, 0.24, 0.07, n=14),
        poly((0.48, 0.31), (0.48, 0.62)),
        poly((0.38, 0.86), (0.48, 0.62), (0.58, 0.86)),
        poly((0.48, 0.4), (sx, 0.46)),
        poly((0.48, 0.4), (0.36, 0.5)),
        circle_path(0.33, 0.52, _u(rng, 0.1, 0.12), n=18),
        poly((sx, 0.86), (sx, 0.24)),
        poly((sx - 0.04, 0.25), (sx, 0.14), (sx + 0.04, 0.25), (sx - 0.04, 0.25)),
    ]


@_design("H", "sword_shield")
def _sword_shield(rng: np.random.Generator) -> list[Path]:
    """A round shield with a boss, a sword showing behind it."""
    r = _u(rng, 0.17, 0.19)
    cx, cy = 0.38, 0.6
    # tip down behind the shield: the hilt shows above it, the point below
    sword = turned(_sword(0.84, 0.1), np.pi + _u(rng, 0.6, 0.7), (0.5, 0.5))
    paths: list[Path] = [circle_path(cx, cy, r, n=24), circle_path(cx, cy, 0.04, n=10)]
    for p in sword:
        paths += _outside_circle(p, cx, cy, r + 0.01)
    return paths


@_design("H", "broadsword")
def _broadsword(rng: np.random.Generator) -> list[Path]:
    """One big upright sword: wide blade with a fuller, curled crossguard, wrapped grip."""
    w = _u(rng, 0.06, 0.075)
    top, hilt = 0.14, _u(rng, 0.62, 0.66)
    paths = [
        poly((0.5 - w, hilt), (0.5 - w, top + 0.1), (0.5, top), (0.5 + w, top + 0.1), (0.5 + w, hilt)),
        poly((0.5, top + 0.12), (0.5, hilt - 0.04)),
        np.vstack([
            _bez((0.26, hilt - 0.05), (0.26, hilt + 0.02), (0.34, hilt + 0.01), 5),
            poly((0.66, hilt + 0.01)),
            _bez((0.66, hilt + 0.01), (0.74, hilt + 0.02), (0.74, hilt - 0.05), 5),
        ]),
        poly((0.47, hilt + 0.02), (0.47, 0.8), (0.53, 0.8), (0.53, hilt + 0.02)),
        circle_path(0.5, 0.84, 0.03, n=10),
    ]
    for y in np.linspace(hilt + 0.06, 0.76, 3):
        paths.append(poly((0.47, float(y)), (0.53, float(y) - 0.03)))
    return paths


# --- the table -------------------------------------------------------------------------------------

#: Terrain symbol -> the names of its outsider designs, in the order they were drawn.
OUTSIDER_DESIGNS: dict[str, tuple[str, ...]] = {t: tuple(d) for t, d in _DESIGNS.items()}


def outsider_key(terrain: str, name: str) -> str:
    """The variant key of design ``name`` of ``terrain`` (``out:<terrain>:<name>``)."""
    return f"{PREFIX}{terrain}:{name}"


def is_outsider(variant: str) -> bool:
    """Whether ``variant`` names an outsider design (its key starts with ``out:``)."""
    return variant.startswith(PREFIX)


def outsider_paths(variant: str, rng: np.random.Generator) -> list[Path]:
    """Strokes of outsider design ``variant`` (``out:<terrain>:<name>``), in cell-local units.

    Raises
    ------
    ValueError
        ``variant`` is not a key of a design in :data:`OUTSIDER_DESIGNS`.
    """
    parts = variant.split(":")
    if len(parts) != 3 or parts[0] + ":" != PREFIX or parts[2] not in _DESIGNS.get(parts[1], {}):
        raise ValueError(f"no outsider design {variant!r}: expected out:<terrain>:<name> of OUTSIDER_DESIGNS")
    return _DESIGNS[parts[1]][parts[2]](rng)


__all__ = ["OUTSIDER_DESIGNS", "PREFIX", "is_outsider", "outsider_key", "outsider_paths"]
