"""Icon-font glyphs drawn as a player would draw them: the renderer's ``glyph`` drawing family.

The built-in icons (:mod:`models.synth.icons`) are a few dozen designs; players draw trees, houses,
waves and faces in countless others. Open icon fonts (``glyphs.json``: sources, licences, and which
drawing-style half may use each) hold hundreds of designs of the same things. A glyph is rasterised
once, then turned into pencil strokes in one of three ways a hand would draw it:

- ``stroke``: along the glyph's centre lines (line-icon fonts: a sketch),
- ``outline``: around its outline (a hollow drawing of a solid icon),
- ``solid``: its outline, then the inside filled with dense hatching.

A font draws exact outlines; a player sketches. A share of the training split's glyph looks
(:data:`SKETCH_SHARE`) is therefore drawn ``sketched`` (:func:`sketch_strokes`, anew in every cell):
corners cut, lines wobbling, strokes left out or cut short, loops left open or run past their start,
line ends overshooting. The eval and params splits never draw it, so their renders are unchanged.

Fonts draw what a designer drew. Players' own hands are nearer to the doodles of Google's *Quick, Draw!*
game (``glyphs.json`` → ``doodles``: trees, houses, rivers, skulls, swords, ... each category a
hundred drawings by different people, 28 px bitmaps), drawn along their lines like a line icon. The
first :data:`DOODLE_TRAIN` drawings of a category are the training pictures, the rest held out: the
``doodle`` drawing family (:func:`pick_doodle`) draws every terrain as a doodle of its half. No other
family draws doodles and the committed nets never trained on them: the family measures hands of
hundreds of people the models have never seen (mixing training doodles into the glyph family was
measured and not kept, see README).

Iconify icon sets (``glyphs.json`` sources with ``iconify``: SVG path data of icon sets that ship no
font) add thousands more training designs; their names per terrain are listed by hand (``icons``), as
a keyword search in them finds as much junk as icons. They are drawn with the PyPI package
``resvg-py`` (the ``train`` extra); without it they are left out.

The fonts and doodles are installed for training only (``models/synth/fetch_glyph_fonts.sh``);
inference never needs them, and a missing font or doodle file only narrows the catalogue.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np

Path2 = np.ndarray  # (N, 2) points in cell-local units

GLYPH_PX = 64  # rasterised glyph height, pixels
GLYPH_BOX = 0.62  # the glyph's longer side, cell units, before a hand's own size variation
#: A glyph whose thickest stroke is under this share of its size is a line icon (drawn along its centre).
LINE_ICON = 0.09
#: The training pictures' test (:func:`is_even_line_icon`): a line icon draws one pen width, so the
#: median width along its centre line is under this share of its size, and under this share of the
#: centre line is wider than :data:`EVEN_LINE_SPREAD` times that median (joins and dots are). The
#: thickest-stroke test above reads most stroked designs (lucide, tabler, iconoir) as solid ones
#: because their joins are thick; the held-out half keeps it, so its renders stay as measured.
EVEN_LINE_WIDTH = 0.10
EVEN_LINE_SPREAD = 1.6
EVEN_LINE_THICK = 0.12
#: Spacing of the hatching that fills a ``solid`` glyph, pixels of the rasterised glyph.
SOLID_SPACING = 3.0
MODES = ("stroke", "outline", "solid")
#: Share of the training split's glyph looks drawn sketched (:func:`sketch_strokes`).
SKETCH_SHARE = 0.5
#: Tolerance range for cutting corners (cv2.approxPolyDP), cell units.
SKETCH_SIMPLIFY = (0.004, 0.03)
#: Amplitude range of the low-frequency wobble of a line, cell units, and its wavelength range.
SKETCH_WOBBLE = (0.003, 0.01)
SKETCH_WAVELENGTH = (0.2, 0.6)
#: Amplitude of the smooth warp of the whole drawing (proportions a hand gets a little wrong), cell units.
SKETCH_WARP = 0.03
#: Chance that a stroke is left out, and the largest share of a stroke's length cut from an end.
SKETCH_DROP = 0.12
SKETCH_SHORTEN = 0.15
#: Largest overshoot past a line end (and past a loop's start), cell units.
SKETCH_OVERSHOOT = 0.035
#: Spacing of the points a sketched line is redrawn through, cell units.
SKETCH_STEP = 0.008
_SKETCHED = ":sketch"
#: Drawings of each category that are training pictures; the rest are the held-out pictures.
DOODLE_TRAIN = 80
#: Side of a doodle bitmap, pixels; its upscaling before tracing; the ink level counted as line.
DOODLE_PX = 28
DOODLE_UPSCALE = 2
DOODLE_LEVEL = 0.25
_DOODLE_SOURCE = "quickdraw"
#: Name suffixes that mark a weight of the same design (``tree-fill`` is a ``tree``).
_SUFFIXES = ("-filled", "-fill", "-outline", "-line")
#: ``.class:before { content: "\\e001" }``; some stylesheets write the character itself, in either quotes.
_RULE = re.compile(r"\.([a-z0-9_-]+):{1,2}before\s*\{\s*content:\s*[\"'](\\[0-9a-fA-F]+|[^\"'\\])[\"']", re.S)


def glyph_root() -> Path:
    """Where ``fetch_glyph_fonts.sh`` unpacked the npm fonts (``CARTOSCAN_GLYPHS`` overrides)."""
    env = os.environ.get("CARTOSCAN_GLYPHS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / ".cache" / "iconfonts"


@cache
def sources() -> dict[str, Any]:
    """The parsed ``glyphs.json``."""
    text = resources.files("models.synth").joinpath("glyphs.json").read_text(encoding="utf-8")
    return dict(json.loads(text))


def _has_resvg() -> bool:
    return importlib.util.find_spec("resvg_py") is not None


@cache
def _iconify(spec: str) -> dict[str, Any]:
    """An Iconify set's ``icons.json`` (empty when it is not installed)."""
    path = _resolve(spec)
    return dict(json.loads(path.read_text(encoding="utf-8"))) if path.is_file() else {}


