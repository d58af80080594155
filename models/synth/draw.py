"""What players draw on the sheet: terrain fills and icons, piece outlines, X, hit marks, coins, scores.

Every function takes the :class:`~models.synth.strokes.Canvas`, the page layout (cell units to pixels)
and a random generator, and draws strokes; nothing here decides *what* the truth is, only how it looks.
Shapes are written in cell-local units (0..1 across one cell) and mapped to pixels at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import cv2
import numpy as np

from models.synth.printed import Layout
from models.synth.strokes import Canvas, Layer, clip_segment, jitter_path
from models.synth.style import DrawStyle, Hand, TerrainLook
from scanner.geometry import GRID_SIZE, geometry

Cell = tuple[int, int]
Path = np.ndarray  # (N, 2) points in cell-local units

# ------------------------------------------------------------------------------------------- icons


def _circle_path(cx: float, cy: float, r: float, n: int = 14, bump: float = 0.0, start: float = 0.0) -> Path:
    t = np.linspace(start, start + 2 * np.pi, n + 1)
    rr = r * (1 + bump * np.sin(t * 5))
    return np.stack([cx + rr * np.cos(t), cy + rr * np.sin(t)], 1)


def _wave(x0: float, x1: float, y: float, amp: float, periods: float, n: int = 16) -> Path:
    x = np.linspace(x0, x1, n)
    return np.stack([x, y + amp * np.sin((x - x0) / (x1 - x0) * periods * 2 * np.pi)], 1)


def _ellipse(
    cx: float, cy: float, rx: float, ry: float, t0: float = 0.0, t1: float = 2 * np.pi, n: int = 16
) -> Path:
    t = np.linspace(t0, t1, n)
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)


def _poly(*pts: tuple[float, float]) -> Path:
    return np.array(pts, float)


IconMaker = Callable[[np.random.Generator], list[Path]]
#: Training-only icon variants, keyed by (terrain, variant); the original two per terrain and the
#: held-out eval ones are drawn inline in :func:`icon_paths`.
_MORE_ICONS: dict[tuple[str, str], IconMaker] = {}


def _icon(terrain: str, variant: str) -> Callable[[IconMaker], IconMaker]:
    def register(fn: IconMaker) -> IconMaker:
        _MORE_ICONS[(terrain, variant)] = fn
        return fn

    return register


# forest: broadleaf trees and bushes (never stacked triangles: that is the held-out pine)
@_icon("F", "oval")
def _forest_oval(rng: np.random.Generator) -> list[Path]:
    ry = rng.uniform(0.2, 0.25)
    t0 = rng.uniform(0, 6)
    crown = _ellipse(0.5, 0.17 + ry, rng.uniform(0.17, 0.22), ry, t0, t0 + 2 * np.pi, n=18)
    crown = np.vstack([crown, crown[:2]])
    top = 0.17 + 2 * ry
    fork = top + 0.02
    return [
        crown,
        _poly((0.5, fork - 0.2), (0.5, 0.88)),
        _poly((0.5, fork - 0.08), (0.41, fork - 0.2)),
        _poly((0.5, fork - 0.04), (0.6, fork - 0.17)),
    ]


@_icon("F", "bush")
def _forest_bush(rng: np.random.Generator) -> list[Path]:
    bumps = int(rng.integers(3, 6))
    t = np.linspace(np.pi, 2 * np.pi, 8 * bumps + 1)
    rad = 1 + 0.16 * np.abs(np.sin((t - np.pi) * bumps))
    base = rng.uniform(0.7, 0.78)
    dome = np.stack([0.5 + 0.34 * rad * np.cos(t), base + 0.36 * rad * np.sin(t)], 1)
    paths = [dome, _poly((0.13, base + 0.02), (0.87, base + rng.normal(0.02, 0.01)))]
    if rng.random() < 0.5:  # a short stem or two under the leaves
        for x in rng.uniform(0.4, 0.6, 2):
            paths.append(_poly((x, base + 0.02), (x + rng.normal(0, 0.02), base + 0.09)))
    return paths


@_icon("F", "bare")
def _forest_bare(rng: np.random.Generator) -> list[Path]:
    lean = rng.normal(0, 0.03)
    paths = [_poly((0.5, 0.88), (0.5 + lean, 0.2))]
    for y, side in ((0.62, -1), (0.52, 1), (0.42, -1), (0.34, 1)):
        x = 0.5 + lean * (0.88 - y) / 0.68
        tip = (x + side * rng.uniform(0.2, 0.28), y - rng.uniform(0.12, 0.2))
        paths.append(_poly((x, y), ((x + tip[0]) / 2, (y + tip[1]) / 2 + 0.03), tip))
    paths.append(_poly((0.44, 0.88), (0.5, 0.8), (0.56, 0.88)))  # roots
    return paths


@_icon("F", "twin")
def _forest_twin(rng: np.random.Generator) -> list[Path]:
    paths = []
    for x, r, ground in ((0.34, rng.uniform(0.15, 0.18), 0.84), (0.69, rng.uniform(0.11, 0.13), 0.8)):
        cy = ground - 0.18 - r
        crown = _circle_path(x, cy, r, 16, 0.08, rng.uniform(0, 6))
        paths += [
            crown,
            _poly((x - 0.02, cy + r), (x - 0.02, ground)),
            _poly((x + 0.02, cy + r), (x + 0.02, ground)),
        ]
    return paths


@_icon("F", "grove")
def _forest_grove(rng: np.random.Generator) -> list[Path]:
    paths = []
    spots = [(0.27, 0.4), (0.5, 0.34), (0.73, 0.4), (0.38, 0.7), (0.63, 0.7)]
    for x, y in spots[: int(rng.integers(4, 6))]:
        r = rng.uniform(0.08, 0.1)
        arch = _ellipse(x, y, r, r * 1.2, np.pi * 0.8, np.pi * 2.2, 12)  # a round crown, open at the foot
        paths += [arch, _poly((x, y - 0.02), (x, y + 0.15))]
    return paths


# village: buildings with straight doors and square windows (never a round door: that is the held-out hut)
@_icon("V", "cottage")
def _village_cottage(rng: np.random.Generator) -> list[Path]:
    peak = rng.uniform(0.18, 0.26)
    return [
        _poly((0.2, 0.5), (0.5, peak), (0.8, 0.5)),
        _poly((0.28, 0.46), (0.28, 0.82), (0.72, 0.82), (0.72, 0.46)),
        _poly((0.5, 0.82), (0.5, 0.62), (0.62, 0.62), (0.62, 0.82)),
        _poly((0.34, 0.56), (0.44, 0.56), (0.44, 0.66), (0.34, 0.66), (0.34, 0.56)),
    ]


@_icon("V", "pair")
def _village_pair(rng: np.random.Generator) -> list[Path]:
    paths = []
    for x0, w, base in ((0.16, 0.32, 0.8), (0.54, 0.3, 0.84)):
        wall = base - rng.uniform(0.2, 0.26)
        peak = wall - rng.uniform(0.14, 0.2)
        paths.append(
            _poly((x0, base), (x0, wall), (x0 + w / 2, peak), (x0 + w, wall), (x0 + w, base), (x0, base))
        )
        d = x0 + w / 2
        paths.append(
            _poly((d - 0.04, base), (d - 0.04, base - 0.1), (d + 0.04, base - 0.1), (d + 0.04, base))
        )
    return paths


@_icon("V", "tower")
def _village_tower(rng: np.random.Generator) -> list[Path]:
    x0, x1 = 0.36, 0.64
    top = rng.uniform(0.24, 0.3)
    w = (x1 - x0) / 5
    crenel = [(x0, top)]
    for k in range(5):
        y = top - 0.07 if k % 2 == 0 else top
        crenel += [(x0 + k * w, y), (x0 + (k + 1) * w, y)]
    crenel.append((x1, top))
    return [
        _poly((x0, 0.86), *crenel, (x1, 0.86), (x0, 0.86)),
        _poly((0.45, 0.86), (0.45, 0.72), (0.55, 0.72), (0.55, 0.86)),
        _poly((0.5, top + 0.1), (0.5, top + 0.2)),
    ]


@_icon("V", "church")
def _village_church(rng: np.random.Generator) -> list[Path]:
    return [
        _poly((0.16, 0.84), (0.16, 0.56), (0.32, 0.42), (0.56, 0.42)),
        _poly((0.56, 0.84), (0.16, 0.84)),
        _poly((0.56, 0.84), (0.56, 0.38), (0.66, 0.22), (0.76, 0.38), (0.76, 0.84), (0.56, 0.84)),
        _poly((0.66, 0.22), (0.66, 0.12)),
        _poly((0.62, 0.15), (0.7, 0.15)),
        _poly((0.3, 0.84), (0.3, 0.68), (0.4, 0.68), (0.4, 0.84)),
    ]


@_icon("V", "chimney")
def _village_chimney(rng: np.random.Generator) -> list[Path]:
    eave = rng.uniform(0.44, 0.5)
    return [
        _poly((0.18, eave), (0.5, 0.2), (0.82, eave), (0.18, eave)),
        _poly((0.28, eave), (0.28, 0.84), (0.72, 0.84), (0.72, eave)),
        _poly((0.62, 0.3), (0.62, 0.18), (0.7, 0.18), (0.7, 0.37)),
        _poly((0.36, 0.6), (0.46, 0.6), (0.46, 0.7), (0.36, 0.7), (0.36, 0.6)),
        _poly((0.54, 0.6), (0.64, 0.6), (0.64, 0.7), (0.54, 0.7), (0.54, 0.6)),
    ]


# farm: crops and ploughed ground (strokes and grains, never a grid of dots: that is held out)
@_icon("P", "wheat")
def _farm_wheat(rng: np.random.Generator) -> list[Path]:
    xs = (0.5,) if rng.random() < 0.4 else (0.3, 0.5, 0.7)
    g = 1.0 if len(xs) == 1 else 0.7
    paths = []
    for x in xs:
        top = 0.16 + rng.uniform(0, 0.05)
        paths.append(_poly((x, top), (x + rng.normal(0, 0.01), 0.86)))
        for k in range(4):
            y = top + 0.06 + k * 0.1 * g
            for side in (-1, 1):
                e = _ellipse(0, 0, 0.05 * g, 0.017 * g, n=10)
                a = np.deg2rad(-side * 55)
                rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
                paths.append(e @ rot.T + (x + side * 0.035 * g, y))
    return paths


@_icon("P", "stubble")
def _farm_stubble(rng: np.random.Generator) -> list[Path]:
    paths = []
    rows = np.linspace(0.28, 0.74, int(rng.integers(2, 4)))
    for i, y in enumerate(rows):
        for x in np.linspace(0.22, 0.78, 4)[: 4 - i % 2] + (0.09 if i % 2 else 0):
            h = rng.uniform(0.15, 0.2)
            paths.append(_poly((x, y + h / 2), (x + rng.normal(0.01, 0.01), y - h / 2)))
    return paths


@_icon("P", "furrows")
def _farm_furrows(rng: np.random.Generator) -> list[Path]:
    horizon = rng.uniform(0.2, 0.3)
    paths = [_poly((0.14, horizon), (0.86, horizon))]
    for k in np.linspace(-2, 2, 5):
        paths.append(_poly((0.5 + k * 0.06, horizon), (0.5 + k * 0.17, 0.86)))
    return paths


@_icon("P", "contour")
def _farm_contour(rng: np.random.Generator) -> list[Path]:
    corner = rng.choice(4)
    cx, cy = (0.12, 0.88) if corner < 2 else (0.88, 0.88)
    t0, t1 = (-np.pi / 2, 0.0) if cx < 0.5 else (np.pi, 1.5 * np.pi)
    paths = []
    for rad in np.linspace(0.25, 0.7, int(rng.integers(4, 6))):
        arc = _ellipse(cx, cy, rad, rad, t0, t1, 14)
        paths.append(arc[(arc[:, 0] > 0.12) & (arc[:, 0] < 0.88) & (arc[:, 1] > 0.12)])
    return [p for p in paths if len(p) >= 2]


@_icon("P", "sheaf")
def _farm_sheaf(rng: np.random.Generator) -> list[Path]:
    paths = []
    waist = rng.uniform(0.5, 0.58)
    for k in np.linspace(-1, 1, int(rng.integers(5, 8))):
        paths.append(
            _poly((0.5 + k * 0.2, 0.2 + abs(k) * 0.06), (0.5 + k * 0.04, waist), (0.5 + k * 0.14, 0.86))
        )
    paths.append(_poly((0.4, waist - 0.03), (0.6, waist + 0.03)))
    return paths


# water: fish, drops, rivers and ponds (never a spiral: that is held out)
@_icon("W", "fish")
def _water_fish(rng: np.random.Generator) -> list[Path]:
    y = rng.uniform(0.42, 0.5)
    body = _ellipse(0.45, y, 0.24, 0.13, 0.25, 2 * np.pi - 0.25, 20)
    paths = [
        body,
        _poly(tuple(body[0]), (0.85, y + 0.13), (0.85, y - 0.13), tuple(body[-1])),
        _poly((0.3, y - 0.04), (0.32, y - 0.035)),
    ]
    if rng.random() < 0.6:
        paths.append(_wave(0.16, 0.84, 0.8, 0.03, 2.0, 16))
    return paths


@_icon("W", "drops")
def _water_drops(rng: np.random.Generator) -> list[Path]:
    spots = (
        [(0.5, 0.55, 0.16)] if rng.random() < 0.4 else [(0.32, 0.45, 0.1), (0.66, 0.38, 0.1), (0.5, 0.7, 0.1)]
    )
    paths = []
    for x, y, r in spots:
        arc = _ellipse(x, y, r, r, -np.pi / 6, 7 * np.pi / 6, 14)
        paths.append(np.vstack([arc, [(x, y - 1.9 * r)], arc[:1]]))
    return paths


@_icon("W", "river")
def _water_river(rng: np.random.Generator) -> list[Path]:
    per = rng.uniform(1.0, 1.6)
    y = rng.uniform(0.45, 0.55)
    paths = [_wave(0.12, 0.88, y - 0.1, 0.06, per, 22), _wave(0.12, 0.88, y + 0.1, 0.06, per, 22)]
    if rng.random() < 0.5:
        paths.append(_wave(0.38, 0.6, y, 0.02, 1.0, 8))
    return paths


@_icon("W", "swell")
def _water_swell(rng: np.random.Generator) -> list[Path]:
    return [
        _wave(0.12, 0.88, 0.4, rng.uniform(0.1, 0.14), rng.uniform(1.2, 1.6), 26),
        _wave(0.2, 0.8, 0.72, rng.uniform(0.04, 0.06), rng.uniform(1.2, 1.8), 18),
    ]


@_icon("W", "lake")
def _water_lake(rng: np.random.Generator) -> list[Path]:
    shore = _circle_path(0.5, 0.5, 1.0, 20, 0.0, 0.0)
    wob = 1 + 0.12 * np.sin(np.linspace(0, 2 * np.pi, 21) * 3 + rng.uniform(0, 6))
    shore = 0.5 + (shore - 0.5) * wob[:, None] * np.array([0.34, 0.26])
    return [shore, _wave(0.36, 0.64, 0.46, 0.025, 1.0, 8), _wave(0.42, 0.66, 0.58, 0.025, 1.0, 8)]


# monster: creepy faces and creatures (never a round face with a fang zigzag: that is held out)
@_icon("M", "skull")
def _monster_skull(rng: np.random.Generator) -> list[Path]:
    dome = _ellipse(0.5, 0.42, 0.26, 0.24, 0.8 * np.pi, 2.2 * np.pi, 16)
    jaw = _poly(tuple(dome[-1]), (0.62, 0.64), (0.62, 0.8), (0.38, 0.8), (0.38, 0.64), tuple(dome[0]))
    paths = [dome, jaw]
    for x in (0.4, 0.6):
        paths.append(_poly((x - 0.06, 0.4), (x + 0.06, 0.4), (x, 0.5), (x - 0.06, 0.4)))
    paths.append(_poly((0.47, 0.6), (0.5, 0.55), (0.53, 0.6)))
    for x in (0.45, 0.5, 0.55):
        paths.append(_poly((x, 0.7), (x, 0.8)))
    return paths


@_icon("M", "spiky")
def _monster_spiky(rng: np.random.Generator) -> list[Path]:
    spikes = int(rng.integers(4, 7))
    t = np.linspace(np.pi, 2 * np.pi, 2 * spikes + 1)
    rad = np.where(np.arange(len(t)) % 2 == 1, 0.38, 0.28)
    back = np.stack([0.5 + rad * np.cos(t), 0.72 + rad * 0.9 * np.sin(t)], 1)
    return [
        np.vstack([back, [(0.62, 0.82), (0.38, 0.82)], back[:1]]),
        _poly((0.4, 0.55), (0.44, 0.6)),
        _poly((0.6, 0.55), (0.56, 0.6)),
        _poly((0.42, 0.7), (0.5, 0.66), (0.58, 0.7)),
    ]


@_icon("M", "ghost")
def _monster_ghost(rng: np.random.Generator) -> list[Path]:
    head = _ellipse(0.5, 0.4, 0.22, 0.22, np.pi, 2 * np.pi, 14)
    hem_x = np.linspace(0.72, 0.28, 13)
    hem = np.stack([hem_x, 0.82 - 0.05 * np.abs(np.sin((hem_x - 0.28) / 0.44 * 3 * np.pi))], 1)
    body = np.vstack([_poly((0.28, 0.82)), head, _poly((0.72, 0.82)), hem])
    return [
        body,
        _ellipse(0.42, 0.42, 0.025, 0.05, n=8),
        _ellipse(0.58, 0.42, 0.025, 0.05, n=8),
        _ellipse(0.5, 0.62, 0.05, 0.035, n=10),
    ]


@_icon("M", "eyes")
def _monster_eyes(rng: np.random.Generator) -> list[Path]:
    paths = []
    for x, side in ((0.33, -1), (0.67, 1)):
        paths.append(_poly((x + side * 0.14, 0.3), (x - side * 0.1, 0.42)))  # brows slanting down inwards
        eye = _ellipse(x, 0.52, 0.1, 0.05, n=14)
        paths += [eye, _poly((x, 0.49), (x, 0.55))]
    if rng.random() < 0.5:
        paths.append(_poly((0.38, 0.74), (0.5, 0.7), (0.62, 0.74)))
    return paths


@_icon("M", "cyclops")
def _monster_cyclops(rng: np.random.Generator) -> list[Path]:
    body = _circle_path(0.5, 0.45, 0.24, 18, 0.06, rng.uniform(0, 6)) * np.array([1, 0.95]) + (0, 0.02)
    paths = [body, _ellipse(0.5, 0.44, 0.11, 0.06, n=14), _poly((0.5, 0.4), (0.5, 0.48))]
    for x in (0.36, 0.5, 0.64):
        paths.append(_poly((x, 0.68), (x + rng.normal(0, 0.02), 0.84), (x + 0.05, 0.86)))
    return paths


# hero: arms, crowns and figures (never a flag on a pole: that is held out; never a star: the hit mark)
@_icon("H", "shield")
def _hero_shield(rng: np.random.Generator) -> list[Path]:
    top = rng.uniform(0.16, 0.22)
    outline = np.vstack(
        [
            _poly((0.26, top), (0.74, top)),
            _ellipse(0.5, 0.45, 0.24, 0.41, 0.0, np.pi, 20),
            _poly((0.26, top)),
        ]
    )
    return [outline, _poly((0.5, 0.26), (0.5, 0.76)), _poly((0.34, 0.42), (0.66, 0.42))]


@_icon("H", "crown")
def _hero_crown(rng: np.random.Generator) -> list[Path]:
    tip = rng.uniform(0.24, 0.3)
    return [
        _poly(
            (0.2, 0.74),
            (0.2, tip + 0.06),
            (0.35, 0.5),
            (0.5, tip),
            (0.65, 0.5),
            (0.8, tip + 0.06),
            (0.8, 0.74),
            (0.2, 0.74),
        ),
        _poly((0.2, 0.64), (0.8, 0.64)),
    ]


@_icon("H", "stick")
def _hero_stick(rng: np.random.Generator) -> list[Path]:
    arm = rng.uniform(-0.12, 0.04)
    return [
        _circle_path(0.45, 0.24, 0.08, 12),
        _poly((0.45, 0.32), (0.45, 0.6)),
        _poly((0.3, 0.44 - arm), (0.45, 0.42), (0.62, 0.4 + arm)),
        _poly((0.34, 0.86), (0.45, 0.6), (0.56, 0.86)),
        _poly((0.62, 0.46 + arm), (0.72, 0.16)),  # a raised sword or spear in hand
    ]


@_icon("H", "bow")
def _hero_bow(rng: np.random.Generator) -> list[Path]:
    bow = _ellipse(0.3, 0.5, 0.26, 0.34, -np.pi / 2, np.pi / 2, 14)
    return [
        bow,
        _poly((0.3, 0.16), (0.3, 0.84)),
        _poly((0.2, 0.5), (0.84, 0.5)),
        _poly((0.76, 0.44), (0.84, 0.5), (0.76, 0.56)),
        _poly((0.2, 0.5), (0.15, 0.45)),
        _poly((0.2, 0.5), (0.15, 0.55)),
    ]


@_icon("H", "axe")
def _hero_axe(rng: np.random.Generator) -> list[Path]:
    """A double-bitted axe: symmetric blades, so it never reads as a flag on a pole."""
    paths = [_poly((0.5, 0.88), (0.5, 0.14))]
    for side in (-1, 1):
        edge = _ellipse(0.5, 0.34, 0.3, 0.2, -0.75, 0.75, 10)
        edge[:, 0] = 0.5 + side * (edge[:, 0] - 0.5)
        paths.append(np.vstack([[(0.5, 0.28)], edge, [(0.5, 0.4)]]))
    return paths


def icon_paths(terrain: str, variant: str, rng: np.random.Generator) -> list[Path]:
    """Strokes of a terrain icon in cell-local units (roughly inside [0.15, 0.85])."""
    more = _MORE_ICONS.get((terrain, variant))
    if more is not None:
        return more(rng)
    p: list[Path] = []
    a = np.array
    if terrain == "F":
        if variant == "lollipop":
            spots = (
                [(0.3, 0.3), (0.7, 0.28), (0.5, 0.62)] if rng.random() < 0.7 else [(0.3, 0.34), (0.68, 0.56)]
            )
            for x, y in spots:
                r = rng.uniform(0.1, 0.13)
                p.append(_circle_path(x, y, r, 12, 0.1, rng.uniform(0, 6)))
                p.append(a([(x, y + r), (x + rng.normal(0, 0.01), y + r + rng.uniform(0.12, 0.17))]))
        elif variant == "cloud":
            p.append(_circle_path(0.5, 0.38, 0.2, 22, 0.12, rng.uniform(0, 6)))
            p.append(a([(0.45, 0.57), (0.44, 0.82), (0.38, 0.86)]))
            p.append(a([(0.55, 0.57), (0.56, 0.82), (0.62, 0.86)]))
        else:  # pine
            for x in (0.5,) if rng.random() < 0.5 else (0.32, 0.68):
                s = 1.0 if x == 0.5 else 0.75
                p.append(
                    a(
                        [
                            (x, 0.15),
                            (x - 0.12 * s, 0.38),
                            (x - 0.05 * s, 0.36),
                            (x - 0.17 * s, 0.6),
                            (x - 0.06 * s, 0.58),
                            (x - 0.22 * s, 0.78),
                            (x + 0.22 * s, 0.78),
                            (x + 0.06 * s, 0.58),
                            (x + 0.17 * s, 0.6),
                            (x + 0.05 * s, 0.36),
                            (x + 0.12 * s, 0.38),
                            (x, 0.15),
                        ]
                    )
                )
                p.append(a([(x, 0.78), (x, 0.88)]))
    elif terrain == "V":
        if variant == "house":
            p.append(
                a(
                    [
                        (0.27, 0.5),
                        (0.5, 0.22),
                        (0.73, 0.5),
                        (0.63, 0.5),
                        (0.63, 0.8),
                        (0.37, 0.8),
                        (0.37, 0.5),
                        (0.27, 0.5),
                    ]
                )
            )
        elif variant == "roof":
            p.append(a([(0.25, 0.45), (0.5, 0.2), (0.75, 0.45)]))
            p.append(a([(0.3, 0.42), (0.3, 0.8), (0.7, 0.8), (0.7, 0.42)]))
            p.append(a([(0.45, 0.8), (0.45, 0.6), (0.55, 0.6), (0.55, 0.8)]))
        else:  # hut
            p.append(a([(0.22, 0.78), (0.3, 0.45), (0.5, 0.25), (0.7, 0.45), (0.78, 0.78), (0.22, 0.78)]))
            p.append(_circle_path(0.5, 0.6, 0.06, 8))
    elif terrain == "P":
        if variant == "hatch":
            ang = np.deg2rad(rng.choice([45, 135]) + rng.normal(0, 6))
            d = a([np.cos(ang), np.sin(ang)])
            nrm = a([-d[1], d[0]])
            for k in np.linspace(-0.3, 0.3, int(rng.integers(4, 7))):
                c = a([0.5, 0.5]) + nrm * k
                seg = clip_segment(c - d, c + d, (0.18, 0.18, 0.82, 0.82))
                if seg is not None:
                    p.append(a(seg))
        elif variant == "rows":
            for y in np.linspace(0.25, 0.75, int(rng.integers(3, 5))):
                x0 = rng.uniform(0.18, 0.35)
                p.append(a([(x0, y), (rng.uniform(0.65, 0.82), y + rng.normal(0, 0.02))]))
        else:  # dots
            for y in np.linspace(0.25, 0.75, 4):
                for x in np.linspace(0.25, 0.75, 4):
                    q = (x + rng.normal(0, 0.02), y + rng.normal(0, 0.02))
                    p.append(a([q, (q[0] + 0.015, q[1] + 0.01)]))
    elif terrain == "W":
        if variant == "waves":
            for y in np.linspace(0.25, 0.75, int(rng.integers(3, 5))):
                p.append(_wave(0.12, 0.88, y, rng.uniform(0.03, 0.05), rng.uniform(1.5, 3.0), 24))
        elif variant == "ripples":
            for y in (0.35, 0.62):
                p.append(_wave(0.2, 0.48, y, 0.04, 1.0, 10))
                p.append(_wave(0.52, 0.8, y + 0.05, 0.04, 1.0, 10))
        else:  # spiral
            t = np.linspace(0, 4 * np.pi, 40)
            rad = 0.02 + 0.022 * t
            p.append(np.stack([0.5 + rad * np.cos(t), 0.5 + rad * np.sin(t)], 1))
    elif terrain == "M":
        if variant == "horned":
            p.append(
                a([(0.25, 0.2), (0.3, 0.38), (0.3, 0.6), (0.5, 0.82), (0.7, 0.6), (0.7, 0.38), (0.75, 0.2)])
            )
            p.append(a([(0.3, 0.38), (0.5, 0.42), (0.7, 0.38)]))
            p.append(a([(0.38, 0.52), (0.46, 0.56)]))
            p.append(a([(0.62, 0.52), (0.54, 0.56)]))
            p.append(a([(0.42, 0.68), (0.58, 0.68)]))
        elif variant == "mask":
            p.append(
                a(
                    [
                        (0.28, 0.22),
                        (0.38, 0.3),
                        (0.5, 0.3),
                        (0.62, 0.3),
                        (0.72, 0.22),
                        (0.7, 0.55),
                        (0.5, 0.82),
                        (0.3, 0.55),
                        (0.28, 0.22),
                    ]
                )
            )
            p.append(a([(0.38, 0.45), (0.45, 0.47)]))
            p.append(a([(0.55, 0.47), (0.62, 0.45)]))
            p.append(a([(0.44, 0.65), (0.56, 0.65)]))
        else:  # fanged
            p.append(_circle_path(0.5, 0.52, 0.25, 16))
            p.append(a([(0.36, 0.62), (0.42, 0.7), (0.47, 0.62), (0.53, 0.7), (0.58, 0.62), (0.64, 0.7)]))
            p.append(_circle_path(0.41, 0.45, 0.035, 6))
            p.append(_circle_path(0.59, 0.45, 0.035, 6))
    elif terrain == "H":
        if variant == "helmet":
            t = np.linspace(np.pi, 2 * np.pi, 12)
            dome = np.stack([0.5 + 0.25 * np.cos(t), 0.5 + 0.28 * np.sin(t)], 1)
            p.append(np.vstack([dome, a([(0.75, 0.78), (0.25, 0.78), (0.25, 0.5)])]))
            p.append(a([(0.32, 0.55), (0.68, 0.55)]))
            p.append(a([(0.5, 0.55), (0.5, 0.78)]))
        elif variant == "sword":
            p.append(a([(0.5, 0.15), (0.5, 0.72)]))
            p.append(a([(0.34, 0.62), (0.66, 0.62)]))
            p.append(a([(0.5, 0.72), (0.5, 0.85)]))
        else:  # banner
            p.append(a([(0.3, 0.15), (0.3, 0.88)]))
            p.append(a([(0.3, 0.18), (0.75, 0.25), (0.6, 0.35), (0.75, 0.45), (0.3, 0.45)]))
    return p


#: Per-drawing variation of training icons: scale range, tilt (degrees), offset (cell units), the chance
#: of two small copies instead of one, the chance a drawing is gone over twice, and the box it must fit.
VARY_SCALE = (0.75, 1.15)
VARY_TILT = 15.0
VARY_OFFSET = 0.06
VARY_TWICE = 0.2
VARY_OVERDRAW = 0.3
VARY_BOX = (0.08, 0.92)


def varied_icon(terrain: str, variant: str, rng: np.random.Generator) -> list[Path]:
    """One hand-drawn instance of a training icon: own size, tilt and offset, sometimes two small copies,
    sometimes strokes gone over twice; always inside :data:`VARY_BOX` of the cell."""
    twice = rng.random() < VARY_TWICE
    if twice:
        # two small copies stay near the middle: the classifier sees only the cell's inner two thirds
        a, b = rng.uniform(0.31, 0.36, 2), rng.uniform(0.64, 0.69, 2)
        if rng.random() < 0.5:  # side by side rather than diagonal
            a[1] = b[1] = rng.uniform(0.4, 0.6)
        centres, shrink = [a, b], 0.5
    else:
        centres, shrink = [0.5 + rng.uniform(-VARY_OFFSET, VARY_OFFSET, 2)], 1.0
    out: list[Path] = []
    for centre in centres:
        s = rng.uniform(*VARY_SCALE) * shrink
        ang = np.deg2rad(rng.uniform(-VARY_TILT, VARY_TILT))
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
        out += [((p - 0.5) @ rot.T) * s + centre for p in icon_paths(terrain, variant, rng)]
    if rng.random() < VARY_OVERDRAW:
        # players go over some lines a second time, never quite on the first line
        out += [
            p + rng.normal(0, 0.012, 2) + rng.normal(0, 0.004, p.shape) for p in out if rng.random() < 0.6
        ]
    pts = np.vstack(out)
    lo, hi = pts.min(0), pts.max(0)
    room = VARY_BOX[1] - VARY_BOX[0]
    fit = min(1.0, room / max(float((hi - lo).max()), 1e-6))
    mid = (lo + hi) / 2
    new_mid = np.clip(mid, VARY_BOX[0] + (hi - lo) * fit / 2, VARY_BOX[1] - (hi - lo) * fit / 2)
    return [(p - mid) * fit + new_mid for p in out]


# ------------------------------------------------------------------------------------------- fills


def _region(rng: np.random.Generator, hand: Hand, coverage: float) -> tuple[float, float, float, float]:
    """Sub-rectangle of the cell (local units) a fill covers, with overrun past the cell edge."""
    o = [hand.overrun * rng.random() for _ in range(4)]
    x0, y0, x1, y1 = -o[0], -o[1], 1 + o[2], 1 + o[3]
    if coverage < 0.97:
        fw = float(rng.uniform(np.sqrt(coverage), 1.0))
        fh = min(1.0, coverage / fw)
        # partial fills still cross the middle of the cell: a player colours *in* the cell
        ox = rng.uniform(max(0.0, 0.6 - fw), min(1 - fw, 0.4))
        oy = rng.uniform(max(0.0, 0.6 - fh), min(1 - fh, 0.4))
        x0, x1 = max(x0, ox), min(x1, ox + fw)
        y0, y1 = max(y0, oy), min(y1, oy + fh)
    return x0, y0, x1, y1


def _hatch(
    box: tuple[float, float, float, float], angle_deg: float, spacing: float, rng: np.random.Generator
) -> list[Path]:
    ang = np.deg2rad(angle_deg)
    d = np.array([np.cos(ang), np.sin(ang)])
    nrm = np.array([-d[1], d[0]])
    c = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])
    half = np.hypot(box[2] - box[0], box[3] - box[1]) / 2
    out = []
    for k in np.arange(-half, half, spacing):
        q = c + nrm * (k + rng.normal(0, spacing * 0.15))
        seg = clip_segment(q - d * 2, q + d * 2, box)
        if seg is None:
            continue
        a, b = seg
        # each line stops a little short or long of the edge
        a = a + d * rng.normal(0, 0.03)
        b = b + d * rng.normal(0, 0.03)
        out.append(np.array([a, b]))
    return out


def _zigzag(
    box: tuple[float, float, float, float], angle_deg: float, spacing: float, rng: np.random.Generator
) -> list[Path]:
    lines = _hatch(box, angle_deg, spacing, rng)
    pts: list[np.ndarray] = []
    for i, ln in enumerate(lines):
        pts.extend(ln if i % 2 == 0 else ln[::-1])
    return [np.array(pts)] if len(pts) >= 2 else []


def _scribble(box: tuple[float, float, float, float], density: float, rng: np.random.Generator) -> list[Path]:
    """Fast back-and-forth colouring: a stroke sweeping across the box in wobbly loops, one or two passes."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    out = []
    for k in range(1 + int(density > 0.6 and rng.random() < 0.6)):
        vertical = (rng.random() < 0.5) != bool(k)
        turns = 3 + 6 * density + rng.uniform(0, 2)
        n = int(turns * 10)
        t = np.linspace(0, 1, n)
        swing = np.sin(t * turns * 2 * np.pi + rng.uniform(0, 6)) * (0.5 - 0.06 * rng.random())
        drift = np.cos(t * turns * 2 * np.pi * rng.uniform(0.9, 1.1)) * 0.12 + rng.normal(0, 0.04, n)
        along = t + drift / max(turns, 1)
        if vertical:
            pts = np.stack([x0 + w * (0.5 + swing), y0 + h * along], 1)
        else:
            pts = np.stack([x0 + w * along, y0 + h * (0.5 + swing)], 1)
        out.append(pts)
    return out


