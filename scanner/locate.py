"""Find the map grid in a photo without markers, to a small fraction of a cell.

The stages live in their own modules; this one holds the entry points and the final checks.

1. candidates (:mod:`scanner.quads`): dark-line contours of a downscaled copy, reduced to
   quadrilaterals;
2. verify (:mod:`scanner.comb`): each candidate is rectified and must show the 11x11 comb of grid
   lines at one pitch (the candidate may be the grid border, the colour sheet's outer frame line or
   similar); when none does, the same outlines get a second look with a wider line response
   (:func:`blurred_look`: a blurred photo's lines);
3. refine (:mod:`scanner.gridlines`): on the full-resolution photo, in small rectified windows,
   every grid line is measured segment by segment, fitted with a low-degree polynomial (curled
   paper), and the 12x12 crossings give the final homography and the crossing map;
4. orient (:mod:`scanner.orient`): printed landmarks give the side and which corner is A1.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.grid import SIZE
from scanner.comb import GridFit, verify_candidate
from scanner.constants import (
    BLUR_MIN_SHARPNESS,
    BLURRED_HALF_WIDTH,
    BORDER_MIN_SHARE,
    CANON_MARGIN,
    COMB_PARTIAL_RANGE,
    COMB_SCALE_RANGE,
    FRAME_MIN_SHARE,
    GRID_CLEARANCE,
    MAX_CANDIDATES,
    MIN_CANDIDATE_AREA,
    MIN_CELL_PX,
    NEAR_EDGE,
    NESTED_GRID_RATIO,
    ORIENT_PPC,
    SHEETS_OVERLAP,
    SHIFT_CHECK_BELOW,
    SHIFT_COIN_MARGIN,
    SHIFT_PRINT_MARGIN,
    SHIFT_REACH,
    SIDE_DOUBT,
    TURN_DOUBT,
    VERIFY_PAD,
    VERIFY_PPC,
)
from scanner.debug import DebugSink, emit
from scanner.failure import Failure
from scanner.geometry import geometry
from scanner.gridlines import (
    NODES,
    REFINE_MARGIN,
    Sources,
    frame_evidence,
    grid_pitch,
    refine_grid,
    warp_from,
)
from scanner.orient import decide, landmark_scores, min_channel
from scanner.quads import (
    brighter_quads,
    candidate_quads,
    downscale,
    grids_in_page,
    outline_quads,
    page_like,
    paper_blobs,
)
from scanner.rectify import apply_h, canon_size, grid_homography

N = SIZE

CUT_PARTS = ("coin track", "season boxes", "page edge")
"""Printed parts :attr:`Location.cut` may name; only the coin track is read."""

COIN_TRACK_CUT = (
    "the coin track is cut off in the photo: coins not read (taken as 0); count them on the sheet "
    "or photograph the whole coin track"
)


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
    cut : tuple of str
        Printed parts outside the photo although the grid is whole (:data:`CUT_PARTS`): the grid
        decides whether a photo is read, the sheet's edge does not.
    """

    corners: np.ndarray
    orientation: int
    side: str
    side_confidence: float
    crossings: np.ndarray | None = None
    orientation_confidence: float = 1.0
    pitch: float = 0.0
    sharpness: float = 1.0
    cut: tuple[str, ...] = ()

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
        if "coin track" in self.cut:
            out.append(COIN_TRACK_CUT)
        return tuple(out)

    def __repr__(self) -> str:
        pts = ",".join(f"{v:.1f}" for v in np.asarray(self.corners).ravel())
        return (
            f"Location(corners=[{pts}], orientation={self.orientation}, side={self.side!r}, "
            f"side_confidence={self.side_confidence:.2f})"
        )


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
        Failure reasons: ``no_sheet``, ``cut_off``, ``too_small``, ``too_blurred``, and
        ``several_sheets`` when the photo holds more than one map sheet (never one of them silently:
        :func:`locate_sheets` finds each; the Failure's ``sheets`` holds each grid's corners).
    """
    found = locate_sheets(image, debug=debug)
    if isinstance(found, Failure):
        return found
    if len(found) > 1:
        where = "; ".join(
            "grid centre at ({:.0f}, {:.0f})".format(*loc.corners.mean(axis=0)) for loc in found
        )
        return Failure(
            "several_sheets",
            f"{len(found)} map sheets in the photo ({where}); photograph one sheet at a time",
            sheets=tuple(loc.corners for loc in found),
        )
    return found[0]


def locate_sheets(image: np.ndarray, *, debug: DebugSink | None = None) -> tuple[Location, ...] | Failure:
    """Find every map sheet in a photo (an organiser's photo of a table), left to right.

    Grids that verify apart from each other are each refined and oriented; one that then fails (too
    blurred, no side) is left out as long as another stands.  The order is that of the grids'
    centres from the photo's left edge.  See :func:`locate_sheet`.
    """
    if image.ndim != 3 or image.shape[2] != 3 or min(image.shape[:2]) < 16:
        return Failure("no_sheet", f"not a colour photo of usable size: shape {image.shape}")
    small, scale = downscale(image)
    grey = min_channel(small)
    emit(debug, "locate_small", small)
    quads, touching, alternates, smaller = candidate_quads(grey, debug=debug)
    blobs = paper_blobs(grey)
    papers = outline_quads(blobs)  # the second guesses' and the second-sheet search's
    pyramid = [grey]
    while len(pyramid) < 3 and min(pyramid[-1].shape) >= 4 * canon_size(VERIFY_PPC, VERIFY_PAD) // 3:
        pyramid.append(cv2.pyrDown(pyramid[-1]))
    fits: list[GridFit] = []
    missed: list[np.ndarray] = []
    for quad, touches in zip(quads, touching, strict=True):
        if touches:
            continue  # at best a grid reaching the photo's edge: only asked about when nothing else verifies
        fit = verify_candidate(pyramid, quad)
        if isinstance(fit, GridFit):
            fits.append(fit)
        else:
            missed.append(quad)
    guessed = not fits
    if not fits:  # second guesses: other sides of the largest outlines, then the paper itself
        for quad, wide in [(q, False) for q in alternates] + [(q, True) for q in papers]:
            fit = verify_candidate(
                pyramid, quad, scale_range=COMB_PARTIAL_RANGE if wide else COMB_SCALE_RANGE
            )
            if isinstance(fit, GridFit):
                fits.append(fit)
    if fits:
        # a small comb inside an outline reaching the photo's edge may be a pattern of drawn cells
        # in a grid whose margin is cut: that outline is asked too (a page running past the photo
        # is about twice its grid's area, and is not)
        largest = max(_grid_area(f.h) for f in fits)
        for quad, touches in zip(quads, touching, strict=True):
            if touches and cv2.contourArea(quad.astype(np.float32)) > NESTED_GRID_RATIO * 2.5 * largest:
                fit = verify_candidate(pyramid, quad, scale_range=COMB_PARTIAL_RANGE)
                if isinstance(fit, GridFit):
                    fits.append(fit)
    partial = False
    claimed: list[np.ndarray] = []  # outlines reaching the photo's edge that show a grid's comb
    if guessed:
        # An outline running into the photo's edge: the page's margin may run past it while the grid
        # lies whole inside (then the comb shows on both axes and the grid is read), or the grid
        # itself is cut (the comb on one axis at most: refused).  Room for the page's margins.  Asked
        # too when only a second guess verified: a whole page's wide comb can land cells off, and
        # the grid's own outline, where it verifies, is the better fit of the two (`apart`).
        for quad, touches in zip(quads, touching, strict=True):
            if touches:
                fit = verify_candidate(pyramid, quad, scale_range=COMB_PARTIAL_RANGE)
                partial |= fit is not None
                if fit is not None:
                    claimed.append(quad)
                if isinstance(fit, GridFit):
                    fits.append(fit)
    # another sheet whose grid outline did not close (a thin or faint print, drawings over its
    # border) is found through its page; pages apart from every grid found are asked, so that a
    # second sheet is never left out in silence
    grids = [_grid_quad(f.h) for f in fits] + claimed
    # (a paper blob away from them is thresholded again among its own pixels: a pale card lying
    # against a page may have joined it at the whole photo's threshold)
    brighter = brighter_quads(grey, [b for b in blobs if clear_of(b[0], grids)])
    fits += _sheets_in_pages(pyramid, missed + papers + brighter, grids)
    # a sheet far from the camera (one of a table's sheets) has an outline smaller than any
    # candidate: outlines away from every sheet found (its page, its cut grid) are asked too
    reach = [_sheet_reach(f.h) for f in fits] + claimed
    away = [o for o in smaller if clear_of(o[0], reach)][:MAX_CANDIDATES]
    fits += _small_grids(pyramid, outline_quads(away))
    if not fits and not partial:
        # a blurred photo's lines stand out of the paper only a little farther off: a second look
        # at the same outlines with a wider line response (never where a cut grid was seen)
        whole = [q for q, touches in zip(quads, touching, strict=True) if not touches]
        fits = blurred_look(pyramid, whole + alternates, papers, outline_quads(smaller[:MAX_CANDIDATES]))
    if not fits:
        if partial:
            return Failure("cut_off", "an 11x11 grid runs past the photo's edge; include the whole grid")
        return Failure("no_sheet", "no 11x11 map grid found in the photo")
    out: list[Location] = []
    refused: Failure | None = None
    to_full = np.diag([1.0 / scale, 1.0 / scale, 1.0])
    for fit in apart(sorted(fits, key=lambda f: -f.score)):
        loc = _finish(image, to_full @ fit.h, small=(small, scale), debug=debug)
        if isinstance(loc, Location):
            out.append(loc)
        elif refused is None:
            refused = loc
    if not out:
        assert refused is not None
        return refused
    return tuple(sorted(out, key=lambda loc: float(loc.corners[:, 0].mean())))


def apart(fits: list[GridFit]) -> list[GridFit]:
    """One fit per grid: a fit overlapping one earlier in the list is the same grid (found through
    the frame's inner and outer lines, the paper) and is dropped, unless it is much larger: a small
    comb inside a grid (a pattern of drawn cells) is not the sheet.

    Parameters
    ----------
    fits : best first.

    Returns
    -------
    The kept fits, in the order of the grids' first fits.
    """
    cells = np.array([[0.0, 0.0], [N, 0.0], [N, N], [0.0, N]])
    kept: list[tuple[GridFit, np.ndarray, float]] = []
    for fit in fits:
        quad = apply_h(fit.h, cells).astype(np.float32)
        area = float(cv2.contourArea(quad))
        clash = [
            k
            for k, (_, other, other_area) in enumerate(kept)
            if cv2.intersectConvexConvex(quad, other)[0] > SHEETS_OVERLAP * min(area, other_area)
        ]
        if not clash:
            kept.append((fit, quad, area))
        elif all(area > NESTED_GRID_RATIO * kept[k][2] for k in clash):
            kept[clash[0]] = (fit, quad, area)
            kept = [kp for k, kp in enumerate(kept) if k not in clash[1:]]
    return [fit for fit, _, _ in kept]


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
# stage 4: checks and orientation


def _finish(
    image: np.ndarray,
    h: np.ndarray,
    *,
    small: tuple[np.ndarray, float] | None = None,
    refine: bool = True,
    debug: DebugSink | None = None,
) -> Location | Failure:
    pitch = grid_pitch(h)
    if pitch < MIN_CELL_PX:
        return Failure(
            "too_small", f"the grid is only {pitch:.1f} px per cell; move closer (>= {MIN_CELL_PX:.0f})"
        )
    sources: Sources = [small if small is not None else downscale(image), (image, 1.0)]
    check_frame = refine and small is not None  # corners given by hand are the person's call
    if refine:
        h, crossings, last = refine_grid(sources, h, debug=debug)
        if check_frame:
            moved = _whole_rows(h, frame_evidence(last, _window_ppc(last)))
            if moved is not h:
                h, crossings, last = refine_grid(sources, moved, debug=debug)
        canon, marks = _landmarks(sources, h)
        settled, why = _settle_shift(sources, h, marks)
        if settled is not h:
            moved_h, moved_crossings, moved_last = refine_grid(sources, settled, debug=debug)
            # the coin track's verdict stands unless it leaves a row or column of the grid bare
            if not check_frame or _whole(moved_last):
                h, crossings, last = moved_h, moved_crossings, moved_last
                canon, marks = _landmarks(sources, h)
            elif why == "print":
                # the print puts the grid cells away from its lines, where it is not whole: a grid
                # cut by the photo's edge found inwards, never to be read a cell off
                return Failure(
                    "cut_off", "the 11x11 grid's print is not where its lines are; include the whole grid"
                )
    else:
        crossings = apply_h(h, NODES)
        last = warp_from(sources, h, float(np.clip(pitch, 16, 48)), REFINE_MARGIN)
        canon, marks = _landmarks(sources, h)
    pitch = grid_pitch(h)
    hgt, wid = image.shape[:2]
    if not inside(crossings, (hgt, wid), GRID_CLEARANCE * pitch):
        return Failure("cut_off", "the 11x11 grid runs past the photo's edge; include the whole grid")
    ppc_last = last.shape[0] / (N + 2 * REFINE_MARGIN)
    o = round(REFINE_MARGIN * ppc_last)
    grey = min_channel(last[o : last.shape[0] - o, o : last.shape[1] - o])
    sharp = sharpness(grey)
    emit(debug, "locate_grid", grey)
    if sharp < BLUR_MIN_SHARPNESS:
        return Failure("too_blurred", f"the photo is too blurred to read (sharpness {sharp:.3f}); hold still")
    near_edge = not inside(crossings, (hgt, wid), NEAR_EDGE * pitch)
    if check_frame and near_edge and not _whole(last):
        # no whole grid here: a border without its line, or an outer row or column that no grid line
        # crosses (a grid cut by the photo's edge, found a cell inwards), never read a cell off
        return Failure("cut_off", "the 11x11 grid's edge is not where it should be; include the whole grid")
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
        cut=cut_parts(grid_homography(corners), (hgt, wid)),
    )


def inside(points: np.ndarray, shape: tuple[int, int], clearance: float) -> bool:
    """Whether all (..., 2) photo points lie at least `clearance` px inside an image of `shape`."""
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    hgt, wid = shape
    limit = np.array([wid - 1.0, hgt - 1.0]) - clearance
    return bool((xy >= clearance).all() and (xy <= limit).all())


def cut_parts(h: np.ndarray, shape: tuple[int, int]) -> tuple[str, ...]:
    """The printed parts outside a photo of `shape`, given the grid's homography (sheet cell units ->
    photo px, in sheet order): a subset of :data:`CUT_PARTS`, in that order."""
    g = geometry()
    ring = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    rims = g.coin_centers()[:, None, :] + g.coin_radius * np.stack([np.cos(ring), np.sin(ring)], 1)[None]
    x0, y0, x1, y1 = g.page
    boxes = [*g.season_boxes, g.total_shield]
    parts = {
        "coin track": rims.reshape(-1, 2),
        "season boxes": np.array([[b[i], b[j]] for b in boxes for i in (0, 2) for j in (1, 3)]),
        "page edge": np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]),
    }
    return tuple(name for name, pts in parts.items() if not inside(apply_h(h, pts), shape, 0.0))


def lying_apart(quads: list[np.ndarray], grids: list[np.ndarray]) -> list[np.ndarray]:
    """The candidate quads that may hold another sheet than the grids found.

    Parameters
    ----------
    quads : list of (4, 2) arrays
        Candidate outlines (grid borders, pages) in photo px.
    grids : list of (4, 2) arrays
        The grids found so far, in the same px.

    Returns
    -------
    list of (4, 2) arrays
        The quads covering at most :data:`SHEETS_OVERLAP` of any grid and of themselves (a page
        around a found grid, or a drawn pattern inside it, is that grid's sheet), near-duplicates
        dropped; in the given order.
    """
    out: list[np.ndarray] = []
    for quad in quads:
        q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
        area = float(cv2.contourArea(q))
        if area <= 0.0 or not cv2.isContourConvex(q) or not clear_of(q, grids):
            continue
        if any(np.abs(q - o).max() < 0.01 * np.sqrt(area) for o in out):
            continue
        out.append(q.astype(np.float64))
    return out


def clear_of(poly: np.ndarray, regions: list[np.ndarray]) -> bool:
    """Whether a convex polygon covers at most :data:`SHEETS_OVERLAP` of each convex region and of
    itself (it may hold another sheet than theirs).

    Parameters
    ----------
    poly : (n, 2) or (n, 1, 2) array
        A convex polygon (a quad, a contour's hull) in photo px.
    regions : list of (m, 2) arrays
        Convex polygons in the same px (grids found, the reach of their pages).
    """
    p = np.asarray(poly, dtype=np.float32).reshape(-1, 1, 2)
    area = float(cv2.contourArea(p))
    for region in regions:
        r = np.asarray(region, dtype=np.float32).reshape(-1, 1, 2)
        if cv2.intersectConvexConvex(p, r)[0] > SHEETS_OVERLAP * min(area, float(cv2.contourArea(r))):
            return False
    return True


def _sheets_in_pages(
    pyramid: list[np.ndarray], quads: list[np.ndarray], grids: list[np.ndarray]
) -> list[GridFit]:
    # Grids found through outlines lying apart from the grids found (pages, outlines that did not
    # verify): the outline itself with the wide comb range, else, for a page-like one, the grid the
    # printed layout puts in it (a small or steeply tilted page holds no single-pitch comb).
    out = []
    for quad in lying_apart(quads, grids):
        fit = verify_candidate(pyramid, quad, scale_range=COMB_PARTIAL_RANGE)
        for inner in [] if isinstance(fit, GridFit) or not page_like(quad) else grids_in_page(quad):
            if cv2.contourArea(inner.astype(np.float32)) < MIN_CANDIDATE_AREA * pyramid[0].size:
                # a grid smaller than a candidate is none a page's layout puts in a card (a card
                # with lines printed on it passed for one); a small sheet's own outline may be
                continue
            fit = verify_candidate(pyramid, inner)
            if isinstance(fit, GridFit):
                break
        if isinstance(fit, GridFit):
            out.append(fit)
    return out


def blurred_look(
    pyramid: list[np.ndarray],
    outlines: list[np.ndarray],
    pages: list[np.ndarray],
    small: list[np.ndarray],
) -> list[GridFit]:
    """The grids found with the wide line response (:data:`BLURRED_HALF_WIDTH`) when none verified.

    Parameters
    ----------
    pyramid : the downscaled grey photo and its ``pyrDown`` levels.
    outlines : candidate grid outlines clear of the photo's edge, and their second guesses.
    pages : paper outlines: asked with the wide comb range, and (page-like ones) through the grid
        the printed layout puts in them.
    small : outlines smaller than a candidate (a sheet far from the camera).

    Returns
    -------
    The verified fits, in the order asked; each goes through the same checks as any other.
    """
    out: list[GridFit] = []
    for quad in [*outlines, *small]:
        fit = verify_candidate(pyramid, quad, half_width=BLURRED_HALF_WIDTH)
        if isinstance(fit, GridFit):
            out.append(fit)
    for page in pages:
        fit = verify_candidate(pyramid, page, scale_range=COMB_PARTIAL_RANGE, half_width=BLURRED_HALF_WIDTH)
        inner = grids_in_page(page) if page_like(page) and not isinstance(fit, GridFit) else []
        for grid in inner:
            if cv2.contourArea(grid.astype(np.float32)) < MIN_CANDIDATE_AREA * pyramid[0].size:
                continue  # as in _sheets_in_pages: a card with lines printed on it is no page
            fit = verify_candidate(pyramid, grid, half_width=BLURRED_HALF_WIDTH)
            if isinstance(fit, GridFit):
                break
        if isinstance(fit, GridFit):
            out.append(fit)
    return out


def _small_grids(pyramid: list[np.ndarray], quads: list[np.ndarray]) -> list[GridFit]:
    # The small outlines (candidate_quads) that verify as grids, near-duplicates asked once.
    fits = (verify_candidate(pyramid, quad) for quad in lying_apart(quads, []))
    return [fit for fit in fits if isinstance(fit, GridFit)]


def _sheet_reach(h: np.ndarray) -> np.ndarray:
    # The square around a grid (homography h: cell units -> px) that holds its page in any turn.
    x0, y0, x1, y1 = geometry().page
    half = max(N / 2 - x0, N / 2 - y0, x1 - N / 2, y1 - N / 2)
    square = N / 2 + half * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    return apply_h(h, square)


def _grid_quad(h: np.ndarray) -> np.ndarray:
    # the grid's outline in px for the homography h (cell units -> px)
    return apply_h(h, np.array([[0.0, 0.0], [N, 0.0], [N, N], [0.0, N]]))


def _grid_area(h: np.ndarray) -> float:
    # area in px of the grid of the homography h (cell units -> px)
    return float(cv2.contourArea(_grid_quad(h).astype(np.float32)))


def _window_ppc(window: np.ndarray) -> float:
    # pixels per cell of a refinement window (the grid with REFINE_MARGIN cells around it)
    return float(window.shape[0]) / (N + 2 * REFINE_MARGIN)


def _whole(window: np.ndarray) -> bool:
    # whether a refinement window's grid shows lines all round its edge (see frame_evidence)
    border, across = frame_evidence(window, _window_ppc(window))
    return float(border.min()) >= BORDER_MIN_SHARE and float(across.min()) >= FRAME_MIN_SHARE


def _whole_rows(h: np.ndarray, evidence: np.ndarray) -> np.ndarray:
    # A grid whose outermost row (or column) no grid line crosses is a cell off (the comb took the
    # page's frame line, a box's edge or the margin for the grid's border): moved a cell away from
    # that side.  evidence: frame_evidence of the grid as found.  Returns h itself when nothing moves.
    top, right, bottom, left = evidence[1] < FRAME_MIN_SHARE
    dx, dy = int(left) - int(right), int(top) - int(bottom)
    if dx == dy == 0:
        return h
    moved: np.ndarray = h @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])
    return moved


def _landmarks(sources: Sources, h: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    # The canonical image the orientation is judged on, and its printed-landmark scores.
    canon = warp_from(sources, h, ORIENT_PPC, CANON_MARGIN)
    return canon, landmark_scores(canon)


def _settle_shift(
    sources: Sources, h: np.ndarray, marks: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, str]:
    # The grid moved by :func:`settle_shift` (h itself when it stays), and why ("", "coins", "print").
    if float(marks[0].max()) >= SHIFT_CHECK_BELOW:
        return h, ""
    reach = SHIFT_REACH
    wide = warp_from(sources, h, ORIENT_PPC, CANON_MARGIN + reach)
    dx, dy, why = settle_shift(wide, marks, reach=reach)
    if not why:
        return h, ""
    moved: np.ndarray = h @ np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])
    return moved, why


def settle_shift(
    wide: np.ndarray,
    marks: tuple[np.ndarray, np.ndarray],
    *,
    ppc: float = ORIENT_PPC,
    margin: float = CANON_MARGIN,
    reach: int = SHIFT_REACH,
) -> tuple[int, int, str]:
    """Which whole-cell shift of a grid the printed sheet puts it at, when its landmarks are weak.

    Where all lines look alike (the printer-friendly sheet: thin grid border, the coin box's edge a
    cell below it, the header's boxes) or the grid is cut by the photo's edge, the line comb can land
    a cell or two off.  The grid and its shifts are compared on the print: first the whole landmark
    score (mountains, wasteland, coin track; a shift must beat the grid by ``SHIFT_PRINT_MARGIN``),
    then the coin track alone (its 14 circles sit at a pitch unlike the grid's, so only the true grid
    puts them where they belong; ``SHIFT_COIN_MARGIN``).

    Parameters
    ----------
    wide : (S, S, 3) uint8
        The grid as found rectified at `ppc` with ``margin + reach`` cells around it: an integer
        shift is a crop of it.
    marks : landmark_scores of the grid as found.

    Returns
    -------
    dx, dy, why : int, int, str
        The shift in cells (x right, y down, in the grid's rectified frame) and what settled it:
        ``"print"``, ``"coins"``, or ``""`` (no shift beats the grid: 0, 0).
    """
    size = canon_size(ppc, margin)
    score, coins = float(marks[0].max()), float(marks[1].max())
    by_print = by_coins = (0, 0)
    best_print, best_coins = score + SHIFT_PRINT_MARGIN, coins + SHIFT_COIN_MARGIN
    for dx in range(-reach, reach + 1):
        for dy in range(-reach, reach + 1):
            if dx == dy == 0:
                continue
            x0, y0 = round((reach + dx) * ppc), round((reach + dy) * ppc)
            window = wide[y0 : y0 + size, x0 : x0 + size]
            scores, turned = landmark_scores(window, ppc=ppc, margin=margin)
            if float(scores.max()) > best_print:
                best_print, by_print = float(scores.max()), (dx, dy)
            if float(turned.max()) > best_coins:
                best_coins, by_coins = float(turned.max()), (dx, dy)
    if by_print != (0, 0):
        return by_print[0], by_print[1], "print"
    if by_coins != (0, 0):
        return by_coins[0], by_coins[1], "coins"
    return 0, 0, ""
