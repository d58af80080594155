"""Find the map grid in a photo without markers, to a small fraction of a cell.

The stages live in their own modules; this one holds the entry points and the final checks.

1. candidates (:mod:`scanner.quads`): dark-line contours of a downscaled copy, reduced to
   quadrilaterals;
2. verify (:mod:`scanner.comb`): each candidate is rectified and must show the 11x11 comb of grid
   lines at one pitch (the candidate may be the grid border, the colour sheet's outer frame line or
   similar);
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
    BORDER_MARGIN,
    CANON_MARGIN,
    COMB_PARTIAL_RANGE,
    COMB_SCALE_RANGE,
    MIN_CELL_PX,
    ORIENT_PPC,
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
from scanner.gridlines import NODES, REFINE_MARGIN, Sources, grid_pitch, refine_grid, warp_from
from scanner.orient import coin_track_score, decide, landmark_scores, min_channel
from scanner.quads import candidate_quads, downscale, paper_quads
from scanner.rectify import apply_h, canon_size, grid_homography

N = SIZE


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
    best: GridFit | None = None
    for quad, touches in zip(quads, touching, strict=True):
        if touches:
            continue  # at best a cut-off grid: only asked about when nothing else verifies
        fit = verify_candidate(pyramid, quad)
        if not isinstance(fit, GridFit):
            continue
        if best is None or fit.score > best.score:
            best = fit
    if best is None:  # second guesses: other sides of the largest outlines, then the paper itself
        for quad, wide in [(q, False) for q in alternates] + [(q, True) for q in paper_quads(grey)]:
            fit = verify_candidate(
                pyramid, quad, scale_range=COMB_PARTIAL_RANGE if wide else COMB_SCALE_RANGE
            )
            if isinstance(fit, GridFit) and (best is None or fit.score > best.score):
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
    if refine:
        h, crossings, last = refine_grid(sources, h, debug=debug)
        canon, marks = _landmarks(sources, h)
        settled = _settle_shift(sources, h, marks)
        if settled is not h:
            h, crossings, last = refine_grid(sources, settled, debug=debug)
            canon, marks = _landmarks(sources, h)
    else:
        crossings = apply_h(h, NODES)
        last = warp_from(sources, h, float(np.clip(pitch, 16, 48)), REFINE_MARGIN)
        canon, marks = _landmarks(sources, h)
    pitch = grid_pitch(h)
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
