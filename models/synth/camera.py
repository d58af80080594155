"""Photograph a rendered page: pose, paper curl, scene, light and optics, with exact truth.

``photograph(page, rng, tier=...)`` returns a ``Photo`` whose ``corners`` (the grid's outer corners in
sheet order A1, A11, K11, K1) and ``coin_centers`` are where those page points really landed, curl and
all. Coordinates are OpenCV pixel coordinates (the centre of the top-left pixel is (0, 0)) on both the
page and the photo. Every random choice comes from the ``rng`` passed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from models.synth import scene
from rules.grid import SIZE as GRID_SIZE
from scanner.geometry import geometry


class PageLike(Protocol):
    """What the camera needs of a rendered page (``models.synth.paper.Page`` fits)."""

    @property
    def image(self) -> np.ndarray: ...
    @property
    def ppc(self) -> float: ...
    @property
    def grid_origin(self) -> tuple[float, float]: ...


@dataclass(frozen=True)
class Tier:
    """Ranges every random choice of one camera tier draws from; lengths in printed cells."""

    name: str
    megapixels: tuple[float, float]
    aspects: tuple[float, ...]  # long/short side ratios to choose from
    portrait: float  # chance of a portrait frame
    fill: tuple[float, float]  # page bounding box / frame, linear
    tilt: float  # degrees, largest camera tilt away from straight down
    axis_aligned: float  # chance the sheet is near 0/90/180/270 rather than any angle
    fit_frame: float  # chance (when near 0/90/180/270) that the camera is turned to fit the sheet
    upright: float  # chance of orientation 0 among the axis-aligned ones
    distance: tuple[float, float]  # camera distance / page diagonal (perspective strength)
    defocus: tuple[float, float]  # Gaussian sigma, cells
    motion: tuple[float, float]  # motion blur length, cells
    motion_chance: float
    noise: tuple[float, float]  # sensor noise sigma, 8-bit levels
    exposure: tuple[float, float]  # overall brightness gain
    jpeg: tuple[int, int]
    curl: float  # largest lift of an edge, cells; 0 = flat
    curl_chance: float
    fold_chance: float
    shadows: int  # at most this many hand/phone shadows
    shadow_depth: float
    glare: float  # peak glare, levels
    glare_chance: float
    gradient: float
    vignette: float
    cast: float
    clutter: int  # at most this many objects on the table
    tables: tuple[str, ...]


# Tuning constants of the simulator, one place. The phone tier is the scanner's main target.
TIERS: dict[str, Tier] = {
    "scan": Tier(
        name="scan", megapixels=(2.0, 9.0), aspects=(1.414, 1.294), portrait=1.0, fill=(0.85, 0.97),
        tilt=0.0, axis_aligned=1.0, fit_frame=0.0, upright=0.85, distance=(3.0, 3.0), defocus=(0.0, 0.01),
        motion=(0.0, 0.0), motion_chance=0.0, noise=(0.5, 2.0), exposure=(0.97, 1.03), jpeg=(80, 95),
        curl=0.0, curl_chance=0.0, fold_chance=0.0, shadows=0, shadow_depth=0.0, glare=0.0,
        glare_chance=0.0, gradient=0.03, vignette=0.02, cast=0.01, clutter=0, tables=("scanner",),
    ),
    "phone": Tier(
        name="phone", megapixels=(1.5, 12.0), aspects=(4 / 3, 4 / 3, 16 / 9, 3 / 2, 1.0), portrait=0.6,
        fill=(0.6, 0.95), tilt=30.0, axis_aligned=0.6, fit_frame=0.85, upright=0.6, distance=(1.2, 3.0),
        defocus=(0.0, 0.03), motion=(0.0, 0.04), motion_chance=0.25, noise=(1.0, 5.0), exposure=(0.8, 1.1),
        jpeg=(60, 95), curl=0.5, curl_chance=0.5, fold_chance=0.15, shadows=2, shadow_depth=0.35,
        glare=90.0, glare_chance=0.25, gradient=0.3, vignette=0.2, cast=0.05, clutter=5,
        tables=("wood", "wood", "cloth", "plain"),
    ),
    "webcam": Tier(
        name="webcam", megapixels=(0.9, 2.1), aspects=(16 / 9, 4 / 3), portrait=0.0, fill=(0.45, 0.9),
        tilt=35.0, axis_aligned=0.5, fit_frame=0.0, upright=0.5, distance=(1.1, 2.5), defocus=(0.01, 0.05),
        motion=(0.0, 0.06), motion_chance=0.4, noise=(3.0, 9.0), exposure=(0.45, 0.9), jpeg=(50, 85),
        curl=0.4, curl_chance=0.4, fold_chance=0.1, shadows=2, shadow_depth=0.4, glare=60.0,
        glare_chance=0.2, gradient=0.4, vignette=0.35, cast=0.08, clutter=4,
        tables=("wood", "cloth", "plain"),
    ),
    "hard": Tier(
        name="hard", megapixels=(1.0, 12.0), aspects=(4 / 3, 16 / 9, 3 / 2, 1.0, 2.0), portrait=0.5,
        fill=(0.25, 0.95), tilt=45.0, axis_aligned=0.2, fit_frame=0.5, upright=0.25, distance=(1.0, 3.0),
        defocus=(0.02, 0.07), motion=(0.0, 0.12), motion_chance=0.6, noise=(4.0, 12.0),
        exposure=(0.4, 1.25), jpeg=(50, 80), curl=0.9, curl_chance=0.7, fold_chance=0.3, shadows=3,
        shadow_depth=0.55, glare=160.0, glare_chance=0.5, gradient=0.55, vignette=0.45, cast=0.1,
        clutter=8, tables=("wood", "cloth", "plain"),
    ),
}


SHARPEN_CHANCE = 0.3  # share of phone/hard photos with in-camera unsharp masking
DEPTH_BLUR_CHANCE = 0.35  # share of tilted photos focused on one part of the sheet
ON_PAGE_CHANCE = 0.35  # share of photos with a pencil, coin or die lying on the page's margin


class CameraError(ValueError):
    """A photo could not be simulated with the requested settings."""


# ----------------------------------------------------------------------------------------------- paper


@dataclass(frozen=True)
class PaperWarp:
    """Smooth non-flat paper as a displacement field on the page (page px).

    The photo pixel that would show flat-page point ``q`` shows page point ``q + d(q)`` instead. Curl
    lifts a band along one or two edges (quadratic ramp across, corners lifted most so the edge bows); a
    fold bends the page along a straight crease.
    """

    # (nx, ny, offset, width, lift, middle, half length): inward normal, band, and the edge's extent
    curls: tuple[tuple[float, float, float, float, float, float, float], ...] = ()
    fold: tuple[float, float, float, float] | None = None  # (nx, ny, offset, slope)
    fold_shade: float = 1.0

    def displacement(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``d(q)`` at page points ``(x, y)`` (any shape arrays)."""
        dx = np.zeros_like(x, dtype=np.float64)
        dy = np.zeros_like(y, dtype=np.float64)
        for nx, ny, off, width, lift, mid, half in self.curls:
            # distance inward from the edge; the band [0, width] ramps quadratically.
            dist = np.clip(nx * x + ny * y - off, 0.0, width)
            along = np.clip((-ny * x + nx * y - mid) / half, -1.0, 1.0)
            ramp = lift * ((width - dist) / width) ** 2 * (0.25 + 0.75 * along**2)
            dx += nx * ramp
            dy += ny * ramp
        if self.fold is not None:
            nx, ny, off, slope = self.fold
            s = nx * x + ny * y - off
            soft = np.logaddexp(0.0, s / 4.0) * 4.0  # softplus: a crease 4 px wide
            dx -= nx * slope * soft
            dy -= ny * slope * soft
        return dx, dy

    def unwarp(self, pts: np.ndarray) -> np.ndarray:
        """Flat points ``q`` with ``q + d(q) = pts`` (fixed-point iteration; the field is a contraction)."""
        q = np.array(pts, dtype=np.float64)
        if not self.curls and self.fold is None:
            return q
        for _ in range(60):
            dx, dy = self.displacement(q[:, 0], q[:, 1])
            q = pts - np.stack([dx, dy], 1)
        return q