def _resolve(spec: str) -> Path:
    return glyph_root() / spec[4:] if spec.startswith("npm:") else Path(spec)


@cache
def _codepoints(css: Path, prefix: str = "") -> dict[str, int]:
    """Icon name -> codepoint from an icon font's stylesheet (read once: every glyph of a font asks).

    The class prefix is stripped: ``prefix`` when given (only its classes count: ``bxs-`` picks the
    solid weight of a font whose stylesheet holds two), else the class's first word. Underscores
    read as hyphens (``water_drop`` is ``water-drop``).
    """
    out: dict[str, int] = {}
    for cls, code in _RULE.findall(css.read_text(encoding="utf-8", errors="replace")):
        if prefix:
            if not cls.startswith(prefix):
                continue
            name = cls[len(prefix) :]
        else:
            name = cls.split("-", 1)[1] if "-" in cls else cls
        out.setdefault(name.replace("_", "-"), int(code[1:], 16) if code.startswith("\\") else ord(code))
    return out


@cache
def catalogue(half: str) -> dict[str, tuple[str, ...]]:
    """Terrain symbol -> glyph keys (``source:font:name``) of the sources in drawing-style ``half``.

    Only installed fonts count; each font weight of a design is its own key.
    """
    data = sources()
    wanted = {t: set(names) for t, names in data["names"].items()}
    if half == "train":
        # names only the training sources are searched for: the held-out catalogue stays as measured
        for t, names in data["train_names"].items():
            wanted[t] |= set(names)
    out: dict[str, list[str]] = {t: [] for t in wanted}
    for src, info in data["sources"].items():
        if info["half"] != half:
            continue
        if "iconify" in info:
            have = _iconify(info["iconify"]).get("icons", {}) if _has_resvg() else {}
            for t, names in info["icons"].items():
                out[t] += [f"{src}:0:{name}" for name in names if name in have]
            continue
        for k, (font, css, *prefix) in enumerate(info.get("fonts", ())):
            fpath, cpath = _resolve(font), _resolve(css)
            if not (fpath.is_file() and cpath.is_file()):
                continue
            for name in sorted(set(_codepoints(cpath, *prefix)) - set(info.get("exclude", ()))):
                base = next((name[: -len(s)] for s in _SUFFIXES if name.endswith(s)), name)
                for t, names in wanted.items():
                    if base in names:
                        out[t].append(f"{src}:{k}:{name}")
    return {t: tuple(v) for t, v in out.items()}