def _loops(box: tuple[float, float, float, float], spacing: float) -> list[Path]:
    out = []
    r = spacing * 1.2
    for y in np.arange(box[1] + r, box[3], r * 1.6):
        x = np.linspace(box[0], box[2], 60)
        t = (x - box[0]) / (r * 0.9) * 2 * np.pi
        out.append(np.stack([x + r * 0.6 * np.sin(t), y + r * np.cos(t)], 1))
    return out


def _dashes(
    box: tuple[float, float, float, float], angle_deg: float, spacing: float, rng: np.random.Generator
) -> list[Path]:
    """Short strokes at the hand's slant, scattered in loose rows: quick stippling with the pencil."""
    ang = np.deg2rad(angle_deg)
    d = np.array([np.cos(ang), np.sin(ang)])
    out = []
    gap = max(spacing * 1.4, 0.05)
    for y in np.arange(box[1] + gap / 2, box[3], gap):
        for x in np.arange(box[0] + rng.uniform(0, gap), box[2], gap * rng.uniform(1.1, 1.6)):
            q = np.array([x, y]) + rng.normal(0, gap * 0.2, 2)
            half = d * rng.uniform(0.03, 0.06)
            out.append(np.array([q - half, q + half]))
    return out


def _tangle(box: tuple[float, float, float, float], density: float, rng: np.random.Generator) -> list[Path]:
    """Dense circular scribble: a pencil circling fast while it wanders from spot to spot over the box."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    rad = min(w, h) * rng.uniform(0.13, 0.19)
    turns = int(10 + 40 * density)
    n = turns * 9
    t = np.linspace(0, turns * 2 * np.pi, n)
    # the circling hand's centre drifts through random spots of the box, never in rows
    # one spot in each ninth of the box, visited in a random order, so the whole box gets covered
    g = (np.arange(9) % 3, np.arange(9) // 3)
    fx, fy = (g[0] + rng.uniform(0.05, 0.95, 9)) / 3, (g[1] + rng.uniform(0.05, 0.95, 9)) / 3
    spots = np.stack([x0 + rad + fx * (w - 2 * rad), y0 + rad + fy * (h - 2 * rad)], 1)[rng.permutation(9)]
    k = len(spots)
    centre = np.stack([np.interp(np.linspace(0, k - 1, n), np.arange(k), spots[:, i]) for i in (0, 1)], 1)
    rr = rad * (1 + 0.3 * np.sin(t * 0.17 + rng.uniform(0, 6)))
    return [centre + np.stack([rr * np.cos(t), rr * 0.85 * np.sin(t)], 1)]


def piece_hatch(
    cells: Sequence[Cell], angle_deg: float, spacing: float, overrun: float, rng: np.random.Generator
) -> list[Path]:
    """Hatch lines across a whole piece (absolute cell units), broken where they leave its cells."""
    grid = np.zeros((GRID_SIZE + 4, GRID_SIZE + 4), bool)  # padded by 2 so neighbours never wrap
    for r, c in cells:
        grid[r + 2, c + 2] = True
    rs = [r for r, _ in cells]
    cs = [c for _, c in cells]
    box = (min(cs) - overrun, min(rs) - overrun, max(cs) + 1 + overrun, max(rs) + 1 + overrun)
    out: list[Path] = []
    for ln in _hatch(box, angle_deg, spacing, rng):
        n = max(2, int(np.hypot(*(ln[1] - ln[0])) / 0.02))
        pts = ln[0] + np.linspace(0, 1, n)[:, None] * (ln[1] - ln[0])
        ci = np.clip(np.floor(pts[:, 0]).astype(int), -2, GRID_SIZE + 1) + 2
        ri = np.clip(np.floor(pts[:, 1]).astype(int), -2, GRID_SIZE + 1) + 2
        fx = pts[:, 0] - np.floor(pts[:, 0])
        fy = pts[:, 1] - np.floor(pts[:, 1])
        ok = grid[ri, ci].copy()
        if overrun > 0:
            # spill a little past the edge of a piece cell into its neighbours
            ok |= grid[ri, np.clip(ci + 1, 0, GRID_SIZE + 3)] & (1 - fx < overrun)
            ok |= grid[ri, np.clip(ci - 1, 0, GRID_SIZE + 3)] & (fx < overrun)
            ok |= grid[np.clip(ri + 1, 0, GRID_SIZE + 3), ci] & (1 - fy < overrun)
            ok |= grid[np.clip(ri - 1, 0, GRID_SIZE + 3), ci] & (fy < overrun)
        edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(int), [0]])))
        for a, b in zip(edges[::2], edges[1::2], strict=True):
            if b - a >= 3:
                out.append(np.array([pts[a], pts[b - 1]]))
    return out


def fill_paths(
    mode: str, hand: Hand, look: TerrainLook, rng: np.random.Generator
) -> tuple[list[Path], float]:
    """Strokes of a cell fill (local units) and the solid-fill pressure (0 when none)."""
    box = _region(rng, hand, look.coverage)
    spacing = float(np.interp(look.density, [0, 1], [0.14, 0.04]))
    if hand.medium == "marker":
        spacing = max(spacing, hand.width * 0.9)
    slant = hand.slant + rng.normal(0, 4)
    solid = 0.0
    if mode == "hatch":
        paths = _hatch(box, slant, spacing, rng)
    elif mode == "zigzag":
        paths = _zigzag(box, slant, spacing, rng)
    elif mode == "scribble":
        paths = _scribble(box, look.density, rng)
    elif mode == "solid":
        paths = _hatch(box, slant, spacing * 2.5, rng)
        solid = 0.35 + 0.5 * look.density
    elif mode == "vertical":
        paths = _hatch(box, 90 + rng.normal(0, 7), spacing * 1.1, rng)
    elif mode == "dashes":
        paths = _dashes(box, slant, spacing, rng)
    elif mode == "tangle":
        paths = _tangle(box, look.density, rng)
    elif mode == "crosshatch":
        paths = _hatch(box, slant, spacing * 1.3, rng) + _hatch(box, slant + 90, spacing * 1.3, rng)
    else:  # loops
        paths = _loops(box, spacing)
    if solid:
        paths.insert(0, np.array([(box[0], box[1]), (box[2], box[1]), (box[2], box[3]), (box[0], box[3])]))
    return paths, solid


# ------------------------------------------------------------------------------------------ drawing


def _to_px(lay: Layout, r: int, c: int, path: Path) -> np.ndarray:
    return lay.px(path + np.array([c, r], float))


def _strokes(
    layer: Layer,
    lay: Layout,
    r: int,
    c: int,
    paths: Iterable[Path],
    hand: Hand,
    rng: np.random.Generator,
    pressure: float = 1.0,
    width: float = 1.0,
) -> None:
    wpx = max(1.0, hand.width * width * lay.ppc)
    px = [_to_px(lay, r, c, p) for p in paths]
    layer.strokes(
        px,
        wpx,
        hand.pressure * pressure,
        rng,
        jitter=hand.jitter * lay.ppc,
        step=max(2.0, lay.ppc * 0.06),
        lift=0.2 if hand.medium == "pencil" else 0.05,
        layered=hand.medium == "marker",
    )


def _alpha(hand: Hand) -> float:
    return 0.92 if hand.medium == "marker" else 0.85


def _grain(hand: Hand) -> float:
    return hand.grain


def _cell_box(lay: Layout, r: int, c: int, pad: float) -> tuple[float, float, float, float]:
    x0, y0 = lay.px((c - pad, r - pad))
    x1, y1 = lay.px((c + 1 + pad, r + 1 + pad))
    return x0, y0, x1, y1


def _cells_box(lay: Layout, cells: Sequence[Cell], pad: float) -> tuple[float, float, float, float]:
    rs = [r for r, _ in cells]
    cs = [c for _, c in cells]
    x0, y0 = lay.px((min(cs) - pad, min(rs) - pad))
    x1, y1 = lay.px((max(cs) + 1 + pad, max(rs) + 1 + pad))
    return x0, y0, x1, y1


def draw_cells(
    canvas: Canvas,
    lay: Layout,
    cells: Sequence[Cell],
    terrain: str,
    look: TerrainLook,
    hand: Hand,
    rng: np.random.Generator,
) -> None:
    """Draw terrain cells (usually one piece) in one go: fills first, then icons.

    A player colours a whole piece with one pencil, so the cells share a drawing layer.
    """
    if not cells:
        return
    box = _cells_box(lay, cells, 0.35)
    all_cells = list(cells)
    if look.fill is not None:
        with canvas.layer(box, look.color, _alpha(hand), grain=_grain(hand)) as lyr:
            # colouring in is pressed harder than sketching: lift light hands towards full pressure
            boost = (0.5 + 0.5 * hand.pressure) / max(hand.pressure, 1e-3)
            width = 1.6 if hand.medium == "pencil" else 1.0
            pressure = (0.6 + 0.4 * look.density) * boost
            if look.fill in ("hatch", "crosshatch") and len(cells) > 1 and rng.random() < 0.5:
                # the whole piece hatched in one go: lines run on across cell borders
                spacing = float(np.interp(look.density, [0, 1], [0.14, 0.04]))
                if hand.medium == "marker":
                    spacing = max(spacing, hand.width * 0.9)
                paths = piece_hatch(cells, hand.slant + rng.normal(0, 4), spacing, hand.overrun, rng)
                if look.fill == "crosshatch":
                    paths += piece_hatch(cells, hand.slant + 90, spacing * 1.3, hand.overrun, rng)
                _strokes(lyr, lay, 0, 0, paths, hand, rng, pressure=pressure, width=width)
                cells = []
            for r, c in cells:
                paths, solid = fill_paths(look.fill, hand, look, rng)
                if solid:
                    ring = _to_px(lay, r, c, np.vstack([paths[0], paths[0][:1]]))
                    lyr.fill(
                        jitter_path(ring, rng, hand.jitter * lay.ppc, lay.ppc * 0.1),
                        (0.5 + 0.5 * hand.pressure) * solid,
                    )
                    paths = paths[1:]
                _strokes(lyr, lay, r, c, paths, hand, rng, pressure=pressure, width=width)
    if look.icon is not None:
        color = look.color if look.icon_colored or look.fill is None else hand.graphite
        with canvas.layer(box, color, _alpha(hand), grain=_grain(hand)) as lyr:
            for r, c in all_cells:
                if look.varied:
                    paths = varied_icon(terrain, look.icon, rng)
                else:  # the eval hands, drawn exactly as the benchmark seeds always drew them
                    paths = icon_paths(terrain, look.icon, rng)
                    s = rng.uniform(0.8, 1.05)
                    ang = np.deg2rad(rng.normal(0, 6))
                    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
                    off = rng.normal(0, 0.04, 2)
                    paths = [((p - 0.5) @ rot.T) * s + 0.5 + off for p in paths]
                # icons are drawn deliberately: light hands still press harder than when shading
                boost = (0.55 + 0.45 * hand.pressure) / max(hand.pressure, 1e-3)
                # a felt tip drawn small: icons use the tip's edge, thinner than its fill strokes
                iw = 0.6 if hand.medium == "marker" else 1.0
                _strokes(lyr, lay, r, c, paths, hand, rng, pressure=boost, width=iw)


def draw_cell(
    canvas: Canvas,
    lay: Layout,
    r: int,
    c: int,
    terrain: str,
    look: TerrainLook,
    hand: Hand,
    rng: np.random.Generator,
) -> None:
    """Draw one terrain cell (see :func:`draw_cells`)."""
    draw_cells(canvas, lay, [(r, c)], terrain, look, hand, rng)


def draw_destroyed(canvas: Canvas, lay: Layout, r: int, c: int, hand: Hand, rng: np.random.Generator) -> None:
    """A large X over the whole cell."""
    e = rng.uniform(0.0, 0.1, 4)
    paths = [
        np.array([(0.05 - e[0], 0.05 - e[1]), (0.95 + e[2], 0.95 + e[3])]),
        np.array([(0.95 + e[1], 0.05 - e[0]), (0.05 - e[3], 0.95 + e[2])]),
    ]
    with canvas.layer(_cell_box(lay, r, c, 0.3), hand.graphite, 0.95, grain=_grain(hand)) as lyr:
        firm = (0.85 + 0.15 * hand.pressure) / max(hand.pressure, 1e-3)
        _strokes(lyr, lay, r, c, paths, hand, rng, pressure=firm, width=1.5 * max(1.0, 0.035 / hand.width))


def draw_star(canvas: Canvas, lay: Layout, r: int, c: int, hand: Hand, rng: np.random.Generator) -> None:
    """A small `*` hit mark in one corner of the cell."""
    cx = 0.2 if rng.random() < 0.5 else 0.8
    cy = 0.2 if rng.random() < 0.6 else 0.8
    cx += rng.normal(0, 0.03)
    cy += rng.normal(0, 0.03)
    s = rng.uniform(0.09, 0.15)
    paths = []
    for k in range(3):
        ang = np.pi / 2 + k * np.pi / 3 + rng.normal(0, 0.1)
        d = np.array([np.cos(ang), np.sin(ang)]) * s
        paths.append(np.array([(cx - d[0], cy - d[1]), (cx + d[0], cy + d[1])]))
    color = hand.graphite if rng.random() < 0.7 else (40, 40, 150)
    with canvas.layer(_cell_box(lay, r, c, 0.1), color, 0.95, grain=_grain(hand)) as lyr:
        firm = (0.85 + 0.15 * hand.pressure) / max(hand.pressure, 1e-3)
        _strokes(lyr, lay, r, c, paths, hand, rng, pressure=firm, width=0.8)


def outline_runs(
    edges: Iterable[tuple[str, int, int]],
) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """Merge unit boundary edges into straight runs.

    `edges` are ("h", y, x) for the segment from (x, y) to (x+1, y) and ("v", x, y) for (x, y)-(x, y+1),
    in lattice (cell-corner) coordinates.
    """
    runs: list[tuple[tuple[float, float], tuple[float, float]]] = []
    by_line: dict[tuple[str, int], list[int]] = {}
    for kind, line, pos in edges:
        by_line.setdefault((kind, line), []).append(pos)
    for (kind, line), poss in sorted(by_line.items()):
        poss = sorted(set(poss))
        start = prev = poss[0]
        for p in [*poss[1:], None]:
            if p is not None and p == prev + 1:
                prev = p
                continue
            if kind == "h":
                runs.append(((start, line), (prev + 1, line)))
            else:
                runs.append(((line, start), (line, prev + 1)))
            if p is not None:
                start = prev = p
    return runs


def piece_boundary(piece: frozenset[Cell]) -> list[tuple[str, int, int]]:
    """Unit edges around a piece in lattice coordinates (see :func:`outline_runs`)."""
    out = []
    for r, c in piece:
        if (r - 1, c) not in piece:
            out.append(("h", r, c))
        if (r + 1, c) not in piece:
            out.append(("h", r + 1, c))
        if (r, c - 1) not in piece:
            out.append(("v", c, r))
        if (r, c + 1) not in piece:
            out.append(("v", c + 1, r))
    return out


def draw_outlines(
    canvas: Canvas,
    lay: Layout,
    runs: Sequence[tuple[tuple[float, float], tuple[float, float]]],
    hand: Hand,
    rng: np.random.Generator,
) -> None:
    """Thick pencil lines along piece boundaries (lattice runs in cell units)."""
    n = GRID_SIZE
    box = (*lay.px((-0.3, -0.3)), *lay.px((n + 0.3, n + 0.3)))
    # outlines are pressed firmly, whatever the hand does for colouring
    width = max(1.5, max(hand.width, 0.04) * lay.ppc * (1.3 if hand.medium == "pencil" else 0.8))
    paths = []
    for (x0, y0), (x1, y1) in runs:
        a = np.array([x0, y0], float)
        b = np.array([x1, y1], float)
        d = (b - a) / max(np.hypot(*(b - a)), 1e-9)
        nrm = np.array([-d[1], d[0]])
        a = a - d * rng.uniform(-0.03, 0.08) + nrm * rng.normal(0, 0.015)
        b = b + d * rng.uniform(-0.03, 0.08) + nrm * rng.normal(0, 0.015)
        paths.append(lay.px(np.array([a, b])))
    with canvas.layer(box, hand.graphite, 0.95, grain=_grain(hand) * 0.7) as lyr:
        lyr.strokes(
            paths,
            width,
            0.75 + 0.25 * hand.pressure,
            rng,
            jitter=hand.jitter * lay.ppc * 0.6,
            step=max(3.0, lay.ppc * 0.15),
            lift=0.08,
        )


def coin_marks(
    index: int, state: int, style: DrawStyle, rng: np.random.Generator
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Strokes and filled polygons (cell units) marking coin `index`: 1 gained, 2 spent."""
    geo = geometry()
    cx, cy = geo.coin_centers()[index]
    rad = geo.coin_radius * rng.uniform(0.9, 1.1)
    cx += rng.normal(0, 0.02)
    cy += rng.normal(0, 0.02)
    hand = style.hand
    c0 = np.array([cx, cy])
    paths: list[np.ndarray] = []
    polys: list[np.ndarray] = []
    # a solidly blacked-out coin would hide the cross: such players just cross spent coins out
    if state == 1 or (style.coin_cross_fill and style.coin_mark != "solid"):
        mark = style.coin_mark
        if mark == "scribble":
            k = int(rng.integers(7, 12))
            t = np.linspace(0, 1, k)
            xs = cx - rad * 0.8 + 1.6 * rad * t
            ys = cy + np.where(np.arange(k) % 2 == 0, -1, 1) * rad * 0.8 * np.sqrt(1 - (2 * t - 1) ** 2 * 0.6)
            paths.append(np.stack([xs, ys], 1))
        elif mark == "solid":
            polys.append(_circle_path(cx, cy, rad * 0.9, 16) + rng.normal(0, 0.01, (17, 2)))
            paths.append(_circle_path(cx, cy, rad * 0.95, 16, 0.0, rng.uniform(0, 6)))
        elif mark == "hatch":
            for ln in _hatch((cx - rad, cy - rad, cx + rad, cy + rad), hand.slant, rad * 0.3, rng):
                mid = ln.mean(0)
                near = np.hypot(*(mid - c0)) < rad * 0.8
                paths.append(c0 + (ln - c0) * 0.85 if near else (ln - mid) * 0.4 + mid)
        elif mark == "tick":
            tip = rng.uniform(0.7, 1.0)
            paths.append(
                np.array([(cx - 0.65 * rad, cy - 0.05 * rad), (cx - 0.15 * rad, cy + 0.6 * rad)])
                + rng.normal(0, 0.01, (2, 2))
            )
            paths.append(np.array([(cx - 0.15 * rad, cy + 0.6 * rad), (cx + 0.8 * rad, cy - tip * rad)]))
        elif mark == "halfmoon":
            start = rng.uniform(0, 2 * np.pi)
            half = _ellipse(cx, cy, rad * 0.9, rad * 0.9, start, start + np.pi, 12)
            polys.append(half)
            paths.append(np.vstack([half, half[:1]]))
        else:  # ring_dot
            paths.append(_circle_path(cx, cy, rad * 1.15, 16, 0.0, rng.uniform(0, 6)))
            polys.append(_circle_path(cx, cy, rad * 0.3, 8))
    if state == 2:
        e = rad * rng.uniform(0.95, 1.25)
        paths.append(np.array([(cx - e, cy - e), (cx + e, cy + e)]))
        paths.append(np.array([(cx + e, cy - e), (cx - e, cy + e)]))
    return paths, polys


