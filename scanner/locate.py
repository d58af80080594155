"""Find the map grid in a photo without markers, to a small fraction of a cell.

1. candidates: dark-line contours of a downscaled copy, reduced to quadrilaterals;
2. verify: each candidate is rectified and must show the 11x11 comb of grid lines at one pitch
   (the candidate may be the grid border, the colour sheet's outer frame line or similar);
3. refine: on the full-resolution photo, in small rectified windows, every grid line is measured
   segment by segment, fitted with a low-degree polynomial (curled paper), and the 12x12 crossings
   give the final homography and the crossing map;
4. orient: printed landmarks give the side and which corner is A1.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import cv2
import numpy as np

from rules.grid import SIZE
from scanner.constants import (
    ALTERNATE_OUTLINES,
    BLUR_MIN_SHARPNESS,
    BORDER_MARGIN,
    CANON_MARGIN,
    COMB_CAP_PERCENTILE,
    COMB_CHIRP,
    COMB_MIN_LINES,
    COMB_MIN_SCORE,
    COMB_PARTIAL_RANGE,
    COMB_SCALE_RANGE,
    EDGE_LINE_WINDOW,
    LINE_HALF_WIDTH,
    LINE_POLY_DEGREE,
    LOCATE_DENOISE,
    LOCATE_DEPTH,
    LOCATE_NOISE_SIGMAS,
    LOCATE_SIDE,
    MAX_CANDIDATES,
    MIN_CANDIDATE_AREA,
    MIN_CELL_PX,
    ORIENT_PPC,
    REFINE_PASSES,
    SHIFT_CHECK_BELOW,
    SHIFT_COIN_MARGIN,
    SHIFT_REACH,
    SIDE_DOUBT,
    TURN_DOUBT,
    VERIFY_PAD,
    VERIFY_PPC,
)
from scanner.debug import DebugSink, emit
from scanner.failure import Failure
from scanner.orient import coin_track_score, decide, landmark_scores, min_channel
from scanner.rectify import apply_h, canon_matrix, canon_size, grid_homography

N = SIZE
_NODES = np.stack(np.meshgrid(np.arange(N + 1.0), np.arange(N + 1.0), indexing="xy"), axis=-1)  # [y, x]


@dataclass(frozen=True, slots=True, eq=False)
class Location:
    """Where the grid is in the photo and how it is printed.

    Attributes
    ----------
    corners : (4, 2) float array
        Grid corners A1, A11, K11, K1 in photo px (sheet order).
    orientation : int
        Clockwise rotation, 0/90/180/270, that the sheet shows in the photo.
    side : str
        Printed side ``"A"``..``"D"``.
    side_confidence : float
        In [0, 1].
    crossings : (12, 12, 2) float array or None
        Photo px of grid crossing ``[row_line, col_line]`` in sheet order (row line 0 is the top of
        row A); follows curled paper where the corners alone would not.
    orientation_confidence : float
        In [0, 1].
    pitch : float
        Mean cell pitch in photo px.
    sharpness : float
        See :func:`sharpness`.
    """

    corners: np.ndarray
    orientation: int
    side: str
    side_confidence: float
    crossings: np.ndarray | None = None
    orientation_confidence: float = 1.0
    pitch: float = 0.0
    sharpness: float = 1.0

    def doubts(self) -> tuple[str, ...]:
        """One line per verdict too close to call (empty when all are clear).

        A wrong side or A1 corner ruins the whole score, so a caller should warn, or ask for
        ``--corners`` / ``--side``, rather than score silently.
        """
        out = []
        if self.orientation_confidence < TURN_DOUBT:
            out.append(
                f"which corner is A1 is unclear (confidence {self.orientation_confidence:.2f}); "
                "check the coin track is in the photo, or give --corners from A1"
            )
        if self.side_confidence < SIDE_DOUBT:
            out.append(f"printed side {self.side} is unclear (confidence {self.side_confidence:.2f})")
        return tuple(out)

    def __repr__(self) -> str:
        pts = ",".join(f"{v:.1f}" for v in np.asarray(self.corners).ravel())
        return (
            f"Location(corners=[{pts}], orientation={self.orientation}, side={self.side!r}, "
            f"side_confidence={self.side_confidence:.2f})"
        )


@dataclass(frozen=True, slots=True)
class _Fit:
    h: np.ndarray  # cell units -> photo px, corners in photo order (not yet oriented)
    score: float


# --------------------------------------------------------------------------------------------------
# public entry points


def locate_sheet(image: np.ndarray, *, debug: DebugSink | None = None) -> Location | Failure:
    """Find the sheet's grid, its side and orientation in a photo.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR
        The photo at full resolution.
    debug : callable, optional
        Receives ``(name, image)`` of intermediate stages.

    Returns
    -------
    Location or Failure
        Failure reasons: ``no_sheet``, ``cut_off``, ``too_small``, ``too_blurred``.
    """
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        return Failure("no_sheet", f"not a colour photo of usable size: shape {image.shape}")
    small, scale = downscale(image)
    grey = min_channel(small)
    emit(debug, "locate_small", small)
    quads, touching, alternates = candidate_quads(grey, debug=debug)
    pyramid = [grey]
    while len(pyramid) < 3 and min(pyramid[-1].shape) >= 4 * canon_size(VERIFY_PPC, VERIFY_PAD) // 3:
        pyramid.append(cv2.pyrDown(pyramid[-1]))
    best: _Fit | None = None
    for quad, touches in zip(quads, touching, strict=True):
        if touches:
            continue  # at best a cut-off grid: only asked about when nothing else verifies
        fit = verify_candidate(pyramid, quad)
        if not isinstance(fit, _Fit):
            continue
        if best is None or fit.score > best.score:
            best = fit
    if best is None:  # second guesses: other sides of the largest outlines, then the paper itself
        for quad, wide in [(q, False) for q in alternates] + [(q, True) for q in paper_quads(grey)]:
            fit = verify_candidate(
                pyramid, quad, scale_range=COMB_PARTIAL_RANGE if wide else COMB_SCALE_RANGE
            )
            if isinstance(fit, _Fit) and (best is None or fit.score > best.score):
                best = fit
    if best is None:
        # an outline running into the photo border is at best a cut-off grid (or the page around
        # one): look for the comb on either axis, with room for the page's margins
        cut = [q for q, touches in zip(quads, touching, strict=True) if touches]
        if any(verify_candidate(pyramid, q, scale_range=COMB_PARTIAL_RANGE) is not None for q in cut):
            return Failure("cut_off", "an 11x11 grid runs past the photo's edge; include the whole sheet")
        return Failure("no_sheet", "no 11x11 map grid found in the photo")
    h0 = np.diag([1.0 / scale, 1.0 / scale, 1.0]) @ best.h
    return _finish(image, h0, small=(small, scale), debug=debug)


def locate_from_corners(
    image: np.ndarray, corners: np.ndarray, *, refine: bool = True, debug: DebugSink | None = None
) -> Location | Failure:
    """Build a Location from hand-given corners (``--corners``), then refine and orient it.

    Parameters
    ----------
    corners : (4, 2) array
        Grid corners in photo px in sheet order A1, A11, K11, K1.
    refine : bool
        Snap to the printed grid lines near the given corners.

    Returns
    -------
    Location or Failure
        The side comes from the landmarks, and so does which corner is A1: corners given starting
        from another corner are re-ordered to follow the print (``orientation_confidence`` says
        how clear that was).
    """
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    return _finish(image, grid_homography(corners), refine=refine, debug=debug)


def sharpness(grey: np.ndarray) -> float:
    """Focus measure of a rectified grey grid: variance of the Laplacian over the grey variance.

    Dividing by the grey variance makes it independent of exposure and contrast.
    """
    g = grey.astype(np.float32)
    var = float(g.var())
    if var < 1e-6:
        return 0.0
    return float(cv2.Laplacian(g, cv2.CV_32F, ksize=3).var() / var)


# --------------------------------------------------------------------------------------------------
# stage 1: candidates


def downscale(image: np.ndarray, long_side: int = LOCATE_SIDE) -> tuple[np.ndarray, float]:
    """A copy with the long side at most ``long_side`` px, and the scale factor (small / full)."""
    full_h, full_w = image.shape[:2]
    s = long_side / max(full_h, full_w)
    if s >= 1.0:
        return image, 1.0
    w, h = round(full_w * s), round(full_h * s)
    src = image
    if s < 0.25:
        # area averaging over a 12 MP photo costs ~15 ms; decimating to twice the target first is
        # nearly free and the final area step still removes the aliasing.
        src = cv2.resize(image, (2 * w, 2 * h), interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
    return small, w / full_w


def candidate_quads(
    grey: np.ndarray, *, debug: DebugSink | None = None
) -> tuple[list[np.ndarray], list[bool], list[np.ndarray]]:
    """Quadrilaterals that might bound the grid, largest first.

    Returns
    -------
    quads : list of (4, 2) float arrays
        Photo-order corners (clockwise from the top-left-most).
    touching : list of bool
        Whether the contour behind each quad touches the image border.
    alternates : list of (4, 2) float arrays
        Second guesses for the largest outlines (quads through other choices of four hull sides),
        for when a drawing joined to the frame (a banner, a pencil) hides a side.
    """
    h, w = grey.shape
    binary = dark_lines(grey)
    emit(debug, "locate_binary", binary)
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    min_area = MIN_CANDIDATE_AREA * h * w
    found: list[tuple[float, np.ndarray, bool]] = []
    hulls: list[tuple[float, np.ndarray]] = []
    for cnt in contours:
        if len(cnt) < 40:
            continue  # a contour this short cannot outline a grid of min_area
        hull = cv2.convexHull(cnt)
        if cv2.contourArea(hull) < min_area:  # the hull: a frame broken by a gap still counts
            continue
        xs, ys = hull[:, 0, 0], hull[:, 0, 1]
        touches = bool(xs.min() <= 1 or ys.min() <= 1 or xs.max() >= w - 2 or ys.max() >= h - 2)
        if not touches:
            hulls.append((float(cv2.contourArea(hull)), hull))
        quad = _hull_to_quad(hull, cnt)
        if quad is None:
            if not touches:
                continue
            quad = cv2.boxPoints(cv2.minAreaRect(hull))
        quad = order_clockwise(np.asarray(quad, dtype=np.float64).reshape(4, 2))
        area = float(cv2.contourArea(quad.astype(np.float32)))
        if any(np.abs(quad - q).max() < 0.01 * max(h, w) for _, q, _ in found):
            continue
        found.append((area, quad, touches))
    found.sort(key=lambda t: -t[0])
    found = found[:MAX_CANDIDATES]
    if debug is not None:
        vis = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
        for _, q, _ in found:
            cv2.polylines(vis, [q.astype(np.int32)], True, (0, 0, 255), 1)
        emit(debug, "locate_candidates", vis)
    hulls.sort(key=lambda t: -t[0])
    alternates = [q for _, hull in hulls[:ALTERNATE_OUTLINES] for q in _side_choices(hull)]
    return [q for _, q, _ in found], [t for _, _, t in found], alternates


def paper_quads(grey: np.ndarray) -> list[np.ndarray]:
    """Outlines of the brightest large blobs (the paper on a darker table), as quads, largest first.

    The grid inside is 11 of the page's 13.6 x 19.2 cells, so these need the wide comb range.
    """
    h, w = grey.shape
    _, bright = cv2.threshold(cv2.GaussianBlur(grey, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for cnt in sorted(contours, key=cv2.contourArea, reverse=True)[:2]:
        hull = cv2.convexHull(cnt)
        if cv2.contourArea(hull) < 2 * MIN_CANDIDATE_AREA * h * w:
            break
        quad = _hull_to_quad(hull, cnt)
        if quad is not None:
            out.append(order_clockwise(quad))
    return out


def _side_choices(hull: np.ndarray) -> list[np.ndarray]:
    # Quads through four of the six longest sides of a simplified hull, kept in hull order (so the
    # quad stays convex), largest first.
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.01 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) <= 4:
        return []
    nxt = np.roll(poly, -1, axis=0)
    longest = sorted(np.argsort(-np.linalg.norm(nxt - poly, axis=1))[:6].tolist())
    hull_area = float(cv2.contourArea(hull))
    out: list[tuple[float, np.ndarray]] = []
    for combo in combinations(longest, 4):
        quad = np.empty((4, 2))
        ok = True
        for k in range(4):
            p, v = poly[combo[k - 1]], nxt[combo[k - 1]] - poly[combo[k - 1]]
            q, w = poly[combo[k]], nxt[combo[k]] - poly[combo[k]]
            den = v[0] * w[1] - v[1] * w[0]
            if abs(den) < 1e-9:
                ok = False
                break
            t = ((q[0] - p[0]) * w[1] - (q[1] - p[1]) * w[0]) / den
            quad[k] = p + t * v
        if not ok:
            continue
        area = float(cv2.contourArea(quad.astype(np.float32)))
        if 0.3 * hull_area < area < 1.5 * hull_area and cv2.isContourConvex(quad.astype(np.float32)):
            out.append((area, order_clockwise(quad)))
    out.sort(key=lambda t: -t[0])
    return [q for _, q in out]


def dark_lines(grey: np.ndarray) -> np.ndarray:
    """Binary mask of pixels darker than their neighbourhood, robust to exposure and sensor noise.

    The threshold is relative (a fraction of the local mean, so a dim photo keeps its lines) and
    at least a few noise sigmas (so sensor noise on a dark table does not join everything up).
    """
    h, w = grey.shape
    block = max(15, (max(h, w) // 40) | 1)
    smooth = cv2.GaussianBlur(grey, (0, 0), LOCATE_DENOISE)
    local = cv2.blur(smooth, (block, block)).astype(np.float32)
    noise = 1.4826 * _median_u8(cv2.absdiff(grey, smooth))
    depth = np.maximum(LOCATE_DEPTH * local, LOCATE_NOISE_SIGMAS * noise / 2.0 + 2.0)
    mask = ((local - smooth.astype(np.float32)) > depth).astype(np.uint8) * 255
    # bridge 1-px gaps (dashes, noise holes) so that the frame closes into one outline
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))


def _median_u8(values: np.ndarray) -> float:
    # np.median of a uint8 array from its histogram: exact, and no sort of a megapixel array
    hist = cv2.calcHist([values], [0], None, [256], [0, 256]).ravel()
    cum = np.cumsum(hist)
    n = values.size
    lo, hi = np.searchsorted(cum, [(n - 1) // 2, n // 2], side="right")
    return 0.5 * float(lo + hi)


def _hull_to_quad(hull: np.ndarray, contour: np.ndarray) -> np.ndarray | None:
    # The quadrilateral behind a convex hull that may carry protrusions (the shield printed over the
    # frame, a pencil lying across it): drop the hull vertex cutting the least area until four are
    # left, then refit every side to the contour points lying along it, so the protrusions' corners
    # do not tilt the sides.
    peri = cv2.arcLength(hull, True)
    poly = cv2.approxPolyDP(hull, 0.004 * peri, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    while len(poly) > 4:
        prev, nxt = np.roll(poly, 1, axis=0), np.roll(poly, -1, axis=0)
        u, v = poly - prev, nxt - prev
        cut = 0.5 * np.abs(u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0])
        poly = np.delete(poly, int(np.argmin(cut)), axis=0)
    pts = contour.reshape(-1, 2).astype(np.float64)
    tol = max(2.0, 0.006 * peri)
    lines = []
    for k in range(4):
        a, b = poly[k], poly[(k + 1) % 4]
        d = b - a
        length = float(np.hypot(*d))
        if length < 1e-6:
            return None
        u = d / length
        rel = pts - a
        along = rel @ u
        dist = np.abs(rel[:, 0] * u[1] - rel[:, 1] * u[0])
        near = pts[(dist < tol) & (along > 0.1 * length) & (along < 0.9 * length)]
        if len(near) >= 8:
            vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
            lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
        else:
            lines.append((a, u))
    quad = np.empty((4, 2))
    for k in range(4):
        (p, v), (q, w) = lines[k - 1], lines[k]
        den = v[0] * w[1] - v[1] * w[0]
        if abs(den) < 1e-6:
            return None
        t = ((q[0] - p[0]) * w[1] - (q[1] - p[1]) * w[0]) / den
        quad[k] = p + t * v
    if np.abs(quad - poly).max() > 0.1 * peri:
        return None
    return quad


def order_clockwise(quad: np.ndarray) -> np.ndarray:
    """Order four points clockwise (on screen, y down) starting from the one with the least x + y."""
    c = quad.mean(axis=0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # increasing angle = clockwise on screen
    start = int(np.argmin(q.sum(axis=1)))
    return np.roll(q, -start, axis=0)


# --------------------------------------------------------------------------------------------------
# stage 2: verify


def verify_candidate(
    grey: np.ndarray | list[np.ndarray],
    quad: np.ndarray,
    *,
    scale_range: tuple[float, float] = COMB_SCALE_RANGE,
) -> _Fit | str | None:
    """Check a candidate for the 11x11 comb of grid lines and return the grid it implies.

    Parameters
    ----------
    grey : ndarray or list of ndarray
        The downscaled grey photo, or its pyramid (each level half the previous, ``cv2.pyrDown``).
    quad : (4, 2) array
        Candidate corners in the photo order of ``order_clockwise``, px of level 0.

    Returns
    -------
    _Fit, "partial" or None
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
    ridge_v, ridge_h = line_response(dark, VERIFY_PPC)
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
    return _Fit(h=grid_homography(corners), score=min(sx, sy))