@cache
def doodle_bitmaps(category: str) -> np.ndarray:
    """The doodles of one *Quick, Draw!* category: (N, 28, 28) float ink in [0, 1] (none: (0, 28, 28))."""
    path = _resolve(sources()["doodles"]["path"]) / f"{category}.ndjson.gz"
    if not path.is_file():
        return np.zeros((0, DOODLE_PX, DOODLE_PX), np.float32)
    with gzip.open(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return np.asarray(rows, np.float32).reshape(-1, DOODLE_PX, DOODLE_PX)


@cache
def doodle_catalogue(half: str = "train") -> dict[str, tuple[str, ...]]:
    """Terrain symbol -> doodle keys (``quickdraw:category:index``) of the installed categories, the
    training pictures (``half="train"``: the first :data:`DOODLE_TRAIN` of each category) or the
    held-out ones (``"eval"``)."""
    terrains = sources()["doodles"]["terrains"]

    def drawings(category: str) -> range:
        n = len(doodle_bitmaps(category))
        return range(min(n, DOODLE_TRAIN)) if half == "train" else range(DOODLE_TRAIN, n)

    return {t: tuple(f"{_DOODLE_SOURCE}:{c}:{i}" for c in cats for i in drawings(c))
            for t, cats in terrains.items()}


def pick_doodle(rng: np.random.Generator, terrain: str, half: str) -> str | None:
    """A random doodle of ``terrain`` from the pictures of ``half`` as an icon variant, drawn along
    its lines (None when no doodle is installed)."""
    keys = doodle_catalogue(half).get(terrain, ())
    if not keys:
        return None
    return icon_key(str(keys[int(rng.integers(len(keys)))]), "stroke")


def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return np.zeros((1, 1), bool)
    return np.pad(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], 2)


@cache
def glyph_mask(key: str) -> np.ndarray:
    """The glyph ``source:font:name`` rasterised (a doodle ``quickdraw:category:index`` upscaled): a
    bool mask cropped to its ink (about GLYPH_PX tall)."""
    from PIL import Image, ImageDraw, ImageFont

    src, k, name = key.split(":")
    if src == _DOODLE_SOURCE:
        ink = doodle_bitmaps(k)[int(name)]
        big = cv2.resize(ink, None, fx=DOODLE_UPSCALE, fy=DOODLE_UPSCALE, interpolation=cv2.INTER_LINEAR)
        return _crop(big > DOODLE_LEVEL)
    info = sources()["sources"][src]
    if "iconify" in info:
        return _svg_mask(_iconify(info["iconify"]), name)
    font_spec, css_spec, *prefix = info["fonts"][int(k)]
    code = _codepoints(_resolve(css_spec), *prefix)[name]
    font = ImageFont.truetype(str(_resolve(font_spec)), GLYPH_PX)
    size = 2 * GLYPH_PX
    img = Image.new("L", (size, size), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), chr(code), fill=255, font=font, anchor="mm")
    return _crop(np.asarray(img) > 127)


