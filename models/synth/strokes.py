"""Hand-drawn stroke primitives: pressure-varying polylines composited like pencil, crayon or marker.

Everything a player draws goes through :class:`Canvas`: strokes are rasterised with OpenCV into a small
grey-level mask (one mask per cell and colour, not per stroke, to stay cheap), softened, modulated by
the paper grain (pencil skips over the paper's tooth) and multiplied into an ink layer.  Multiplying
is how translucent pigment on paper behaves: colour never lightens what is below, so the printed
ruins icon shows through a filled ruins cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache

import cv2
import numpy as np

_SHIFT = 4  # sub-pixel bits for cv2 drawing
_LEVELS = (0.78, 1.0, 1.18)  # per-stroke pressure variation
#: Paper textures kept: pages come in a continuum of sizes, so an unbounded cache grew by a page-sized
#: map a sheet (a rendering process reached 6.5 GB on 3,000 sheets); the most recent few are enough.
GRAIN_CACHE = 8
_ONE = 1 << _SHIFT


def _fixed(pts: np.ndarray) -> np.ndarray:
    return np.round(np.asarray(pts, dtype=np.float64) * _ONE).astype(np.int32).reshape(-1, 1, 2)


@lru_cache(maxsize=GRAIN_CACHE)
def grain_texture(shape: tuple[int, int], seed: int) -> np.ndarray:
    """Paper tooth as a float32 map in about [0.35, 1]: how much pigment each spot takes.

    Parameters
    ----------
    shape : (h, w)
    seed : int
        Texture seed; a few seeds are cached and reused with random offsets.
    """
    rng = np.random.default_rng(seed)
    h, w = shape
    fine: np.ndarray = rng.random((h, w), dtype=np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.7)
    coarse = cv2.resize(
        rng.random((h // 6 + 2, w // 6 + 2), dtype=np.float32), (w, h), interpolation=cv2.INTER_LINEAR
    )
    tex = 0.6 * fine + 0.4 * coarse
    tex = (tex - tex.min()) / (tex.max() - tex.min() + 1e-6)
    out: np.ndarray = (0.35 + 0.65 * np.sqrt(tex)).astype(np.float32)
    return out


class Layer:
    """A grey-level drawing mask over a rectangle of the page (local pixel coordinates)."""

    def __init__(self, x0: int, y0: int, w: int, h: int) -> None:
        self.x0, self.y0 = x0, y0
        self.mask = np.zeros((h, w), np.uint8)

    def local(self, pts: np.ndarray) -> np.ndarray:
        """Page pixel coordinates to this layer's coordinates."""
        return np.asarray(pts, dtype=np.float64) - (self.x0, self.y0)

    def stroke(
        self,
        pts: np.ndarray,
        width: float,
        pressure: float,
        rng: np.random.Generator,
        *,
        lift: float = 0.25,
        chunks: int = 4,
    ) -> None:
        """Draw one stroke through page points `pts` (N, 2).

        The stroke is cut into `chunks` pieces whose width and darkness follow a pressure profile
        that starts and ends light (`lift` = how much of the length ramps), like a pencil put down
        and lifted in motion.
        """
        p = self.local(pts)
        n = len(p)
        if n < 2:
            return
        k = max(1, min(chunks, n - 1))
        bounds = np.linspace(0, n - 1, k + 1).round().astype(int)
        wobble = 1.0 + 0.18 * rng.standard_normal(k)
        for i in range(k):
            a, b = bounds[i], bounds[i + 1]
            if b <= a:
                continue
            t = (i + 0.5) / k
            ramp = min(1.0, t / lift, (1 - t) / lift) if lift > 0 else 1.0
            pr = float(np.clip(pressure * (0.55 + 0.45 * ramp) * wobble[i], 0.05, 1.0))
            thick = max(1, round(width * (0.6 + 0.4 * ramp) * wobble[i]))
            cv2.polylines(self.mask, [_fixed(p[a : b + 1])], False, int(255 * pr), thick, cv2.LINE_AA, _SHIFT)

    def strokes(
        self,
        paths: list[np.ndarray],
        width: float,
        pressure: float,
        rng: np.random.Generator,
        *,
        jitter: float = 0.0,
        step: float = 3.0,
        lift: float = 0.2,
        layered: bool = False,
    ) -> None:
        """Draw many strokes (page points, each (N, 2)) in a few batched OpenCV calls.

        Each stroke gets one of three pressure levels and light, thinner ends over the first and
        last `lift` of its length (pencil put down and lifted in motion); a darker mark wins where
        strokes cross, as graphite does.  `jitter` is hand tremor in px, `step` the resampling pitch.
        `layered` strokes build up where they overlap, like translucent felt-tip ink.
        """
        if layered and len(paths) > 1:
            for part in (paths[0::2], paths[1::2]):
                self._batch(part, width, pressure, rng, jitter, step, lift, screen=True)
            return
        self._batch(paths, width, pressure, rng, jitter, step, lift, screen=False)

    def _batch(
        self,
        paths: list[np.ndarray],
        width: float,
        pressure: float,
        rng: np.random.Generator,
        jitter: float,
        step: float,
        lift: float,
        *,
        screen: bool,
    ) -> None:
        off = np.array([self.x0, self.y0], np.float64)
        levels = rng.integers(0, len(_LEVELS), len(paths))
        bodies: list[list[np.ndarray]] = [[] for _ in _LEVELS]
        ends: list[list[np.ndarray]] = [[] for _ in _LEVELS]
        for path, k in zip(paths, levels, strict=True):
            q = jitter_path(np.asarray(path, np.float64) - off, rng, jitter, step)
            n = len(q)
            if n < 2:
                continue
            e = int(n * lift) if lift > 0 else 0
            if e >= 1 and n - 2 * e >= 2:
                ends[k].append(q[: e + 1])
                ends[k].append(q[n - 1 - e :])
                bodies[k].append(q[e : n - e])
            else:
                bodies[k].append(q)
        # strokes go on a scratch mask first so that a light stroke never lightens earlier marks
        dst = self.mask
        self.mask = np.zeros_like(dst)
        for group, light in ((ends, 0.55), (bodies, 1.0)):
            for k, f in enumerate(_LEVELS):
                if not group[k]:
                    continue
                pr = min(1.0, max(0.04, pressure * f * light))
                thick = max(1, round(width * f * (0.75 if light < 1 else 1.0)))
                cv2.polylines(
                    self.mask,
                    [_fixed(g) for g in group[k]],
                    False,
                    round(255 * pr),
                    thick,
                    cv2.LINE_AA,
                    _SHIFT,
                )
        if screen:
            # coverage adds up: 1 - (1 - a)(1 - b)
            dst[:] = 255 - (
                (255 - dst.astype(np.uint16)) * (255 - self.mask.astype(np.uint16)) // 255
            ).astype(np.uint8)
        else:
            np.maximum(dst, self.mask, out=dst)
        self.mask = dst

    def fill(self, polygon: np.ndarray, pressure: float) -> None:
        """Fill a page-coordinate polygon at a flat pressure."""
        cv2.fillPoly(
            self.mask, [_fixed(self.local(polygon))], int(255 * np.clip(pressure, 0, 1)), cv2.LINE_AA, _SHIFT
        )

    def text(
        self, text: str, org: tuple[float, float], font: int, scale: float, pressure: float, thickness: int
    ) -> None:
        """Hershey text at page point `org` (bottom-left)."""
        x, y = self.local(np.array(org))
        cv2.putText(
            self.mask, text, (round(x), round(y)), font, scale, int(255 * pressure), thickness, cv2.LINE_AA
        )


