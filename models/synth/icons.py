"""The icons players draw for each terrain, as strokes in cell-local units (0..1 across one cell).

:func:`icon_paths` gives one icon variant's strokes (the variants and which split may use them are
listed in :data:`models.synth.style.ICONS`); :func:`varied_icon` draws a training icon the way a hand
varies it (size, tilt, offset, two small copies, strokes gone over twice). :mod:`models.synth.draw`
puts them on the page.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from models.synth.glyphs import glyph_icon, is_glyph
from models.synth.grammar import design_paths, is_design
from models.synth.outsider import is_outsider, outsider_paths
from models.synth.shapes import Path, circle_path, ellipse, turning
from models.synth.shapes import poly as _poly
from models.synth.shapes import wave as _wave
from models.synth.strokes import clip_segment
from models.synth.studio import is_studio, studio_paths

IconMaker = Callable[[np.random.Generator], list[Path]]
#: Training-only icon variants, keyed by (terrain, variant); the original two per terrain and the
#: held-out eval ones are drawn inline in :func:`icon_paths`.
_MORE_ICONS: dict[tuple[str, str], IconMaker] = {}
#: Held-out designs of the ``sketch`` family only (:data:`models.synth.style.SKETCH_ICONS`): drawings a
#: player might make that no training family draws, so that pencil icons are measured on many new
#: designs rather than on the eval split's one per terrain. Keyed like :data:`_MORE_ICONS`.
_SKETCH_ICONS: dict[tuple[str, str], IconMaker] = {}


Registrar = Callable[[str, str], Callable[[IconMaker], IconMaker]]


def _registrar(table: dict[tuple[str, str], IconMaker]) -> Registrar:
    """A decorator factory that files an icon maker in ``table`` under (terrain, variant)."""

    def named(terrain: str, variant: str) -> Callable[[IconMaker], IconMaker]:
        def register(fn: IconMaker) -> IconMaker:
            table[(terrain, variant)] = fn
            return fn

        return register

    return named


_icon = _registrar(_MORE_ICONS)
_sketch = _registrar(_SKETCH_ICONS)


# forest: broadleaf trees and bushes (never stacked triangles: that is the held-out pine)
@_icon("F", "oval")
def _forest_oval(rng: np.random.Generator) -> list[Path]:
    ry = rng.uniform(0.2, 0.25)
    t0 = rng.uniform(0, 6)
    crown = ellipse(0.5, 0.17 + ry, rng.uniform(0.17, 0.22), ry, t0, t0 + 2 * np.pi, n=18)
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
        crown = circle_path(x, cy, r, 16, 0.08, rng.uniform(0, 6))
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
        arch = ellipse(x, y, r, r * 1.2, np.pi * 0.8, np.pi * 2.2, 12)  # a round crown, open at the foot
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
                e = ellipse(0, 0, 0.05 * g, 0.017 * g, n=10)
                a = np.deg2rad(-side * 55)
                rot = turning(a)
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
        arc = ellipse(cx, cy, rad, rad, t0, t1, 14)
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
    body = ellipse(0.45, y, 0.24, 0.13, 0.25, 2 * np.pi - 0.25, 20)
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
        arc = ellipse(x, y, r, r, -np.pi / 6, 7 * np.pi / 6, 14)
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
    shore = circle_path(0.5, 0.5, 1.0, 20, 0.0, 0.0)
    wob = 1 + 0.12 * np.sin(np.linspace(0, 2 * np.pi, 21) * 3 + rng.uniform(0, 6))
    shore = 0.5 + (shore - 0.5) * wob[:, None] * np.array([0.34, 0.26])
    return [shore, _wave(0.36, 0.64, 0.46, 0.025, 1.0, 8), _wave(0.42, 0.66, 0.58, 0.025, 1.0, 8)]


# monster: creepy faces and creatures (never a round face with a fang zigzag: that is held out)
@_icon("M", "skull")
def _monster_skull(rng: np.random.Generator) -> list[Path]:
    dome = ellipse(0.5, 0.42, 0.26, 0.24, 0.8 * np.pi, 2.2 * np.pi, 16)
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
    head = ellipse(0.5, 0.4, 0.22, 0.22, np.pi, 2 * np.pi, 14)
    hem_x = np.linspace(0.72, 0.28, 13)
    hem = np.stack([hem_x, 0.82 - 0.05 * np.abs(np.sin((hem_x - 0.28) / 0.44 * 3 * np.pi))], 1)
    body = np.vstack([_poly((0.28, 0.82)), head, _poly((0.72, 0.82)), hem])
    return [
        body,
        ellipse(0.42, 0.42, 0.025, 0.05, n=8),
        ellipse(0.58, 0.42, 0.025, 0.05, n=8),
        ellipse(0.5, 0.62, 0.05, 0.035, n=10),
    ]


@_icon("M", "eyes")
def _monster_eyes(rng: np.random.Generator) -> list[Path]:
    paths = []
    for x, side in ((0.33, -1), (0.67, 1)):
        paths.append(_poly((x + side * 0.14, 0.3), (x - side * 0.1, 0.42)))  # brows slanting down inwards
        eye = ellipse(x, 0.52, 0.1, 0.05, n=14)
        paths += [eye, _poly((x, 0.49), (x, 0.55))]
    if rng.random() < 0.5:
        paths.append(_poly((0.38, 0.74), (0.5, 0.7), (0.62, 0.74)))
    return paths


@_icon("M", "cyclops")
def _monster_cyclops(rng: np.random.Generator) -> list[Path]:
    body = circle_path(0.5, 0.45, 0.24, 18, 0.06, rng.uniform(0, 6)) * np.array([1, 0.95]) + (0, 0.02)
    paths = [body, ellipse(0.5, 0.44, 0.11, 0.06, n=14), _poly((0.5, 0.4), (0.5, 0.48))]
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
            ellipse(0.5, 0.45, 0.24, 0.41, 0.0, np.pi, 20),
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
        circle_path(0.45, 0.24, 0.08, 12),
        _poly((0.45, 0.32), (0.45, 0.6)),
        _poly((0.3, 0.44 - arm), (0.45, 0.42), (0.62, 0.4 + arm)),
        _poly((0.34, 0.86), (0.45, 0.6), (0.56, 0.86)),
        _poly((0.62, 0.46 + arm), (0.72, 0.16)),  # a raised sword or spear in hand
    ]


@_icon("H", "bow")
def _hero_bow(rng: np.random.Generator) -> list[Path]:
    bow = ellipse(0.3, 0.5, 0.26, 0.34, -np.pi / 2, np.pi / 2, 14)
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
        edge = ellipse(0.5, 0.34, 0.3, 0.2, -0.75, 0.75, 10)
        edge[:, 0] = 0.5 + side * (edge[:, 0] - 0.5)
        paths.append(np.vstack([[(0.5, 0.28)], edge, [(0.5, 0.4)]]))
    return paths


@_sketch("F", "stick_tree")
def _sketch_stick_tree(rng: np.random.Generator) -> list[Path]:
    """A fir drawn as lines: a trunk with branches slanting down from it, no outline."""
    paths = [_poly((0.5, 0.14), (0.5, 0.86))]
    for y in np.linspace(0.24, 0.66, int(rng.integers(3, 5))):
        reach = 0.1 + 0.28 * (y - 0.14)
        paths.append(_poly((0.5 - reach, y + 0.1), (0.5, y), (0.5 + reach, y + 0.1)))
    return paths


@_sketch("F", "palm")
def _sketch_palm(rng: np.random.Generator) -> list[Path]:
    """A palm: a bent trunk and drooping fronds from its top."""
    bend = rng.uniform(0.04, 0.09)
    t = np.linspace(0, 1, 8)
    trunk = np.stack([0.5 + bend * np.sin(t * np.pi / 2), 0.86 - 0.56 * t], 1)
    top = trunk[-1]
    paths = [trunk]
    for ang in np.deg2rad((200, 240, 300, 340)):
        d = np.array([np.cos(ang), np.sin(ang)])
        u = np.linspace(0, 1, 7)[:, None]
        frond = top + u * d * 0.28 + (u**2) * np.array([0, 0.14])
        paths.append(frond)
    return paths


@_sketch("F", "triangles")
def _sketch_triangles(rng: np.random.Generator) -> list[Path]:
    """Two or three plain triangles on stems, side by side (simple firs, not layered)."""
    xs = (0.3, 0.7) if rng.random() < 0.5 else (0.24, 0.5, 0.76)
    w = 0.16 if len(xs) == 2 else 0.12
    paths = []
    for x in xs:
        top = rng.uniform(0.18, 0.28)
        paths.append(_poly((x, top), (x - w, 0.72), (x + w, 0.72), (x, top)))
        paths.append(_poly((x, 0.72), (x, 0.84)))
    return paths


@_sketch("V", "castle")
def _sketch_castle(rng: np.random.Generator) -> list[Path]:
    """A keep with battlements and an arched gate."""
    top = rng.uniform(0.24, 0.3)
    xs = np.linspace(0.26, 0.74, 6)
    wall = [(0.26, 0.82), (0.26, top)]
    for i in range(5):
        y = top if i % 2 == 0 else top + 0.08
        wall += [(xs[i], y), (xs[i + 1], y)]
    wall += [(0.74, top), (0.74, 0.82), (0.26, 0.82)]
    gate = np.vstack([[(0.43, 0.82)], ellipse(0.5, 0.66, 0.07, 0.07, np.pi, 2 * np.pi, 8), [(0.57, 0.82)]])
    return [np.array(wall, float), gate]


@_sketch("V", "tent")
def _sketch_tent(rng: np.random.Generator) -> list[Path]:
    """A tent: a tall triangle with its flap open and a pole tip."""
    apex = (0.5 + rng.normal(0, 0.02), 0.22)
    return [
        _poly((0.18, 0.8), apex, (0.82, 0.8), (0.18, 0.8)),
        _poly((0.5, 0.8), (0.46, 0.5), (0.54, 0.8)),
        _poly(apex, (apex[0] + 0.03, 0.12)),
    ]


@_sketch("V", "flag_house")
def _sketch_flag_house(rng: np.random.Generator) -> list[Path]:
    """A flat-roofed block with two round windows and a pennant on the roof."""
    return [
        _poly((0.24, 0.42), (0.24, 0.82), (0.76, 0.82), (0.76, 0.42), (0.24, 0.42)),
        circle_path(0.37, 0.58, 0.05, 8),
        circle_path(0.63, 0.58, 0.05, 8),
        _poly((0.5, 0.42), (0.5, 0.14), (0.66, 0.2), (0.5, 0.26)),
    ]


@_sketch("P", "grid")
def _sketch_grid(rng: np.random.Generator) -> list[Path]:
    """Fields as a square grid of plots."""
    n = int(rng.integers(2, 4))
    ks = np.linspace(0.22, 0.78, n + 1)
    paths = [_poly((0.22, y), (0.78, y + rng.normal(0, 0.01))) for y in ks]
    paths += [_poly((x, 0.22), (x + rng.normal(0, 0.01), 0.78)) for x in ks]
    return paths


@_sketch("P", "crosses")
def _sketch_crosses(rng: np.random.Generator) -> list[Path]:
    """Rows of small plus signs (sown seed)."""
    paths = []
    for y in np.linspace(0.28, 0.72, 3):
        for x in np.linspace(0.28, 0.72, 3):
            q = np.array((x, y)) + rng.normal(0, 0.015, 2)
            paths.append(_poly((q[0] - 0.06, q[1]), (q[0] + 0.06, q[1])))
            paths.append(_poly((q[0], q[1] - 0.06), (q[0], q[1] + 0.06)))
    return paths


@_sketch("P", "sun_field")
def _sketch_sun_field(rng: np.random.Generator) -> list[Path]:
    """A small sun over a field line with three sprouts."""
    paths = [circle_path(0.68, 0.3, 0.08, 10)]
    for ang in np.linspace(0, 2 * np.pi, 7)[:-1]:
        d = np.array([np.cos(ang), np.sin(ang)])
        paths.append(_poly(tuple(np.array((0.68, 0.3)) + d * 0.11), tuple(np.array((0.68, 0.3)) + d * 0.16)))
    paths.append(_poly((0.14, 0.72), (0.86, 0.72)))
    for x in (0.3, 0.5, 0.7):
        paths.append(_poly((x, 0.72), (x, 0.56)))
        paths.append(_poly((x, 0.62), (x - 0.05, 0.56)))
        paths.append(_poly((x, 0.62), (x + 0.05, 0.56)))
    return paths


@_sketch("W", "boat")
def _sketch_boat(rng: np.random.Generator) -> list[Path]:
    """A sailing boat on a line of water."""
    return [
        _poly((0.2, 0.62), (0.32, 0.76), (0.68, 0.76), (0.8, 0.62), (0.2, 0.62)),
        _poly((0.5, 0.62), (0.5, 0.16)),
        _poly((0.5, 0.2), (0.72, 0.54), (0.5, 0.54)),
        _wave(0.12, 0.88, 0.84, 0.02, 2.5, 18),
    ]


@_sketch("W", "zigzag")
def _sketch_zigzag(rng: np.random.Generator) -> list[Path]:
    """Sharp zigzag lines across the cell."""
    paths = []
    teeth = int(rng.integers(4, 7))
    for y in np.linspace(0.3, 0.7, int(rng.integers(2, 4))):
        xs = np.linspace(0.16, 0.84, 2 * teeth + 1)
        ys = y + np.where(np.arange(len(xs)) % 2 == 0, 0.05, -0.05)
        paths.append(np.stack([xs, ys], 1))
    return paths


@_sketch("W", "rain")
def _sketch_rain(rng: np.random.Generator) -> list[Path]:
    """Wavy lines running down the cell (a stream seen from above)."""
    paths = []
    for x in np.linspace(0.3, 0.7, 3):
        t = np.linspace(0.16, 0.84, 16)
        paths.append(np.stack([x + 0.04 * np.sin((t - 0.16) / 0.68 * 2 * np.pi * 1.5), t], 1))
    return paths


@_sketch("M", "bat")
def _sketch_bat(rng: np.random.Generator) -> list[Path]:
    """A bat: scalloped wings spread from a small body."""
    wing = [(0.5, 0.42), (0.34, 0.3), (0.12, 0.36), (0.2, 0.5), (0.28, 0.46), (0.34, 0.58), (0.42, 0.52),
            (0.5, 0.62), (0.58, 0.52), (0.66, 0.58), (0.72, 0.46), (0.8, 0.5), (0.88, 0.36), (0.66, 0.3),
            (0.5, 0.42)]
    return [np.array(wing, float), _poly((0.46, 0.36), (0.47, 0.3)), _poly((0.54, 0.36), (0.53, 0.3))]


@_sketch("M", "octopus")
def _sketch_octopus(rng: np.random.Generator) -> list[Path]:
    """A round head with two angry eyes and wavy tentacles below."""
    paths = [ellipse(0.5, 0.38, 0.2, 0.17, np.pi * 0.95, np.pi * 2.05, 14)]
    paths.append(_poly((0.31, 0.42), (0.69, 0.42)))
    paths += [circle_path(0.43, 0.36, 0.03, 6), circle_path(0.57, 0.36, 0.03, 6)]
    for x in np.linspace(0.34, 0.66, 4):
        t = np.linspace(0.42, 0.84, 8)
        paths.append(np.stack([x + 0.035 * np.sin((t - 0.42) * 14), t], 1))
    return paths


@_sketch("M", "jaws")
def _sketch_jaws(rng: np.random.Generator) -> list[Path]:
    """Open jaws: two arcs lined with pointed teeth."""
    upper = ellipse(0.5, 0.5, 0.32, 0.26, np.pi, 2 * np.pi, 14)
    lower = ellipse(0.5, 0.5, 0.32, 0.22, 0, np.pi, 14)
    paths = [upper, lower]
    for x in np.linspace(0.3, 0.7, 5):
        paths.append(_poly((x - 0.04, 0.5 - 0.0), (x, 0.6), (x + 0.04, 0.5)))
    return paths


@_sketch("H", "spear")
def _sketch_spear(rng: np.random.Generator) -> list[Path]:
    """A spear: a long shaft with a leaf-shaped head."""
    return [
        _poly((0.28, 0.86), (0.66, 0.3)),
        _poly((0.66, 0.3), (0.64, 0.2), (0.76, 0.14), (0.74, 0.26), (0.66, 0.3)),
        _poly((0.33, 0.74), (0.41, 0.8)),
    ]


@_sketch("H", "mace")
def _sketch_mace(rng: np.random.Generator) -> list[Path]:
    """A mace: a spiked ball on a handle."""
    paths = [circle_path(0.5, 0.34, 0.12, 12), _poly((0.5, 0.46), (0.5, 0.88))]
    for ang in np.linspace(0, 2 * np.pi, 9)[:-1]:
        d = np.array([np.cos(ang), np.sin(ang)])
        paths.append(_poly(tuple(np.array((0.5, 0.34)) + d * 0.12), tuple(np.array((0.5, 0.34)) + d * 0.19)))
    return paths


def icon_paths(terrain: str, variant: str, rng: np.random.Generator) -> list[Path]:
    """Strokes of a terrain icon in cell-local units (roughly inside [0.15, 0.85]); ``glyph:`` variants
    are icon-font designs (:mod:`models.synth.glyphs`), ``gram:`` ones designs composed from parts
    (:mod:`models.synth.grammar`), ``out:`` ones a second author's held-out designs
    (:mod:`models.synth.outsider`), ``stu:`` ones a third author's (:mod:`models.synth.studio`)."""
    if is_glyph(variant):
        return glyph_icon(variant, rng)
    if is_design(variant):
        return design_paths(variant, rng)
    if is_outsider(variant):
        return outsider_paths(variant, rng)
    if is_studio(variant):
        return studio_paths(variant, rng)
    more = _MORE_ICONS.get((terrain, variant)) or _SKETCH_ICONS.get((terrain, variant))
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
                p.append(circle_path(x, y, r, 12, 0.1, rng.uniform(0, 6)))
                p.append(a([(x, y + r), (x + rng.normal(0, 0.01), y + r + rng.uniform(0.12, 0.17))]))
        elif variant == "cloud":
            p.append(circle_path(0.5, 0.38, 0.2, 22, 0.12, rng.uniform(0, 6)))
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
            p.append(circle_path(0.5, 0.6, 0.06, 8))
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
            p.append(circle_path(0.5, 0.52, 0.25, 16))
            p.append(a([(0.36, 0.62), (0.42, 0.7), (0.47, 0.62), (0.53, 0.7), (0.58, 0.62), (0.64, 0.7)]))
            p.append(circle_path(0.41, 0.45, 0.035, 6))
            p.append(circle_path(0.59, 0.45, 0.035, 6))
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
        rot = turning(ang)
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