def _svg_mask(iconset: dict[str, Any], name: str) -> np.ndarray:
    """Icon ``name`` of an Iconify set rasterised like a font glyph: its longer side GLYPH_PX in the
    middle of a 2 * GLYPH_PX canvas (room for paths that run past the view box), alpha as the mask."""
    import resvg_py
    from PIL import Image

    icon = iconset["icons"][name]
    x, y, w, h = (float(icon.get(a, iconset.get(a, d))) for a, d in
                  (("left", 0), ("top", 0), ("width", 16), ("height", 16)))
    side = 2 * max(w, h)  # view box units across the canvas
    box = f"{x + w / 2 - side / 2} {y + h / 2 - side / 2} {side} {side}"
    size = 2 * GLYPH_PX
    # currentColor is the page's text colour in a browser: any opaque colour draws the same alpha
    body = icon["body"].replace("currentColor", "#000")
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="{box}">'
           f"{body}</svg>")
    png = resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True)
    alpha = Image.open(io.BytesIO(png)).convert("RGBA").getchannel("A")
    return _crop(np.asarray(alpha) > 127)


def is_line_icon(key: str) -> bool:
    """Whether the glyph is drawn with thin lines (else it is a solid shape)."""
    mask = glyph_mask(key)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    return bool(2 * dist.max() < LINE_ICON * max(mask.shape))


@cache
def is_even_line_icon(key: str) -> bool:
    """Whether the glyph is drawn in lines of one even width (:data:`EVEN_LINE_WIDTH`), thick joins
    and dots allowed: a stroked design a player would draw along its lines."""
    from skimage.morphology import skeletonize

    mask = glyph_mask(key)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    widths = 2 * dist[skeletonize(mask)]
    if not len(widths):
        return False
    median = float(np.median(widths))
    even = (median < EVEN_LINE_WIDTH * max(mask.shape)
            and np.mean(widths > EVEN_LINE_SPREAD * median) < EVEN_LINE_THICK)
    # a design of dots only (tabler's thin 'grain') has no centre line long enough to draw along
    return bool(even and glyph_strokes(key, "stroke"))


def _to_cell(paths: list[np.ndarray], shape: tuple[int, int]) -> list[Path2]:
    """Pixel paths of a glyph mask -> cell-local units, the glyph centred, its longer side GLYPH_BOX."""
    h, w = shape
    scale = GLYPH_BOX / max(h, w)
    return [(p - (w / 2.0, h / 2.0)) * scale + 0.5 for p in paths if len(p) >= 2]


def _contours(mask: np.ndarray, eps: float) -> list[np.ndarray]:
    found, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    out = []
    for c in found:
        if len(c) < 3:
            continue
        poly = cv2.approxPolyDP(c, eps, True).reshape(-1, 2).astype(np.float64)
        out.append(np.vstack([poly, poly[:1]]))
    return out


def _hatch_inside(mask: np.ndarray, angle_deg: float, spacing: float) -> list[np.ndarray]:
    """Straight hatching clipped to the mask: the runs of each line that lie inside the glyph."""
    h, w = mask.shape
    ang = np.deg2rad(angle_deg)
    d = np.array([np.cos(ang), np.sin(ang)])
    nrm = np.array([-d[1], d[0]])
    centre = np.array([w / 2.0, h / 2.0])
    half = np.hypot(h, w) / 2
    t = np.arange(-half, half, 1.0)
    out = []
    for off in np.arange(-half, half, spacing):
        pts = centre + nrm * off + t[:, None] * d
        xi, yi = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        ok = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
        inside = np.zeros(len(t), bool)
        inside[ok] = mask[yi[ok], xi[ok]]
        edges = np.flatnonzero(np.diff(np.r_[0, inside.astype(np.int8), 0]))
        for a, b in zip(edges[0::2], edges[1::2], strict=True):
            if b - a >= 3:
                out.append(np.array([pts[a], pts[b - 1]]))
    return out