def random_warp(rng: np.random.Generator, tier: Tier, page_size: tuple[int, int], ppc: float) -> PaperWarp:
    """Curl along random edges and sometimes a fold, sized for ``tier``."""
    w, h = page_size
    curls = []
    if tier.curl > 0 and rng.random() < tier.curl_chance:
        # inward normal, offset, middle and half length along the edge (tangent = (-ny, nx))
        edges = [(1.0, 0.0, 0.0, h / 2, h / 2), (-1.0, 0.0, -(w - 1.0), -h / 2, h / 2),
                 (0.0, 1.0, 0.0, -w / 2, w / 2), (0.0, -1.0, -(h - 1.0), w / 2, w / 2)]
        for i in rng.choice(4, size=int(rng.integers(1, 3)), replace=False):
            nx, ny, off, mid, half = edges[int(i)]
            width = ppc * rng.uniform(2.0, 5.0)
            lift = ppc * tier.curl * rng.uniform(0.2, 1.0) * rng.choice([-1.0, 1.0])
            lift = float(np.clip(lift, -0.3 * width, 0.3 * width))  # keeps the map one-to-one
            curls.append((nx, ny, off, width, lift, mid, half))
    fold = None
    shade = 1.0
    if rng.random() < tier.fold_chance:
        vertical = rng.random() < 0.5
        a = rng.normal(0.0, 0.05) + (0.0 if vertical else np.pi / 2)
        nx, ny = float(np.cos(a)), float(np.sin(a))
        centre = np.array([w, h]) * rng.uniform(0.3, 0.7, 2)
        fold = (nx, ny, float(nx * centre[0] + ny * centre[1]), float(rng.uniform(0.005, 0.03)))
        shade = float(rng.uniform(0.85, 0.97))
    return PaperWarp(tuple(curls), fold, shade)