def line_response(dark: np.ndarray, ppc: float) -> tuple[np.ndarray, np.ndarray]:
    """Thin-line responses of a darkness image: (vertical lines, horizontal lines).

    A pixel responds by how much darker it is than *both* neighbours ``LINE_HALF_WIDTH`` cells away,
    so edges of dark blocks (printed mountains, filled cells) do not pass for lines.
    """
    w = max(1, round(LINE_HALF_WIDTH * ppc))
    out = []
    for axis in (1, 0):
        a = np.roll(dark, w, axis=axis)
        b = np.roll(dark, -w, axis=axis)
        out.append(np.maximum(np.minimum(dark - a, dark - b), 0.0))
    return out[0], out[1]


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
        prof = np.minimum(prof, np.percentile(prof, COMB_CAP_PERCENTILE))
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


def _comb_search(
    prof: np.ndarray, pitches: np.ndarray, offsets: np.ndarray, chirps: np.ndarray
) -> tuple[float, float, float, float]:
    # (score, offset, pitch, chirp) of the best comb on the grid of parameters; all 12 teeth count,
    # so a comb shifted by a whole cell (11 teeth on lines) scores lower.
    xs = np.arange(prof.size, dtype=np.float64)
    p = pitches[:, None, None, None]
    o = offsets[None, :, None, None]
    c = chirps[None, None, :, None]
    on = np.interp(_teeth(o, p, c, np.arange(N + 1.0)), xs, prof, left=np.nan, right=np.nan)
    off = np.interp(_teeth(o, p, c, np.arange(N) + 0.5), xs, prof, left=np.nan, right=np.nan)
    score = np.nan_to_num(on.mean(axis=-1) - off.mean(axis=-1), nan=-np.inf)
    pi, oi, ci = np.unravel_index(int(np.argmax(score)), score.shape)
    return float(score[pi, oi, ci]), float(offsets[oi]), float(pitches[pi]), float(chirps[ci])


