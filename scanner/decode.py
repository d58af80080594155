"""Per-sheet decoding: what the rules and the player's own hand say about the net's per-cell guesses.

Stage contract: the cell, coin and star probabilities of one sheet in (from :mod:`scanner.classify`),
the same arrays out, corrected by three facts the net cannot see one patch at a time:

- one player draws every cell of a terrain alike, so look-alike cells of a sheet (close in the net's
  feature space) pool their evidence (:func:`adapt_to_sheet`);
- a gained coin fills "the next coin symbol" on the track (base rulebook, "Coins": *they fill in the
  next coin symbol on their coin track*), so the marked coins are a prefix of the track
  (:func:`decode_coin_track`);
- a hit star ``*`` is marked only where a hero's attack pattern reaches (Heroes hero cards), so a star
  far from every hero is a misreading (:func:`stars_near_heroes`).

Every function is pure, array in, array out; the tuning constants live in :mod:`scanner.constants`.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage

from rules.shapes import HEROES
from scanner.constants import (
    ADAPT_TEMPERATURE,
    CLUSTER_DISTANCE,
    LOG_FLOOR,
    PEER_WEIGHT,
    STAR_HERO_PROBABILITY,
)

__all__ = ["adapt_to_sheet", "decode_coin_track", "look_alikes", "star_reach", "stars_near_heroes"]

#: Coin classes as the coin net orders them (see ``scanner.classify.COIN_CLASSES``).
EMPTY, FILLED, CROSSED = 0, 1, 2


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
