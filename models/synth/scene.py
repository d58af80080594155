"""The world around a photographed sheet: table tops, clutter, and the light falling on them.

Every function draws in photo pixels and takes the caller's ``numpy.random.Generator``; nothing here
knows about sheets or cards. Sizes of objects are given in photo pixels per cell (``cell``) so that a
die or a coin keeps its real size next to the sheet (one printed cell is about 1.5 cm).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

TABLES = ("wood", "cloth", "plain")

# Texture work happens at a fraction of the output size; tables are out of focus detail anyway.
_TEXTURE_SCALE = 3
# Real-world sizes in printed cells (a cell is ~1.5 cm): coin ~2.2 cm, die 1.6 cm, card 6.3 x 8.8 cm.
_COIN_CELLS = (1.2, 1.7)
_DIE_CELLS = (0.8, 1.2)
_CARD_CELLS = (4.1, 5.7)
_PENCIL_CELLS = (9.0, 12.0, 0.45)
WARM_LIGHT_CHANCE = 0.4  # share of photos under warm indoor light


def smooth_noise(rng: np.random.Generator, size: tuple[int, int], blobs: float) -> np.ndarray:
    """Smooth random field in about [-1, 1].

    Parameters
    ----------
    size : (width, height) of the result.
    blobs : how many bumps fit along the long side.
    """
    w, h = size
    long_side = max(w, h)
    gw = max(2, round(blobs * w / long_side) + 2)
    gh = max(2, round(blobs * h / long_side) + 2)
    grid = rng.standard_normal((gh, gw)).astype(np.float32)
    out = cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.asarray(np.clip(out / 1.5, -1.0, 1.0), dtype=np.float32)


def _hsv_color(h: float, s: float, v: float) -> tuple[float, float, float]:
    """A BGR colour from OpenCV HSV (hue 0-180)."""
    px = np.array([[[h, s, v]]], dtype=np.uint8)
    b, g, r = (float(x) for x in cv2.cvtColor(px, cv2.COLOR_HSV2BGR)[0, 0])
    return b, g, r


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Per-pixel blend of two BGR colours by ``t`` in [0, 1]; float32 (H, W, 3)."""
    t3 = np.clip(t, 0.0, 1.0)[..., None]
    return np.asarray(a[None, None, :] * (1.0 - t3) + b[None, None, :] * t3, dtype=np.float32)


def _stretched_noise(rng: np.random.Generator, size: tuple[int, int], along: float,
                     across: float) -> np.ndarray:
    """Smooth noise with ``along`` bumps in x and ``across`` bumps in y (grain runs along x)."""
    w, h = size
    grid = rng.standard_normal((max(2, int(across) + 2), max(2, int(along) + 2))).astype(np.float32)
    return np.asarray(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), dtype=np.float32)