class Canvas:
    """The page being drawn on: a printed blank and a multiplicative ink layer.

    Parameters
    ----------
    blank : (H, W, 3) uint8
        The printed sheet.
    grain : (Hg, Wg) float32
        Paper tooth, at least as large as the page; a random window of it is used.
    rng : numpy Generator
    """

    def __init__(self, blank: np.ndarray, grain: np.ndarray, rng: np.random.Generator) -> None:
        self.blank = blank
        h, w = blank.shape[:2]
        gy = int(rng.integers(0, grain.shape[0] - h + 1))
        gx = int(rng.integers(0, grain.shape[1] - w + 1))
        self.grain = grain[gy : gy + h, gx : gx + w]
        self.ink = np.ones((h, w, 3), np.float32)
        self.h, self.w = h, w

    @contextmanager
    def layer(
        self,
        box: Sequence[float],
        color: Sequence[float],
        alpha: float,
        *,
        grain: float = 1.0,
        blur: float = 0.6,
    ) -> Iterator[Layer]:
        """Draw into a mask over page box (x0, y0, x1, y1), then multiply `color` (BGR 0-255) in.

        `alpha` is the opacity of a full-pressure mark; `grain` in [0, 1] how strongly the paper tooth
        breaks it up (pencil 1, felt-tip marker ~0.2).
        """
        x0 = max(0, int(np.floor(box[0])))
        y0 = max(0, int(np.floor(box[1])))
        x1 = min(self.w, int(np.ceil(box[2])) + 1)
        y1 = min(self.h, int(np.ceil(box[3])) + 1)
        lay = Layer(x0, y0, max(1, x1 - x0), max(1, y1 - y0))
        yield lay
        if x1 <= x0 or y1 <= y0:
            return
        mask: np.ndarray = lay.mask
        if blur > 0:
            mask = cv2.GaussianBlur(mask, (0, 0), blur)
        m: np.ndarray = mask.astype(np.float32) * np.float32(alpha / 255.0)
        if grain > 0:
            g = self.grain[y0:y1, x0:x1]
            m *= (1.0 - grain) + grain * g if grain < 1 else g
        tint = 1.0 - np.asarray(color, np.float32) / 255.0
        roi = self.ink[y0:y1, x0:x1]
        roi *= 1.0 - m[..., None] * tint

    def protect(self, weight: np.ndarray, box: tuple[int, int, int, int]) -> None:
        """Undo ink where `weight` (H, W float32 in [0, 1]) is 1: printed cells nobody draws on.

        Only the pixel box (x0, y0, x1, y1) holding the non-zero weights is touched.
        """
        x0, y0, x1, y1 = box
        roi = self.ink[y0:y1, x0:x1]
        roi += (1.0 - roi) * weight[y0:y1, x0:x1, None]

    def render(self) -> np.ndarray:
        """The finished page, BGR uint8."""
        out = self.blank.astype(np.float32) * self.ink
        page: np.ndarray = np.clip(out + 0.5, 0, 255).astype(np.uint8)
        return page