def _comb_fit(profile: np.ndarray, scale_range: tuple[float, float]) -> tuple[float, float, float] | None:
    # Best 12-tooth comb on a line-response profile: (position of tooth 0, of tooth 11, score), or
    # None unless it stands out.  Smoothed so that a 1-px line still meets a slightly wrong tooth.
    prof = cv2.GaussianBlur(profile.astype(np.float64).reshape(1, -1), (0, 0), sigmaX=1.0).ravel()
    # capped: one overwhelming edge (the page's shadow, a ruler on the table) must not buy a tooth
    prof = np.minimum(prof, np.percentile(prof, COMB_CAP_PERCENTILE))
    spread = float(np.median(prof)) + 0.05 * float(prof.mean())  # the heavy frame must not set the scale
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
    if int((teeth_val > floor + 0.3 * (float(np.median(teeth_val)) - floor)).sum()) < COMB_MIN_LINES:
        return None
    return off0, float(_teeth(off0, pitch, chirp, np.array(float(N)))), best


# --------------------------------------------------------------------------------------------------
# stage 3: refine


Sources = list[tuple[np.ndarray, float]]
"""The photo at several scales, ``(image, scale)`` with scale = image px per full-resolution px."""


def warp_from(sources: Sources, h: np.ndarray, ppc: float, margin: float) -> np.ndarray:
    """Rectify at ``ppc`` from the smallest source that still has about ``ppc`` px per cell.

    Warping a 12 MP photo costs ~10x more than warping its downscaled copy (cache misses), so
    coarse passes read the copy.
    """
    pitch = _pitch(h)
    img, s = sources[-1]
    for cand, cs in sorted(sources, key=lambda t: t[1]):
        if pitch * cs >= 0.9 * ppc:
            img, s = cand, cs
            break
    hs = np.diag([s, s, 1.0]) @ h
    size = canon_size(ppc, margin)
    return cv2.warpPerspective(
        img,
        hs @ np.linalg.inv(canon_matrix(ppc, margin)),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )


