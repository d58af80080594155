"""Follow the located grid from frame to frame: sparse optical flow and a robust homography.

A :class:`Track` ties points of the sheet (corners of printed lines, drawn strokes, the coin track:
whatever ``cv2.goodFeaturesToTrack`` finds on the paper) to their place on the sheet in cell units.
:func:`follow` moves them into the next frame with pyramidal Lucas-Kanade (forward and back, so points
on a passing hand or on glare drop out), fits the cell-to-frame homography with RANSAC and returns the
new track, or a falsy :class:`scanner.failure.Failure` (``lost``) when too few points agree or the fit
leaps: the caller then runs the full locator.  :func:`misalignment` measures how far the followed grid
has drifted from the printed lines, :func:`steady` whether the sheet holds still.

All functions are pure: a track in, a new track out; grey frames are (H, W) uint8.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.grid import SIZE as GRID_SIZE
from scanner.constants import (
    STEADY_FRAMES,
    STEADY_MOTION,
    TRACK_CHECK_PPC,
    TRACK_FB_PX,
    TRACK_LEVELS,
    TRACK_MAX_JUMP,
    TRACK_MIN_POINTS,
    TRACK_MIN_SHARE,
    TRACK_POINTS,
    TRACK_RANSAC_PX,
    TRACK_REGION,
    TRACK_RESEED,
    TRACK_SIDE,
    TRACK_WINDOW,
)
from scanner.failure import Failure
from scanner.geometry import Geometry
from scanner.numeric import median
from scanner.rectify import apply_h, grid_homography

__all__ = ["Track", "follow", "misalignment", "start_track", "steady"]

_LK = {
    "winSize": (TRACK_WINDOW, TRACK_WINDOW),
    "maxLevel": TRACK_LEVELS,
    "criteria": (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 20, 0.03),
}


@dataclass(frozen=True, eq=False)
class Track:
    """The grid followed into one frame.

    Attributes
    ----------
    corners : (4, 2) float
        Grid corners A1, A11, K11, K1 in frame px (sheet order, as the locator gave them).
    homography : (3, 3) float
        Cell units -> frame px.
    points : (N, 2) float32
        The followed points in this frame, px of ``small``.
    anchors : (N, 2) float
        Where each point sits on the sheet, in cell units.
    small : (h, w) uint8
        This frame, grey and shrunk by ``scale`` (:func:`shrink`): where the next frame's points are
        looked for.
    scale : float
        Px of ``small`` (and of ``points``) per frame px.
    motion : float
        Largest corner move since the previous frame, in cells.
    history : tuple of float
        ``motion`` of the last few frames, newest last (see :func:`steady`).
    """

    corners: np.ndarray
    homography: np.ndarray
    points: np.ndarray
    anchors: np.ndarray
    small: np.ndarray
    scale: float
    motion: float = 0.0
    history: tuple[float, ...] = ()

    @property
    def pitch(self) -> float:
        """Mean grid pitch in frame px."""
        return pitch_of(self.corners)


def shrink(grey: np.ndarray) -> tuple[np.ndarray, float]:
    """The grey frame halved (``cv2.pyrDown``) until its long side is at most :data:`TRACK_SIDE`, and
    the scale (small px per frame px): Lucas-Kanade builds its pyramids on every call, and at 720p
    those cost more than following the points."""
    small, scale = grey, 1.0
    while max(small.shape) > TRACK_SIDE:
        small, scale = cv2.pyrDown(small), scale / 2.0
    return small, scale


def pitch_of(corners: np.ndarray) -> float:
    """Mean grid pitch (px) of grid corners A1, A11, K11, K1."""
    c = np.asarray(corners, dtype=np.float64)
    sides = np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1)
    return float(sides.mean() / GRID_SIZE)


def _seed(small: np.ndarray, h: np.ndarray, count: int, avoid: np.ndarray | None = None) -> np.ndarray:
    """Up to ``count`` good points (float32 (N, 2), px of ``small``) on the sheet's tracked region;
    ``h`` maps cell units to ``small`` px."""
    x0, y0, x1, y1 = TRACK_REGION
    region = apply_h(h, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
    mask = np.zeros(small.shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(region).astype(np.int32), 255)
    spacing = max(3.0, 0.45 * pitch_of(apply_h(h, Geometry.grid_corners())))
    if avoid is not None:
        for x, y in avoid:
            cv2.circle(mask, (int(x), int(y)), int(spacing), 0, -1)
    found = cv2.goodFeaturesToTrack(small, count, 0.01, spacing, mask=mask, blockSize=5)
    return np.zeros((0, 2), np.float32) if found is None else found.reshape(-1, 2).astype(np.float32)


def _scaled(h: np.ndarray, scale: float) -> np.ndarray:
    """``h`` followed by a scaling of its output by ``scale``."""
    out: np.ndarray = np.diag([scale, scale, 1.0]) @ h
    return out


def start_track(grey: np.ndarray, corners: np.ndarray) -> Track | Failure:
    """Begin following the grid whose corners (A1, A11, K11, K1, frame px) were found in ``grey``.

    Returns
    -------
    Track, or a falsy Failure (``lost``) when the sheet offers too few points to follow.
    """
    corners = np.asarray(corners, dtype=np.float64).reshape(4, 2)
    h = grid_homography(corners)
    small, scale = shrink(grey)
    points = _seed(small, _scaled(h, scale), TRACK_POINTS)
    if len(points) < TRACK_MIN_POINTS:
        return Failure("lost", f"only {len(points)} points to follow on the sheet")
    anchors = apply_h(np.linalg.inv(_scaled(h, scale)), points.astype(np.float64))
    return Track(corners, h, points, anchors, small, scale)


def follow(track: Track, grey: np.ndarray) -> Track | Failure:
    """Follow ``track`` into the next frame ``grey`` (the same size as the one it started in).

    Returns
    -------
    Track, or a falsy Failure ``lost``: too few points came along, too few agree on one homography,
    or the grid leapt (changed size by over :data:`TRACK_MAX_JUMP` in one frame, or folded over).
    """
    small, scale = shrink(grey)
    p0 = track.points.reshape(-1, 1, 2)
    p1, ok1, _ = cv2.calcOpticalFlowPyrLK(track.small, small, p0, None, **_LK)  # type: ignore[call-overload]
    if p1 is None:
        return Failure("lost", "no point could be followed")
    back, ok2, _ = cv2.calcOpticalFlowPyrLK(small, track.small, p1, None, **_LK)  # type: ignore[call-overload]
    fb = np.linalg.norm(back.reshape(-1, 2) - track.points, axis=1)
    good = (ok1.ravel() == 1) & (ok2.ravel() == 1) & (fb < TRACK_FB_PX)
    h_img, w_img = small.shape
    pts = p1.reshape(-1, 2)
    good &= (pts[:, 0] >= 0) & (pts[:, 1] >= 0) & (pts[:, 0] < w_img) & (pts[:, 1] < h_img)
    if good.sum() < TRACK_MIN_POINTS:
        return Failure("lost", f"only {int(good.sum())} of {len(pts)} points followed")
    anchors, pts = track.anchors[good], pts[good]
    hs, inl = cv2.findHomography(anchors, pts.astype(np.float64), cv2.RANSAC, TRACK_RANSAC_PX * scale)
    if hs is None:
        return Failure("lost", "no homography fits the followed points")
    inl = inl.ravel().astype(bool)
    if inl.sum() < TRACK_MIN_POINTS or inl.sum() < TRACK_MIN_SHARE * len(track.points):
        return Failure("lost", f"only {int(inl.sum())} of {len(track.points)} points agree")
    refit, _ = cv2.findHomography(anchors[inl], pts[inl].astype(np.float64), 0)  # least squares: less jitter
    hs = refit if refit is not None else hs
    h = _scaled(hs, 1.0 / scale)
    corners = apply_h(h, Geometry.grid_corners())
    before = track.pitch
    if abs(pitch_of(corners) / before - 1.0) > TRACK_MAX_JUMP or not _convex(corners):
        return Failure("lost", "the followed grid leapt")
    motion = float(np.linalg.norm(corners - track.corners, axis=1).max() / before)
    anchors, pts = anchors[inl], pts[inl].astype(np.float32)
    if len(pts) < TRACK_RESEED * TRACK_POINTS:  # top up: new points tied to the sheet by this fit
        extra = _seed(small, hs, TRACK_POINTS - len(pts), avoid=pts)
        if len(extra):
            pts = np.concatenate([pts, extra])
            anchors = np.concatenate([anchors, apply_h(np.linalg.inv(hs), extra.astype(np.float64))])
    history = (*track.history, motion)[-STEADY_FRAMES:]
    return Track(corners, h, pts, anchors, small, scale, motion, history)


def _convex(corners: np.ndarray) -> bool:
    """The four corners form a convex quadrilateral turning one way (no fold-over)."""
    d = np.roll(corners, -1, axis=0) - corners
    cross = d[:, 0] * np.roll(d, -1, axis=0)[:, 1] - d[:, 1] * np.roll(d, -1, axis=0)[:, 0]
    return bool((cross > 0).all() or (cross < 0).all())


def steady(track: Track, frames: int = STEADY_FRAMES, motion: float = STEADY_MOTION) -> bool:
    """Whether the sheet has held still (mean corner motion under ``motion`` cells per frame) over the
    last ``frames`` frames."""
    return len(track.history) >= frames and float(np.mean(track.history[-frames:])) < motion


def misalignment(grey: np.ndarray, corners: np.ndarray, ppc: int = TRACK_CHECK_PPC) -> float:
    """How far (cells) the grid given by ``corners`` lies from the printed grid lines in ``grey``.

    The grid is warped top-down at ``ppc`` px per cell; the dark-line profiles across columns and
    rows are matched against the 12 expected lines shifted by up to half a cell either way. Returns the
    larger of the two best shifts; 0.5 when no line comb shows at all.
    """
    pad = 0.5
    n = GRID_SIZE + 2 * pad
    size = round(n * ppc)
    src = Geometry.grid_corners().astype(np.float32)
    dst = ((src + pad) * ppc).astype(np.float32)
    m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    top = cv2.warpPerspective(grey, m, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    top = top.astype(np.float32)
    dark = cv2.blur(top, (ppc // 2 * 2 + 1, ppc // 2 * 2 + 1)) - top  # darker than around: lines
    shifts = np.arange(-ppc // 2, ppc // 2 + 1)
    lines = np.round((np.arange(GRID_SIZE + 1) + pad) * ppc).astype(int)
    worst = 0.0
    for profile in (dark.mean(axis=0), dark.mean(axis=1)):
        score = np.array([profile[np.clip(lines + s, 0, size - 1)].mean() for s in shifts])
        if score.max() <= max(0.0, float(median(profile))) + 1e-6:
            return 0.5
        worst = max(worst, abs(float(shifts[int(score.argmax())])) / ppc)
    return worst


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest distance (cells) between found and true grid corners (A1, A11, K11, K1)."""
    return float(np.linalg.norm(np.asarray(found) - truth, axis=1).max() / pitch_of(truth))
