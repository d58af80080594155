"""Stage 1 of the locator: quadrilaterals in a downscaled photo that might bound the map grid.

Dark-line contours (a relative, noise-aware threshold) are reduced to quadrilaterals; hulls with
protrusions (the shield printed over the frame, a pencil across it) get their sides refitted, and the
largest outlines also give second-guess quads through other choices of four hull sides.
"""

from __future__ import annotations

from itertools import combinations

import cv2
import numpy as np

from scanner.constants import (
    ALTERNATE_OUTLINES,
    LOCATE_DENOISE,
    LOCATE_DEPTH,
    LOCATE_NOISE_SIGMAS,
    LOCATE_SIDE,
    MAX_CANDIDATES,
    MIN_CANDIDATE_AREA,
    PAGE_ASPECT_RANGE,
    SMALL_CANDIDATE_AREA,
)
from scanner.debug import DebugSink, emit
from scanner.geometry import geometry


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
    elif s < 0.5:
        # halving first: OpenCV's 2 x 2 block mean is a fast path (under 1 ms for the 3 MP of a 12 MP
        # photo decoded at half size), its fractional area resize is not (14 ms straight to the
        # target, 6 ms from the halved copy)
        src = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    small = cv2.resize(src, (w, h), interpolation=cv2.INTER_AREA)
    return small, w / full_w


Outline = tuple[np.ndarray, np.ndarray]
"""A contour's convex hull and the contour itself (cv2 point arrays)."""


