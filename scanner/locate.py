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

import cv2
import numpy as np

from scanner.constants import (
    BLUR_MIN_SHARPNESS,
    BORDER_MARGIN,
    CANON_MARGIN,
    COMB_MIN_LINES,
    COMB_MIN_SCORE,
    COMB_SCALE_RANGE,
    EDGE_LINE_WINDOW,
    LINE_HALF_WIDTH,
    LINE_POLY_DEGREE,
    LOCATE_SIDE,
    MAX_CANDIDATES,
    MIN_CANDIDATE_AREA,
    MIN_CELL_PX,
    ORIENT_PPC,
    REFINE_PASSES,
    VERIFY_PAD,
    VERIFY_PPC,
)
from scanner.debug import DebugSink, emit
from scanner.failure import Failure
from scanner.geometry import GRID_SIZE
from scanner.orient import judge, min_channel
from scanner.rectify import apply_h, canon_matrix, canon_size, grid_homography, rectify

N = GRID_SIZE
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
    quads, touching = candidate_quads(grey, debug=debug)
    best: _Fit | None = None
    partial = False
    for quad, touches in zip(quads, touching, strict=True):
        fit = verify_candidate(grey, quad)
        if fit is None:
            continue
        if isinstance(fit, str):
            partial |= touches
            continue
        if best is None or fit.score > best.score:
            best = fit
    if best is None:
        if partial:
            return Failure("cut_off", "an 11x11 grid runs past the photo's edge; include the whole sheet")
        return Failure("no_sheet", "no 11x11 map grid found in the photo")
    h0 = np.diag([1.0 / scale, 1.0 / scale, 1.0]) @ best.h
    return _finish(image, h0, debug=debug)


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
        The side comes from the landmarks; if they clearly show another corner as A1, the corners
        are re-ordered to follow the print.
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
) -> tuple[list[np.ndarray], list[bool]]:
    """Quadrilaterals that might bound the grid, largest first.

    Returns
    -------
    quads : list of (4, 2) float arrays
        Photo-order corners (clockwise from the top-left-most).
    touching : list of bool
        Whether the contour behind each quad touches the image border.
    """
    h, w = grey.shape
    block = max(15, (max(h, w) // 40) | 1)
    binary = cv2.adaptiveThreshold(grey, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, 8)
    emit(debug, "locate_binary", binary)
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    min_area = MIN_CANDIDATE_AREA * h * w
    found: list[tuple[float, np.ndarray, bool]] = []
    for cnt in contours:
        if cv2.contourArea(cnt) < min_area:
            continue
        hull = cv2.convexHull(cnt)
        xs, ys = hull[:, 0, 0], hull[:, 0, 1]
        touches = bool(xs.min() <= 1 or ys.min() <= 1 or xs.max() >= w - 2 or ys.max() >= h - 2)
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
    return [q for _, q, _ in found], [t for _, _, t in found]


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
        cut = 0.5 * np.abs(np.cross(poly - prev, nxt - prev))
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
            vx, vy, x0, y0 = cv2.fitLine(near.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
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


def verify_candidate(grey: np.ndarray, quad: np.ndarray) -> _Fit | str | None:
    """Check a candidate for the 11x11 comb of grid lines and return the grid it implies.

    Returns
    -------
    _Fit, "partial" or None
        ``"partial"`` when only one axis shows the comb (a grid cut by the photo border).
    """
    hq = grid_homography(quad)
    a = canon_matrix(VERIFY_PPC, VERIFY_PAD)
    size = canon_size(VERIFY_PPC, VERIFY_PAD)
    warped = cv2.warpPerspective(
        grey,
        hq @ np.linalg.inv(a),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    dark = 255.0 - warped.astype(np.float32)
    ridge_v, ridge_h = line_response(dark, VERIFY_PPC)
    lo, hi = round(VERIFY_PAD * VERIFY_PPC), round((VERIFY_PAD + N) * VERIFY_PPC)
    fx = _comb_fit(ridge_v[lo:hi].mean(axis=0))
    fy = _comb_fit(ridge_h[:, lo:hi].mean(axis=1))
    if fx is None and fy is None:
        return None
    if fx is None or fy is None:
        return "partial"
    (ox, px, sx), (oy, py, sy) = fx, fy
    # A comb shifted by a whole cell still has 11 teeth on lines (and a label column can pass for
    # the 12th).  The crossing lines settle it: every cell span of a true grid is crossed by lines.
    ox += px * _best_shift(ridge_h, oy, py, ox, px)
    oy += py * _best_shift(ridge_v.T, ox, px, oy, py)
    grid_px = np.array([[ox, oy], [ox + N * px, oy], [ox + N * px, oy + N * py], [ox, oy + N * py]])
    cells = apply_h(np.linalg.inv(a), grid_px)
    corners = apply_h(hq, cells)
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


def _best_shift(ridge: np.ndarray, o_across: float, p_across: float, o_along: float, p_along: float) -> int:
    # ridge: response of lines running along x; their y teeth are o_across + j * p_across.  Returns
    # the shift (-1, 0, 1) of the x comb: a shift swaps one end span for the span beyond the other
    # end, and is taken when the span gained is much better covered by crossing lines than the one lost.
    rows = np.clip(np.rint(o_across + np.arange(N + 1) * p_across).astype(int), 1, ridge.shape[0] - 2)
    lines = np.maximum(np.maximum(ridge[rows - 1], ridge[rows]), ridge[rows + 1]).mean(axis=0)

    def span(c: int) -> float:
        a = round(o_along + (c + 0.2) * p_along)
        b = round(o_along + (c + 0.8) * p_along)
        return float(lines[a:b].mean()) if 0 <= a < b <= lines.size else 0.0

    first, last = span(0), span(N - 1)
    if span(-1) > 2.0 * last + 1e-6 and span(-1) > first * 0.5:
        return -1
    if span(N) > 2.0 * first + 1e-6 and span(N) > last * 0.5:
        return 1
    return 0


def _comb_fit(profile: np.ndarray) -> tuple[float, float, float] | None:
    # Best 12-tooth comb (offset, pitch) on a line-response profile; None unless it stands out.
    # smoothed so that a 1-px line still meets a tooth at a slightly wrong pitch
    prof = cv2.GaussianBlur(profile.astype(np.float64).reshape(1, -1), (0, 0), sigmaX=1.0).ravel()
    spread = float(np.median(prof)) + 0.05 * float(prof.mean())  # the heavy frame must not set the scale
    if spread < 1e-3:
        return None
    xs = np.arange(prof.size, dtype=np.float64)
    pitches = VERIFY_PPC * np.arange(COMB_SCALE_RANGE[0], COMB_SCALE_RANGE[1], 0.01)
    offsets = np.arange(0.0, prof.size - 1 - N * pitches[0], 0.5)
    teeth = np.arange(N + 1.0)
    base = offsets[None, :, None]
    on = np.interp(base + teeth * pitches[:, None, None], xs, prof, right=np.nan)
    off = np.interp(base + (teeth[:-1] + 0.5) * pitches[:, None, None], xs, prof, right=np.nan)
    # all 12 teeth count, so a comb shifted by a whole cell (11 teeth on lines) scores lower
    score = np.nan_to_num((on.mean(axis=2) - off.mean(axis=2)) / spread, nan=-np.inf)
    pi, oi = np.unravel_index(int(np.argmax(score)), score.shape)
    best = float(score[pi, oi])
    off0, pitch = float(offsets[oi]), float(pitches[pi])
    if best < COMB_MIN_SCORE:
        return None
    teeth_val = np.interp(off0 + teeth * pitch, xs, prof)
    mids = np.interp(off0 + (teeth[:-1] + 0.5) * pitch, xs, prof)
    # a line hidden under a pencil should not sink the grid, but most teeth must stand out
    floor = float(mids.mean())
    if int((teeth_val > floor + 0.3 * (float(np.median(teeth_val)) - floor)).sum()) < COMB_MIN_LINES:
        return None
    return off0, pitch, best


# --------------------------------------------------------------------------------------------------
# stage 3: refine


def refine_grid(
    image: np.ndarray, h: np.ndarray, *, debug: DebugSink | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Snap a grid homography to the printed lines on the full-resolution photo.

    Parameters
    ----------
    image : (H, W, 3) uint8
    h : (3, 3) array
        Approximate cell units -> photo px.

    Returns
    -------
    h : (3, 3) array
        Least-squares homography through the crossings.
    crossings : (12, 12, 2) array
        Photo px of each crossing ``[row_line, col_line]`` in the frame of ``h``.
    """
    crossings = apply_h(h, _NODES)
    for ppc, win in REFINE_PASSES:
        cells = _measure_crossings(image, h, ppc, win, debug=debug)
        if cells is None:
            break
        crossings = apply_h(h, cells)
        src = _NODES.reshape(-1, 2).astype(np.float32)
        h_new, _ = cv2.findHomography(src, crossings.reshape(-1, 2).astype(np.float32), 0)
        if h_new is None:
            break
        h = h_new
    return h, crossings


def _measure_crossings(
    image: np.ndarray, h: np.ndarray, ppc: int, win: float, *, debug: DebugSink | None = None
) -> np.ndarray | None:
    # Crossings in the cell units of h, measured line by line in a rectified window.
    margin = 0.6
    a = canon_matrix(ppc, margin)
    size = canon_size(ppc, margin)
    warped = cv2.warpPerspective(
        image,
        h @ np.linalg.inv(a),
        (size, size),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    emit(debug, f"refine_{ppc}", warped)
    dark = 255.0 - min_channel(warped).astype(np.float32)
    ridge_v, ridge_h = line_response(dark, ppc)
    off = margin * ppc
    vert = _line_polys(ridge_v, ppc, off, win)  # x of vertical line i as a polynomial of y
    horiz = _line_polys(ridge_h.T, ppc, off, win)  # y of horizontal line j as a polynomial of x
    if vert is None or horiz is None:
        return None
    vc = np.stack([np.pad(p, (3 - len(p), 0)) for p in vert])  # (12, 3), np.polyval order
    hc = np.stack([np.pad(p, (3 - len(p), 0)) for p in horiz])
    jj, ii = np.meshgrid(np.arange(N + 1), np.arange(N + 1), indexing="ij")
    x, y = ii.astype(np.float64), jj.astype(np.float64)
    for _ in range(3):  # fixed point: x on vertical line i at height y, y on horizontal line j at x
        x = ii + vc[ii, 0] * y * y + vc[ii, 1] * y + vc[ii, 2]
        y = jj + hc[jj, 0] * x * x + hc[jj, 1] * x + hc[jj, 2]
    return np.stack([x, y], axis=-1)


def _segment_profiles(ridge: np.ndarray, ppc: int, off: float) -> np.ndarray:
    # Mean ridge response across x for each cell span along y (crossings left out): (11, W).
    seg = np.empty((N, ridge.shape[1]))
    for j in range(N):
        y0, y1 = round(off + (j + 0.1) * ppc), round(off + (j + 0.9) * ppc)
        seg[j] = ridge[y0:y1].mean(axis=0)
    return seg


def _line_polys(ridge: np.ndarray, ppc: int, off: float, win: float) -> list[np.ndarray] | None:
    # For the 12 lines across the x axis of `ridge`: each line's offset from its nominal place, as a
    # polynomial of the position along it (cells).  Inner lines are measured first and give a smooth
    # model of the whole grid; the border lines are then searched narrowly around that model (the
    # colour frame's outer line lies just outside), and every point far from the model is dropped.
    seg = _segment_profiles(ridge, ppc, off)
    pos = np.full((N + 1, N), np.nan)
    strength = np.zeros((N + 1, N))
    for i in range(1, N):
        pos[i], strength[i] = _peaks(seg, off + i * ppc, win * ppc, ppc, off)
    _drop_weak(pos, strength)
    model = _smooth_model(pos, range(1, N))
    if model is None:
        return None
    along = np.arange(N) + 0.5
    for i in (0, N):
        pred = i + _model_eval(model, float(i), along)
        pos[i], strength[i] = _peaks(seg, off + pred * ppc, EDGE_LINE_WINDOW * ppc, ppc, off)
    _drop_weak(pos, strength)
    model = _smooth_model(pos, range(N + 1))
    if model is None:
        return None
    polys = []
    for i in range(N + 1):
        base = _model_poly(model, float(i))
        resid = pos[i] - i - _model_eval(model, float(i), along)
        ok = ~np.isnan(resid)
        if ok.sum() >= 6:
            corr = np.polyfit(along[ok], resid[ok], LINE_POLY_DEGREE)
        elif ok.sum() >= 2:
            corr = np.array([float(np.median(resid[ok]))])
        else:
            corr = np.zeros(1)
        polys.append(np.polyadd(base, corr))
    return polys


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
        new_ok = ~np.isnan(d) & (r < max(0.03, 4.0 * mad))
        if (new_ok == ok).all():
            break
        ok = new_ok
        if ok.sum() < 12:
            return None
    rows = pos[list(lines)]
    rows[~ok] = np.nan
    pos[list(lines)] = rows
    return coef


def _model_eval(coef: np.ndarray, i: float, t: np.ndarray) -> np.ndarray:
    return _design(np.full_like(t, i), t) @ coef


def _model_poly(coef: np.ndarray, i: float) -> np.ndarray:
    # The model at a fixed line index as a polynomial in the along coordinate (np.polyval order).
    c0, c1, c2, c3, c4, c5 = coef
    return np.array([c5, c2 + c3 * i, c0 + c1 * i + c4 * i * i])


def _peaks(
    seg: np.ndarray, centre: np.ndarray | float, half: float, ppc: int, off: float
) -> tuple[np.ndarray, np.ndarray]:
    # Sub-pixel peak of each segment profile within +-half px of centre, in cells (NaN if none),
    # and its height above the window's median.
    rows = seg.shape[0]
    centre = np.broadcast_to(np.asarray(centre, dtype=np.float64), (rows,))
    pos = np.full(rows, np.nan)
    strength = np.zeros(rows)
    length = int(np.ceil(2 * half)) + 2
    start = np.floor(np.nan_to_num(centre, nan=-1e9) - half).astype(np.int64)
    ok = np.isfinite(centre) & (start >= 1) & (start + length <= seg.shape[1] - 1)
    if not ok.any():
        return pos, strength
    r = np.nonzero(ok)[0]
    idx = start[r, None] + np.arange(length)[None, :]
    win = seg[r[:, None], idx]
    k = np.argmax(win, axis=1)
    inner = (k > 0) & (k < length - 1)  # a peak on the window edge means the line is elsewhere
    r, k, win, st = r[inner], k[inner], win[inner], start[r[inner]]
    n = np.arange(r.size)
    y0, y1, y2 = win[n, k - 1], win[n, k], win[n, k + 1]
    den = y0 - 2 * y1 + y2
    d = np.where(den < 0, 0.5 * (y0 - y2) / np.where(den < 0, den, -1.0), 0.0)
    pos[r] = (st + k + d - off) / ppc
    strength[r] = y1 - np.median(win, axis=1)
    return pos, strength


# --------------------------------------------------------------------------------------------------
# stage 4: checks and orientation


def _finish(
    image: np.ndarray, h: np.ndarray, *, refine: bool = True, debug: DebugSink | None = None
) -> Location | Failure:
    pitch = _pitch(h)
    if pitch < MIN_CELL_PX:
        return Failure(
            "too_small", f"the grid is only {pitch:.1f} px per cell; move closer (>= {MIN_CELL_PX:.0f})"
        )
    if refine:
        h, crossings = refine_grid(image, h, debug=debug)
    else:
        crossings = apply_h(h, _NODES)
    pitch = _pitch(h)
    hgt, wid = image.shape[:2]
    m = BORDER_MARGIN
    ring = apply_h(h, np.array([[-m, -m], [N + m, -m], [N + m, N + m], [-m, N + m]]))
    if (ring < 0).any() or (ring[:, 0] > wid - 1).any() or (ring[:, 1] > hgt - 1).any():
        return Failure("cut_off", "the sheet's frame runs past the photo's edge; include the whole sheet")
    photo_corners = crossings[[0, 0, N, N], [0, N, N, 0]]
    native = float(np.clip(pitch, 8, 48))
    grey = min_channel(rectify(image, photo_corners, ppc=native, margin=0.0))
    sharp = sharpness(grey)
    emit(debug, "locate_grid", grey)
    if sharp < BLUR_MIN_SHARPNESS:
        return Failure("too_blurred", f"the photo is too blurred to read (sharpness {sharp:.3f}); hold still")
    canon = rectify(image, photo_corners, ppc=ORIENT_PPC, margin=CANON_MARGIN)
    emit(debug, "locate_canonical", canon)
    verdict = judge(canon)
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


def _pitch(h: np.ndarray) -> float:
    c = apply_h(h, np.array([[0.0, 0.0], [N, 0.0], [N, N], [0.0, N]]))
    return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)) / N)
