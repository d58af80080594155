"""Per-sheet decoding: what the rules and the player's own hand say about the net's per-cell guesses.

Stage contract: the cell, coin and star probabilities of one sheet in (from :mod:`scanner.classify`),
the same arrays out, corrected by three facts the net cannot see one patch at a time:

- one player draws every cell of a terrain alike, so look-alike cells of a sheet (close in the net's
  feature space) pool their evidence (:func:`adapt_to_sheet`);
- a gained coin fills "the next coin symbol" on the track (base rulebook, "Coins": *they fill in the
  next coin symbol on their coin track*), so the marked coins are a prefix of the track
  (:func:`decode_coin_track`); and the player marks every gained coin while the rest stay the printed
  coin, so the first coin read empty must look like the empty coins after it (:func:`unseen_marks`:
  a mark the net has never seen, read confidently as empty, becomes a doubt);
- a hit star ``*`` is marked only where a hero's attack pattern reaches (Heroes hero cards), so a star
  far from every hero is a misreading (:func:`stars_near_heroes`).

Every function is pure, array in, array out; the tuning constants live in :mod:`scanner.constants`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.ndimage import gaussian_filter

from rules.shapes import HEROES
from scanner.constants import (
    ADAPT_TEMPERATURE,
    CLUSTER_DISTANCE,
    COIN_CLASSES,
    COIN_DISC,
    COIN_INK_BLUR,
    COIN_INK_FLOOR,
    COIN_INK_RATIO,
    COIN_INK_REFERENCES,
    COIN_INK_SHIFT,
    COIN_INK_WINDOW,
    COIN_PAPER_PERCENTILE,
    LOG_FLOOR,
    PEER_WEIGHT,
    STAR_HERO_PROBABILITY,
)

__all__ = [
    "adapt_to_sheet",
    "coin_ink",
    "coin_paper",
    "decode_coin_track",
    "look_alikes",
    "star_reach",
    "stars_near_heroes",
    "unseen_marks",
]

#: Coin classes as the coin net orders them.
EMPTY, FILLED, CROSSED = (COIN_CLASSES.index(name) for name in ("empty", "filled", "crossed"))


def look_alikes(features: np.ndarray, distance: float = CLUSTER_DISTANCE) -> np.ndarray:
    """Group cells drawn alike: average-linkage clusters of L2-normalised features, cut at a cosine
    distance.

    Parameters
    ----------
    features : (N, D) float
        The net's feature vectors of the cells to group.
    distance : float
        Largest average cosine distance inside a group.

    Returns
    -------
    (N,) int
        A group number per cell (1-based, as SciPy numbers clusters); all ones for fewer than 2 cells.
    """
    n = len(features)
    if n < 2:
        return np.ones(n, int)
    f = features / np.maximum(np.linalg.norm(features, axis=1, keepdims=True), 1e-6)
    return np.asarray(fcluster(linkage(f, "average", metric="cosine"), distance, "distance"), int)


def adapt_to_sheet(
    probs: np.ndarray,
    features: np.ndarray,
    drawable: np.ndarray,
    *,
    distance: float = CLUSTER_DISTANCE,
    weight: float = PEER_WEIGHT,
    temperature: float = ADAPT_TEMPERATURE,
) -> np.ndarray:
    """Pool each drawable cell's evidence with its look-alikes on the same sheet.

    A cell's new log-probabilities are its own plus ``weight`` times the mean of its group's other
    members', divided by ``temperature`` (fitted so the pooled probabilities stay calibrated), so a cell
    the net found doubtful follows the many cells drawn like it, and a lone misreading inside a group is
    outvoted. Cells alone in their group and printed cells keep the net's probabilities.

    Parameters
    ----------
    probs : (N, C) calibrated probabilities; features : (N, D); drawable : (N,) bool.

    Returns
    -------
    (N, C) probabilities (rows sum to one).
    """
    out = probs.copy()
    idx = np.flatnonzero(drawable)
    if idx.size < 2:
        return out
    groups = look_alikes(features[idx], distance)
    logp = np.log(np.maximum(probs[idx], LOG_FLOOR))
    for g in np.unique(groups):
        members = np.flatnonzero(groups == g)
        if members.size < 2:
            continue
        total = logp[members].sum(axis=0)
        peers = (total[None, :] - logp[members]) / (members.size - 1)
        z = (logp[members] + weight * peers) / temperature
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out[idx[members]] = e / e.sum(axis=1, keepdims=True)
    return out


def decode_coin_track(probs: np.ndarray) -> np.ndarray:
    """The most likely coin track whose marked coins form a prefix.

    Parameters
    ----------
    probs : (14, 3) calibrated probabilities over (empty, filled, crossed), track order.

    Returns
    -------
    (14,) int
        Class per coin: the first ``n`` marked (filled or crossed, whichever is likelier for that coin),
        the rest empty, with ``n`` maximising the track's joint probability.
    """
    logp = np.log(np.maximum(probs, LOG_FLOOR))
    marked = np.logaddexp(logp[:, FILLED], logp[:, CROSSED])
    # score[n] = sum(marked[:n]) + sum(empty[n:])
    head = np.concatenate([[0.0], np.cumsum(marked)])
    tail = np.concatenate([np.cumsum(logp[::-1, EMPTY])[::-1], [0.0]])
    n = int(np.argmax(head + tail))
    states = np.full(len(probs), EMPTY, int)
    states[:n] = np.where(probs[:n, FILLED] >= probs[:n, CROSSED], FILLED, CROSSED)
    return states


@cache
def _disc(size: int, disc: float) -> np.ndarray:
    """(size, size) bool, True inside the centred disc of radius ``disc`` half-sides (read-only: one
    array per size, shared by every call)."""
    r = np.hypot(*(np.mgrid[:size, :size] - (size - 1) / 2.0))
    mask = np.asarray(r <= disc * size / 2.0)
    mask.flags.writeable = False
    return mask


def coin_paper(
    patches: np.ndarray,
    *,
    disc: float = COIN_DISC,
    percentile: float = COIN_PAPER_PERCENTILE,
    blur: float = COIN_INK_BLUR,
) -> np.ndarray:
    """Coin patches as fractions of their own paper, so that coins under shade or glare compare.

    Parameters
    ----------
    patches : (N, P, P, 3) uint8
        Coin patches (white-balanced or not: each is scaled on its own).
    disc : radius of the coin disc in half-sides; the pixels outside it are the patch's paper.
    percentile : of the paper pixels, per channel, taken as the paper level.
    blur : Gaussian sigma in px applied afterwards.

    Returns
    -------
    (N, P, P, 3) float32
        About 1 on paper, lower where printed or drawn.
    """
    x = patches.astype(np.float32)
    outside = ~_disc(x.shape[1], disc)
    paper = np.percentile(x[:, outside], percentile, axis=1)  # (N, 3)
    x /= np.maximum(paper, 8.0)[:, None, None, :]
    return np.asarray(gaussian_filter(x, (0, blur, blur, 0)), np.float32) if blur > 0 else x


def coin_ink(
    paper: np.ndarray, reference: np.ndarray, *, shift: int = COIN_INK_SHIFT, disc: float = COIN_DISC,
) -> np.ndarray:
    """How much darker each coin is than a reference look, inside the coin disc.

    Parameters
    ----------
    paper : (N, P, P, 3) float
        Coins from :func:`coin_paper`.
    reference : (P, P, 3) float
        The look to compare with (e.g. the median of a sheet's empty coins).
    shift : largest shift in px tried; the best-aligned shift counts.

    Returns
    -------
    (N,) float
        Mean over the disc of the darkening, summed over channels (0 when nowhere darker).
    """
    inside = _disc(paper.shape[1], disc)
    best = np.full(len(paper), np.inf)
    for dy in range(-shift, shift + 1):
        for dx in range(-shift, shift + 1):
            moved = np.roll(paper, (dy, dx), axis=(1, 2))
            dark = np.clip(reference[None] - moved, 0.0, None).sum(axis=-1)
            best = np.minimum(best, dark[:, inside].mean(axis=1))
    return best


def unseen_marks(
    patches: np.ndarray,
    states: np.ndarray,
    *,
    window: int = COIN_INK_WINDOW,
    references: int = COIN_INK_REFERENCES,
    floor: float = COIN_INK_FLOOR,
    ratio: float = COIN_INK_RATIO,
) -> np.ndarray:
    """Flag the first coin read empty when it is clearly darker than the empty coins after it.

    The net reads an unfamiliar mark as empty, often confidently; the sheet itself knows better: the
    coins after the track's marked run are the printed empty coin, so a first "empty" coin that is
    darker than those (by ``floor`` and by ``ratio`` times their own differences) holds a mark.
    Independent of the net's weights: pixels of one sheet compared with each other.

    Parameters
    ----------
    patches : (14, P, P, 3) uint8
        The sheet's coin patches, track order.
    states : (14,) int
        The decoded track (0 empty, marked coins first), e.g. from :func:`decode_coin_track`.
    window, references : the empty look is the median of the ``references`` lightest coins among the
        ``window`` coins after the first empty one.
    floor, ratio : see :data:`scanner.constants.COIN_INK_FLOOR` and ``COIN_INK_RATIO``.

    Returns
    -------
    (14,) bool
        True at the first coin read empty when it looks marked; all False otherwise (also when no coin,
        or only the last one, is read empty).
    """
    flags = np.zeros(len(states), bool)
    empty = np.flatnonzero(np.asarray(states) == EMPTY)
    if empty.size == 0 or empty[0] >= len(states) - 1:
        return flags
    first = int(empty[0])
    # only the first empty coin and the window after it are compared: scale and blur just those
    paper = coin_paper(patches[first : first + 1 + window])
    after = np.arange(1, len(paper))
    inside = _disc(paper.shape[1], COIN_DISC)
    lightness = paper[after][:, inside].mean(axis=(1, 2))
    light = after[np.argsort(-lightness, kind="stable")[:references]]
    ink = coin_ink(paper[:1], np.median(paper[light], axis=0))[0]
    noise = 0.0
    if light.size > 1:
        noise = float(np.median([
            coin_ink(paper[j : j + 1], np.median(paper[light[light != j]], axis=0))[0] for j in light
        ]))
    flags[first] = bool(ink > floor and ink > ratio * noise)
    return flags


@cache
def star_reach() -> frozenset[tuple[int, int]]:
    """Every offset from a hero at which any hero card, in any orientation, can mark a hit star."""
    patterns = (pattern for hero in HEROES.values() for pattern in hero.attack_orientations)
    return frozenset(off for pattern in patterns for off in pattern)


def stars_near_heroes(
    star_p: np.ndarray, hero_p: np.ndarray, drawable: np.ndarray, threshold: float,
    *, hero_threshold: float = STAR_HERO_PROBABILITY,
) -> frozenset[tuple[int, int]]:
    """Cells read as hit stars that some possible hero could have hit.

    Parameters
    ----------
    star_p, hero_p : (11, 11) star probability and hero-terrain probability per cell.
    drawable : (11, 11) bool, False on printed cells (no star is read there).
    threshold : star probability above which a cell counts as marked.
    hero_threshold : hero probability from which a cell counts as a possible hero.

    Returns
    -------
    frozenset of (row, col)
    """
    size = star_p.shape[0]
    heroes = np.argwhere(hero_p >= hero_threshold)
    reach = np.zeros_like(drawable, bool)
    for r, c in heroes:
        for dr, dc in star_reach():
            if 0 <= r + dr < size and 0 <= c + dc < size:
                reach[r + dr, c + dc] = True
    hits = (star_p > threshold) & drawable & reach
    return frozenset((int(r), int(c)) for r, c in np.argwhere(hits))