def candidate_quads(
    grey: np.ndarray, *, debug: DebugSink | None = None
) -> tuple[list[np.ndarray], list[bool], list[np.ndarray], list[Outline]]:
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
    small : list of Outline
        Outlines clear of the photo's edge between :data:`SMALL_CANDIDATE_AREA` and
        :data:`MIN_CANDIDATE_AREA`, largest first: a sheet far from the camera (one of a table's
        sheets), asked only away from the sheets found; :func:`outline_quads` makes them quads.
    """
    h, w = grey.shape
    binary = dark_lines(grey)
    emit(debug, "locate_binary", binary)
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    min_area = MIN_CANDIDATE_AREA * h * w
    least = SMALL_CANDIDATE_AREA * h * w
    found: list[tuple[float, np.ndarray, bool]] = []
    hulls: list[tuple[float, np.ndarray]] = []
    small: list[tuple[float, np.ndarray, np.ndarray]] = []
    for cnt in contours:
        if len(cnt) < 40:
            continue  # a contour this short cannot outline a grid of the least area
        _, _, bw, bh = cv2.boundingRect(cnt)
        if bw * bh < least:
            continue  # nor one whose box is smaller (its hull lies inside the box)
        hull = cv2.convexHull(cnt)
        area = float(cv2.contourArea(hull))
        if area < least:  # the hull: a frame broken by a gap still counts
            continue
        xs, ys = hull[:, 0, 0], hull[:, 0, 1]
        touches = bool(xs.min() <= 1 or ys.min() <= 1 or xs.max() >= w - 2 or ys.max() >= h - 2)
        if area < min_area:
            if not touches:
                small.append((area, hull, cnt))
            continue
        if not touches:
            hulls.append((area, hull))
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
    small.sort(key=lambda t: -t[0])
    smaller = [(hull, cnt) for _, hull, cnt in small]
    return [q for _, q, _ in found], [t for _, _, t in found], alternates, smaller


def outline_quads(outlines: list[Outline]) -> list[np.ndarray]:
    """The quads of outlines (hull, contour) that make one, in photo order (:func:`order_clockwise`)."""
    return [order_clockwise(q) for hull, cnt in outlines if (q := _hull_to_quad(hull, cnt)) is not None]


def paper_blobs(grey: np.ndarray) -> list[Outline]:
    """The two brightest large blobs (the paper on a darker table), largest first, as outlines.

    Their quads (:func:`outline_quads`) are pages: the grid inside is 11 of the page's 13.6 x 19.2
    cells, so they need the wide comb range.
    """
    h, w = grey.shape
    _, bright = cv2.threshold(cv2.GaussianBlur(grey, (5, 5), 0), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return _bright_blobs(bright, 2, 2 * MIN_CANDIDATE_AREA * h * w)


def brighter_quads(grey: np.ndarray, blobs: list[Outline]) -> list[np.ndarray]:
    """The quads of paper blobs thresholded again among their own pixels.

    In a photo of two sheets the other page sets the whole photo's threshold, and a pale card lying
    against a page joins it there (A_printfriendly#8 in ``eval_crops``); among the blob's own pixels
    the page alone is bright.
    """
    h, w = grey.shape
    least = 2 * MIN_CANDIDATE_AREA * h * w
    out = []
    for hull, blob in blobs:
        x, y, bw, bh = cv2.boundingRect(hull)
        inside = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(inside, [blob - np.array([x, y])], -1, 255, -1)
        crop = cv2.GaussianBlur(grey[y : y + bh, x : x + bw], (5, 5), 0)
        level, _ = cv2.threshold(crop[inside > 0], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        mask = np.where((crop > level) & (inside > 0), np.uint8(255), np.uint8(0))
        out += [q + np.array([x, y]) for q in outline_quads(_bright_blobs(mask, 1, least))]
    return out


def _bright_blobs(bright: np.ndarray, count: int, least: float) -> list[Outline]:
    # The `count` largest blobs of a binary mask (gaps closed) whose hulls reach `least` px, as
    # outlines, largest first.
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = []
    for cnt in sorted(contours, key=cv2.contourArea, reverse=True)[:count]:
        hull = cv2.convexHull(cnt)
        if cv2.contourArea(hull) < least:
            break
        out.append((hull, cnt))
    return out


def page_like(quad: np.ndarray) -> bool:
    """Whether a quad's sides are in about a page's proportion (19.2 by 13.6 cells: 1.41), allowing
    for perspective (``PAGE_ASPECT_RANGE``); a long thin box (the coin track's) is no page."""
    lo, hi = PAGE_ASPECT_RANGE
    return lo <= elongation(quad) <= hi


def elongation(quad: np.ndarray) -> float:
    """Long over short side of a quad (each the sum of two opposite sides); inf when degenerate."""
    q = np.asarray(quad, dtype=np.float64).reshape(4, 2)
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    a, b = float(sides[0] + sides[2]), float(sides[1] + sides[3])
    return max(a, b) / min(a, b) if min(a, b) > 0.0 else float("inf")


def grids_in_page(page: np.ndarray) -> list[np.ndarray]:
    """Where the grid lies in a page outline, for each of its four turns.

    The printed layout (``scanner/geometry.json``) places the grid inside the page; mapping it through
    the page's own perspective gives a tight grid candidate where the comb over the whole page would
    need one pitch across a tilted page.

    Parameters
    ----------
    page : (4, 2) array
        A page's corners in photo px, clockwise.

    Returns
    -------
    list of (4, 2) float arrays
        The grid's outline for the page turned 0, 90, 180 and 270 degrees, each in the photo order of
        :func:`order_clockwise`.
    """
    x0, y0, x1, y1 = geometry().page
    sheet = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    grid = np.array([[[0.0, 0.0], [11.0, 0.0], [11.0, 11.0], [0.0, 11.0]]], np.float32)
    quad = np.asarray(page, dtype=np.float32).reshape(4, 2)
    out = []
    for turn in range(4):
        h = cv2.getPerspectiveTransform(sheet, np.roll(quad, -turn, axis=0))
        out.append(order_clockwise(cv2.perspectiveTransform(grid, h).reshape(4, 2).astype(np.float64)))
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
        # a sliver longer than any page (the coin track's box with a side of the frame) holds no
        # grid: true grids come out at most 1.4 long over short, tilted 45 degrees
        if (
            0.3 * hull_area < area < 1.5 * hull_area
            and cv2.isContourConvex(quad.astype(np.float32))
            and elongation(quad) <= PAGE_ASPECT_RANGE[1]
        ):
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
    # in place, two float images instead of six (fresh memory is most of their cost in one run)
    darker = smooth.astype(np.float32)
    np.subtract(local, darker, out=darker)  # how much darker than the neighbourhood
    depth = np.multiply(local, LOCATE_DEPTH, out=local)
    np.maximum(depth, LOCATE_NOISE_SIGMAS * noise / 2.0 + 2.0, out=depth)
    mask = cv2.compare(darker, depth, cv2.CMP_GT)  # 255 where darker by more than the depth
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
