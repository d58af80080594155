"""Stage 2 of the locator: does a candidate quadrilateral hold the 11x11 comb of grid lines?

The candidate is rectified at a coarse scale, thin-line responses are profiled along both axes and a
12-tooth comb (one pitch) is fitted to each; the crossing lines settle a comb shifted by a whole cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.grid import SIZE
from scanner.constants import (
    COMB_CAP_PERCENTILE,
    COMB_CHIRP,
    COMB_MIN_LINES,
    COMB_MIN_SCORE,
    COMB_SCALE_RANGE,
    LINE_HALF_WIDTH,
    VERIFY_PAD,
    VERIFY_PPC,
)
from scanner.numeric import median, percentile
from scanner.rectify import apply_h, canon_matrix, canon_size, grid_homography

N = SIZE


@dataclass(frozen=True, slots=True)
class GridFit:
    """A verified candidate: the grid it implies and how clearly its comb shows."""

    h: np.ndarray  # cell units -> photo px, corners in photo order (not yet oriented)
    score: float


def verify_candidate(
    grey: np.ndarray | list[np.ndarray],
    quad: np.ndarray,
    *,
    scale_range: tuple[float, float] = COMB_SCALE_RANGE,
    half_width: float = LINE_HALF_WIDTH,
) -> GridFit | str | None:
    """Check a candidate for the 11x11 comb of grid lines and return the grid it implies.

    Parameters
    ----------
    grey : ndarray or list of ndarray
        The downscaled grey photo, or its pyramid (each level half the previous, ``cv2.pyrDown``).
    quad : (4, 2) array
        Candidate corners in the photo order of ``order_clockwise``, px of level 0.
    half_width : float
        Cells at which a line is compared with the paper either side (:func:`line_response`);
        ``constants.BLURRED_HALF_WIDTH`` for a blurred photo's second look.

    Returns
    -------
    GridFit, "partial" or None
        ``"partial"`` when only one axis shows the comb (a grid cut by the photo border).
    """
    pyramid = grey if isinstance(grey, list) else [grey]
    # warp from the pyramid level nearest above VERIFY_PPC: a 3:1 warp without low-pass would
    # skip thin lines altogether (aliasing)
    pitch = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1))) / N
    level = 0
    while level + 1 < len(pyramid) and pitch / 2 ** (level + 1) >= 1.2 * VERIFY_PPC:
        level += 1
    hq = np.diag([0.5**level, 0.5**level, 1.0]) @ grid_homography(quad)
    a = canon_matrix(VERIFY_PPC, VERIFY_PAD)
    size = canon_size(VERIFY_PPC, VERIFY_PAD)
    warped = cv2.warpPerspective(
        pyramid[level],
        hq @ np.linalg.inv(a),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    dark = 255.0 - warped.astype(np.float32)
    ridge_v, ridge_h = line_response(dark, VERIFY_PPC, half_width)
    lo, hi = round(VERIFY_PAD * VERIFY_PPC), round((VERIFY_PAD + N) * VERIFY_PPC)
    fx = _comb_fit(ridge_v[lo:hi].mean(axis=0), scale_range)
    fy = _comb_fit(ridge_h[:, lo:hi].mean(axis=1), scale_range)
    if fx is None and fy is None:
        return None
    if fx is None or fy is None:
        return "partial"
    (x0, x1, sx), (y0, y1, sy) = fx, fy
    # A comb shifted by a whole cell still has 11 teeth on lines (and a label column can pass for
    # the 12th).  The crossing lines settle it: every cell span of a true grid is crossed by lines.
    px, py = (x1 - x0) / N, (y1 - y0) / N
    kx, ky = _best_shift(ridge_v, ridge_h, x0, px, y0, py)
    x0, x1, y0, y1 = x0 + kx * px, x1 + kx * px, y0 + ky * py, y1 + ky * py
    grid_px = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    cells = apply_h(np.linalg.inv(a), grid_px)
    corners = apply_h(hq, cells) * 2**level
    return GridFit(h=grid_homography(corners), score=min(sx, sy))


def line_response(
    dark: np.ndarray, ppc: float, half_width: float = LINE_HALF_WIDTH
) -> tuple[np.ndarray, np.ndarray]:
    """Thin-line responses of a darkness image: (vertical lines, horizontal lines).

    A pixel responds by how much darker it is than *both* neighbours `half_width` cells away,
    so edges of dark blocks (printed mountains, filled cells) do not pass for lines.
    """
    w = max(1, round(half_width * ppc))
    out = []
    for axis in (1, 0):
        n = dark.shape[axis]
        # dark minus dark rolled by w and by -w (np.roll, wrapping round), through slices: two
        # arrays instead of six (fresh memory is most of the cost of the warps' responses)
        left, right = (_minus_rolled(dark, shift % n, axis) for shift in (w, -w))
        np.minimum(left, right, out=left)
        out.append(np.maximum(left, 0.0, out=left))
    return out[0], out[1]


def _minus_rolled(a: np.ndarray, shift: int, axis: int) -> np.ndarray:
    # a - np.roll(a, shift, axis) for 0 <= shift < a.shape[axis], of a 2-D array
    n = a.shape[axis]

    def part(lo: int, hi: int) -> tuple[slice, ...]:
        return (slice(None), slice(lo, hi)) if axis == 1 else (slice(lo, hi),)

    out = np.empty_like(a)
    np.subtract(a[part(shift, n)], a[part(0, n - shift)], out=out[part(shift, n)])
    np.subtract(a[part(0, shift)], a[part(n - shift, n)], out=out[part(0, shift)])
    return out


def _best_shift(
    ridge_v: np.ndarray, ridge_h: np.ndarray, x0: float, px: float, y0: float, py: float
) -> tuple[int, int]:
    # A comb shifted by a whole cell still has 11 teeth on lines, and a label column, the coin
    # track's edge or the frame's hatching can pass for the 12th.  Score the 2-D grid for shifts of
    # -1, 0, 1 cell on each axis, measuring each axis' lines only across the other axis' extent:
    # a wrong extent takes in a span without crossing lines and leaves out one with them.
    def comb(ridge: np.ndarray, o: float, p: float, lo: float, hi: float) -> float:
        a, b = max(round(lo), 0), min(round(hi), ridge.shape[0])
        if b - a < 3:
            return -np.inf
        prof = ridge[a:b].mean(axis=0)
        prof = np.minimum(prof, percentile(prof, COMB_CAP_PERCENTILE))
        xs = np.arange(prof.size, dtype=np.float64)
        on = np.interp(o + np.arange(N + 1.0) * p, xs, prof, left=0.0, right=0.0)
        off = np.interp(o + (np.arange(N) + 0.5) * p, xs, prof, left=0.0, right=0.0)
        return float(on.mean() - off.mean()) / (float(prof.mean()) + 1e-3)

    best, best_s = -np.inf, (0, 0)
    for sx in (0, -1, 1):
        for sy in (0, -1, 1):
            xa, ya = x0 + sx * px, y0 + sy * py
            score = comb(ridge_v, xa, px, ya, ya + N * py) + comb(ridge_h.T, ya, py, xa, xa + N * px)
            if score > best + 1e-9:
                best, best_s = score, (sx, sy)
    return best_s


def _teeth(
    off: np.ndarray | float, pitch: np.ndarray | float, chirp: np.ndarray | float, k: np.ndarray
) -> np.ndarray:
    # Tooth positions of combs with a linearly changing pitch (perspective the candidate's own
    # homography did not remove); broadcasts off, pitch, chirp against k (last axis).
    return np.asarray(off + pitch * k * (1.0 + chirp * (k - N / 2) / N))


def sample_profile(profile: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Linear interpolation of a profile sampled at 0, 1, ..., n - 1, NaN outside ``[0, n - 1]``.

    The same values, bit for bit, as ``np.interp(x, np.arange(n), profile, left=nan, right=nan)``
    (the same formula, ``slope * (x - j) + profile[j]``), at half its cost: the samples sit at whole
    positions, so each point's interval is its floor, not a binary search.

    Parameters
    ----------
    profile : (n,) float array, n >= 1.
    x : float array of any shape.

    Returns
    -------
    float64 array of the shape of `x`.
    """
    prof = np.asarray(profile, dtype=np.float64)
    n = prof.size
    padded = np.append(prof, prof[-1])  # x = n - 1 exactly reads its own sample, the slope 0
    inside = (x >= 0.0) & (x <= n - 1)
    xi = np.where(inside, x, 0.0)
    j = xi.astype(np.intp)
    at = padded[j]
    out: np.ndarray = (padded[j + 1] - at) * (xi - j) + at
    out[~inside] = np.nan
    return out