def draw_coins(
    canvas: Canvas, lay: Layout, states: Sequence[int], style: DrawStyle, rng: np.random.Generator
) -> None:
    """Mark the coin track: state 1 = gained (filled), 2 = spent (crossed out)."""
    if not any(states):
        return
    geo = geometry()
    x0, y0, x1, y1 = geo.coin_band
    hand = style.hand
    paths: list[np.ndarray] = []
    polys: list[np.ndarray] = []
    for i, st in enumerate(states):
        if st:
            pa, po = coin_marks(i, st, style, rng)
            paths += pa
            polys += po
    box = (*lay.px((x0 - 0.3, y0 - 0.3)), *lay.px((x1 + 0.3, y1 + 0.3)))
    with canvas.layer(box, hand.graphite, 0.95, grain=_grain(hand)) as lyr:
        for poly in polys:
            lyr.fill(lay.px(poly), hand.pressure * 0.9)
        lyr.strokes(
            [lay.px(p) for p in paths],
            max(1.0, max(hand.width, 0.03) * lay.ppc * 1.2),
            0.8 + 0.2 * hand.pressure,
            rng,
            jitter=hand.jitter * lay.ppc,
            step=max(2.0, lay.ppc * 0.05),
            lift=0.1,
        )


def draw_season_scores(canvas: Canvas, lay: Layout, style: DrawStyle, rng: np.random.Generator) -> None:
    """Handwritten numbers in the first `style.seasons_written` season boxes."""
    if not style.seasons_written:
        return
    geo = geometry()
    hand = style.hand
    bx0 = min(b[0] for b in geo.season_boxes) - 0.3
    by0 = min(b[1] for b in geo.season_boxes) - 0.3
    bx1 = max(b[2] for b in geo.season_boxes) + 0.3
    by1 = max(b[3] for b in geo.season_boxes) + 0.3
    with canvas.layer(
        (*lay.px((bx0, by0)), *lay.px((bx1, by1))), hand.graphite, 0.95, grain=_grain(hand)
    ) as lyr:
        for i in range(style.seasons_written):
            x0, y0, x1, y1 = geo.season_boxes[i]
            w, h = x1 - x0, y1 - y0
            a, b = int(rng.integers(0, 25)), int(rng.integers(0, 25))
            coins, mon = int(rng.integers(0, 15)), int(rng.integers(0, 9))
            entries = [
                ((0.18, 0.25), str(a)),
                ((0.535, 0.25), str(b)),
                ((0.18, 0.75), str(coins)),
                ((0.535, 0.75), f"-{mon}" if rng.random() < 0.6 else str(mon)),
                ((0.855, 0.5), str(a + b + coins - mon)),
            ]
            for (fx, fy), txt in entries:
                if rng.random() < 0.08:
                    continue
                center = (x0 + w * fx + rng.normal(0, 0.05), y0 + h * fy + rng.normal(0, 0.04))
                _handwrite(lyr, lay, txt, center, 0.26 * rng.uniform(0.8, 1.2), style.digit_font, hand, rng)


