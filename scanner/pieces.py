"""Drawn pieces: the outlined shapes on a sheet, and what the cards allow to be drawn in each.

Stage contract: the sheet's drawable cells and outline probabilities in, a piece number per cell out
(:func:`find_pieces`); then the cell probabilities in and out, corrected where they conflict with two
facts of the game (:func:`piece_evidence`):

- every explore card is drawn as one shape filled with one terrain (base rulebook: *After drawing the
  chosen shape, a player fills the shape with the chosen terrain type.*), so the cells of one piece
  share their terrain, and a cell read unlike the rest of its piece follows the piece;
- a card's shape comes with its own terrains (Hamlet only village, Orchard forest or farm, an ambush
  only monsters), so a cell of a piece drawn in a card's shape cannot hold a terrain no card of that
  shape offers.

The evidence only counts for pieces whose outline matches a card's shape, so a missed outline (two
same-terrain pieces merged) or a ruins 1x1 changes nothing. The allowed terrains come from the card
data in :mod:`rules.shapes`; the tuning constants live in :mod:`scanner.constants`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import pairwise

import cv2
import numpy as np

from rules.grid import clusters_of
from rules.shapes import AMBUSH, EXPLORE, Shape, normalise, orientations
from rules.sheet import Terrain
from scanner.constants import (
    LOG_FLOOR,
    OUTLINE_THRESHOLD,
    PIECE_FLOOR,
    PIECE_WEIGHT,
    RUINS_JOINED_EMPTY_CAP,
    TERRAIN_SYMBOLS,
)
from scanner.decode import cap_empty

__all__ = [
    "drawn_over_ruins",
    "edges_near_pieces",
    "edges_to_read",
    "find_pieces",
    "piece_evidence",
    "shape_terrains",
    "unoffered_alternatives",
]

@cache
def shape_terrains() -> dict[Shape, frozenset[Terrain]]:
    """Every shape a card lets a player outline as one piece, in every orientation, and the terrains
    some card allows in it.

    Explore cards (both shapes of a card, each terrain choice) and ambush cards (monsters); the parts
    of a gapped shape (Timber Grove's ``X_X/X_X``) count as shapes of their own. Single cells are left
    out: Rift Lands and the ruins' fallback allow any terrain there.
    """
    table: dict[Shape, set[Terrain]] = {}

    def add(cells: Iterable[tuple[int, int]], terrains: Iterable[Terrain]) -> None:
        # a gapped card shape is drawn as separate parts
        for part in clusters_of(normalise(cells)):
            if len(part) < 2:
                continue
            for o in orientations(normalise(part)):
                table.setdefault(o, set()).update(terrains)

    for card in EXPLORE.values():
        for option in card.shapes:
            add(option.cells, card.terrains)
    for ambush in AMBUSH.values():
        add(ambush.shape.cells, (Terrain.MONSTER,))
    return {shape: frozenset(ts) for shape, ts in table.items()}


@cache
def _forbidden(allowed: frozenset[Terrain]) -> np.ndarray:
    """(C,) bool over ``TERRAIN_SYMBOLS``: the terrains a card can give that ``allowed`` leaves out
    (only those are constrained; empty and destroyed are left alone). Read-only, one per set."""
    mask = np.array([s in "FVPWMH" and Terrain(s) not in allowed for s in TERRAIN_SYMBOLS])
    mask.flags.writeable = False
    return mask


def edges_to_read(cells: np.ndarray, settled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The internal edges whose outline the pieces need first: those touching an unsettled cell.

    :func:`find_pieces` never crosses an edge to a cell left out, and a piece of settled cells only is
    left as read by :func:`piece_evidence` however it is cut (no card forbids empty, and its cells all
    agree), so the edges between two settled cells matter only near the others: see
    :func:`edges_near_pieces` for those.

    Parameters
    ----------
    cells : (11, 11) bool
        Cells that may belong to a piece (as for :func:`find_pieces`).
    settled : (11, 11) bool
        Cells read as empty (most likely class).

    Returns
    -------
    horizontal : (10, 11) bool
        True where the edge between ``(r, c)`` and ``(r + 1, c)`` must be read.
    vertical : (11, 10) bool
        True where the edge between ``(r, c)`` and ``(r, c + 1)`` must be read.
    """
    open_ = cells & ~settled
    horizontal = cells[:-1] & cells[1:] & (open_[:-1] | open_[1:])
    vertical = cells[:, :-1] & cells[:, 1:] & (open_[:, :-1] | open_[:, 1:])
    return horizontal, vertical


def edges_near_pieces(
    cells: np.ndarray,
    settled: np.ndarray,
    horizontal: np.ndarray,
    vertical: np.ndarray,
    read: tuple[np.ndarray, np.ndarray],
    *,
    threshold: float = OUTLINE_THRESHOLD,
) -> tuple[np.ndarray, np.ndarray]:
    """The unread edges between settled cells that can still bound a card-shaped piece of others.

    A piece of at most ``n`` cells (the largest card shape) lies within ``n - 1`` steps of each of its
    cells, so the pieces holding an unsettled cell are found exactly once every edge touching a cell
    that near one is known; a larger piece, however its unread edges are, stays larger than any card.
    Steps cross the read edges without an outline and every unread one (it may be either).

    Parameters
    ----------
    cells, settled : as for :func:`edges_to_read`.
    horizontal, vertical : outline probabilities, as for :func:`find_pieces`, where ``read``.
    read : the (horizontal, vertical) bool masks of the edges read.
    threshold : as for :func:`find_pieces`.

    Returns
    -------
    horizontal : (10, 11) bool, vertical : (11, 10) bool
        The edges still to read (none read before).
    """
    reach = max(map(len, shape_terrains())) - 1
    read_h, read_v = read
    # an edge a piece may cross: between two cells that may belong to one, not read as an outline
    cross_h = cells[:-1] & cells[1:] & ~(read_h & (horizontal >= threshold))
    cross_v = cells[:, :-1] & cells[:, 1:] & ~(read_v & (vertical >= threshold))
    near = cells & ~settled  # grown one step at a time: the cells within `reach` steps of an unsettled one
    for _ in range(reach):
        grown = near.copy()
        grown[1:] |= near[:-1] & cross_h
        grown[:-1] |= near[1:] & cross_h
        grown[:, 1:] |= near[:, :-1] & cross_v
        grown[:, :-1] |= near[:, 1:] & cross_v
        if np.array_equal(grown, near):
            break
        near = grown
    todo_h = cells[:-1] & cells[1:] & ~read_h & (near[:-1] | near[1:])
    todo_v = cells[:, :-1] & cells[:, 1:] & ~read_v & (near[:, :-1] | near[:, 1:])
    return todo_h, todo_v


def find_pieces(
    cells: np.ndarray,
    horizontal: np.ndarray,
    vertical: np.ndarray,
    *,
    threshold: float = OUTLINE_THRESHOLD,
) -> np.ndarray:
    """Number the outlined pieces: cells joined across every internal edge without an outline.

    Pieces come from the outlines alone, not from the cells' readings, so a drawn cell the net misread
    as empty still lies in its piece; unoutlined empty space forms large regions of no card's shape.

    Parameters
    ----------
    cells : (11, 11) bool
        Cells that may belong to a piece (the drawable ones: not printed mountains or wasteland).
    horizontal : (10, 11) float
        Outline probability of the edge between ``(r, c)`` and ``(r + 1, c)``.
    vertical : (11, 10) float
        Outline probability of the edge between ``(r, c)`` and ``(r, c + 1)``.
    threshold : float
        An edge is an outline at or above this probability.

    Returns
    -------
    (11, 11) int
        0 for cells left out, else the piece number (1-based, in row-major order of first cells).
    """
    rows, cols = cells.shape
    free = np.asarray(cells, bool)
    # One image, the cells on its even rows and columns and the edges between them in between, so
    # that OpenCV's 4-connected components are the pieces (8x faster than a flood fill in Python).
    image = np.zeros((2 * rows - 1, 2 * cols - 1), np.uint8)
    image[::2, ::2] = free
    image[1::2, ::2] = free[:-1] & free[1:] & ~(np.asarray(horizontal) >= threshold)
    image[::2, 1::2] = free[:, :-1] & free[:, 1:] & ~(np.asarray(vertical) >= threshold)
    _, components = cv2.connectedComponents(image, connectivity=4, ltype=cv2.CV_32S)
    found = components[::2, ::2].ravel()  # 0 for the cells left out
    # numbered in row-major order of each piece's first cell, whatever order OpenCV gave
    ids, first = np.unique(found, return_index=True)
    pieces = ids > 0
    number = np.zeros(int(ids[-1]) + 1, int)
    number[ids[pieces]] = np.argsort(np.argsort(first[pieces])) + 1
    labels: np.ndarray = number[found].reshape(rows, cols)
    return labels


def _shape(members: list[int], width: int) -> Shape:
    """``normalise`` of the cells at flat indices ``members`` (ascending) of a map ``width`` wide."""
    r0 = members[0] // width  # the first cell in row-major order lies in the top row
    c0 = min(i % width for i in members)
    return frozenset((i // width - r0, i % width - c0) for i in members)


#: The classes a player draws as part of a piece (not empty paper, not a destroyed space's X).
_PIECE_TERRAINS = np.array([sym in "FVPWMH" for sym in TERRAIN_SYMBOLS])


def _card_pieces(pieces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pieces of some card's shape (:func:`find_pieces` numbers), all at once: their cells one piece
    after another (flat indices, each piece's ascending), each such cell's piece (0-based), each piece's
    size, and per cell the terrains no card offers in its piece's shape (:func:`_forbidden`; a fresh
    array). Empty arrays when no piece has a card's shape."""
    table = shape_terrains()
    largest = max(map(len, table))
    flat = pieces.ravel()
    width = pieces.shape[1]
    # each piece's cells ascending, from one sort of the numbers
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    bounds = [0, *(np.flatnonzero(ranked[1:] != ranked[:-1]) + 1).tolist(), len(ranked)]
    numbers, cells_in_order = ranked.tolist(), order.tolist()  # the loop reads Python ints
    kept: list[list[int]] = []
    masks: list[np.ndarray] = []
    for start, end in pairwise(bounds):
        if numbers[start] == 0 or not 2 <= end - start <= largest:  # no card's shape: left as read
            continue
        members = cells_in_order[start:end]
        allowed = table.get(_shape(members, width))
        if allowed is not None:
            kept.append(members)
            masks.append(_forbidden(allowed))
    if not kept:
        none = np.zeros(0, int)
        return none, none, none, np.zeros((0, len(TERRAIN_SYMBOLS)), bool)
    sizes = np.array([len(m) for m in kept])
    piece = np.repeat(np.arange(len(kept)), sizes)
    return np.concatenate(kept), piece, sizes, np.stack(masks)[piece]


def unoffered_alternatives(
    probs: np.ndarray, pieces: np.ndarray, sure: np.ndarray | None = None, *, floor: float = PIECE_FLOOR
) -> np.ndarray:
    """Scale by ``floor``, in each cell read drawn of a card-shaped piece mostly read drawn, every
    reading the piece cannot hold: a terrain no card offers in its shape; empty paper; and, where the
    piece's ``sure`` cells read as drawn name one terrain, every other drawn terrain. Never the cell's
    best reading (rows renormalised).

    The last step of a sheet's decoding, after its ``?`` cells are chosen: a water piece of the Great
    River's shape cannot be monsters, a cell read drawn in a piece outlined and drawn is not empty
    paper, and a piece is filled with one terrain, so a doubtful cell should not offer what its piece
    rules out as what it might be (the score's range, the person's choices); the pruning never makes a
    doubtful cell sure. A cell read empty, or a piece mostly read empty (a pocket of paper the outlines
    around it happen to cut to a card's shape), is left alone. Where a sure cell is wrong, the sheet is
    wrong without a doubt already.

    Parameters
    ----------
    probs : (121, C) float; pieces : (11, 11) int (:func:`find_pieces`).
    sure : (121,) bool, optional
        The cells read without a doubt.

    Returns
    -------
    (121, C) float
    """
    out = probs.astype(float, copy=True)
    cells, piece, sizes, forbidden = _card_pieces(pieces)
    if not sizes.size:
        return out
    part = out[cells]
    best = part.argmax(axis=1)
    drawn = _PIECE_TERRAINS[best]
    mostly = np.bincount(piece, drawn, len(sizes)) * 2 > sizes  # most of the piece read drawn
    forbidden[:, TERRAIN_SYMBOLS.index(".")] = True
    if sure is not None:
        # per piece, the drawn terrains its sure cells read: exactly one names the piece's terrain
        named = np.zeros((len(sizes), len(TERRAIN_SYMBOLS)), bool)
        shown = sure[cells] & drawn
        named[piece[shown], best[shown]] = True
        one = named.sum(axis=1) == 1
        forbidden |= np.where(one[piece, None], (_PIECE_TERRAINS & ~named)[piece], False)
    forbidden &= (drawn & mostly[piece])[:, None]
    forbidden[np.arange(len(cells)), best] = False  # the best reading stays
    part *= np.where(forbidden, floor, 1.0)
    out[cells] = part / part.sum(axis=1, keepdims=True)
    return out


def piece_evidence(
    probs: np.ndarray,
    pieces: np.ndarray,
    *,
    weight: float = PIECE_WEIGHT,
    floor: float = PIECE_FLOOR,
) -> np.ndarray:
    """Correct the cells of every card-shaped piece that disagree with the piece or with the cards.

    Two corrections, each only where the reading conflicts, so that agreeing cells never grow more
    confident than the net and the look-alike pooling made them (a whole piece drawn in a style the
    net misreads would otherwise become confidently wrong):

    - a cell whose best terrain no card offers in its piece's shape has those terrains scaled by
      ``floor``;
    - a cell whose best terrain differs from what its piece as a whole says (its own log-probabilities
      plus ``weight`` times the mean of the piece's other cells') takes the piece's reading.

    Pieces whose shape no card offers (merged by a missed outline, ruins 1x1s) and single cells keep
    their probabilities.

    Parameters
    ----------
    probs : (121, C) float
        Calibrated probabilities over the classifier's classes (``TERRAIN_SYMBOLS`` order), row-major.
    pieces : (11, 11) int
        Piece numbers from :func:`find_pieces`.

    Returns
    -------
    (121, C) float
        Probabilities, rows renormalised where changed.
    """
    out = probs.astype(float, copy=True)
    # every card-shaped piece at once: its cells one after another, each row with its piece's facts
    cells, piece, sizes, forbidden = _card_pieces(pieces)
    if not sizes.size:
        return out
    firsts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    part = out[cells]
    vetoed = forbidden[np.arange(len(cells)), part.argmax(axis=1)]
    fixed = part * np.where(forbidden, floor, 1.0)
    part[vetoed] = fixed[vetoed] / fixed[vetoed].sum(axis=1, keepdims=True)
    logp = np.log(np.maximum(part, LOG_FLOOR))
    # own log-probability plus the mean of the piece's other cells'
    # each piece's sum, cell after cell as numpy sums a piece's rows (np.add.reduceat adds in another
    # order, and the last digit then differs)
    lined = np.zeros((len(sizes), int(sizes.max()), logp.shape[1]))
    lined[piece, np.arange(len(cells)) - firsts[piece]] = logp
    total = lined[:, 0].copy()
    for k in range(1, lined.shape[1]):
        total += lined[:, k]
    totals = total[piece]
    pooled = logp + weight * (totals - logp) / (sizes[piece] - 1)[:, None]
    z = np.exp(pooled - pooled.max(axis=1, keepdims=True))
    z /= z.sum(axis=1, keepdims=True)
    follow = z.argmax(axis=1) != part.argmax(axis=1)
    part[follow] = z[follow]
    out[cells] = part
    return out


def drawn_over_ruins(
    probs: np.ndarray,
    ruins: np.ndarray,
    drawable: np.ndarray,
    horizontal: np.ndarray,
    vertical: np.ndarray,
    *,
    threshold: float = OUTLINE_THRESHOLD,
    cap: float = RUINS_JOINED_EMPTY_CAP,
) -> tuple[np.ndarray, np.ndarray]:
    """Doubt the printed ruins read as empty that lie inside a drawn piece.

    The ruins icon is printed under whatever is drawn on the space, and the net, which has seen it bare
    far more often, reads a shape drawn over it as the bare print. But a piece is one outlined shape,
    and bare paper has no outline: a ruins cell joined by an edge with no outline to a neighbour read
    as a drawn terrain lies inside that neighbour's piece, and a ruins cell parted by an outline from a
    neighbour read as empty is the edge of some drawn shape (its own, or a neighbour's misread too);
    a bare ruin beside a drawing is parted from it by the drawing's outline and joined to the empty
    paper around it. Such a cell keeps at most ``cap`` of its empty probability; the rest goes to the
    terrains of the drawn neighbours it is joined to (else to its own other classes, in the net's
    proportions), so it becomes ``?`` with its piece's terrain among its readings.

    Parameters
    ----------
    probs : (121, C) probabilities (:data:`TERRAIN_SYMBOLS` order), row-major.
    ruins, drawable : (11, 11) bool, the printed ruins and the cells not printed.
    horizontal, vertical : the outline probabilities of :func:`find_pieces`.

    Returns
    -------
    probs : (121, C), a copy where changed.
    flagged : (121,) bool, the ruins cells doubted.
    """
    rows, cols = drawable.shape
    best = probs.argmax(axis=1).reshape(rows, cols)
    drawn = drawable & _PIECE_TERRAINS[best]
    paper = drawable & (best == 0)
    lined_h = np.asarray(horizontal) >= threshold  # (rows-1, cols): (r, c) and (r+1, c) parted
    lined_v = np.asarray(vertical) >= threshold  # (rows, cols-1): (r, c) and (r, c+1) parted
    grid = probs.reshape(rows, cols, -1)
    total = np.zeros_like(grid)  # each cell's joined drawn neighbours' probabilities, summed
    parted = np.zeros((rows, cols), int)  # its neighbours read as paper across an outline
    for here, there, lined in (((slice(1, None), slice(None)), (slice(None, -1), slice(None)), lined_h),
                               ((slice(None, -1), slice(None)), (slice(1, None), slice(None)), lined_h),
                               ((slice(None), slice(1, None)), (slice(None), slice(None, -1)), lined_v),
                               ((slice(None), slice(None, -1)), (slice(None), slice(1, None)), lined_v)):
        link = ~lined & drawn[there]
        total[here] += np.where(link[..., None], grid[there], 0.0)
        parted[here] += lined & paper[there]
    joined = total.sum(axis=-1) > 0  # each joined neighbour adds a row summing to one
    doubt = ruins & drawable & (best == 0) & (grid[..., 0] > cap) & (joined | (parted > 0))
    flagged = doubt.ravel()
    if not flagged.any():
        return probs, flagged
    # the rest by the joined neighbours' terrains, or by the cell's own where it has none
    rest = np.where(joined.ravel()[flagged, None], total.reshape(rows * cols, -1)[flagged, 1:],
                    probs[flagged, 1:])
    return cap_empty(probs, flagged, rest, cap), flagged
