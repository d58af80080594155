"""What players draw on the sheet: terrain fills and icons, piece outlines, X, hit marks, coins, scores.

The icons' shapes are in :mod:`models.synth.icons`.

Every function takes the :class:`~models.synth.strokes.Canvas`, the page layout (cell units to pixels)
and a random generator, and draws strokes; nothing here decides *what* the truth is, only how it looks.
Shapes are written in cell-local units (0..1 across one cell) and mapped to pixels at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from models.synth.icons import icon_paths, varied_icon
from models.synth.ink import Layout
from models.synth.shapes import circle_path, ellipse, turning
from models.synth.strokes import Canvas, Layer, clip_segment, jitter_path
from models.synth.style import (
    CROSS_REACH,
    FILLED_COIN_MARKS,
    FILLED_CROSS_REACH,
    SCRAWL_PASSES,
    CoinCross,
    DrawStyle,
    Hand,
    TerrainLook,
)
from rules.grid import SIZE as GRID_SIZE
from rules.grid import Cell
from scanner.geometry import geometry

Path = np.ndarray  # (N, 2) points in cell-local units

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
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """Strokes and filled polygons (cell units) marking coin `index` (1 gained, 2 spent), and the
    strokes of its cross (spent coins only)."""
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
    marked = state == 1 or (style.coin_cross_fill and style.coin_mark != "solid")
    if marked:
        mark = style.coin_mark
        if mark == "scribble":
            k = int(rng.integers(7, 12))
            t = np.linspace(0, 1, k)
            xs = cx - rad * 0.8 + 1.6 * rad * t
            ys = cy + np.where(np.arange(k) % 2 == 0, -1, 1) * rad * 0.8 * np.sqrt(1 - (2 * t - 1) ** 2 * 0.6)
            paths.append(np.stack([xs, ys], 1))
        elif mark == "solid":
            polys.append(circle_path(cx, cy, rad * 0.9, 16) + rng.normal(0, 0.01, (17, 2)))
            paths.append(circle_path(cx, cy, rad * 0.95, 16, 0.0, rng.uniform(0, 6)))
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
            half = ellipse(cx, cy, rad * 0.9, rad * 0.9, start, start + np.pi, 12)
            polys.append(half)
            paths.append(np.vstack([half, half[:1]]))
        elif mark in _MORE_COIN_MARKS:
            more_paths, more_polys = _MORE_COIN_MARKS[mark](c0, rad, rng)
            paths += more_paths
            polys += more_polys
        else:  # ring_dot
            paths.append(circle_path(cx, cy, rad * 1.15, 16, 0.0, rng.uniform(0, 6)))
            polys.append(circle_path(cx, cy, rad * 0.3, 8))
    crosses: list[np.ndarray] = []
    if state == 2:
        if style.coin_cross is None:  # the plain X (eval and params hands: their draws never move)
            e = rad * rng.uniform(0.95, 1.25)
            crosses.append(np.array([(cx - e, cy - e), (cx + e, cy + e)]))
            crosses.append(np.array([(cx + e, cy - e), (cx - e, cy + e)]))
        else:
            filled = marked and style.coin_mark in FILLED_COIN_MARKS
            least = FILLED_CROSS_REACH * geo.coin_radius if filled else 0.0
            crosses = cross_strokes(c0, rad, style.coin_cross, rng, least=least)
    return paths, polys, crosses


def cross_strokes(
    c0: np.ndarray, rad: float, cross: CoinCross, rng: np.random.Generator, *, least: float = 0.0
) -> list[np.ndarray]:
    """The strokes of one X over a coin of radius `rad` at `c0` (cell units), drawn as `cross` says.

    Every arm's end lies at least `least` (cell units) out along both axes of the X, as ``reach`` is
    counted: over a filled gain mark a short X would look like the fill's own stroke ends, so there
    the X runs past the rim. Such a hand's reach, from its least to its widest, is then spread over
    `least` to its widest instead (a hand crossing small crosses small, but past the rim).
    """
    turn = np.deg2rad(cross.tilt + rng.normal(0, 4))
    rot = turning(turn)
    reach = cross.reach
    if least > 0:
        lo, hi = CROSS_REACH
        low = least / rad
        top = max(low, hi)
        reach = low + (top - low) * float(np.clip((reach - lo) / (hi - lo), 0, 1))
    # each arm its own length: top-left, bottom-right, top-right, bottom-left
    arms = np.array([(-1, -1), (1, 1), (1, -1), (-1, 1)], float)
    ends = c0 + (arms * np.maximum(rad * reach * rng.uniform(0.85, 1.15, (4, 1)), least)) @ rot.T
    a, b, c, d = ends
    if cross.strokes == "one":  # down one diagonal, up the side, down the other without lifting
        return [np.array([a, b, c, d])]
    strokes = [np.array([a, b]), np.array([c, d])]
    if cross.strokes == "twice":
        strokes += [s + rng.normal(0, rad * 0.06, s.shape) for s in strokes]
    if cross.strokes == "scrawl":
        # each diagonal gone over back and forth, off the line a little each time: a thick, ragged X
        strokes = [(s[::-1] if k % 2 else s) + rng.normal(0, rad * 0.08, s.shape)
                   for s in strokes for k in range(SCRAWL_PASSES)]
    return strokes


def _circled(c0: np.ndarray, rad: float, rng: np.random.Generator) -> tuple[list[Path], list[Path]]:
    """A loose loop drawn round the coin, its ends overlapping."""
    r = rad * rng.uniform(1.0, 1.35)
    start = rng.uniform(0, 2 * np.pi)
    sweep = 2 * np.pi + rng.uniform(0.1, 0.7)
    rx, ry = r * rng.uniform(0.9, 1.1, 2)
    loop = ellipse(c0[0], c0[1], rx, ry, start, start + sweep, 18)
    return [loop + rng.normal(0, rad * 0.03, loop.shape)], []


def _dot(c0: np.ndarray, rad: float, rng: np.random.Generator) -> tuple[list[Path], list[Path]]:
    """A blob of ink on the coin, most of the coin left bare."""
    r = rad * rng.uniform(0.25, 0.6)
    at = c0 + rng.normal(0, rad * 0.08, 2)
    blob = circle_path(at[0], at[1], r, 10) + rng.normal(0, r * 0.08, (11, 2))
    return [blob], [blob]


def _spiral(c0: np.ndarray, rad: float, rng: np.random.Generator) -> tuple[list[Path], list[Path]]:
    """A spiral wound out from the middle of the coin."""
    turns = rng.uniform(1.5, 2.7)
    t = np.linspace(0, turns * 2 * np.pi, int(turns * 12))
    r = rad * rng.uniform(0.7, 1.0) * t / t[-1]
    start = rng.uniform(0, 2 * np.pi)
    return [c0 + np.stack([r * np.cos(t + start), r * np.sin(t + start)], 1)], []


def _box(c0: np.ndarray, rad: float, rng: np.random.Generator) -> tuple[list[Path], list[Path]]:
    """A square drawn round (or over) the coin, slightly turned."""
    h = rad * rng.uniform(0.75, 1.0)
    turn = rng.normal(0, 0.12)
    rot = turning(turn)
    corners = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1), (-1, -1)], float) * h
    return [c0 + corners @ rot.T + rng.normal(0, rad * 0.04, (5, 2))], []


def _star(c0: np.ndarray, rad: float, rng: np.random.Generator) -> tuple[list[Path], list[Path]]:
    """A five-pointed star drawn in one line over the coin."""
    r = rad * rng.uniform(0.75, 1.05)
    t = rng.uniform(0, 2 * np.pi) + np.arange(6) * 4 * np.pi / 5
    return [c0 + r * np.stack([np.cos(t), np.sin(t)], 1) + rng.normal(0, rad * 0.04, (6, 2))], []


#: The gain marks only training hands draw (:data:`models.synth.style.TRAIN_ONLY_COIN_MARKS`).
_MORE_COIN_MARKS = {"circled": _circled, "dot": _dot, "spiral": _spiral, "box": _box, "star": _star}


def _marks_of(
    states: Sequence[int], style: DrawStyle, rng: np.random.Generator, *, crosses_apart: bool
) -> tuple[list[np.ndarray], list[np.ndarray], list[np.ndarray]]:
    """The strokes and polygons marking a whole track (cell units) and its crosses' strokes; unless
    `crosses_apart`, each coin's cross goes with its mark's strokes (the order they were always drawn)."""
    paths: list[np.ndarray] = []
    polys: list[np.ndarray] = []
    crosses: list[np.ndarray] = []
    for i, st in enumerate(states):
        if st:
            pa, po, cr = coin_marks(i, st, style, rng)
            paths += pa
            polys += po
            if crosses_apart:
                crosses += cr
            else:
                paths += cr
    return paths, polys, crosses


def draw_coins(
    canvas: Canvas, lay: Layout, states: Sequence[int], style: DrawStyle, rng: np.random.Generator
) -> None:
    """Mark the coin track: state 1 = gained (filled), 2 = spent (crossed out).

    A training hand (``style.coin_cross`` set) marks and crosses out coins in its own way, from a
    generator of its own; the page's stream first moves on exactly as the plain marks and X would have
    moved it, so the rest of a training page (its season scores, the camera) stays as it was.
    """
    if not any(states):
        return
    geo = geometry()
    x0, y0, x1, y1 = geo.coin_band
    hand = style.hand
    box = (*lay.px((x0 - 0.3, y0 - 0.3)), *lay.px((x1 + 0.3, y1 + 0.3)))
    width = max(1.0, max(hand.width, 0.03) * lay.ppc * 1.2)
    pressure = 0.8 + 0.2 * hand.pressure
    jitter, step = hand.jitter * lay.ppc, max(2.0, lay.ppc * 0.05)
    cross = style.coin_cross
    paths, polys, crosses = _marks_of(states, replace(style, coin_cross=None), rng, crosses_apart=False)
    if cross is not None:
        # the plain marks' strokes on a scratch layer, only for the draws they take
        Layer(0, 0, 1, 1).strokes([lay.px(p) for p in paths], width, pressure, rng, jitter=jitter, step=step,
                                  lift=0.1)
        rng = rng.spawn(1)[0]
        own = replace(style, coin_mark=style.coin_own_mark or style.coin_mark)
        paths, polys, crosses = _marks_of(states, own, rng, crosses_apart=True)
    with canvas.layer(box, hand.graphite, 0.95, grain=_grain(hand)) as lyr:
        for poly in polys:
            lyr.fill(lay.px(poly), hand.pressure * 0.9)
        lyr.strokes([lay.px(p) for p in paths], width, pressure, rng, jitter=jitter, step=step, lift=0.1)
    if crosses and cross is not None:
        # crossed out later in the game, perhaps with another pen: a layer of its own
        with canvas.layer(box, cross.color, 0.95, grain=cross.grain, blur=cross.bleed) as lyr:
            lyr.strokes([lay.px(p) for p in crosses], max(1.0, width * cross.weight), cross.pressure, rng,
                        jitter=jitter, step=step, lift=0.1)


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