def _handwrite(
    lyr: Layer,
    lay: Layout,
    txt: str,
    center: tuple[float, float],
    height: float,
    font: int,
    hand: Hand,
    rng: np.random.Generator,
) -> None:
    """Hershey text, sheared and tilted like handwriting, max-composited into the layer."""
    hpx = height * lay.ppc
    thick = max(1, round(hand.width * lay.ppc * 0.8))
    (tw, th), base = cv2.getTextSize(txt, font, 1.0, thick)
    scale = hpx / max(th, 1)
    (tw, th), base = cv2.getTextSize(txt, font, scale, thick)
    pad = int(hpx * 0.5) + 2
    m = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(m, txt, (pad, pad + th), font, scale, 255, thick, cv2.LINE_AA)
    shear = rng.normal(0.15, 0.1)
    ang = rng.normal(0, 0.08)
    hh, ww = m.shape
    aff = np.array([[np.cos(ang), -np.sin(ang) - shear, 0], [np.sin(ang), np.cos(ang), 0]], np.float32)
    aff[:, 2] = np.array([ww / 2, hh / 2]) - aff[:, :2] @ np.array([ww / 2, hh / 2])
    m = np.asarray(cv2.warpAffine(m, aff, (ww, hh)), np.uint8)
    m = (m.astype(np.float32) * min(1.0, hand.pressure * 1.2)).astype(np.uint8)
    cx, cy = lay.px(center)
    x0, y0 = round(cx - ww / 2) - lyr.x0, round(cy - hh / 2) - lyr.y0
    H, W = lyr.mask.shape
    sx0, sy0 = max(0, -x0), max(0, -y0)
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(W, x0 + ww), min(H, y0 + hh)
    if dx1 <= dx0 or dy1 <= dy0:
        return
    dst = lyr.mask[dy0:dy1, dx0:dx1]
    np.maximum(dst, m[sy0 : sy0 + dy1 - dy0, sx0 : sx0 + dx1 - dx0], out=dst)