def refine_grid(
    sources: Sources, h: np.ndarray, *, debug: DebugSink | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Snap a grid homography to the printed lines, finishing on the full-resolution photo.

    Parameters
    ----------
    sources : list of (image, scale)
        The photo (scale 1) and optionally downscaled copies.
    h : (3, 3) array
        Approximate cell units -> full-resolution photo px.

    Returns
    -------
    h : (3, 3) array
        Least-squares homography through the crossings.
    crossings : (12, 12, 2) array
        Photo px of each crossing ``[row_line, col_line]`` in the frame of ``h``.
    last : ndarray
        The last pass's rectified window (grid at ``REFINE_MARGIN`` cells, about native resolution).
    """
    crossings = apply_h(h, _NODES)
    last = np.zeros((1, 1, 3), np.uint8)
    for k, (ppc, win) in enumerate(REFINE_PASSES):
        if k == len(REFINE_PASSES) - 1:  # the last pass at the photo's own resolution, at most ppc
            ppc = int(np.clip(round(_pitch(h)), REFINE_PASSES[0][0], ppc))
        warped = warp_from(sources, h, ppc, REFINE_MARGIN)
        emit(debug, f"refine_{ppc}", warped)
        last = warped
        cells = _measure_crossings(warped, ppc, win, every_line=k == len(REFINE_PASSES) - 1)
        if cells is None:
            break
        crossings = apply_h(h, cells)
        src = _NODES.reshape(-1, 2).astype(np.float32)
        h_new, _ = cv2.findHomography(src, crossings.reshape(-1, 2).astype(np.float32), 0)
        if h_new is None:
            break
        h = h_new
    return h, crossings, last


REFINE_MARGIN = 0.6  # cells around the grid in refinement windows: room for the border-line search


def _measure_crossings(
    warped: np.ndarray, ppc: int, win: float, *, every_line: bool = True
) -> np.ndarray | None:
    # Crossings in cell units, measured line by line in a rectified window with REFINE_MARGIN.
    margin = REFINE_MARGIN
    dark = 255.0 - min_channel(warped).astype(np.float32)
    ridge_v, ridge_h = line_response(dark, ppc)
    off = margin * ppc
    vert = _line_polys(ridge_v, ppc, off, win, every_line=every_line)  # x of line i, polynomial of y
    horiz = _line_polys(ridge_h.T, ppc, off, win, every_line=every_line)  # y of line j, of x
    if vert is None or horiz is None:
        return None
    deg = max(len(p) for p in (*vert, *horiz))
    vc, hc = np.zeros((N + 1, deg)), np.zeros((N + 1, deg))  # np.polyval order, padded
    for k in range(N + 1):
        vc[k, deg - len(vert[k]) :] = vert[k]
        hc[k, deg - len(horiz[k]) :] = horiz[k]
    jj, ii = np.meshgrid(np.arange(N + 1), np.arange(N + 1), indexing="ij")
    x, y = ii.astype(np.float64), jj.astype(np.float64)
    for _ in range(3):  # fixed point: x on vertical line i at height y, y on horizontal line j at x
        x = ii + _polyval_rows(vc[ii], y)
        y = jj + _polyval_rows(hc[jj], x)
    return np.stack([x, y], axis=-1)


def _polyval_rows(coef: np.ndarray, t: np.ndarray) -> np.ndarray:
    # Evaluate per-element polynomials: coef (..., deg) in np.polyval order at t (...).
    out = np.zeros_like(t)
    for k in range(coef.shape[-1]):
        out = out * t + coef[..., k]
    return out


def _segment_profiles(ridge: np.ndarray, ppc: int, off: float) -> np.ndarray:
    # Mean ridge response across x for each cell span along y (crossings left out): (11, W).
    seg = np.empty((N, ridge.shape[1]))
    for j in range(N):
        y0, y1 = round(off + (j + 0.1) * ppc), round(off + (j + 0.9) * ppc)
        seg[j] = ridge[y0:y1].mean(axis=0)
    return seg


def _line_polys(
    ridge: np.ndarray, ppc: int, off: float, win: float, *, every_line: bool = True
) -> list[np.ndarray] | None:
    # For the 12 lines across the x axis of `ridge`: each line's offset from its nominal place, as a
    # polynomial of the position along it (cells).  Inner lines are measured first; a smooth model of
    # the whole grid removes gross outliers; each line then gets its own robust fit (curl bends lines
    # near the paper's edge more than any global model follows).  The border lines are searched
    # narrowly around the extrapolation of their two inner neighbours: the colour frame's outer
    # line lies just outside.
    seg = _segment_profiles(ridge, ppc, off)
    pos = np.full((N + 1, N), np.nan)
    strength = np.zeros((N + 1, N))
    inner = off + np.arange(1.0, N)[:, None] * ppc + np.zeros((1, seg.shape[0]))
    pos[1:N], strength[1:N] = _peaks(seg, inner, win * ppc, ppc, off)
    _drop_weak(pos, strength)
    model = _smooth_model(pos, range(1, N))
    if model is None:
        return None
    along = np.arange(N) + 0.5
    # coarse passes: the model, but for the border's neighbours, which predict the border
    own = list(range(1, N)) if every_line else [1, 2, N - 2, N - 1]
    fits = {i: _model_poly(model, float(i)) for i in range(1, N)}
    fits.update(zip(own, _fit_lines(pos[own], along, own, model), strict=True))
    for i, (a, b) in ((0, (1, 2)), (N, (N - 1, N - 2))):
        pred = 2 * (a + np.polyval(fits[a], along)) - (b + np.polyval(fits[b], along))
        pos[i], strength[i] = _peaks(seg, off + pred * ppc, EDGE_LINE_WINDOW * ppc, ppc, off)
        ok = strength[i] > 0
        pos[i][ok & (strength[i] < 0.25 * float(np.median(strength[i][ok])) if ok.any() else ok)] = np.nan
        fits[i] = _fit_line(pos[i], along, None, i, fallback=pred - i)
    return [fits[i] for i in range(N + 1)]


def _robust_polyfit(t: np.ndarray, d: np.ndarray, deg: int, ok: np.ndarray) -> np.ndarray | None:
    # Polynomial fit that first settles a straight line (so a bad end point cannot bend a parabola
    # towards itself), then the full degree on the points that agree, with residual rejection.
    if ok.sum() < deg + 3:
        return None
    coef = np.polyfit(t[ok], d[ok], 1)
    keep = ok & (np.abs(np.polyval(coef, t) - d) < 0.05)
    for _ in range(3):
        if keep.sum() < deg + 3:
            return None
        coef = np.polyfit(t[keep], d[keep], deg)
        r = np.abs(np.polyval(coef, t) - d)
        new = ok & (r < max(0.015, 3.0 * float(np.median(r[keep]))))
        if (new == keep).all():
            break
        keep = new
    return coef


def _robust_polyfits(t: np.ndarray, d: np.ndarray, deg: int, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    # _robust_polyfit of many lines at once: d and ok (L, n) against the shared t (n,).  Returns
    # the coefficients (L, deg + 1) and which lines had enough points (the others are garbage).
    # Lines that settle early refit the same points in later rounds, which changes nothing.
    dz = np.where(ok, d, 0.0)

    def fit(w: np.ndarray, degree: int) -> np.ndarray:
        a = np.vander(t, degree + 1)
        m = np.einsum("ln,ni,nj->lij", w, a, a)
        b = np.einsum("ln,ni->li", w * dz, a)
        few = w.sum(axis=1) < degree + 1  # would be singular; their result is not used
        m[few], b[few] = np.eye(degree + 1), 0.0
        return np.linalg.solve(m, b[..., None])[..., 0]

    valid = ok.sum(axis=1) >= deg + 3
    line = fit(ok.astype(np.float64), 1)
    with np.errstate(invalid="ignore"):
        keep = ok & (np.abs(line @ np.vander(t, 2).T - d) < 0.05)
    coef = np.zeros((d.shape[0], deg + 1))
    for _ in range(3):
        valid &= keep.sum(axis=1) >= deg + 3
        coef = fit(keep.astype(np.float64), deg)
        r = np.abs(coef @ np.vander(t, deg + 1).T - d)
        ranked = np.sort(np.where(keep, r, np.inf), axis=1)
        c = np.maximum(keep.sum(axis=1), 1)
        rows = np.arange(len(c))
        med = 0.5 * (ranked[rows, (c - 1) // 2] + ranked[rows, c // 2])
        with np.errstate(invalid="ignore"):
            keep = ok & (r < np.maximum(0.015, 3.0 * med)[:, None])
    return coef, valid


def _fit_lines(pos: np.ndarray, along: np.ndarray, lines: list[int], model: np.ndarray) -> list[np.ndarray]:
    # _fit_line for several inner lines (rows of pos), with their robust fits done in one batch.
    d = pos - np.asarray(lines, dtype=np.float64)[:, None]
    ok = ~np.isnan(d)
    coefs, valid = _robust_polyfits(along, d, LINE_POLY_DEGREE, ok)
    return [coefs[k] if valid[k] else _fit_line(pos[k], along, model, i) for k, i in enumerate(lines)]


def _fit_line(
    pos: np.ndarray,
    along: np.ndarray,
    model: np.ndarray | None,
    i: int,
    *,
    fallback: np.ndarray | None = None,
) -> np.ndarray:
    # Line i's offset from its nominal place as a polynomial (np.polyval order) of the position
    # along it: a robust fit of its own points; with too few, the grid model (inner lines) or the
    # extrapolation of the inner neighbours (border lines, ``fallback``) shifted onto the points.
    d = pos - i
    ok = ~np.isnan(d)
    coef = _robust_polyfit(along, d, LINE_POLY_DEGREE, ok)
    if coef is not None:
        return coef
    if fallback is not None:
        fb = np.polyfit(along, fallback, LINE_POLY_DEGREE)
        shift = float(np.median((d - fallback)[ok])) if ok.sum() >= 2 else 0.0
        return np.polyadd(fb, np.array([shift]))
    base = _model_poly(model, float(i)) if model is not None else np.zeros(1)
    if ok.sum() >= 2:
        return np.polyadd(base, np.array([float(np.median(d[ok] - np.polyval(base, along[ok])))]))
    return base


def _drop_weak(pos: np.ndarray, strength: np.ndarray) -> None:
    s = strength[strength > 0]
    if s.size:
        pos[strength < 0.25 * float(np.median(s))] = np.nan


def _design(i: np.ndarray, t: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(t), i, t, i * t, i * i, t * t], axis=-1)


def _smooth_model(pos: np.ndarray, lines: range) -> np.ndarray | None:
    # Offset of every line from its nominal place as one quadratic in (line index, along), fitted
    # with iterative outlier rejection; rejected points are set to NaN in ``pos``.
    idx = np.array(list(lines), dtype=np.float64)
    ii, tt = np.meshgrid(idx, np.arange(N) + 0.5, indexing="ij")
    d = pos[list(lines)] - ii
    ok = ~np.isnan(d)
    if ok.sum() < 12:
        return None
    coef = np.zeros(6)
    for _ in range(4):
        a = _design(ii[ok], tt[ok])
        coef, *_ = np.linalg.lstsq(a, d[ok], rcond=None)
        r = np.abs(_design(ii, tt) @ coef - d)
        mad = float(np.nanmedian(r[ok]))
        new_ok = ~np.isnan(d) & (r < max(0.08, 4.0 * mad))
        if (new_ok == ok).all():
            break
        ok = new_ok
        if ok.sum() < 12:
            return None
    rows = pos[list(lines)]
    rows[~ok] = np.nan
    pos[list(lines)] = rows
    return coef


def _model_poly(coef: np.ndarray, i: float) -> np.ndarray:
    # The model at a fixed line index as a polynomial in the along coordinate (np.polyval order).
    c0, c1, c2, c3, c4, c5 = coef
    return np.array([c5, c2 + c3 * i, c0 + c1 * i + c4 * i * i])


def _peaks(
    seg: np.ndarray, centre: np.ndarray | float, half: float, ppc: int, off: float
) -> tuple[np.ndarray, np.ndarray]:
    # Sub-pixel peak of each segment profile within +-half px of centre, in cells (NaN if none),
    # and its height above the window's mean.  centre: one per profile, or (lines, profiles) to
    # look for several lines at once; the results have the shape of centre.
    rows = seg.shape[0]
    given = np.asarray(centre, dtype=np.float64)
    shape = given.shape if given.ndim == 2 else (rows,)
    centre = np.broadcast_to(given, shape).ravel()
    seg_row = np.tile(np.arange(rows), centre.size // rows)
    pos = np.full(centre.size, np.nan)
    strength = np.zeros(centre.size)
    length = int(np.ceil(2 * half)) + 2
    start = np.floor(np.nan_to_num(centre, nan=-1e9) - half).astype(np.int64)
    ok = np.isfinite(centre) & (start >= 1) & (start + length <= seg.shape[1] - 1)
    if not ok.any():
        return pos.reshape(shape), strength.reshape(shape)
    r = np.nonzero(ok)[0]
    idx = start[r, None] + np.arange(length)[None, :]
    win = seg[seg_row[r, None], idx]
    k = np.argmax(win, axis=1)
    inner = (k > 0) & (k < length - 1)  # a peak on the window edge means the line is elsewhere
    r, k, win, st = r[inner], k[inner], win[inner], start[r[inner]]
    n = np.arange(r.size)
    y0, y1, y2 = win[n, k - 1], win[n, k], win[n, k + 1]
    den = y0 - 2 * y1 + y2
    d = np.where(den < 0, 0.5 * (y0 - y2) / np.where(den < 0, den, -1.0), 0.0)
    pos[r] = (st + k + d - off) / ppc
    strength[r] = y1 - win.mean(axis=1)
    return pos.reshape(shape), strength.reshape(shape)


# --------------------------------------------------------------------------------------------------
# stage 4: checks and orientation


def _finish(
    image: np.ndarray,
    h: np.ndarray,
    *,
    small: tuple[np.ndarray, float] | None = None,
    refine: bool = True,
    debug: DebugSink | None = None,
) -> Location | Failure:
    pitch = _pitch(h)
    if pitch < MIN_CELL_PX:
        return Failure(
            "too_small", f"the grid is only {pitch:.1f} px per cell; move closer (>= {MIN_CELL_PX:.0f})"
        )
    sources: Sources = [small if small is not None else downscale(image), (image, 1.0)]
    if refine:
        h, crossings, last = refine_grid(sources, h, debug=debug)
        canon, marks = _landmarks(sources, h)
        settled = _settle_shift(sources, h, marks)
        if settled is not h:
            h, crossings, last = refine_grid(sources, settled, debug=debug)
            canon, marks = _landmarks(sources, h)
    else:
        crossings = apply_h(h, _NODES)
        last = warp_from(sources, h, float(np.clip(pitch, 16, 48)), REFINE_MARGIN)
        canon, marks = _landmarks(sources, h)
    pitch = _pitch(h)
    hgt, wid = image.shape[:2]
    m = BORDER_MARGIN
    ring = apply_h(h, np.array([[-m, -m], [N + m, -m], [N + m, N + m], [-m, N + m]]))
    if (ring < 0).any() or (ring[:, 0] > wid - 1).any() or (ring[:, 1] > hgt - 1).any():
        return Failure("cut_off", "the sheet's frame runs past the photo's edge; include the whole sheet")
    ppc_last = last.shape[0] / (N + 2 * REFINE_MARGIN)
    o = round(REFINE_MARGIN * ppc_last)
    grey = min_channel(last[o : last.shape[0] - o, o : last.shape[1] - o])
    sharp = sharpness(grey)
    emit(debug, "locate_grid", grey)
    if sharp < BLUR_MIN_SHARPNESS:
        return Failure("too_blurred", f"the photo is too blurred to read (sharpness {sharp:.3f}); hold still")
    emit(debug, "locate_canonical", canon)
    verdict = decide(marks[0])
    if isinstance(verdict, Failure):
        return verdict
    sheet_crossings = np.rot90(crossings, verdict.turns).copy()
    corners = sheet_crossings[[0, 0, N, N], [0, N, N, 0]]
    d = corners[1] - corners[0]
    orientation = round(float(np.degrees(np.arctan2(d[1], d[0]))) / 90.0) % 4 * 90
    return Location(
        corners=corners,
        orientation=orientation,
        side=verdict.side,
        side_confidence=verdict.side_confidence,
        crossings=sheet_crossings,
        orientation_confidence=verdict.turn_confidence,
        pitch=pitch,
        sharpness=sharp,
    )


def _landmarks(sources: Sources, h: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    # The canonical image the orientation is judged on, and its printed-landmark scores.
    canon = warp_from(sources, h, ORIENT_PPC, CANON_MARGIN)
    return canon, landmark_scores(canon)


def _settle_shift(sources: Sources, h: np.ndarray, marks: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    # Where all lines look alike (the printer-friendly sheet: thin grid border, the coin box's edge a
    # cell below it, the header's boxes) the line comb can land a cell or two off.  When the printed
    # landmarks are not convincing, the coin track decides among the grid and its one- and two-cell
    # shifts: its 14 circles sit at a pitch unlike the grid's, so only the true grid puts them where
    # they belong.  One wide canonical serves every shift: an integer shift is a crop of it.
    # marks: landmark_scores of the grid as found
    score, coins = float(marks[0].max()), float(marks[1].max())
    if score >= SHIFT_CHECK_BELOW:
        return h
    reach, ppc = SHIFT_REACH, ORIENT_PPC
    wide = warp_from(sources, h, ppc, CANON_MARGIN + reach)
    size = canon_size(ppc, CANON_MARGIN)
    best, best_h = coins, h
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            if dx == dy == 0:
                continue
            x0, y0 = round((reach + dx) * ppc), round((reach + dy) * ppc)
            window = wide[y0 : y0 + size, x0 : x0 + size]
            c = max(coin_track_score(np.rot90(window, k)) for k in range(4))
            if c > best + SHIFT_COIN_MARGIN:
                best, best_h = c, h @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])
    return best_h


def _pitch(h: np.ndarray) -> float:
    c = apply_h(h, np.array([[0.0, 0.0], [N, 0.0], [N, N], [0.0, N]]))
    return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)) / N)
