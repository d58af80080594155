"""Which printed side is it, and which way up?  Judged from printed landmarks on a rectified grid.

Cues: the five printed mountains of each side (dark squares on the colour sheets, outlined icons on the
printer-friendly one), the pre-filled wasteland of sides B and D, and the coin track of 14 circles
below row K.  Every (rotation, side) pair is scored; the coin track alone tells 0 from 180 degrees on
side A, whose mountains and ruins are symmetric under a half turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from rules.grid import PRINTED_SIDES, SIZE
from scanner.constants import (
    ALIKE_BASE,
    ALIKE_BELOW,
    ALIKE_MIN_INK,
    ALIKE_SLACK,
    ALIKE_WEIGHT,
    CANON_MARGIN,
    COIN_WEIGHT,
    MIN_SHEET_SCORE,
    MOUNTAIN_WEIGHT,
    ORIENT_PPC,
)
from scanner.failure import Failure
from scanner.geometry import geometry
from scanner.numeric import median, percentile

SIDES = PRINTED_SIDES  # the sides the locator tells apart, in its score tables' order

_CELL_Z_CLIP = (-3.0, 8.0)  # one odd cell (a glare spot, a thick drawing) must not decide a side
_SPREAD_FLOOR = 0.02  # ink-fraction spread floor: a blank grid has none, and z must not explode
_DARK = 0.5  # "dark in every channel": strongest channel below half the paper's (mountain squares)
_STROKE = 0.75  # a grey stroke: strongest channel below 3/4 of the paper's ...
_STROKE_SAT = 0.3  # ... and saturation below this (black print, not coloured pencil)
_WARM = 0.06  # red minus blue, as a fraction of the paper level, of the mountains' dark brown
_CLEAN = 0.8  # a clean cell's median is at least this fraction of the paper's brightness
_ICON_MAX = 0.45  # an icon covers less than this fraction of the cell interior
_WASTE_WEIGHT = 0.5  # the rift is a weaker cue than the mountains: pencil graphite is grey too
_RUIN_WEIGHT = 0.5  # ruins are drawn over in play, mountains never: ruins count half


@dataclass(frozen=True, slots=True)
class Orientation:
    """The verdict on a rectified grid.

    Attributes
    ----------
    turns : int
        Quarter turns counter-clockwise (``np.rot90`` k) that bring the input upright.
    side : str
        ``"A"``..``"D"``.
    side_confidence, turn_confidence : float
        In [0, 1], from the score margin to the best rival side / rotation.
    scores : (4, 4) float array
        ``scores[k, s]`` for quarter turns k and side ``SIDES[s]``.
    """

    turns: int
    side: str
    side_confidence: float
    turn_confidence: float
    scores: np.ndarray


Cells = tuple[tuple[int, int], ...]


@cache
def side_cells(side: str) -> tuple[Cells, Cells, Cells]:
    """Printed mountain, wasteland and ruins cells of a side, as sorted (row, col) tuples."""
    from rules.sides import printed_side

    ps = printed_side(side)
    return tuple(sorted(ps.mountains)), tuple(sorted(ps.wasteland)), tuple(sorted(ps.ruins))


def max_channel(image: np.ndarray) -> np.ndarray:
    """Per-pixel maximum over the colour channels (the HSV value)."""
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.max(cv2.max(b, g), r)


def min_channel(image: np.ndarray) -> np.ndarray:
    """Per-pixel minimum over the colour channels (a grey image is returned as it is).

    Orange and yellow print is as dark here as grey print of equal strength.
    """
    if image.ndim == 2:
        return image
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


def cell_features(
    canonical: np.ndarray, *, ppc: float = ORIENT_PPC, margin: float = CANON_MARGIN
) -> np.ndarray:
    """Per-cell measures of printed landmarks on a canonical image.

    Returns
    -------
    (4, 11, 11) float array
        ``[0]`` the fraction of pixels dark in every channel and warm (the printed mountains' dark
        brown squares; coloured pencil stays bright in its strongest channel, graphite is neutral),
        ``[1]`` the mean grey darkness, darkness times unsaturation (the wasteland rift; coloured
        fills are saturated),
        ``[2]`` the fraction of grey stroke pixels in cells that are otherwise clean white paper
        (the printer-friendly sheet's outlined mountain and ruins icons; drawn-on cells give 0),
        ``[3]`` that times the share of slanted edges (a mountain's triangles, not a ruin's columns).
        All over the cell interior inset by 1/5 cell.
    """
    value = max_channel(canonical).astype(np.float32)
    low = min_channel(canonical).astype(np.float32)
    paper = max(float(percentile(value[::4, ::4], 90)), 1.0)
    # the colour sheets' mountain squares are dark *brown*: warm, unlike graphite or dark pencil
    b, _, r = cv2.split(canonical.astype(np.float32)) if canonical.ndim == 3 else (low, low, low)
    dark_all = ((value < _DARK * paper) & (r - b > _WARM * paper)).astype(np.float32)
    unsat = low / np.maximum(value, 1.0)
    grey_dark = np.clip(1.0 - value / paper, 0.0, 1.0) * unsat
    strokes = ((value < _STROKE * paper) & (unsat > 1.0 - _STROKE_SAT)).astype(np.float32)
    o, p, n = round(margin * ppc), round(ppc), SIZE
    inset = max(1, p // 5)

    def per_cell(plane: np.ndarray) -> np.ndarray:
        cells = plane[o : o + n * p, o : o + n * p].reshape(n, p, n, p).transpose(0, 2, 1, 3)
        return cells[:, :, inset : p - inset, inset : p - inset].reshape(n, n, -1)

    stroke_frac = per_cell(strokes).mean(axis=2)
    # an icon is a few thin strokes on otherwise clean white paper; pencil hatching and coloured
    # fills (a drawn-on cell) are not
    clean = (median(per_cell(value), axis=2) > _CLEAN * paper) & (median(per_cell(unsat), axis=2) > 0.8)
    icons = np.where(clean & (stroke_frac < _ICON_MAX), stroke_frac, 0.0)
    # how slanted the icon's edges are: a mountain's triangles are, a ruin's columns are upright
    gx = cv2.Sobel(value, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(value, cv2.CV_32F, 0, 1, ksize=3)
    energy = gx * gx + gy * gy
    slant = per_cell(2.0 * np.abs(gx * gy)).sum(axis=2) / (per_cell(energy).sum(axis=2) + 1e-6)
    return np.stack([per_cell(dark_all).mean(axis=2), per_cell(grey_dark).mean(axis=2), icons, icons * slant])


def coin_track_score(
    canonical: np.ndarray, *, ppc: float = ORIENT_PPC, margin: float = CANON_MARGIN
) -> float:
    """How strongly the 14 coin circles show below row K (about 0 when absent, > 3 when clear).

    Compares the horizontal gradient near the circles' rims with that half-way between circles.
    """
    g = geometry()
    o = margin * ppc
    y0 = round(o + (g.coin_y - g.coin_radius) * ppc)
    y1 = round(o + (g.coin_y + g.coin_radius) * ppc)
    band = canonical[max(y0, 0) : max(y1, 1)].astype(np.float32)
    if band.size == 0:
        return 0.0
    # strongest channel: gold coins on an orange band differ in green, not in the minimum channel
    gx = max_channel(np.abs(cv2.Sobel(band, cv2.CV_32F, 1, 0, ksize=3))).mean(axis=0)
    xs = np.arange(gx.size, dtype=np.float64)
    centers = o + g.coin_centers()[:, 0] * ppc
    r = g.coin_radius * ppc
    near = np.zeros(gx.size, bool)
    mid = np.zeros(gx.size, bool)
    for c in centers:
        near |= np.abs(np.abs(xs - c) - r) <= max(1.0, 0.06 * ppc)
        mid |= np.abs(xs - (c + 0.5 * g.coin_dx * ppc)) <= max(1.0, 0.06 * ppc)
    mid &= xs < centers[-1]
    if not near.any() or not mid.any():
        return 0.0
    spread = float(np.std(gx)) + 1.0
    return float((gx[near].mean() - gx[mid].mean()) / spread)


def side_scores(features: np.ndarray) -> np.ndarray:
    """Printed-landmark evidence for each side, given cell features of an upright grid.

    The colour sheets show their mountains as dark squares (feature 0), the printer-friendly sheet
    as outlined icons like its ruins (feature 2); the better of the two explanations counts, plus
    the wasteland rift (feature 1) for sides that print one.

    Returns
    -------
    (4,) float array
        Mean robust z-scores of the side's printed cells against all other cells.
    """
    # one robust centre and spread per feature over the whole grid: the few printed cells barely
    # move a median, and this keeps the 16 (turn, side) scores cheap
    return _side_scores_z(np.stack([_robust_z(f) for f in features]))


def _side_scores_z(z: np.ndarray) -> np.ndarray:
    # side_scores on features already turned into robust z-scores
    out = np.zeros(len(SIDES))
    for s, side in enumerate(SIDES):
        mountains, waste, ruins = side_cells(side)
        colour = _mean_at(z[0], mountains)
        icons = _mean_at(z[3], mountains) + _RUIN_WEIGHT * _mean_at(z[2], ruins)
        score = max(colour, icons)
        if waste:
            score += _WASTE_WEIGHT * _mean_at(z[1], waste)
        out[s] = score
    return out


def _robust_z(values: np.ndarray) -> np.ndarray:
    med = float(median(values))
    spread = max(1.4826 * float(median(np.abs(values - med))), _SPREAD_FLOOR)
    return np.clip((values - med) / spread, *_CELL_Z_CLIP)


def _mean_at(z: np.ndarray, cells: Cells) -> float:
    return float(np.mean([z[rc] for rc in cells])) if cells else 0.0


def cell_likeness(
    canonical: np.ndarray, cell_sets: list[Cells], *, ppc: float = ORIENT_PPC, margin: float = CANON_MARGIN
) -> np.ndarray:
    """How alike the cells of each set look: the median over pairs of their best normalised correlation.

    A side's printed mountains are one printed glyph (or square) repeated, so the true side's cells
    correlate highly whatever is drawn around them; a wrong side's cells hold a mix of drawings, bare
    paper and at best one or two mountains.  Cells are high-passed first (bare paper then correlates
    with nothing) and compared with a little slack (the grid is found to a fraction of a cell).

    Returns
    -------
    (len(cell_sets),) float array in [-1, 1]
    """
    grey = min_channel(canonical).astype(np.float32)
    grey = grey - cv2.GaussianBlur(grey, (0, 0), ppc / 4)
    o, p = round(margin * ppc), round(ppc)
    slack = max(1, round(ALIKE_SLACK * ppc))
    pairs: dict[tuple[tuple[int, int], tuple[int, int]], float] = {}

    def patch(rc: tuple[int, int], pad: int) -> np.ndarray:
        y, x = o + rc[0] * p, o + rc[1] * p
        return grey[y + slack - pad : y + p - slack + pad, x + slack - pad : x + p - slack + pad]

    inked: dict[tuple[int, int], bool] = {}

    def has_ink(rc: tuple[int, int]) -> bool:
        if rc not in inked:  # once per cell, not once per pair it is in
            inked[rc] = float(patch(rc, 0).std()) >= ALIKE_MIN_INK
        return inked[rc]

    def alike(a: tuple[int, int], b: tuple[int, int]) -> float:
        key = (a, b) if a < b else (b, a)
        if key not in pairs:
            if not (has_ink(key[0]) and has_ink(key[1])):
                pairs[key] = 0.0  # bare paper (and the grid lines' halo) is like nothing
            else:
                pairs[key] = float(
                    cv2.matchTemplate(patch(key[1], slack), patch(key[0], 0), cv2.TM_CCOEFF_NORMED).max()
                )
        return pairs[key]

    out = np.zeros(len(cell_sets))
    for k, cells in enumerate(cell_sets):
        scores = [alike(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]
        out[k] = float(median(scores)) if scores else 0.0
    return out


def landmark_scores(
    canonical: np.ndarray, *, ppc: float = ORIENT_PPC, margin: float = CANON_MARGIN
) -> tuple[np.ndarray, np.ndarray]:
    """Evidence for every (quarter turn, side) of a rectified grid, and the coin track per turn.

    Returns
    -------
    scores : (4, 4) float array
        ``scores[k, s]`` for ``np.rot90`` k quarter turns and side ``SIDES[s]``.
    coins : (4,) float array
        ``coin_track_score`` of the grid turned by k quarter turns.
    """
    scores = np.zeros((4, len(SIDES)))
    coins = np.zeros(4)
    # features and their z-scores once: the z-scores are per-grid, so they turn with the grid
    feats0 = cell_features(canonical, ppc=ppc, margin=margin)
    z0 = np.stack([_robust_z(f) for f in feats0])
    n = SIZE
    for turns in range(4):
        upright = np.rot90(canonical, turns)
        coins[turns] = coin_track_score(upright, ppc=ppc, margin=margin)
        coin = float(np.clip(coins[turns], -4.0, 4.0))
        scores[turns] = (
            MOUNTAIN_WEIGHT * _side_scores_z(np.rot90(z0, turns, axes=(1, 2))) + COIN_WEIGHT * coin
        )
    # Drawings (a monster drawn in graphite, a dark fill) can pass for a mountain in a cell or two;
    # then the side is settled by whether the five cells look like one printed mountain repeated.
    # Only asked when the sides are close: it costs about as much as the rest.
    best = np.unravel_index(int(np.argmax(scores)), scores.shape)
    if scores[best] - float(np.delete(scores, best[1], axis=1).max()) < ALIKE_BELOW:
        sets = [
            tuple(_unturn(rc, turns, n) for rc in side_cells(side)[0]) for turns in range(4) for side in SIDES
        ]
        alike = cell_likeness(canonical, sets, ppc=ppc, margin=margin).reshape(4, len(SIDES))
        before = float(scores.max())
        scores += ALIKE_WEIGHT * (alike - ALIKE_BASE)
        # unlike sides lose, like ones gain; the best score never falls below what it was, so a
        # print too faint to compare still counts as a sheet (MIN_SHEET_SCORE)
        scores += max(0.0, before - float(scores.max()))
    return scores, coins


def _unturn(rc: tuple[int, int], turns: int, n: int) -> tuple[int, int]:
    # where cell rc of np.rot90(grid, turns) lies in grid
    r, c = rc
    for _ in range(turns % 4):
        r, c = c, n - 1 - r
    return r, c


def judge(
    canonical: np.ndarray, *, ppc: float = ORIENT_PPC, margin: float = CANON_MARGIN
) -> Orientation | Failure:
    """Decide rotation and printed side of a rectified grid.

    Parameters
    ----------
    canonical : (S, S, 3) uint8
        A square rectified image with the grid at ``[margin, margin + 11] * ppc`` in any of the four
        quarter-turn positions.

    Returns
    -------
    Orientation or Failure
        ``no_sheet`` when no side explains the grid (a blank grid, another game's board).
    """
    return decide(landmark_scores(canonical, ppc=ppc, margin=margin)[0])


def decide(scores: np.ndarray) -> Orientation | Failure:
    """The verdict of ``judge`` from its (4, 4) ``landmark_scores``."""
    kk, ss = np.unravel_index(int(np.argmax(scores)), scores.shape)
    k, s = int(kk), int(ss)
    best = float(scores[k, s])
    if best < MIN_SHEET_SCORE:
        return Failure("no_sheet", f"an 11x11 grid, but no Cartographers side fits it (score {best:.1f})")
    other_sides = np.delete(scores, s, axis=1)
    other_turns = np.delete(scores, k, axis=0)
    side_margin = best - float(other_sides.max())
    turn_margin = best - float(other_turns.max())
    return Orientation(
        turns=int(k),
        side=SIDES[int(s)],
        side_confidence=_confidence(side_margin),
        turn_confidence=_confidence(turn_margin),
        scores=scores,
    )


def _confidence(margin: float) -> float:
    # A margin of ~2 z-units is a clear decision; map it smoothly into [0, 1].
    return float(1.0 - np.exp(-max(margin, 0.0) / 1.5))
