"""Many frames, one reading: each frame's reading of the sheet is a ballot, the ballots are tallied.

A camera sees the same sheet many times, under different glare, noise and hands.  Each frame read
(:func:`cast`) becomes a :class:`Ballot`: the classifier's per-cell probabilities plus a small look at
every cell and coin.  :func:`tally` keeps, per cell, only the ballots where the cell looked like itself
(not under a hand, not much darker than usual, not brighter than the paper (glare), not unlike the
cell's median look over the ballots) and averages their log-probabilities, each weighted by how sure
that frame was of the cell and of the whole sheet; coins, the side and the whole-sheet doubts go by
majority, a hit star by a majority of the frames with no hand on its cell.  The tally is a
:class:`scanner.pipeline.Reading` like any other, so :attr:`Reading.uncertain` hands it to
:func:`rules.policy.decide`.

Pure functions; ballots are immutable.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from rules.grid import COIN_TRACK, SIZE
from rules.sides import printed_side
from scanner.classify import SheetReading, label_cells
from scanner.constants import (
    CONFIDENCE_THRESHOLD,
    LOG_FLOOR,
)
from scanner.decode import ruins_only
from scanner.failure import Failure
from scanner.geometry import geometry
from scanner.pipeline import Reading, assemble, read_image
from scanner.rectify import apply_h, grid_homography, rectify
from scanner.sample import cell_patches, coin_patches

__all__ = ["Ballot", "cast", "hand_cover", "looks_of", "tally", "voters"]

LOOK = 8
"""Side in px of a cell's (or coin's) look: its patch shrunk to 8x8 grey, enough to tell a hand or a
glare spot from the drawing, cheap to keep for every ballot."""

OCCLUDED_CHANGE = 0.12
"""A cell votes only when its look differs from its median look over the ballots by less than this
(mean absolute difference, share of the paper's brightness): pencil noise and exposure drift stay
well under it, a hand, its shadow or glare over the cell go well over it."""

DARKER = 0.75
"""... and when it is no darker than this share of its median brightness (a hand's shadow)."""

GLARE = 1.04
"""... and when its mean brightness is under this share of the paper's: glare that lifts a cell above
the paper washes a light pencil fill out, and the net reads it, confidently, as empty.  On white paper
glare and paper both clip near 255, so the margin is small: at 1.04 about a tenth of the clear cells
also sit out a frame (1.06: 7 %, and the washed-out fills come back on the synthetic videos)."""

PAPER_PERCENTILE = 75
"""The paper's brightness in a frame: this percentile of all cell pixels (most of a sheet is paper,
and a glare spot covering a fifth of the grid does not set it)."""

HAND_SHARE = 0.2
"""... and when less than this share of it lies under a hand (:func:`hand_cover`)."""

SKIN_CR = (10, 45)
SKIN_CB = (-45, -5)
"""Skin in YCrCb, relative to the sheet's own paper (so that warm light or a cream print does not pass
for skin): redder by 10-45 and less blue by 5-45 levels.  Coloured pencils can fall in this range too
(light red and orange fills do), so skin alone marks nothing: see :func:`hand_cover`."""

HAND_SCALE = 4
"""The frame is shrunk by this factor to find hands (an arm is large; 320x180 at 720p)."""

SHEET_AREA = (-0.35, -0.35, 11.35, 13.3)
"""Cells (x0, y0, x1, y1) a hand must reach into to matter: the grid and the coin track."""

FAR_OUTSIDE = (-1.0, -1.0, 12.0, 14.5)
"""... and whatever it is, it must also reach out of this box (the page around the grid): a hand comes
in from outside the sheet, a pencil fill never leaves its cell."""

SURE_WEIGHT = 8.0
"""A ballot's say on a cell is its confidence in that cell to this power: a frame where glare or a dark
exposure left the cell at 0.5 weighs 0.004 against 0.92 for a frame that read it at 0.99, so the frames
that saw the cell well decide it; a cell every frame reads at 0.9 stays at 0.9 (a drawing the net finds
ambiguous does not become certain by being filmed longer).  Ten synthetic videos (two per drawing
family, seeds 2000-2001, ballots every 6th steady frame), drawable cells right / ``?`` / wrong: 104.1 /
6.2 / 0.8 with 8; 103.2 / 7.1 / 0.8 with 0; a linear pool of the probabilities instead of the log
pool 103.1 / 7.2 / 0.8; the first frame read alone 98.0 / 12.1 / 1.0.  (Where the frames disagree the
plain average caps the pool, see :func:`tally`.)"""

FRAME_WEIGHT = 8.0
"""... times the share of the frame's drawable cells it read with confidence, to this power: glare
that sets the white balance wrong makes a whole frame read empty paper as villages, at 0.9, with half
its cells doubtful (0.5 ** 8 = 0.004) where a clear frame of the same sheet has a tenth doubtful
(0.9 ** 8 = 0.43)."""

COIN_MAJORITY = 0.75
"""A coin's state needs this share of the ballots that saw it clearly, else the coin is doubtful."""


@dataclass(frozen=True, eq=False)
class Ballot:
    """One frame's reading of the sheet and how every cell and coin looked in it.

    Attributes
    ----------
    reading : the frame's :class:`scanner.pipeline.Reading` (with ``probabilities``).
    looks : (11, 11, LOOK * LOOK) float32 grey looks of the cells, over the sheet's paper brightness.
    hand : (11, 11) float share of each cell under a hand (:func:`hand_cover`).
    coin_looks : (14, LOOK * LOOK) float32 grey looks of the coins, same scale.
    coin_hand : (14,) float.
    frame : index of the frame it was read from.
    """

    reading: Reading
    looks: np.ndarray
    hand: np.ndarray
    coin_looks: np.ndarray
    coin_hand: np.ndarray
    frame: int = 0


def looks_of(patches: np.ndarray, paper: float | None = None) -> tuple[np.ndarray, float]:
    """Grey looks (..., LOOK * LOOK) of BGR patches (..., P, P, 3), over the paper's brightness
    (:data:`PAPER_PERCENTILE` of the patches unless given), and that brightness."""
    lead = patches.shape[:-3]
    flat = patches.reshape(-1, *patches.shape[-3:])
    grey = cv2.cvtColor(flat.reshape(-1, flat.shape[2], 3), cv2.COLOR_BGR2GRAY).reshape(flat.shape[:3])
    level = float(np.percentile(grey, PAPER_PERCENTILE)) if paper is None else paper
    small = cv2.resize(grey.transpose(1, 2, 0), (LOOK, LOOK), interpolation=cv2.INTER_AREA)
    looks = small.reshape(LOOK, LOOK, -1).transpose(2, 0, 1).astype(np.float32) / max(level, 1.0)
    return looks.reshape(*lead, LOOK * LOOK), level


def hand_cover(frame: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How much of each cell (11, 11) and coin (14,) a hand covers, in [0, 1].

    A hand is skin-coloured (relative to the sheet's paper, :data:`SKIN_CR`, :data:`SKIN_CB`) and comes
    in from outside the sheet: a skin-coloured region counts only when it reaches both into the grid or
    coin track (:data:`SHEET_AREA`) and out past the page (:data:`FAR_OUTSIDE`), so that red and orange
    pencil fills, which never leave their cells, and the table, which never enters the page, do not.
    """
    h_img, w_img = frame.shape[:2]
    k = HAND_SCALE
    small = cv2.resize(frame, (max(1, w_img // k), max(1, h_img // k)), interpolation=cv2.INTER_AREA)
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    to_small = np.diag([1.0 / k, 1.0 / k, 1.0]) @ grid_homography(corners)

    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        mask = np.zeros(small.shape[:2], np.uint8)
        quad = apply_h(to_small, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        return mask.astype(bool)

    nothing = np.zeros((SIZE, SIZE)), np.zeros(COIN_TRACK)
    grid = ycc[box(0.0, 0.0, 11.0, 11.0)].astype(np.float32)
    if len(grid) == 0:
        return nothing
    paper = np.median(grid[grid[:, 0] >= np.percentile(grid[:, 0], 80)], axis=0)
    cr = ycc[..., 1].astype(np.float32) - paper[1]
    cb = ycc[..., 2].astype(np.float32) - paper[2]
    skin = ((cr >= SKIN_CR[0]) & (cr <= SKIN_CR[1]) & (cb >= SKIN_CB[0]) & (cb <= SKIN_CB[1])).astype("u1")
    _, labels = cv2.connectedComponents(skin, connectivity=8)
    inside = set(np.unique(labels[box(*SHEET_AREA) & (skin > 0)]).tolist())
    outside = set(np.unique(labels[~box(*FAR_OUTSIDE) & (skin > 0)]).tolist())
    hands = sorted((inside & outside) - {0})
    if not hands:
        return nothing
    hand = np.isin(labels, hands).astype(np.float32)
    s = LOOK  # px per cell of the cell-space mask
    top = cv2.warpPerspective(hand, np.diag([s, s, 1.0]) @ np.linalg.inv(to_small), (11 * s, 14 * s),
                              flags=cv2.INTER_LINEAR)
    cells = top[: 11 * s].reshape(11, s, 11, s).mean(axis=(1, 3))
    centres = geometry().coin_centers() * s
    coins = np.array([top[min(14 * s - 1, int(y)), min(11 * s - 1, int(x))] for x, y in centres])
    return cells, coins


def cast(frame: np.ndarray, corners: np.ndarray, *, index: int = 0, **read: object) -> Ballot | Failure:
    """Read one frame with the grid near ``corners`` (snapped to the print by the reader).

    ``read`` goes to :func:`scanner.pipeline.read_image` (``models``, ``side``).

    Returns
    -------
    Ballot, or the reader's falsy Failure (``too_blurred``, ``cut_off``...).
    """
    reading = read_image(frame, corners=corners, **read)  # type: ignore[arg-type]
    if isinstance(reading, Failure):
        return reading
    canonical = rectify(frame, reading.corners)
    looks, paper = looks_of(cell_patches(canonical))
    coin_looks, _ = looks_of(coin_patches(canonical), paper)
    hand, coin_hand = hand_cover(frame, reading.corners)
    return Ballot(reading, looks, hand, coin_looks, coin_hand, index)


def _voting(looks: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """(n, ...) bool: which ballots may vote on each cell (or coin), from looks (n, ..., L) and hand
    cover (n, ...)."""
    clear = hand < HAND_SHARE
    masked = np.where(clear[..., None], looks, np.nan)
    with warnings.catch_warnings():  # a cell covered in every ballot has no median: NaN, handled below
        warnings.simplefilter("ignore", RuntimeWarning)
        median = np.nanmedian(masked, axis=0)  # over the ballots with no hand on the cell
    median = np.where(np.isnan(median), looks.mean(axis=0), median)
    change = np.abs(looks - median[None]).mean(axis=-1)
    bright = looks.mean(axis=-1) / np.maximum(median.mean(axis=-1)[None], 1e-3)
    glare = looks.mean(axis=-1) >= GLARE
    return np.asarray(clear & (change < OCCLUDED_CHANGE) & (bright > DARKER) & ~glare)


def voters(ballots: Sequence[Ballot]) -> np.ndarray:
    """(n, 11, 11) bool: which ballots vote on each cell."""
    return _voting(np.stack([b.looks for b in ballots]), np.stack([b.hand for b in ballots]))


def _majority(values: Sequence[str]) -> str:
    return Counter(values).most_common(1)[0][0]


def tally(ballots: Sequence[Ballot], threshold: float = CONFIDENCE_THRESHOLD) -> Reading:
    """The reading the ballots agree on.

    Parameters
    ----------
    ballots : at least one, all of one sheet in one orientation.
    threshold : cells whose tallied probability is below it become ``?``.

    Returns
    -------
    Reading whose ``probabilities`` are the voters' averaged log-probabilities (renormalised), whose
    ``corners`` are the last ballot's, and whose ``timings`` hold ``{"ballots": n}``.
    """
    if not ballots:
        raise ValueError("tally needs at least one ballot")
    readings = [b.reading for b in ballots]
    side = _majority([r.side for r in readings])
    printed = printed_side(side)
    vote = voters(ballots).astype(np.float64)  # (n, 11, 11)
    # a cell no ballot saw clearly (glare or shadow in every frame so far) is read from the ballots
    # with no hand on it, rather than not at all
    unseen = vote.sum(axis=0) == 0
    handless = np.stack([b.hand < HAND_SHARE for b in ballots])
    vote[:, unseen] = handless[:, unseen]
    probs_n = np.stack([np.asarray(r.probabilities) for r in readings])  # (n, 11, 11, 8)
    logp = np.log(np.maximum(probs_n, LOG_FLOOR))
    count = vote.sum(axis=0)
    sure = np.array([1.0 - len(r.doubtful) / max(1, SIZE * SIZE - len(printed.mountains | printed.wasteland))
                     for r in readings])
    say = vote * np.exp(logp.max(axis=-1)) ** SURE_WEIGHT * (sure ** FRAME_WEIGHT)[:, None, None]
    weight = np.maximum(say.sum(axis=0), 1e-12)[..., None]
    summed = (say[..., None] * logp).sum(axis=0) / weight
    probs = np.exp(summed - summed.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    # frames that read a cell surely but differently (a monster read as a village under one light and
    # as a monster under another) must leave it doubtful: where the frames' plain average is less sure
    # of the pooled best class than the pool, the average stands, with the other frames' class in it
    pooled = (say[..., None] * probs_n).sum(axis=0) / weight
    best_k = probs.argmax(axis=-1)[..., None]
    split = (np.take_along_axis(pooled, best_k, -1) < np.take_along_axis(probs, best_k, -1))[..., 0]
    probs[split] = pooled[split]
    probs[count == 0] = 1.0 / probs.shape[-1]  # under a hand in every frame: nothing is known
    flat = probs.reshape(SIZE * SIZE, -1)
    best = flat.argmax(axis=1)
    conf = flat.max(axis=1)
    unsure = (conf < threshold) | ruins_only(best, printed.ruins)
    rows, doubtful = label_cells(best, unsure, printed, conf)
    # stars: a cell is starred when more than half of the ballots with no hand on it saw a star where
    # the cell looked like itself.  A majority of the voters alone let a frame or two decide a cell that
    # most frames sat out (glare, shadow, a look unlike its median): stars that came and went from one
    # reading to the next and that most frames did not see.  A star on
    # a printed mountain is legal (Die Kartographin, "Besonderheiten", Held_innen: attack patterns "dürfen
    # über den Rand und/oder ausgefüllte Felder ragen"), so the print does not veto it.
    starred = np.stack([[[(r, c) in rd.stars for c in range(SIZE)] for r in range(SIZE)] for rd in readings])
    could_see = np.maximum(np.maximum(handless.sum(axis=0), count), 1)
    stars = frozenset(zip(*np.nonzero((vote * starred).sum(axis=0) * 2 > could_see), strict=True))
    states, coin_doubt = _coins(ballots)
    outlines = {k: np.mean(np.stack([r.outlines[k] for r in readings if k in r.outlines]), axis=0)
                for k in readings[-1].outlines}
    sheet_reading = SheetReading(
        side=side,
        grid=rows,
        confidence=conf.reshape(SIZE, SIZE),
        probabilities=probs,
        coins=states.count("filled"),
        spent=states.count("crossed"),
        coin_states=states,
        coin_confidence=np.zeros(len(states)),
        stars=frozenset((int(r), int(c)) for r, c in stars),
        star_probability=np.zeros((SIZE, SIZE)),
        outlines=outlines,
        doubtful=doubtful,
        doubtful_coins=coin_doubt,
    )
    last = readings[-1]
    orientation = int(_majority([str(r.orientation) for r in readings]))
    return assemble(sheet_reading, last.corners, orientation, {"ballots": float(len(ballots))},
                    _sheet_doubts(readings))


def _coins(ballots: Sequence[Ballot]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Each coin's state by majority of the ballots that saw it clearly and were sure of it."""
    seen = _voting(np.stack([b.coin_looks for b in ballots]), np.stack([b.coin_hand for b in ballots]))
    n_coins = len(ballots[-1].reading.coin_states)
    states: list[str] = []
    doubtful: list[int] = []
    for k in range(n_coins):
        votes = [b.reading.coin_states[k] for i, b in enumerate(ballots)
                 if seen[i, k] and k not in b.reading.doubtful_coins and len(b.reading.coin_states) > k]
        if not votes:
            states.append(_majority([b.reading.coin_states[k] for b in ballots]))
            doubtful.append(k)
            continue
        state, n = Counter(votes).most_common(1)[0]
        states.append(state)
        if n < COIN_MAJORITY * len(votes):
            doubtful.append(k)
    return tuple(states), tuple(doubtful)


def _sheet_doubts(readings: Sequence[Reading]) -> tuple[str, ...]:
    """Whole-sheet doubts (side, A1 corner) raised by more than half of the readings; coin doubts are
    the tally's own (:func:`_coins`)."""
    keyed: dict[str, list[str]] = {}
    for r in readings:
        for d in r.doubts:
            if not d.startswith("coin track unclear"):
                keyed.setdefault(d.split(" (")[0], []).append(d)
    return tuple(texts[-1] for texts in keyed.values() if 2 * len(texts) > len(readings))