def _comb_search(
    prof: np.ndarray, pitches: np.ndarray, offsets: np.ndarray, chirps: np.ndarray
) -> tuple[float, float, float, float]:
    # (score, offset, pitch, chirp) of the best comb on the grid of parameters; all 12 teeth count,
    # so a comb shifted by a whole cell (11 teeth on lines) scores lower.
    p = pitches[:, None, None, None]
    o = offsets[None, :, None, None]
    c = chirps[None, None, :, None]
    on = sample_profile(prof, _teeth(o, p, c, np.arange(N + 1.0)))
    off = sample_profile(prof, _teeth(o, p, c, np.arange(N) + 0.5))
    score = np.nan_to_num(on.mean(axis=-1) - off.mean(axis=-1), nan=-np.inf)
    pi, oi, ci = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(score[pi, oi, ci]), float(offsets[oi]), float(pitches[pi]), float(chirps[ci])


def _comb_fit(profile: np.ndarray, scale_range: tuple[float, float]) -> tuple[float, float, float] | None:
    # Best 12-tooth comb on a line-response profile: (position of tooth 0, of tooth 11, score), or
    # None unless it stands out.  Smoothed so that a 1-px line still meets a slightly wrong tooth.
    prof = cv2.GaussianBlur(profile.astype(np.float64).reshape(1, -1), (0, 0), sigmaX=1.0).ravel()
    # capped: one overwhelming edge (the page's shadow, a ruler on the table) must not buy a tooth
    prof = np.minimum(prof, percentile(prof, COMB_CAP_PERCENTILE))
    spread = float(median(prof)) + 0.05 * float(prof.mean())  # the heavy frame must not set the scale
    if spread < 1e-3:
        return None
    # coarse grid of (pitch, offset, chirp), then a fine one around the best coarse comb
    pitches = VERIFY_PPC * np.arange(scale_range[0], scale_range[1], 0.02)
    offsets = np.arange(0.0, prof.size - 1 - N * pitches[0] * (1 - COMB_CHIRP / 2), 1.0)
    chirps = np.linspace(-COMB_CHIRP, COMB_CHIRP, 5) if COMB_CHIRP > 0 else np.zeros(1)
    best, off0, pitch, chirp = _comb_search(prof, pitches, offsets, chirps)
    pitches = pitch + VERIFY_PPC * np.arange(-0.02, 0.021, 0.005)
    offsets = off0 + np.arange(-1.0, 1.01, 0.25)
    chirps = chirp + np.linspace(-COMB_CHIRP / 4, COMB_CHIRP / 4, 5 if COMB_CHIRP > 0 else 1)
    best, off0, pitch, chirp = _comb_search(prof, pitches, offsets, chirps)
    best /= spread
    if best < COMB_MIN_SCORE:
        return None
    xs = np.arange(prof.size, dtype=np.float64)
    teeth_val = np.interp(_teeth(off0, pitch, chirp, np.arange(N + 1.0)), xs, prof)
    mids = np.interp(_teeth(off0, pitch, chirp, np.arange(N) + 0.5), xs, prof)
    # a line hidden under a pencil should not sink the grid, but most teeth must stand out
    floor = float(mids.mean())
    if int((teeth_val > floor + 0.3 * (float(median(teeth_val)) - floor)).sum()) < COMB_MIN_LINES:
        return None
    return off0, float(_teeth(off0, pitch, chirp, np.array(float(N)))), best
