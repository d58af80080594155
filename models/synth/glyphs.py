"""Icon-font glyphs drawn as a player would draw them: the renderer's ``glyph`` drawing family.

The built-in icons (:mod:`models.synth.icons`) are a few dozen designs; players draw trees, houses,
waves and faces in countless others. Open icon fonts (``glyphs.json``: sources, licences, and which
drawing-style half may use each) hold hundreds of designs of the same things. A glyph is rasterised
once, then turned into pencil strokes in one of three ways a hand would draw it:

- ``stroke``: along the glyph's centre lines (line-icon fonts: a sketch),
- ``outline``: around its outline (a hollow drawing of a solid icon),
- ``solid``: its outline, then the inside filled with dense hatching.

The fonts are installed for training only (``models/synth/fetch_glyph_fonts.sh``); inference never
needs them, and a missing font only narrows the catalogue.
"""

from __future__ import annotations

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
#: Spacing of the hatching that fills a ``solid`` glyph, pixels of the rasterised glyph.
SOLID_SPACING = 3.0
MODES = ("stroke", "outline", "solid")
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
        for k, (font, css, *prefix) in enumerate(info["fonts"]):
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
def glyph_mask(key: str) -> np.ndarray:
    """The glyph ``source:font:name`` rasterised: a bool mask cropped to its ink (about GLYPH_PX tall)."""
    from PIL import Image, ImageDraw, ImageFont

    src, k, name = key.split(":")
    font_spec, css_spec, *prefix = sources()["sources"][src]["fonts"][int(k)]
    code = _codepoints(_resolve(css_spec), *prefix)[name]
    font = ImageFont.truetype(str(_resolve(font_spec)), GLYPH_PX)
    size = 2 * GLYPH_PX
    img = Image.new("L", (size, size), 0)
    ImageDraw.Draw(img).text((size // 2, size // 2), chr(code), fill=255, font=font, anchor="mm")
    mask = np.asarray(img) > 127
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return np.zeros((1, 1), bool)
    return np.pad(mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], 2)


def is_line_icon(key: str) -> bool:
    """Whether the glyph is drawn with thin lines (else it is a solid shape)."""
    mask = glyph_mask(key)
    dist = cv2.distanceTransform(mask.astype(np.uint8), cv2.DIST_L2, 3)
    return bool(2 * dist.max() < LINE_ICON * max(mask.shape))


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


def icon_key(key: str, mode: str) -> str:
    """The icon variant name a :class:`~models.synth.style.TerrainLook` carries for a glyph."""
    return f"glyph:{key}:{mode}"


def is_glyph(variant: str) -> bool:
    return variant.startswith("glyph:")


def glyph_icon(variant: str) -> list[Path2]:
    """Strokes of an icon variant made by :func:`icon_key`."""
    _, src, k, name, mode = variant.split(":")
    return [p.copy() for p in glyph_strokes(f"{src}:{k}:{name}", mode)]


def pick_glyph(rng: np.random.Generator, terrain: str, half: str) -> str | None:
    """A random glyph icon variant for ``terrain`` from the sources of ``half`` (None when none is
    installed), with the way this player draws it: line icons mostly along their lines, solid ones
    outlined or filled in."""
    keys = catalogue(half).get(terrain, ())
    if not keys:
        return None
    key = str(keys[int(rng.integers(len(keys)))])
    if is_line_icon(key):
        mode = "stroke" if rng.random() < 0.8 else "outline"
    else:
        mode = "outline" if rng.random() < 0.5 else "solid"
    return icon_key(key, mode)


__all__ = ["MODES", "catalogue", "glyph_icon", "glyph_strokes", "is_glyph", "pick_glyph"]