# ----------------------------------------------------------------------------------------------- pose


def choose_size(rng: np.random.Generator, tier: Tier) -> tuple[int, int]:
    """Photo size (width, height) with a common aspect ratio and megapixels in the tier's range."""
    lo, hi = tier.megapixels
    mp = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    aspect = float(rng.choice(tier.aspects))
    long_side = int(np.sqrt(mp * 1e6 * aspect))
    short_side = int(long_side / aspect)
    while long_side * short_side > hi * 1e6:
        long_side -= 1
        short_side = int(long_side / aspect)
    while long_side * short_side < lo * 1e6:
        long_side += 1
        short_side = int(np.ceil(long_side / aspect))
    if tier.name == "scan" or rng.random() < tier.portrait:
        return short_side, long_side
    return long_side, short_side


def _rotation(axis_angle: float, tilt: float, roll: float) -> np.ndarray:
    """Rotation: tilt by ``tilt`` about an in-plane axis at ``axis_angle``, then roll about z."""
    ax = np.array([np.cos(axis_angle), np.sin(axis_angle), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    tilt_m = np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * (k @ k)
    c, s = np.cos(roll), np.sin(roll)
    roll_m = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    rotation: np.ndarray = roll_m @ tilt_m
    return rotation


def _pose(rng: np.random.Generator, tier: Tier, portrait: bool) -> tuple[float, float, float, float]:
    """(roll, tilt, tilt axis, distance), angles in radians; roll is clockwise in the photo.

    ``portrait``: the frame is taller than wide; a hand-held camera is usually turned to fit the sheet.
    """
    if rng.random() < tier.axis_aligned:
        quarter = 0 if rng.random() < tier.upright else int(rng.integers(1, 4))
        if tier.name == "scan":  # a portrait page lies portrait on the glass: upright or upside down
            quarter = 0 if quarter == 0 else 2
        elif rng.random() < tier.fit_frame:  # the portrait sheet runs along the frame's long side
            quarter = (quarter // 2) * 2 + (0 if portrait else 1)
        spread = 0.4 if tier.name == "scan" else 8.0
        roll = np.deg2rad(90.0 * quarter + rng.normal(0.0, spread))
    else:
        roll = rng.uniform(0.0, 2 * np.pi)
    tilt = np.deg2rad(tier.tilt * np.sqrt(rng.random()))
    return float(roll), float(tilt), float(rng.uniform(0, 2 * np.pi)), float(rng.uniform(*tier.distance))


def _place(rng: np.random.Generator, tier: Tier, page_size: tuple[int, int], size: tuple[int, int],
           must_see: np.ndarray) -> np.ndarray:
    """Homography page px -> photo px for a random pose that keeps ``must_see`` (page px) in frame."""
    pw, ph = page_size
    w, h = size
    src = np.array([[0, 0], [pw - 1, 0], [pw - 1, ph - 1], [0, ph - 1]], np.float64)
    diag = float(np.hypot(pw, ph))
    for _ in range(50):
        roll, tilt, axis, dist = _pose(rng, tier, h > w)
        r = _rotation(axis, tilt, roll)
        local = np.c_[(src - [pw / 2, ph / 2]) / diag, np.zeros(4)]
        cam = local @ r.T + [0.0, 0.0, dist]
        proj = cam[:, :2] / cam[:, 2:3]
        span = proj.max(0) - proj.min(0)
        fill = rng.uniform(*tier.fill)
        scale = fill / max(span[0] / w, span[1] / h)
        proj = (proj - proj.min(0)) * scale
        slack = np.array([w, h]) - (proj.max(0) - proj.min(0))
        proj += slack * rng.uniform(0.0, 1.0, 2) if tier.name != "scan" else slack / 2 + rng.normal(0, 4, 2)
        hom = cv2.getPerspectiveTransform(src.astype(np.float32), proj.astype(np.float32)).astype(np.float64)
        seen = cv2.perspectiveTransform(must_see.reshape(-1, 1, 2), hom).reshape(-1, 2)
        if (seen.min(0) >= 2).all() and (seen.max(0) <= [w - 3, h - 3]).all():
            return hom
    raise CameraError("could not place the sheet in the frame")


def orientation_of(corners: np.ndarray) -> int:
    """The clockwise rotation (0/90/180/270) nearest to the sheet's top edge A1 -> A11 in the photo."""
    d = corners[1] - corners[0]
    angle = float(np.degrees(np.arctan2(d[1], d[0])))  # y down: positive = clockwise
    return round(angle / 90.0) % 4 * 90


# ----------------------------------------------------------------------------------------------- photo


@dataclass(frozen=True, eq=False)
class Photo:
    """A simulated photo and where the sheet's landmarks are in it (photo px)."""

    image: np.ndarray = field(repr=False)
    corners: np.ndarray  # (4, 2) grid corners A1, A11, K11, K1
    coin_centers: np.ndarray  # (14, 2)
    homography: np.ndarray  # page px -> photo px for the flat page (curl on top: see ``warp``)
    orientation: int
    tier: str
    jpeg: bytes = field(repr=False)
    warp: PaperWarp = field(default_factory=PaperWarp)

    def page_to_photo(self, pts: np.ndarray) -> np.ndarray:
        """Map page px points (N, 2) to photo px through the curl and the homography."""
        return _to_photo(self.homography, self.warp, pts)


def _to_photo(hom: np.ndarray, warp: PaperWarp, pts: np.ndarray) -> np.ndarray:
    flat = warp.unwarp(np.asarray(pts, np.float64).reshape(-1, 2))
    return np.asarray(cv2.perspectiveTransform(flat.reshape(-1, 1, 2), hom).reshape(-1, 2))


def page_landmarks(page: PageLike) -> tuple[np.ndarray, np.ndarray]:
    """Grid corners (4, 2) and coin centres (14, 2) of ``page`` in page px."""
    g = geometry()
    origin = np.asarray(page.grid_origin, np.float64)
    corners = origin + page.ppc * g.grid_corners()
    coins = origin + page.ppc * g.coin_centers()
    return corners, coins


def _local_scale(hom: np.ndarray, pts: np.ndarray) -> float:
    """Largest photo px per page px of ``hom`` at ``pts``."""
    out = 0.0
    for x, y in pts:
        a = cv2.perspectiveTransform(np.array([[[x, y], [x + 1, y], [x, y + 1]]], np.float64), hom)[0]
        out = max(out, float(np.linalg.norm(a[1] - a[0])), float(np.linalg.norm(a[2] - a[0])))
    return out


def _coarse_map(hom: np.ndarray, warp: PaperWarp, size: tuple[int, int],
                step: int) -> tuple[np.ndarray, np.ndarray]:
    """Page px shown at every ``step``-th photo px (node (i, j) = photo px (j * step, i * step))."""
    w, h = size
    gw, gh = w // step + 2, h // step + 2
    us, vs = np.meshgrid(np.arange(gw, dtype=np.float64) * step, np.arange(gh, dtype=np.float64) * step)
    flat = cv2.perspectiveTransform(np.stack([us, vs], -1).reshape(-1, 1, 2), np.linalg.inv(hom))
    qx, qy = flat[:, 0, 0].reshape(gh, gw), flat[:, 0, 1].reshape(gh, gw)
    dx, dy = warp.displacement(qx, qy)
    return qx + dx, qy + dy


def _full_maps(sx: np.ndarray, sy: np.ndarray, size: tuple[int, int], prescale: float,
               step: int) -> tuple[np.ndarray, np.ndarray]:
    """Bilinear upsampling of the coarse map to every photo px, in prescaled-page px (``step`` odd)."""
    w, h = size
    gh, gw = sx.shape
    # resize puts coarse node i at (i + 0.5) * step - 0.5; cropping (step - 1) / 2 puts it at i * step.
    off = (step - 1) // 2
    out = []
    for m in (sx, sy):
        full = cv2.resize(((m + 0.5) * prescale - 0.5).astype(np.float32), (gw * step, gh * step),
                          interpolation=cv2.INTER_LINEAR)
        out.append(np.ascontiguousarray(full[off:off + h, off:off + w]))
    return out[0], out[1]


def _soften(img: np.ndarray, sigma: float, motion: float, angle: float) -> np.ndarray:
    """Defocus (Gaussian ``sigma`` px) and motion blur (``motion`` px long at ``angle``)."""
    worst = max(sigma, motion / 2.5)
    if worst < 0.4:
        return img
    h, w = img.shape[:2]
    # Big kernels are slow at 12 MP: blur a reduced copy instead; the upsampling adds no detail back.
    shrink = min(1.0, 2.5 / worst)
    work = img if shrink == 1.0 else cv2.resize(img, (max(8, int(w * shrink)), max(8, int(h * shrink))),
                                                interpolation=cv2.INTER_AREA)
    if sigma * shrink > 0.3:
        work = cv2.GaussianBlur(work, (0, 0), max(0.3, np.sqrt(max(0.09, (sigma * shrink) ** 2 - 0.25))))
    length = motion * shrink
    if length >= 1.5:
        k = int(np.ceil(length)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        d = np.array([np.cos(angle), np.sin(angle)]) * (length - 1) / 2
        a, b = np.round(c - d).astype(int), np.round(c + d).astype(int)
        cv2.line(kernel, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 1.0, 1, cv2.LINE_AA)
        work = cv2.filter2D(work, -1, kernel / kernel.sum())
    if shrink < 1.0:
        work = cv2.resize(work, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.asarray(work)


def _apply_gain(img: np.ndarray, gain: np.ndarray) -> None:
    """Multiply ``img`` in place by a smooth low-resolution ``gain`` (2-D or 3-channel, <= 2.0).

    Done in 8 bits with 1/128 steps: four times faster than float at 12 MP and the steps drown in noise.
    """
    h, w = img.shape[:2]
    g = cv2.resize(np.clip(gain * 128.0, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    if g.ndim == 2:
        g = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    cv2.multiply(img, g, dst=img, scale=1.0 / 128.0)


_NOISE_TILE = 256  # sensor noise is drawn for one tile and wrapped: per-pixel draws cost 85 ms at 8 MP


def _noise(rng: np.random.Generator, size: tuple[int, int], sigma: float) -> np.ndarray:
    """Sensor noise (int8, 3 channels): shared luminance plus weaker colour noise."""
    w, h = size
    t = _NOISE_TILE
    luma = rng.standard_normal((t, t, 1), dtype=np.float32)
    chroma = rng.standard_normal((t, t, 3), dtype=np.float32) * 0.5
    tile = np.clip(np.round((luma + chroma) * sigma), -127, 127).astype(np.int8)
    row = np.tile(tile, (1, -(-w // t), 1))[:, :w]
    return np.tile(row, (-(-h // t), 1, 1))[:h]


def _depth_blur(img: np.ndarray, hom: np.ndarray, page_size: tuple[int, int], sigma: float,
                rng: np.random.Generator) -> np.ndarray:
    """Shallow depth of field on a tilted shot: sharp at a random depth, up to ``sigma`` px blur elsewhere.

    Depth is read off the homography: the photo scale of the page falls with distance from the camera.
    """
    pw, ph = page_size
    page = np.array([[0, 0], [pw - 1, 0], [pw - 1, ph - 1], [0, ph - 1]], np.float64)
    pts = cv2.perspectiveTransform(page.reshape(-1, 1, 2), hom).reshape(-1, 2)
    scales = np.array([_local_scale(hom, p[None, :]) for p in page])
    if scales.max() < 1.15 * scales.min():
        return img
    coef = np.linalg.lstsq(np.c_[pts, np.ones(4)], scales, rcond=None)[0]
    h, w = img.shape[:2]
    gh, gw = max(2, h // 16), max(2, w // 16)
    vs, us = np.mgrid[0:gh, 0:gw].astype(np.float64)
    depth = coef[0] * us * w / gw + coef[1] * vs * h / gh + coef[2]
    focus = rng.uniform(scales.min(), scales.max())
    alpha = np.clip(np.abs(depth - focus) / (scales.max() - scales.min()), 0.0, 1.0).astype(np.float32)
    alpha = cv2.resize(alpha, (w, h), interpolation=cv2.INTER_LINEAR)
    blurred = _soften(img, sigma, 0.0, 0.0)
    return np.asarray(cv2.blendLinear(img, blurred, 1.0 - alpha, alpha))


@dataclass(frozen=True, eq=False)
class _View:
    """Where the page lands: the flat homography, the curl, and the coarse page-coordinate map."""

    hom: np.ndarray
    warp: PaperWarp
    step: int  # coarse map spacing, photo px (odd)
    sx: np.ndarray  # page x shown at coarse node (i, j) = photo px (j * step, i * step)
    sy: np.ndarray
    inside: np.ndarray  # 1.0 where a coarse node shows the paper
    cell: float  # rough photo px per cell


def _view(page: PageLike, rng: np.random.Generator, t: Tier, size: tuple[int, int]) -> _View:
    """Random pose and paper shape for ``page`` in a frame of ``size``."""
    ph, pw = page.image.shape[:2]
    w, h = size
    g = geometry()
    must = np.asarray(page.grid_origin) + page.ppc * np.array(
        [[-0.3, -0.3], [GRID_SIZE + 0.3, -0.3], [GRID_SIZE + 0.3, g.coin_y + 0.5], [-0.3, g.coin_y + 0.5]])
    hom = _place(rng, t, (pw, ph), size, must)
    warp = random_warp(rng, t, (pw, ph), page.ppc)
    step = int(np.clip(max(w, h) // 400, 2, 8)) | 1  # odd: coarse nodes land on whole pixels
    sx, sy = _coarse_map(hom, warp, size, step)
    inside = ((sx > -0.5) & (sx < pw - 0.5) & (sy > -0.5) & (sy < ph - 0.5)).astype(np.float32)
    scale = _local_scale(hom, np.array([[0, 0], [pw - 1, 0], [pw - 1, ph - 1], [0, ph - 1]], np.float64))
    return _View(hom, warp, step, sx, sy, inside, page.ppc * scale / 1.15)


def _lay_page(img: np.ndarray, page_img: np.ndarray, view: _View) -> None:
    """Resample the page into ``img`` in place, only inside the page's bounding box."""
    h, w = img.shape[:2]
    ph, pw = page_img.shape[:2]
    # Sample from a pre-shrunk page when the photo shows it smaller (bilinear resampling would alias).
    corners = np.array([[0, 0], [pw - 1, 0], [pw - 1, ph - 1], [0, ph - 1]], np.float64)
    prescale = min(1.0, 1.3 * _local_scale(view.hom, corners))
    small = page_img if prescale >= 1.0 else cv2.resize(
        page_img, (max(2, round(pw * prescale)), max(2, round(ph * prescale))), interpolation=cv2.INTER_AREA)
    k = small.shape[1] / pw
    inside, step = view.inside, view.step
    rows, cols = np.nonzero(inside.any(1))[0], np.nonzero(inside.any(0))[0]
    i0, i1 = max(0, int(rows[0]) - 1), min(inside.shape[0] - 1, int(rows[-1]) + 1)
    j0, j1 = max(0, int(cols[0]) - 1), min(inside.shape[1] - 1, int(cols[-1]) + 1)
    x0, y0 = j0 * step, i0 * step
    x1, y1 = min(w, j1 * step), min(h, i1 * step)
    roi = img[y0:y1, x0:x1]
    if view.warp.curls or view.warp.fold is not None:
        mapx, mapy = _full_maps(view.sx[i0:i1 + 1, j0:j1 + 1], view.sy[i0:i1 + 1, j0:j1 + 1],
                                (x1 - x0, y1 - y0), k, step)
        fixed = cv2.convertMaps(mapx, mapy, cv2.CV_16SC2)
        cv2.remap(small, fixed[0], fixed[1], cv2.INTER_LINEAR, dst=roi, borderMode=cv2.BORDER_TRANSPARENT)
    else:  # flat paper: one projective warp, no maps
        to_small = np.array([[k, 0, (k - 1) / 2], [0, k, (k - 1) / 2], [0, 0, 1]])
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        cv2.warpPerspective(small, shift @ view.hom @ np.linalg.inv(to_small), (x1 - x0, y1 - y0), dst=roi,
                            flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)


def _stage(page: PageLike, rng: np.random.Generator, t: Tier, view: _View,
           size: tuple[int, int]) -> np.ndarray:
    """The table, clutter under the page, the page's shadow, and the page itself."""
    img = scene.table(rng, size, str(rng.choice(t.tables)))
    if t.name != "scan":
        under = scene.random_items(rng, size, view.cell, int(rng.integers(0, t.clutter + 1)))
        scene.draw_items(img, under, view.cell)
        _apply_gain(img, 1.0 - 0.35 * cv2.GaussianBlur(np.roll(view.inside, (1, 1), (0, 1)), (0, 0), 1.5))
    _lay_page(img, np.asarray(page.image), view)
    if t.name != "scan" and rng.random() < ON_PAGE_CHANCE:
        scene.draw_items(img, _items_on_page(page, rng, view, size), view.cell)
    return img


def _items_on_page(page: PageLike, rng: np.random.Generator, view: _View,
                   size: tuple[int, int]) -> list[scene.Item]:
    """A pencil, coin or die lying on the page's margin: over the paper, clear of the grid and coins."""
    g = geometry()
    keep_clear = np.asarray(page.grid_origin) + page.ppc * np.array(
        [[-0.4, -0.4], [GRID_SIZE + 0.4, -0.4], [GRID_SIZE + 0.4, g.coin_y + 0.6], [-0.4, g.coin_y + 0.6]])
    ph, pw = page.image.shape[:2]
    paper = np.array([[0, 0], [pw - 1, 0], [pw - 1, ph - 1], [0, ph - 1]], np.float64)
    clear = _to_photo(view.hom, view.warp, keep_clear).astype(np.float32)
    sheet = _to_photo(view.hom, view.warp, paper).astype(np.float32)
    chosen: list[scene.Item] = []
    for item in scene.random_items(rng, size, view.cell, 12):
        if item.kind == "card" or len(chosen) >= 2:
            continue
        poly = item.polygon.astype(np.float32)
        hits_grid = cv2.intersectConvexConvex(poly, clear)[0] > 0
        on_paper = cv2.intersectConvexConvex(poly, sheet)[0] > 0
        if on_paper and not hits_grid:
            chosen.append(item)
    return chosen


def _lens(img: np.ndarray, rng: np.random.Generator, t: Tier, view: _View,
          page_size: tuple[int, int]) -> np.ndarray:
    """Defocus, motion blur, depth of field, in-camera sharpening."""
    cell = view.cell
    img = _soften(img, cell * rng.uniform(*t.defocus),
                  cell * rng.uniform(*t.motion) if rng.random() < t.motion_chance else 0.0,
                  rng.uniform(0, np.pi))
    if t.name != "scan" and rng.random() < DEPTH_BLUR_CHANCE:
        img = _depth_blur(img, view.hom, page_size, cell * rng.uniform(0.02, 0.06), rng)
    if t.name in ("phone", "hard") and rng.random() < SHARPEN_CHANCE:  # phone pipelines sharpen: halos
        halo = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.0))
        amount = rng.uniform(0.3, 1.0)
        img = cv2.addWeighted(img, 1.0 + amount, halo, -amount, 0.0)
    return img


def _light(img: np.ndarray, rng: np.random.Generator, t: Tier, view: _View, ppc: float) -> None:
    """Uneven light, hand/phone shadows, the fold's shading and glare, in place."""
    h, w = img.shape[:2]
    light = scene.random_light(
        rng, (w, h), gradient=t.gradient, vignette=t.vignette * rng.random(),
        shadows=int(rng.integers(0, t.shadows + 1)), shadow_depth=t.shadow_depth,
        glare=t.glare * rng.uniform(0.3, 1.0) if rng.random() < t.glare_chance else 0.0, cast=t.cast)
    _apply_gain(img, light.gain * rng.uniform(*t.exposure))
    if view.warp.fold is not None:  # one side of the crease faces the light a little less; the crease is dark
        nx, ny, off, _ = view.warp.fold
        s = (nx * view.sx + ny * view.sy - off) / ppc  # cells from the crease
        crease = np.exp(-((s / max(0.05, 1.5 * view.step / view.cell)) ** 2))  # >= 1.5 coarse nodes wide
        shade = (1.0 - (1.0 - view.warp.fold_shade) * (s > 0)) * (1.0 - 0.15 * crease)
        _apply_gain(img, (1.0 - (1.0 - shade) * view.inside).astype(np.float32))  # on the paper only
    if light.glare.max() > 0.5:
        flare = cv2.resize(np.clip(light.glare, 0, 255).astype(np.uint8), (w, h),
                           interpolation=cv2.INTER_LINEAR)
        cv2.add(img, cv2.cvtColor(flare, cv2.COLOR_GRAY2BGR), dst=img)


def _sensor(img: np.ndarray, rng: np.random.Generator, t: Tier) -> tuple[np.ndarray, bytes]:
    """Sensor noise and JPEG compression: the decoded image and the JPEG bytes."""
    h, w = img.shape[:2]
    cv2.add(img, _noise(rng, (w, h), rng.uniform(*t.noise)), dst=img, dtype=cv2.CV_8U)
    quality = int(rng.integers(t.jpeg[0], t.jpeg[1] + 1))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise CameraError("JPEG encoding failed")
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), dtype=np.uint8), buf.tobytes()


def photograph(page: PageLike, rng: np.random.Generator, *, tier: str = "phone",
               size: tuple[int, int] | None = None) -> Photo:
    """Photograph ``page`` on a table as a ``tier`` camera would.

    Parameters
    ----------
    page : a rendered page (``image`` BGR uint8, ``ppc``, ``grid_origin``).
    rng : the only source of randomness.
    tier : ``scan``, ``phone``, ``webcam`` or ``hard`` (see ``TIERS``).
    size : (width, height) of the photo; default: random within the tier's megapixel range.

    Returns
    -------
    Photo with the JPEG-degraded image and the exact truth.
    """
    if tier not in TIERS:
        raise CameraError(f"unknown tier {tier!r}; choose one of {', '.join(TIERS)}")
    t = TIERS[tier]
    ph, pw = page.image.shape[:2]
    frame = size if size is not None else choose_size(rng, t)
    view = _view(page, rng, t, frame)
    img = _stage(page, rng, t, view, frame)
    img = _lens(img, rng, t, view, (pw, ph))
    _light(img, rng, t, view, page.ppc)
    image, jpeg = _sensor(img, rng, t)

    corners_page, coins_page = page_landmarks(page)
    corners = _to_photo(view.hom, view.warp, corners_page)
    return Photo(image=image, corners=corners, coin_centers=_to_photo(view.hom, view.warp, coins_page),
                 homography=view.hom, orientation=orientation_of(corners), tier=tier, jpeg=jpeg,
                 warp=view.warp)