@cache
def glyph_strokes(key: str, mode: str) -> tuple[Path2, ...]:
    """Pencil strokes (cell-local units) drawing glyph ``source:font:name`` in ``mode`` (:data:`MODES`)."""
    if mode not in MODES:
        raise ValueError(f"unknown glyph mode {mode!r}: expected one of {', '.join(MODES)}")
    from skimage.morphology import skeletonize

    mask = glyph_mask(key)
    if mode == "stroke":
        # a one-pixel skeleton's contour runs along each centre line (there and back: gone over twice)
        skel = skeletonize(cv2.dilate(mask.astype(np.uint8), np.ones((2, 2), np.uint8)) > 0)
        paths = _contours(skel, 1.0)
    else:
        paths = _contours(mask, 1.2)
        if mode == "solid":
            paths += _hatch_inside(mask, 45.0 + 90.0 * (len(key) % 2), SOLID_SPACING)
    return tuple(_to_cell(paths, mask.shape))


def _resample(p: Path2, step: float) -> tuple[Path2, np.ndarray]:
    """Points every ``step`` along polyline ``p`` (its corners kept), with their arc lengths."""
    seg = np.hypot(*np.diff(p, axis=0).T)
    s = np.r_[0.0, np.cumsum(seg)]
    t = np.union1d(np.arange(0.0, s[-1], step), s)
    return np.column_stack([np.interp(t, s, p[:, 0]), np.interp(t, s, p[:, 1])]), t


def _cut(p: Path2, t: np.ndarray, a: float, b: float) -> Path2:
    """The stretch of polyline ``p`` (arc lengths ``t``) between arc lengths ``a`` < ``b``."""
    keep = (t > a) & (t < b)
    ends = [np.array([[np.interp(x, t, p[:, 0]), np.interp(x, t, p[:, 1])]]) for x in (a, b)]
    return np.vstack([ends[0], p[keep], ends[1]])


def _sketch_one(p: Path2, rng: np.random.Generator, eps: float, amp: float) -> Path2:
    """One stroke redrawn by hand: corners cut, loop opened, ends cut or run on, a low wobble."""
    closed = len(p) > 3 and bool(np.allclose(p[0], p[-1]))
    if closed:  # a hand starts a loop anywhere, and rarely meets its start exactly
        p = np.roll(p[:-1], -int(rng.integers(len(p) - 1)), axis=0)
        p = np.vstack([p, p[:1]])
    p = cv2.approxPolyDP(p.astype(np.float32).reshape(-1, 1, 2), eps, False).reshape(-1, 2).astype(np.float64)
    pts, t = _resample(p, SKETCH_STEP)
    length = float(t[-1])
    if length < 0.02:
        return pts
    if closed:
        # a loop runs past its start, or stops short of it
        run = rng.uniform(-0.5, 1.0) * SKETCH_OVERSHOOT
        if run > 0:
            more = _cut(pts, t, 0.0, min(run, length * 0.5))
            pts, t = _resample(np.vstack([pts, more[1:]]), SKETCH_STEP)
        else:
            pts = _cut(pts, t, 0.0, length + run)
            pts, t = _resample(pts, SKETCH_STEP)
    else:
        a, b = rng.uniform(0.0, SKETCH_SHORTEN, 2) * length * (rng.random(2) < 0.4)
        pts = _cut(pts, t, a, length - b)
        # ends overshoot along their own direction
        for end, nxt in ((0, 1), (-1, -2)):
            d = pts[end] - pts[nxt]
            n = float(np.hypot(*d))
            if n > 1e-9 and rng.random() < 0.5:
                tip = pts[end] + d / n * rng.uniform(0.0, SKETCH_OVERSHOOT)
                pts = np.vstack([pts, tip]) if end == -1 else np.vstack([tip, pts])
        pts, t = _resample(pts, SKETCH_STEP)
    # low-frequency wobble: a smooth drift along the line (two sines each way), no kink at corners
    off = np.zeros((len(t), 2))
    for _ in range(2):
        wl = rng.uniform(*SKETCH_WAVELENGTH, 2)
        ph = rng.uniform(0, 2 * np.pi, 2)
        off += amp * rng.uniform(0.3, 1.0, 2) * np.sin(2 * np.pi * t[:, None] / wl + ph)
    return pts + off


