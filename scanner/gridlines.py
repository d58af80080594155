"""Stage 3 of the locator: every grid line measured and fitted, finishing at the photo's resolution.

In small rectified windows each of the 12 + 12 lines is measured segment by segment, outliers are
removed against a smooth model of the whole grid, each line gets a low-degree polynomial (curled
paper), and the 12x12 crossings give the homography and the crossing map.
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.grid import SIZE
from scanner.comb import line_response
from scanner.constants import BORDER_LINE_STRENGTH, EDGE_LINE_WINDOW, LINE_POLY_DEGREE, REFINE_PASSES
from scanner.debug import DebugSink, emit
from scanner.numeric import median
from scanner.orient import min_channel
from scanner.rectify import apply_h, canon_matrix, canon_size

N = SIZE
NODES = np.stack(np.meshgrid(np.arange(N + 1.0), np.arange(N + 1.0), indexing="xy"), axis=-1)  # [y, x]
"""The 12x12 grid crossings in cell units, ``NODES[row_line, col_line] = (x, y)``."""


Sources = list[tuple[np.ndarray, float]]
"""The photo at several scales, ``(image, scale)`` with scale = image px per full-resolution px."""


def warp_from(sources: Sources, h: np.ndarray, ppc: float, margin: float) -> np.ndarray:
    """Rectify at ``ppc`` from the smallest source that still has about ``ppc`` px per cell.

    Warping a 12 MP photo costs ~10x more than warping its downscaled copy (cache misses), so
    coarse passes read the copy.
    """
    pitch = grid_pitch(h)
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
    crossings = apply_h(h, NODES)
    last = np.zeros((1, 1, 3), np.uint8)
    for k, (ppc, win) in enumerate(REFINE_PASSES):
        if k == len(REFINE_PASSES) - 1:  # the last pass at the photo's own resolution, at most ppc
            ppc = int(np.clip(round(grid_pitch(h)), REFINE_PASSES[0][0], ppc))
        warped = warp_from(sources, h, ppc, REFINE_MARGIN)
        emit(debug, f"refine_{ppc}", warped)
        last = warped
        cells = _measure_crossings(warped, ppc, win, every_line=k == len(REFINE_PASSES) - 1)
        if cells is None:
            break
        crossings = apply_h(h, cells)
        src = NODES.reshape(-1, 2).astype(np.float32)
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


def frame_evidence(warped: np.ndarray, ppc: float, margin: float = REFINE_MARGIN) -> np.ndarray:
    """How much a rectified window looks like a whole grid at its outer edges.

    Parameters
    ----------
    warped : (S, S, 3) or (S, S) uint8
        The grid rectified at ``ppc`` px per cell with ``margin`` cells around it (``refine_grid``'s
        last window).

    Returns
    -------
    (2, 4) float array
        For the top, right, bottom and left sides (in the window's frame): ``[0]`` the share of the
        border line's 11 cell spans on which it shows, ``[1]`` the share of the 12 crossing lines
        that show across the outermost row or column.  A line shows when its response within
        ``EDGE_LINE_WINDOW`` of its place reaches ``BORDER_LINE_STRENGTH`` of the inner lines' median.
        A grid found a cell off has a row or column of bare paper or margin on one side (no crossing
        lines), or a border with no line.
    """
    dark = 255.0 - min_channel(warped).astype(np.float32)
    ridge_v, ridge_h = line_response(dark, ppc)
    off = margin * ppc
    p = max(1, round(ppc))
    seg_v = _segment_profiles(ridge_v, p, off)  # vertical lines: across x, per row span (11, W)
    seg_h = _segment_profiles(ridge_h.T, p, off)  # horizontal lines: across y, per column span
    half = max(1, round(EDGE_LINE_WINDOW * ppc))
    # (11 spans, 12 lines): the strongest response near each line's place, per span
    at_v = np.stack([seg_v[:, max(round(off + k * ppc) - half, 0) : round(off + k * ppc) + half + 1].max(1)
                     for k in range(N + 1)], axis=1)
    at_h = np.stack([seg_h[:, max(round(off + k * ppc) - half, 0) : round(off + k * ppc) + half + 1].max(1)
                     for k in range(N + 1)], axis=1)
    inner = float(median(np.concatenate([at_v[:, 1:N].ravel(), at_h[:, 1:N].ravel()])))
    shows_v, shows_h = at_v > BORDER_LINE_STRENGTH * inner + 1e-6, at_h > BORDER_LINE_STRENGTH * inner + 1e-6
    border = [shows_h[:, 0].mean(), shows_v[:, N].mean(), shows_h[:, N].mean(), shows_v[:, 0].mean()]
    across = [shows_v[0].mean(), shows_h[N - 1].mean(), shows_v[N - 1].mean(), shows_h[0].mean()]
    return np.array([border, across], dtype=np.float64)


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
        pos[i][ok & (strength[i] < 0.25 * float(median(strength[i][ok])) if ok.any() else ok)] = np.nan
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
        new = ok & (r < max(0.015, 3.0 * float(median(r[keep]))))
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
        shift = float(median((d - fallback)[ok])) if ok.sum() >= 2 else 0.0
        return np.polyadd(fb, np.array([shift]))
    base = _model_poly(model, float(i)) if model is not None else np.zeros(1)
    if ok.sum() >= 2:
        return np.polyadd(base, np.array([float(median(d[ok] - np.polyval(base, along[ok])))]))
    return base


def _drop_weak(pos: np.ndarray, strength: np.ndarray) -> None:
    s = strength[strength > 0]
    if s.size:
        pos[strength < 0.25 * float(median(s))] = np.nan


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
        mad = float(median(r[ok]))
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


def grid_pitch(h: np.ndarray) -> float:
    """Mean cell pitch in photo px of the grid homography ``h`` (cell units -> photo px)."""
    c = apply_h(h, np.array([[0.0, 0.0], [N, 0.0], [N, N], [0.0, N]]))
    return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)) / N)