def jitter_path(pts: np.ndarray, rng: np.random.Generator, amount: float, step: float) -> np.ndarray:
    """Resample a polyline every `step` px and add smooth hand tremor of about `amount` px."""
    pts = np.asarray(pts, dtype=np.float64)
    if len(pts) == 2:
        d = pts[1] - pts[0]
        n = max(2, int(np.hypot(d[0], d[1]) / max(step, 0.5)) + 1)
        out: np.ndarray = pts[0] + (np.arange(n) * (1.0 / (n - 1)))[:, None] * d
    else:
        seg = np.diff(pts, axis=0)
        cum = np.concatenate([[0.0], np.cumsum(np.hypot(seg[:, 0], seg[:, 1]))])
        total = float(cum[-1])
        if total <= 0:
            return pts
        n = max(2, int(total / max(step, 0.5)) + 1)
        t = np.arange(n) * (total / (n - 1))
        out = np.empty((n, 2))
        out[:, 0] = np.interp(t, cum, pts[:, 0])
        out[:, 1] = np.interp(t, cum, pts[:, 1])
    if amount > 0:
        noise = rng.standard_normal((n, 2))
        if n >= 3:
            # a short running mean makes tremor smooth instead of spiky
            noise[1:-1] = (noise[:-2] + noise[1:-1] + noise[2:]) * (1 / 3)
        out += noise * amount
    return out


def clip_segment(
    p0: np.ndarray, p1: np.ndarray, box: Sequence[float]
) -> tuple[np.ndarray, np.ndarray] | None:
    """Clip segment p0-p1 to box (x0, y0, x1, y1) (Liang-Barsky); None when outside."""
    x0, y0, x1, y1 = box
    d = p1 - p0
    t0, t1 = 0.0, 1.0
    for p, q in ((-d[0], p0[0] - x0), (d[0], x1 - p0[0]), (-d[1], p0[1] - y0), (d[1], y1 - p0[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 > t1:
            return None
    return p0 + t0 * d, p0 + t1 * d