def sketch_strokes(paths: list[Path2], rng: np.random.Generator) -> list[Path2]:
    """Exact strokes (cell-local units) redrawn as a player's quick sketch of them.

    Parameters
    ----------
    paths : strokes of one drawing, (N, 2) points in cell units; a stroke whose ends meet is a loop.
    rng : the randomness of this one drawing (the same seed gives the same sketch).

    Returns
    -------
    The sketched strokes: corners cut (cv2.approxPolyDP), each line wobbling at low frequency, the
    whole drawing warped a little, some strokes left out (never the longest) or cut short, open ends
    overshooting, loops opened or run past their start.
    """
    if not paths:
        return []
    eps = rng.uniform(*SKETCH_SIMPLIFY)
    amp = rng.uniform(*SKETCH_WOBBLE)
    lengths = [float(np.hypot(*np.diff(p, axis=0).T).sum()) for p in paths]
    longest = int(np.argmax(lengths))
    out = []
    for i, p in enumerate(paths):
        if i != longest and rng.random() < SKETCH_DROP:
            continue
        out.append(_sketch_one(np.asarray(p, np.float64), rng, eps, amp))
    # a smooth warp of the whole drawing: one low sine each way
    k = rng.uniform(2.0, 5.0, 2)
    ph = rng.uniform(0, 2 * np.pi, 2)
    w = rng.uniform(-1.0, 1.0, 2) * SKETCH_WARP
    return [
        np.column_stack([
            q[:, 0] + w[0] * np.sin(k[0] * q[:, 1] + ph[0]),
            q[:, 1] + w[1] * np.sin(k[1] * q[:, 0] + ph[1]),
        ])
        for q in out
    ]


def icon_key(key: str, mode: str, sketched: bool = False) -> str:
    """The icon variant name a :class:`~models.synth.style.TerrainLook` carries for a glyph (drawn
    through :func:`sketch_strokes` when ``sketched``)."""
    return f"glyph:{key}:{mode}" + (_SKETCHED if sketched else "")


def is_glyph(variant: str) -> bool:
    return variant.startswith("glyph:")


def glyph_icon(variant: str, rng: np.random.Generator) -> list[Path2]:
    """Strokes of an icon variant made by :func:`icon_key` (a sketched one drawn anew from ``rng``;
    ``rng`` is left untouched otherwise)."""
    _, src, k, name, mode, *sketched = variant.split(":")
    paths = [p.copy() for p in glyph_strokes(f"{src}:{k}:{name}", mode)]
    return sketch_strokes(paths, rng) if sketched else paths


def pick_glyph(rng: np.random.Generator, terrain: str, half: str, sketch: bool = False) -> str | None:
    """A random glyph icon variant for ``terrain`` from the sources of ``half`` (None when none is
    installed), with the way this player draws it: line icons mostly along their lines, solid ones
    outlined or filled in (the training pictures tell line icons by :func:`is_even_line_icon`, the
    held-out ones by :func:`is_line_icon`); when ``sketch``, :data:`SKETCH_SHARE` of them sketched
    (one more draw from ``rng`` only then, so styles drawn without it are unchanged)."""
    keys = catalogue(half).get(terrain, ())
    if not keys:
        return None
    key = str(keys[int(rng.integers(len(keys)))])
    if is_even_line_icon(key) if half == "train" else is_line_icon(key):
        mode = "stroke" if rng.random() < 0.8 else "outline"
    else:
        mode = "outline" if rng.random() < 0.5 else "solid"
    return icon_key(key, mode, sketch and bool(rng.random() < SKETCH_SHARE))


__all__ = ["MODES", "catalogue", "doodle_bitmaps", "doodle_catalogue", "glyph_icon", "glyph_strokes",
           "is_even_line_icon", "is_glyph", "pick_doodle", "pick_glyph", "sketch_strokes"]