def draw_smudge(
    canvas: Canvas, lay: Layout, r: int, c: int, style: DrawStyle, rng: np.random.Generator
) -> None:
    """An erasure: a grey rubbed patch with the ghost of erased strokes."""
    box = _cell_box(lay, r, c, 0.3)
    ghost = str(rng.choice(("F", "V", "P", "W", "M")))
    look = style.looks.get(ghost)
    with canvas.layer(box, (120, 120, 125), rng.uniform(0.08, 0.18), grain=0.5, blur=lay.ppc * 0.12) as lyr:
        ctr = lay.px((c + rng.uniform(0.3, 0.7), r + rng.uniform(0.3, 0.7)))
        ax = (max(1, int(lay.ppc * rng.uniform(0.2, 0.45))), max(1, int(lay.ppc * rng.uniform(0.12, 0.3))))
        cv2.ellipse(
            lyr.mask,
            (int(ctr[0] - lyr.x0), int(ctr[1] - lyr.y0)),
            ax,
            float(rng.uniform(0, 180)),
            0,
            360,
            255,
            -1,
        )
    if look is not None:
        paths = icon_paths(
            ghost,
            "waves"
            if ghost == "W"
            else "hatch"
            if ghost == "P"
            else {"F": "lollipop", "V": "house", "M": "horned"}[ghost],
            rng,
        )
        with canvas.layer(box, style.hand.graphite, rng.uniform(0.05, 0.12), grain=1.0, blur=1.0) as lyr:
            _strokes(lyr, lay, r, c, paths, style.hand, rng)