def _wood(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    # Built with the grain along x, then turned when the frame wants it along y.
    turn = rng.random() < 0.5
    w, h = (size[1], size[0]) if turn else size
    ys = np.arange(h, dtype=np.float32)[:, None]
    period = h / rng.uniform(40.0, 100.0)  # width of one grain line
    warp = _stretched_noise(rng, (w, h), rng.uniform(1, 4), rng.uniform(3, 10)) * period * rng.uniform(2, 6)
    lines = 0.5 + 0.5 * np.sin((ys + warp) * (2 * np.pi / period))
    lines = lines ** rng.uniform(2.0, 6.0)
    tone = _stretched_noise(rng, (w, h), rng.uniform(2, 6), rng.uniform(20, 60)) * 0.25
    planks = int(rng.integers(2, 7))
    edges = np.sort(rng.uniform(0, h, planks))
    plank_id = np.searchsorted(edges, ys[:, 0])
    shift = rng.normal(0.0, 0.12, planks + 1).astype(np.float32)[plank_id][:, None]
    dark = np.array(rng.choice([[25, 45, 80], [30, 60, 105], [45, 80, 125], [20, 30, 45], [60, 100, 150]]),
                    np.float32)
    light = np.clip(dark * rng.uniform(1.3, 1.9) + rng.uniform(0, 25), 0, 255)
    img = _mix(dark, light, 0.75 - 0.45 * lines + tone + shift)
    seam = np.abs(ys[:, 0][:, None] - edges[None, :]).min(1) < 1.0
    img[seam] *= 0.5
    if turn:
        img = np.ascontiguousarray(img.transpose(1, 0, 2))
    return img


def _cloth(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    hue = rng.uniform(0, 180)
    # Muted colours: table cloths and desk mats, not poster paint.
    base = np.array(_hsv_color(hue, rng.uniform(15, 110), rng.uniform(40, 170)), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pitch = rng.uniform(1.2, 3.0)
    weave = np.sin(xs * np.pi / pitch) * np.sin(ys * np.pi / pitch) * rng.uniform(4, 12)
    folds = smooth_noise(rng, size, rng.uniform(3, 8)) * rng.uniform(0.05, 0.2)
    img = base[None, None, :] * (1.0 + folds[..., None]) + weave[..., None]
    if rng.random() < 0.12:  # checked table cloth
        check = max(w, h) / rng.uniform(20, 50)
        mask = ((xs // check + ys // check) % 2).astype(np.float32)
        img *= (1.0 - 0.2 * mask)[..., None]
    return np.asarray(img, dtype=np.float32)


def _plain(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    grey = rng.uniform(20, 235)
    tint = rng.normal(0, 12, 3)
    base = np.clip(grey + tint, 0, 255).astype(np.float32)
    shade = smooth_noise(rng, size, rng.uniform(1, 4)) * rng.uniform(0.02, 0.1)
    return np.asarray(base[None, None, :] * (1.0 + shade[..., None]), dtype=np.float32)


def table(rng: np.random.Generator, size: tuple[int, int], kind: str) -> np.ndarray:
    """A table top of ``kind`` (one of ``TABLES``, or ``"scanner"`` for a white lid), BGR uint8."""
    w, h = size
    if kind == "scanner":
        level = rng.uniform(225, 252)
        img = np.full((h, w, 3), level, np.float32)
        img += smooth_noise(rng, (w, h), 2.0)[..., None] * 4.0
        return np.asarray(np.clip(img, 0, 255), dtype=np.uint8)
    small = (max(8, w // _TEXTURE_SCALE), max(8, h // _TEXTURE_SCALE))
    maker = {"wood": _wood, "cloth": _cloth, "plain": _plain}[kind]
    tex = np.clip(maker(rng, small), 0, 255).astype(np.uint8)
    return np.asarray(cv2.resize(tex, (w, h), interpolation=cv2.INTER_LINEAR), dtype=np.uint8)


# ----------------------------------------------------------------------------------------------- clutter


@dataclass(frozen=True)
class Item:
    """One object on the table, as a polygon (photo px) and how to paint it."""

    kind: str
    polygon: np.ndarray  # (N, 2) float
    color: tuple[float, float, float]
    detail: float  # kind-specific random number (pips, print pattern, ...)


def _rect(center: np.ndarray, w: float, h: float, angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    pts = np.array([[-w, -h], [w, -h], [w, h], [-w, h]], np.float64) / 2
    return np.asarray(pts @ np.array([[c, s], [-s, c]]) + center, dtype=np.float64)


def _pick(rng: np.random.Generator, colors: list[list[int]]) -> tuple[float, float, float]:
    b, g, r = (float(v) for v in colors[int(rng.integers(len(colors)))])
    return b, g, r


def random_items(rng: np.random.Generator, size: tuple[int, int], cell: float, count: int) -> list[Item]:
    """``count`` random clutter objects somewhere in a frame of ``size`` (photo px, ``cell`` px/cell)."""
    w, h = size
    items = []
    for _ in range(count):
        kind = str(rng.choice(["card", "coin", "pencil", "die"], p=[0.35, 0.3, 0.15, 0.2]))
        center = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        angle = rng.uniform(0, np.pi)
        if kind == "card":
            cw, ch = (v * cell * rng.uniform(0.95, 1.05) for v in _CARD_CELLS)
            poly = _rect(center, cw, ch, angle)
            color = _hsv_color(rng.uniform(0, 180), rng.uniform(30, 200), rng.uniform(90, 240))
        elif kind == "coin":
            r = cell * rng.uniform(*_COIN_CELLS) / 2
            t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
            poly = center + r * np.stack([np.cos(t), np.sin(t)], 1)
            color = _pick(rng, [[40, 150, 200], [60, 120, 160], [170, 170, 170]])
        elif kind == "pencil":
            length = cell * rng.uniform(*_PENCIL_CELLS[:2])
            poly = _rect(center, length, cell * _PENCIL_CELLS[2], angle)
            color = _pick(rng, [[30, 200, 240], [40, 40, 180], [60, 140, 60]])
        else:
            side = cell * rng.uniform(*_DIE_CELLS)
            poly = _rect(center, side, side, angle)
            color = _pick(rng, [[245, 245, 245], [40, 40, 200], [30, 30, 30]])
        items.append(Item(kind, poly, color, float(rng.random())))
    return items


def draw_items(img: np.ndarray, items: list[Item], cell: float) -> None:
    """Paint ``items`` (with soft contact shadows) onto ``img`` in place."""
    h, w = img.shape[:2]
    for item in items:
        pad = int(cell * 0.6) + 4
        x0, y0 = np.floor(item.polygon.min(0)).astype(int) - pad
        x1, y1 = np.ceil(item.polygon.max(0)).astype(int) + pad
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        roi = img[y0:y1, x0:x1]
        local = (item.polygon - [x0, y0]).astype(np.float32)
        pts = np.round(local * 4).astype(np.int32)  # 2 bits of sub-pixel precision
        mask: np.ndarray = np.zeros(roi.shape[:2], np.uint8)
        cv2.fillPoly(mask, [pts], 255, cv2.LINE_AA, shift=2)
        # Soft contact shadow, blurred at quarter size (big kernels are slow at 12 MP).
        mh, mw = int(mask.shape[0]), int(mask.shape[1])
        small = cv2.resize(np.roll(mask, (max(1, int(cell * 0.08)),) * 2, (0, 1)),
                           (max(1, mw // 4), max(1, mh // 4)), interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (0, 0), max(0.5, cell * 0.03))
        keep = 255 - cv2.resize(small, (mw, mh), interpolation=cv2.INTER_LINEAR) // 2
        cv2.multiply(roi, cv2.cvtColor(keep, cv2.COLOR_GRAY2BGR), dst=roi, scale=1.0 / 255.0)
        paint = np.empty_like(roi)
        paint[:] = np.array(item.color, np.uint8)
        _decorate(paint, item, local, cell)
        cv2.copyTo(paint, mask, roi)  # the anti-aliased rim is thresholded; invisible under camera blur


def _decorate(paint: np.ndarray, item: Item, local: np.ndarray, cell: float) -> None:
    """Inner detail of an item: card print, coin rim, pencil tip, die pips."""
    center = local.mean(0)
    ctr = (int(center[0]), int(center[1]))
    dark = tuple(float(v) * 0.55 for v in item.color)
    if item.kind == "card":
        inner = center + (local - center) * 0.85
        cv2.polylines(paint, [inner.astype(np.int32)], True, dark, max(1, int(cell * 0.06)), cv2.LINE_AA)
        for k in range(int(2 + item.detail * 4)):
            a = center + (local[0] - center) * (0.6 - 0.2 * k) + (local[1] - local[0]) * 0.1
            b = a + (local[1] - local[0]) * 0.6
            cv2.line(paint, a.astype(np.int32), b.astype(np.int32), dark, max(1, int(cell * 0.05)))
    elif item.kind == "coin":
        r = float(np.linalg.norm(local[0] - center))
        cv2.circle(paint, ctr, int(r * 0.8), dark, max(1, int(r * 0.08)), cv2.LINE_AA)
        light = tuple(min(255.0, float(v) * 1.3 + 20) for v in item.color)
        cv2.ellipse(paint, ctr, (int(r * 0.45), int(r * 0.3)), -30, 180, 300, light, max(1, int(r * 0.1)))
    elif item.kind == "pencil":
        tip = local[1] + (local[2] - local[1]) / 2
        cv2.circle(paint, tuple(int(v) for v in tip), max(1, int(cell * 0.2)), (170, 200, 225), -1)
        cv2.line(paint, tuple(int(v) for v in (local[0] + local[1]) / 2),
                 tuple(int(v) for v in (local[3] + local[2]) / 2), dark, max(1, int(cell * 0.05)))
    else:
        pip = (20.0, 20.0, 20.0) if sum(item.color) > 400 else (235.0, 235.0, 235.0)
        n = 1 + int(item.detail * 6)
        u = (local[1] - local[0]) * 0.27
        v = (local[3] - local[0]) * 0.27
        spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
                 4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
                 6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[n]
        rad = max(1, int(np.linalg.norm(u) * 0.35))
        for a, b in spots:
            p = center + a * u + b * v
            cv2.circle(paint, (int(p[0]), int(p[1])), rad, pip, -1, cv2.LINE_AA)


# ----------------------------------------------------------------------------------------------- light


@dataclass(frozen=True)
class Light:
    """How the light varies over a photo: a multiplicative gain (H, W, 3) and additive glare (H, W)."""

    gain: np.ndarray
    glare: np.ndarray


def _blob(mask: np.ndarray, rng: np.random.Generator, kind: str) -> None:
    """Draw the outline of a hand or a phone (what casts shadows over a table) into ``mask``."""
    h, w = mask.shape
    c = np.array([rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h])
    s = max(w, h) * rng.uniform(0.15, 0.4)
    angle = rng.uniform(0, 360)
    if kind == "phone":
        box = ((float(c[0]), float(c[1])), (float(s * 0.5), float(s)), float(angle))
        cv2.fillPoly(mask, [cv2.boxPoints(box).astype(np.int32)], 255)
        return
    cv2.ellipse(mask, (int(c[0]), int(c[1])), (int(s * 0.35), int(s * 0.45)), angle, 0, 360, 255, -1)
    rad = np.deg2rad(angle)
    for k in range(4):  # fingers fanning out of the palm
        a = rad - 0.5 + k * 0.33
        tip = c + s * np.array([np.sin(a), -np.cos(a)]) * rng.uniform(0.8, 1.1)
        cv2.line(mask, (int(c[0]), int(c[1])), (int(tip[0]), int(tip[1])), 255, max(1, int(s * 0.12)))


def random_light(rng: np.random.Generator, size: tuple[int, int], *, gradient: float, vignette: float,
                 shadows: int, shadow_depth: float, glare: float, cast: float) -> Light:
    """Random light over a frame of ``size``; fields at low resolution (upsample before use).

    Parameters
    ----------
    gradient : strongest linear fall-off across the frame (0.3 = 30 % darker on one side).
    vignette : darkening in the corners.
    shadows : number of hand/phone shadows; ``shadow_depth`` their darkest gain loss.
    glare : peak brightness added by a reflection (0-255 levels); 0 for none.
    cast : spread of the white-balance error per channel.
    """
    w, h = size
    scale = 160.0 / max(w, h)
    sw, sh = max(4, round(w * scale)), max(4, round(h * scale))
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xn, yn = xs / sw - 0.5, ys / sh - 0.5
    d = rng.normal(size=2)
    d /= np.linalg.norm(d) + 1e-9
    gain = 1.0 + gradient * rng.uniform(0.3, 1.0) * (xn * d[0] + yn * d[1])
    gain *= 1.0 - vignette * (xn**2 + yn**2) * 2.0
    mask = np.zeros((sh, sw), np.uint8)
    for _ in range(shadows):
        _blob(mask, rng, str(rng.choice(["hand", "phone"])))
    if shadows:
        soft = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2.0, 8.0)).astype(np.float32) / 255.0
        gain *= 1.0 - shadow_depth * rng.uniform(0.5, 1.0) * soft
    balance = 1.0 + rng.normal(0.0, cast, 3)
    if rng.random() < WARM_LIGHT_CHANCE:  # indoor bulbs: less blue, more red
        balance += np.array([-1.0, 0.0, 1.0]) * rng.uniform(0.03, 0.12)
    gain3 = gain[..., None] * balance.astype(np.float32)[None, None, :]
    flare = np.zeros((sh, sw), np.float32)
    if glare > 0:
        cv2.ellipse(flare, (int(rng.uniform(0.1, 0.9) * sw), int(rng.uniform(0.1, 0.9) * sh)),
                    (int(sw * rng.uniform(0.03, 0.15)), int(sh * rng.uniform(0.02, 0.1))),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        flare = cv2.GaussianBlur(flare, (0, 0), rng.uniform(1.5, 5.0)) * glare
    return Light(gain=np.asarray(gain3, np.float32), glare=flare)
