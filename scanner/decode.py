"""Per-sheet decoding: what the rules and the player's own hand say about the net's per-cell guesses.

Stage contract: the cell, coin and star probabilities of one sheet in (from :mod:`scanner.classify`),
the same arrays out, corrected by three facts the net cannot see one patch at a time:

- one player draws every cell of a terrain alike, so look-alike cells of a sheet (close in the net's
  feature space) pool their evidence (:func:`adapt_to_sheet`);
- a gained coin fills "the next coin symbol" on the track (base rulebook, "Coins": *they fill in the
  next coin symbol on their coin track*), so the marked coins are a prefix of the track
  (:func:`decode_coin_track`), whose count the net (:func:`track_counts`) and the sheet's own coins
  (:func:`count_against_print`) read together (:func:`both_counts`), and which is as sure as its
  numbers of filled and crossed coins (:func:`track_sureness`); and the player marks every gained coin
  while the rest stay the printed
  coin, so the first coin read empty must look like the empty coins after it (:func:`unseen_marks`:
  a mark the net has never seen, read confidently as empty, becomes a doubt), two marks that look
  alike are one kind (:func:`clashing_kinds`: one read filled and its twin crossed are both doubted;
  :func:`kinds_of_alike_marks`: twins read as one kind pool their odds of filled against crossed),
  marks the net sees after the run, past a coin it sees clearly empty, are doubts
  (:func:`marks_beyond_run`: the run's first marks barely seen, or a strip that misses the track),
  and a track marked from end to end is doubted (:func:`crowded_track`: few games give that many
  coins, but an unfamiliar print is misread on every coin); so is a terrain read on printed ruins alone
  (:func:`ruins_only`: a shape drawn over a ruin covers other spaces too);
- an empty space is the sheet's paper, so a cell the net reads as empty that holds coloured ink the
  sheet's empty cells do not is doubted (:func:`coloured_ink`, :func:`ink_against_empty`: pale washes
  and dotted fills in a hue the net has never seen drawn read as paper);
- a hero marks a hit star ``*`` on every space its card's attack pattern reaches (Heroes hero cards),
  so a cell ringed by a whole pattern of stars holds a hero (:func:`hero_evidence`), and the stars are
  read as whole patterns around the heroes (:func:`attack_stars`).

Every function is pure, array in, array out; the tuning constants live in :mod:`scanner.constants`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from itertools import pairwise

import cv2
import numpy as np

from rules.shapes import HEROES
from scanner.constants import (
    ADAPT_TEMPERATURE,
    ATTACK_STAR_LEVEL,
    CELL_INK_CHROMA,
    CELL_INK_DARK,
    CELL_INK_EMPTY_CAP,
    CELL_INK_SHARE,
    CELL_SPOT_FLOOR,
    CELL_SPOT_INSET,
    CELL_SPOT_PERCENTILE,
    CELL_SPOT_RATIO,
    CELL_SPOT_SIGMA,
    CLUSTER_DISTANCE,
    COIN_BEYOND_EMPTY,
    COIN_BEYOND_MARKS,
    COIN_BEYOND_SEEN,
    COIN_CLASSES,
    COIN_CROSS_SEEN,
    COIN_DISC,
    COIN_FAINT_MARK,
    COIN_INK_BLUR,
    COIN_INK_FLOOR,
    COIN_INK_RATIO,
    COIN_INK_REFERENCES,
    COIN_INK_SHIFT,
    COIN_INK_WINDOW,
    COIN_KIND_ALIKE,
    COIN_KIND_POOL_TEMPERATURE,
    COIN_LIKE_PRINT,
    COIN_LIKE_PRINT_GAIN,
    COIN_MOST_MARKED,
    COIN_ODD_MARK_TWINS,
    COIN_OVERRULED_KIND_TEMPERATURE,
    COIN_PAPER_PERCENTILE,
    COIN_SPENT_ODDS,
    GROUP_DOUBT_SHARE,
    HERO_EXCESS_CAP,
    HERO_GAPPED_PATTERN,
    HERO_MIN_STARS,
    HERO_RING_BOOSTS,
    HERO_STAR_BOOST,
    HERO_STAR_LEVEL,
    INKED_EMPTY_RATIO,
    LOG_FLOOR,
    PAPER_EMPTY,
    PAPER_INK_SHARE,
    PEER_WEIGHT,
    RUINS_INK_DISC,
    RUINS_INK_FLOOR,
    RUINS_INK_LEAST,
    RUINS_INK_RATIO,
    RUINS_ONLY_LEAST,
    RUINS_PRINT_CLASSES,
    RUINS_PRINT_DISCOUNT,
    STAR_HERO_PROBABILITY,
    TERRAIN_CLASSES,
)
from scanner.numeric import average_linkage_groups, blur_images, byte_rank, gaussian_blur, median
from scanner.numeric import percentile as percentile_of

__all__ = [
    "adapt_to_sheet",
    "attack_patterns",
    "attack_stars",
    "both_counts",
    "cap_class",
    "cap_empty",
    "cells_mask",
    "clashing_kinds",
    "coin_ink",
    "coin_paper",
    "coins_and_spent",
    "coloured_ink",
    "count_against_print",
    "crowded_track",
    "dark_spots",
    "decode_coin_track",
    "discount_print",
    "drawn_first",
    "faint_marks_gained",
    "hero_evidence",
    "ink_against_empty",
    "ink_share",
    "inked_ruins",
    "kinds_of_alike_marks",
    "look_alike_groups",
    "look_alikes",
    "marks_beyond_run",
    "odd_gain_mark",
    "overrule_print",
    "paper_read_drawn",
    "ruins_only",
    "share_group_doubt",
    "spare_heroes",
    "star_reach",
    "track_counts",
    "track_sureness",
    "unseen_marks",
]

#: Coin classes as the coin net orders them.
EMPTY, FILLED, CROSSED = (COIN_CLASSES.index(name) for name in ("empty", "filled", "crossed"))


def _unit(features: np.ndarray) -> np.ndarray:
    """Feature rows scaled to unit length (all-zero rows stay zero)."""
    return np.asarray(features / np.maximum(np.linalg.norm(features, axis=1, keepdims=True), 1e-6))


def _alike(features: np.ndarray, level: float) -> np.ndarray:
    """(N, N) bool: the pairs of rows whose unit-length features lie within ``level`` of each other."""
    f = _unit(features)
    return np.asarray(np.linalg.norm(f[:, None] - f[None], axis=-1) < level)


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
        A group number per cell (1-based); all ones for fewer than 2 cells.
    """
    n = len(features)
    if n < 2:
        return np.ones(n, int)
    f = _unit(features)
    return average_linkage_groups(f, distance)


def look_alike_groups(
    features: np.ndarray, drawable: np.ndarray, distance: float = CLUSTER_DISTANCE
) -> tuple[tuple[int, ...], ...]:
    """The sheet's groups of two or more drawable cells drawn alike (:func:`look_alikes`).

    Parameters
    ----------
    features : (N, D) float; drawable : (N,) bool.

    Returns
    -------
    tuple of tuples of indices into the N cells, each group ascending, groups by their first cell.
    """
    idx = np.flatnonzero(drawable)
    if idx.size < 2:
        return ()
    numbers = look_alikes(features[idx], distance)
    # the cells of each group ascending, groups by their first cell: one stable sort of the numbers
    # (look_alikes numbers the groups by their first cell already)
    order = np.argsort(numbers, kind="stable")
    cells, ranked = idx[order].tolist(), numbers[order].tolist()
    starts = [0, *(i for i in range(1, len(ranked)) if ranked[i] != ranked[i - 1]), len(ranked)]
    groups = (tuple(cells[a:b]) for a, b in pairwise(starts) if b - a >= 2)
    return tuple(sorted(groups))


def adapt_to_sheet(
    probs: np.ndarray,
    features: np.ndarray,
    drawable: np.ndarray,
    *,
    groups: tuple[tuple[int, ...], ...] | None = None,
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
    groups : the look-alike groups when already made (:func:`look_alike_groups`).

    Returns
    -------
    (N, C) probabilities (rows sum to one).
    """
    out = probs.copy()
    if groups is None:
        groups = look_alike_groups(features, drawable, distance)
    if not groups:
        return out
    # every group at once: its members' rows one after another, each with its group's facts
    members = np.concatenate(groups)
    sizes = np.array([len(g) for g in groups])
    group = np.repeat(np.arange(len(groups)), sizes)
    logp = np.log(np.maximum(probs[members], LOG_FLOOR))
    # each group's sum as numpy sums one group's rows, row after row: the rows lined up, zeros after
    starts = np.cumsum(sizes) - sizes
    lined = np.zeros((len(groups), int(sizes.max()), logp.shape[1]))
    lined[group, np.arange(len(members)) - starts[group]] = logp
    total = lined.sum(axis=1)[group]
    peers = (total - logp) / (sizes - 1)[group, None]
    z = (logp + weight * peers) / temperature
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out[members] = e / e.sum(axis=1, keepdims=True)
    return out


def track_counts(probs: np.ndarray) -> np.ndarray:
    """How many coins lead the track, by the net: the prefix model's probability of each count.

    Parameters
    ----------
    probs : (14, 3) calibrated probabilities over (empty, filled, crossed), track order.

    Returns
    -------
    (15,) float
        Probability of ``n`` = 0..14 marked coins: the first ``n`` marked and the rest empty, each coin
        read on its own (a track whose every coin is sure has one likely count; one unsure coin between
        sure ones does not make the count unsure).
    """
    logp = np.log(np.maximum(probs, LOG_FLOOR))
    marked = np.logaddexp(logp[:, FILLED], logp[:, CROSSED])
    # score[n] = sum(marked[:n]) + sum(empty[n:])
    head = np.concatenate([[0.0], np.cumsum(marked)])
    tail = np.concatenate([np.cumsum(logp[::-1, EMPTY])[::-1], [0.0]])
    score = head + tail
    e = np.exp(score - score.max())
    return np.asarray(e / e.sum())


def decode_coin_track(probs: np.ndarray, count: np.ndarray | None = None) -> np.ndarray:
    """The most likely coin track whose marked coins form a prefix.

    Parameters
    ----------
    probs : (14, 3) calibrated probabilities over (empty, filled, crossed), track order.
    count : (15,) probability of each count of marked coins; by default the net's own
        (:func:`track_counts`).

    Returns
    -------
    (14,) int
        Class per coin: the first ``n`` marked (filled or crossed, whichever is likelier for that coin),
        the rest empty, with ``n`` the most likely count.
    """
    n = int(np.argmax(track_counts(probs) if count is None else count))
    states = np.full(len(probs), EMPTY, int)
    states[:n] = np.where(probs[:n, FILLED] >= probs[:n, CROSSED], FILLED, CROSSED)
    return states


def both_counts(net: np.ndarray, sheet: np.ndarray, *, floor: float = LOG_FLOOR) -> np.ndarray:
    """The count of marked coins by the net and by the sheet's own coins together.

    The net's count (:func:`track_counts`) reads each coin against what it learned marks look like; the
    sheet-relative count (:func:`count_against_print`) reads the coins against each other. Two
    independent looks at one count: their probabilities multiply (the sheet's floored at ``floor``, so
    that its zero for a full track does not veto the net).

    Returns
    -------
    (15,) float, summing to 1.
    """
    both = np.asarray(net, float) * np.maximum(sheet, floor)
    return np.asarray(both / both.sum())


def track_sureness(probs: np.ndarray, states: np.ndarray, count: np.ndarray) -> tuple[float, np.ndarray]:
    """How sure a decoded track is, as a whole and coin by coin.

    What a track scores is how many coins are filled and how many crossed, so its sureness is the
    probability of those two numbers: that ``n`` coins are marked (``count``) times that ``s`` of the
    ``n`` are crossed (each marked coin crossed with its own odds of crossed against filled,
    independently). One unsure coin in a run of sure ones then costs the track little when the count
    holds it, while several half-sure kinds add up.

    Parameters
    ----------
    probs : (14, 3)
        Coin probabilities (empty, filled, crossed), e.g. pooled by :func:`kinds_of_alike_marks`.
    states : (14,) int
        The decoded track, marked coins first.
    count : (15,) probability of each count of marked coins (e.g. :func:`both_counts`).

    Returns
    -------
    sureness : float
        Probability of the track's (filled, crossed) numbers.
    confidence : (14,) float
        Each coin's probability of its state: a marked coin ``P(count > i)`` times its kind's share of
        its mark, an empty one ``P(count <= i)``.
    """
    states = np.asarray(states)
    marked = states != EMPTY
    n = int(marked.sum())
    mark = np.maximum(probs[:, FILLED] + probs[:, CROSSED], LOG_FLOOR)
    crossed = probs[:, CROSSED] / mark
    kind = np.where(states == CROSSED, crossed, 1.0 - crossed)
    at_most = np.cumsum(count)[: len(states)]  # coin i is empty when at most i coins are marked
    confidence = np.where(marked, (1.0 - at_most) * kind, at_most)
    spent = np.array([1.0])  # distribution of the number crossed among the marked coins so far
    for q in crossed[:n]:
        spent = np.concatenate([spent * (1.0 - q), [0.0]]) + np.concatenate([[0.0], spent * q])
    return float(count[n] * spent[int((states == CROSSED).sum())]), np.asarray(confidence)


def _suffix_medians(values: np.ndarray) -> np.ndarray:
    """(N, D): row ``n`` is ``median(values[n:], axis=0)``, numpy's values, from one sort.

    Each suffix is sorted with ``+inf`` after it; its median is the mean of its two middle values
    (one value twice when odd), as ``np.median`` takes it.
    """
    n = len(values)
    start = np.arange(n)
    padded = np.where((np.arange(n)[None, :] >= start[:, None])[..., None], values[None], np.inf)
    ranked = np.sort(padded.astype(values.dtype, copy=False), axis=1)
    length = n - start
    lo, hi = ranked[start, (length - 1) // 2], ranked[start, length // 2]
    return np.asarray(np.add(lo, hi) / 2)


def count_against_print(
    features: np.ndarray, *, level: float = COIN_LIKE_PRINT, gain: float = COIN_LIKE_PRINT_GAIN
) -> np.ndarray:
    """How many coins lead the track, judged only by how the sheet's coins look against each other.

    A track is a marked run followed by the printed coin repeated. For each count ``n`` the coins after
    the run give the print's look (their median feature); each coin then counts as marked with
    log-odds ``gain * (distance - level)``. Independent of what the net thinks a mark is, so a print
    the net has never seen (whose every coin it calls marked) is still read: its coins look alike.

    Parameters
    ----------
    features : (14, D)
        The coin net's features of the track's coins, track order.

    Returns
    -------
    (15,) float
        Probability of ``n`` = 0..14 marked coins; ``n`` = 14 gets 0 (no printed coin left to compare
        with: a full track looks like a blank one and is read as blank).
    """
    f = _unit(features)
    count = len(f)
    score = np.full(count + 1, -np.inf)
    looks = _suffix_medians(f)  # the print's look for every count at once
    z = gain * (np.linalg.norm(f[None] - looks[:, None], axis=-1) - level)  # (count, count)
    # log sigmoid(z) for the run, log sigmoid(-z) for the print after it
    run, rest = np.logaddexp(0.0, -z), np.logaddexp(0.0, z)
    for n in range(count):
        score[n] = -run[n, :n].sum() - rest[n, n:].sum()
    e = np.exp(score - score.max())
    return np.asarray(e / e.sum())


def overrule_print(
    states: np.ndarray,
    confidence: np.ndarray,
    probs: np.ndarray,
    count: np.ndarray,
    *,
    kind_temperature: float = COIN_OVERRULED_KIND_TEMPERATURE,
) -> tuple[np.ndarray, np.ndarray]:
    """Read the track by the sheet where the net reads printed coins as marks.

    When the net's marked run is longer than the sheet-relative count's most likely one, the extra coins
    look like the print after them: the net mistakes this print's coin for a mark (the publisher's
    gold coins read marked from end to end). The track is then the relative count's run, each coin with
    the relative count's own probability of its state. A shorter net run is left alone (an unfamiliar
    mark: :func:`unseen_marks` doubts it).

    Parameters
    ----------
    states : (14,) int
        The net's decoded track (:func:`decode_coin_track`).
    confidence : (14,) float
        The net's probability of each coin's state.
    probs : (14, 3) the net's coin probabilities (for filled against crossed).
    count : (15,) from :func:`count_against_print`.
    kind_temperature : the net's filled-against-crossed odds are softened by this power on an
        overruled track (a net that misreads this print's coins is trusted less on their marks too).

    Returns
    -------
    states, confidence
        New arrays when overruled, else the ones given.
    """
    ours = int(np.argmax(count))
    if int(np.count_nonzero(states != EMPTY)) <= ours:
        return states, confidence
    empty_p = np.cumsum(count)[: len(states)]  # coin i is unmarked when at most i coins are marked
    soft = np.maximum(probs, LOG_FLOOR) ** (1.0 / kind_temperature)
    filled, crossed = soft[:, FILLED], soft[:, CROSSED]
    kind = np.maximum(filled, crossed) / (filled + crossed)
    new_states = np.asarray(states).copy()
    new_states[ours:] = EMPTY
    new_conf = np.where(np.arange(len(states)) < ours, (1.0 - empty_p) * kind, empty_p)
    return new_states, new_conf


def cells_mask(cells: Iterable[tuple[int, int]], size: int = 11) -> np.ndarray:
    """(size*size,) bool, row-major: True on ``cells`` (row, col)."""
    mask = np.zeros(size * size, bool)
    for r, c in cells:
        mask[r * size + c] = True
    return mask


def share_group_doubt(
    probs: np.ndarray,
    groups: Iterable[Iterable[int]],
    unsure: np.ndarray,
    *,
    share: float = GROUP_DOUBT_SHARE,
    exempt: np.ndarray | None = None,
) -> np.ndarray:
    """Let the cells drawn like a doubtful cell share its doubt.

    A net that has never seen a player's way of drawing a terrain misreads the terrain as a whole:
    some of its cells come out doubtful, the others confidently wrong. So in a look-alike group of
    ``n`` cells each doubtful cell pulls each sure cell ``share / n`` of the way towards its own
    probabilities: a group mostly doubtful makes its sure cells doubtful too (its likely terrains
    become their alternatives), one doubtful cell among many barely moves them. Doubtful cells, and
    groups without one, keep their probabilities.

    Parameters
    ----------
    probs : (N, C) probabilities; groups : index tuples of cells drawn alike
        (:func:`look_alike_groups`); unsure : (N,) bool, the cells already doubtful.
    share : the pull of a wholly doubtful group; below 0.47 no cell sure at 0.95 or more changes its
        best class.
    exempt : (N,) bool, optional; sure cells that take no doubt from their group (their own pixels
        already answered it, e.g. :func:`inked_ruins`); they still count in its size.

    Returns
    -------
    (N, C) probabilities (rows sum to one).
    """
    out = probs.copy()
    for group in groups:
        members = np.fromiter(group, int)
        doubtful = members[unsure[members]]
        sure = members[~unsure[members]]
        if exempt is not None:
            sure = sure[~exempt[sure]]
        if doubtful.size and sure.size:
            pull = share * doubtful.size / members.size  # the share of the group that is doubtful
            out[sure] = (1 - pull) * probs[sure] + pull * probs[doubtful].mean(axis=0)
    return out


def discount_print(
    probs: np.ndarray,
    ruins: Iterable[tuple[int, int]],
    *,
    classes: tuple[str, ...] = RUINS_PRINT_CLASSES,
    factor: float = RUINS_PRINT_DISCOUNT,
    size: int = 11,
) -> np.ndarray:
    """Cell probabilities with the odds the printed ruins icon lends some classes taken back.

    The ruins icon, orange or grey columns with vertical flutes, is printed under every ruins cell;
    the net, which does not know where the ruins are, reads it partly as a hatched farm. On those
    cells the odds of ``classes`` are multiplied by ``factor`` and each row renormalised: a ruin the
    net reads as farm at 0.4 becomes paper, one a player drew on (farm at 0.97 or more) stays a
    doubtful farm at worst.

    Parameters
    ----------
    probs : (size*size, C) float
        Calibrated cell probabilities, ``TERRAIN_CLASSES`` order, row-major.
    ruins : the printed ruins cells.

    Returns
    -------
    (size*size, C) float
        A new array; ``probs`` itself when there is nothing to discount.
    """
    at = np.flatnonzero(cells_mask(ruins, size))
    if not at.size or factor == 1.0:
        return probs
    out: np.ndarray = probs.copy()
    cols = np.array([TERRAIN_CLASSES.index(c) for c in classes], np.intp)
    rows = out[at]
    rows[:, cols] = rows[:, cols] * factor
    out[at] = rows / rows.sum(axis=1, keepdims=True)
    return out


def ruins_only(
    best: np.ndarray, ruins: Iterable[tuple[int, int]], *, least: int = RUINS_ONLY_LEAST, size: int = 11
) -> np.ndarray:
    """The cells to doubt because a terrain is read on printed ruins and on no other cell.

    Players draw shapes, and a shape drawn over a ruin covers other spaces too, so a terrain found only
    on the printed ruins (at least ``least`` of them) is more likely the ruins icon misread (an
    unfamiliar print) than the player's drawing.

    Parameters
    ----------
    best : (size*size,) int
        Each cell's most likely class (``TERRAIN_CLASSES`` order), row-major.
    ruins : the printed ruins cells.

    Returns
    -------
    (size*size,) bool
    """
    at_ruins = cells_mask(ruins, size)
    doubt = np.zeros(size * size, bool)
    for k, name in enumerate(TERRAIN_CLASSES):
        if name in ("empty", "destroyed"):
            continue
        cells = best == k
        if int(cells.sum()) >= least and not (cells & ~at_ruins).any():
            doubt |= cells
    return doubt


def inked_ruins(
    patches: np.ndarray,
    bare: np.ndarray,
    *,
    disc: float = RUINS_INK_DISC,
    floor: float = RUINS_INK_FLOOR,
    ratio: float = RUINS_INK_RATIO,
    least: int = RUINS_INK_LEAST,
) -> tuple[np.ndarray, np.ndarray]:
    """The printed ruins read as paper that hold a drawing, found by setting them against each other.

    Every ruin carries the same print, so a ruin read as paper that is darker than the median of the
    sheet's other bare ruins (by ``floor``, and by ``ratio`` times what those others show against
    theirs: print, grain, shade) is drawn over. Independent of the net's weights: pixels of one sheet
    compared with each other, as :func:`unseen_marks` does for coins. A ruin that is compared and not
    found drawn over has answered for itself what its look-alikes' doubt would ask
    (:func:`share_group_doubt`'s ``exempt``).

    Parameters
    ----------
    patches : (K, P, P, 3) uint8 or float
        The printed ruins' cell patches, white-balanced.
    bare : (K,) bool
        The ruins read as paper.

    Returns
    -------
    drawn : (K,) bool
        Bare ruins darker than the others: drawn over.
    compared : (K,) bool
        Bare ruins set against others (at least ``least`` bare ruins); all False when too few.
    """
    drawn = np.zeros(len(bare), bool)
    idx = np.flatnonzero(bare)
    if idx.size < least:
        return drawn, drawn.copy()
    paper = coin_paper(np.asarray(patches)[idx], disc=disc)
    ink = inks_against_others(paper, disc=disc)
    # each ruin against the others' own inks (without it): what the sheet's bare ruins show anyway
    noise = np.median(ink[_others(idx.size)], axis=1)
    drawn[idx] = (ink > floor) & (ink > ratio * noise)
    return drawn, np.asarray(bare, bool).copy()  # every bare ruin was compared


def _chroma(pixels: np.ndarray) -> np.ndarray:
    """(..., 3) uint8 pixels -> (...) uint8: each pixel's largest channel less its smallest."""
    b, g, r = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    # channel by channel: numpy's max over a last axis of 3 is ten times slower
    out: np.ndarray = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)  # no wrap
    return out


def coloured_ink(
    centres: np.ndarray, quiet: np.ndarray, *, chroma: float = CELL_INK_CHROMA
) -> np.ndarray:
    """Share of each cell's centre pixels more coloured than the sheet's quiet cells.

    The paper, white-balanced, is grey; so is pencil. A pixel counts as coloured ink when its chroma
    (largest channel less smallest, 0-1) exceeds the median chroma of the ``quiet`` cells' pixels by
    ``chroma``: judged against the sheet's own paper, not a fixed level, so a tinted light or a noisy
    sensor does not count. Independent of the net's weights.

    Parameters
    ----------
    centres : (N, h, w, 3) uint8
        The cells' centres, white-balanced (:func:`scanner.nets.white_balance`).
    quiet : (N,) bool
        The cells taken for the sheet's paper (e.g. those read as empty, off the printed ruins); with
        none, every cell.

    Returns
    -------
    (N,) float
    """
    spread = _chroma(centres.reshape(len(centres), -1, 3))
    ref = spread[quiet] if quiet.any() else spread
    paper = byte_rank(ref, (ref.size - 1) // 2)  # the median (the lower middle value)
    return np.asarray((spread > paper + chroma * 255.0).mean(axis=1))


#: Weights of :func:`dark_spots`' grey: the mean of the three channels.
_THIRDS = np.full((1, 3), 1.0 / 3.0, np.float32)


def dark_spots(
    patches: np.ndarray,
    quiet: np.ndarray,
    *,
    sigma: float = CELL_SPOT_SIGMA,
    inset: int = CELL_SPOT_INSET,
    percentile: float = CELL_SPOT_PERCENTILE,
    floor: float = CELL_SPOT_FLOOR,
    ratio: float = CELL_SPOT_RATIO,
) -> np.ndarray:
    """Flag the cells holding dark spots that the sheet's quiet cells do not: dots, strokes, a drawing.

    A grey drawing of an unfamiliar design (dotted farms, faint hatching) reads as paper with confidence,
    and the coloured-ink check cannot see grey. Its dots and lines stand out of the paper around them,
    which grain does not: each cell's grey less its blur, the ``percentile`` of that darkening inside the
    ``inset`` (the value at that rank, not interpolated), is set against the median of the ``quiet``
    cells'. Independent of the net's weights.

    Parameters
    ----------
    patches : (N, P, P, 3) uint8
        Cell patches, white-balanced.
    quiet : (N,) bool
        The cells taken for the sheet's paper (e.g. those read as empty, off the printed ruins); with
        none, every cell.
    sigma, inset, percentile, floor, ratio : see :data:`scanner.constants.CELL_SPOT_SIGMA` and the
        constants after it; ``floor`` is in 255ths.

    Returns
    -------
    (N,) bool
    """
    if not len(patches):
        return np.zeros(0, bool)
    n, size = patches.shape[:2]
    # the channels' mean by OpenCV: numpy's mean of uint8 pixels into float32 takes twice the whole check
    flat = patches.reshape(n * size, size, 3).astype(np.float32)
    grey = cv2.transform(flat, _THIRDS).reshape(n, size, size)
    darker = blur_images(grey, sigma) - grey
    inner = darker[:, inset:-inset, inset:-inset].reshape(n, -1)
    rank = int(percentile / 100.0 * (inner.shape[1] - 1))
    spots = np.partition(inner, rank, axis=1)[:, rank] / 255.0
    level = float(median(spots[quiet] if quiet.any() else spots))
    return np.asarray((spots > floor) & (spots > ratio * level))


def ink_share(
    centres: np.ndarray, quiet: np.ndarray, *, dark: float = CELL_INK_DARK, chroma: float = CELL_INK_CHROMA
) -> np.ndarray:
    """Share of each cell's centre pixels in ink of any kind, against the sheet's quiet cells.

    A pixel is ink when its grey (the channels' mean, 0-1) lies ``dark`` below the median grey of the
    ``quiet`` cells' pixels, or its chroma ``chroma`` above their median chroma (as
    :func:`coloured_ink`): pencil, marker and coloured fills all leave some, the paper's grain and
    veins none. Independent of the net's weights.

    Parameters
    ----------
    centres : (N, h, w, 3) uint8
        The cells' centres, white-balanced (:func:`scanner.nets.white_balance`).
    quiet : (N,) bool
        The cells taken for the sheet's paper; with none, every cell.

    Returns
    -------
    (N,) float
    """
    c = centres.reshape(len(centres), -1, 3)
    grey = c.sum(axis=2, dtype=np.int16) / 3.0
    spread = _chroma(c)
    ref = quiet if quiet.any() else np.ones(len(c), bool)
    paper_grey = float(median(grey[ref]))
    paper_spread = float(median(spread[ref]))
    inked = (grey < paper_grey - dark * 255.0) | (spread > paper_spread + chroma * 255.0)
    return np.asarray(inked.mean(axis=1))


def paper_read_drawn(
    probs: np.ndarray,
    ink: np.ndarray,
    candidates: np.ndarray,
    *,
    share: float = PAPER_INK_SHARE,
    empty: float = PAPER_EMPTY,
) -> tuple[np.ndarray, np.ndarray]:
    """Doubt the cells read as drawn that hold no ink: the paper's own marks read as a drawing.

    The converse of :func:`ink_against_empty`. A net that has seen many faint drawings reads a vein or
    a grain of an unfamiliar paper as a sparse farm or water, sometimes surely; every drawing leaves
    ink in the cell's centre. Such a cell gets ``empty`` as its empty probability, the rest spread over
    its drawn classes in the net's proportions: its best guess is paper and it is ``?``.

    Parameters
    ----------
    probs : (N, C) probabilities, empty first (:data:`TERRAIN_CLASSES`).
    ink : (N,) from :func:`ink_share`.
    candidates : (N,) bool, the cells that may be doubted (drawable, off the printed ruins).
    share, empty : :data:`scanner.constants.PAPER_INK_SHARE`, :data:`PAPER_EMPTY`.

    Returns
    -------
    probs : (N, C), a copy where changed.
    flagged : (N,) bool, the cells doubted.
    """
    flagged = candidates & (probs.argmax(axis=1) != 0) & (ink < share)
    if not flagged.any():
        return probs, flagged
    return cap_class(probs, flagged, 0, empty, probs[flagged][:, 1:]), flagged


def ink_against_empty(
    probs: np.ndarray,
    ink: np.ndarray,
    candidates: np.ndarray,
    *,
    spotted: np.ndarray | None = None,
    share: float = CELL_INK_SHARE,
    cap: float = CELL_INK_EMPTY_CAP,
) -> tuple[np.ndarray, np.ndarray]:
    """Doubt the cells read as empty that hold coloured ink, or dark spots (``spotted``).

    A pale wash or a dotted fill in a colour the net has never seen drawn reads as paper, confidently,
    and the look-alike pooling makes the whole terrain agree. Such a cell keeps at most ``cap`` of its
    probability of being empty; the rest goes to its other classes in the net's proportions, so the
    cell becomes ``?`` with the terrains it may hold weighed.

    Parameters
    ----------
    probs : (N, C) probabilities, empty first (:data:`TERRAIN_CLASSES`).
    ink : (N,) from :func:`coloured_ink`.
    candidates : (N,) bool, the cells that may be doubted (drawable, off the printed ruins).
    spotted : (N,) bool, optional; cells shown drawn by :func:`dark_spots`, doubted alike.
    share, cap : :data:`scanner.constants.CELL_INK_SHARE`, :data:`CELL_INK_EMPTY_CAP`.

    Returns
    -------
    probs : (N, C), a copy where changed.
    flagged : (N,) bool, the cells whose empty probability was capped.
    """
    inked = ink >= share if spotted is None else (ink >= share) | spotted
    flagged = candidates & (probs.argmax(axis=1) == 0) & inked & (probs[:, 0] > cap)
    if not flagged.any():
        return probs, flagged
    return cap_empty(probs, flagged, probs[flagged, 1:], cap), flagged


def cap_class(
    probs: np.ndarray, flagged: np.ndarray, column: int, cap: float, rest: np.ndarray
) -> np.ndarray:
    """``probs`` with the ``flagged`` rows' (bool mask or indices) probability of class ``column`` set to
    ``cap`` and the other ``1 - cap`` spread over their other classes in proportion to ``rest``
    ((n_flagged, C - 1) weights, in class order without ``column``); a row whose weights are all zero
    (a reading so sure that the other classes underflowed) spreads it evenly.

    Returns
    -------
    (N, C) float probabilities, a copy.
    """
    out = probs.astype(float, copy=True)
    others = np.delete(np.arange(probs.shape[1]), column)
    total = rest.sum(axis=1, keepdims=True)
    share = np.divide(rest, total, out=np.full(rest.shape, 1.0 / len(others)), where=total > 0)
    out[np.ix_(flagged, others)] = (1.0 - cap) * share
    out[flagged, column] = cap
    return out


def cap_empty(probs: np.ndarray, flagged: np.ndarray, rest: np.ndarray, cap: float) -> np.ndarray:
    """:func:`cap_class` for the empty class: how a cell read as empty is doubted
    (:func:`ink_against_empty`, :func:`scanner.pieces.drawn_over_ruins`); a drawn class ``rest`` rules
    out entirely still gets a share."""
    return cap_class(probs, flagged, 0, cap, rest + 1e-6)


def drawn_first(probs: np.ndarray, flagged: np.ndarray, *, ratio: float = INKED_EMPTY_RATIO) -> np.ndarray:
    """The best guess of a cell doubted as empty (:func:`cap_empty`) made its likeliest drawn class.

    The sheet shows such a cell drawn (coloured ink, a drawn-over ruin), so it is more likely drawn
    than not: its empty probability becomes at most ``ratio`` times its likeliest drawn class's, the
    drawn classes keeping their proportions. The cell stays a ``?`` with empty a plausible reading.
    Taken after the look-alikes have shared their doubt, which weighs these cells as capped.

    Parameters
    ----------
    probs : (N, C) probabilities, empty first; flagged : (N,) bool.
    ratio : :data:`scanner.constants.INKED_EMPTY_RATIO`.

    Returns
    -------
    (N, C) probabilities, a copy where changed.
    """
    if not flagged.any():
        return probs
    out = probs.copy()
    drawn = probs[flagged, 1:] + 1e-9
    weights = drawn / drawn.sum(axis=1, keepdims=True)
    top = ratio * weights.max(axis=1)
    # e = ratio * (1 - e) * top weight, solved for e; never more empty than before
    empty = np.minimum(probs[flagged, 0], top / (1.0 + top))
    out[flagged, 1:] = weights * (1.0 - empty)[:, None]
    out[flagged, 0] = empty
    return out


def crowded_track(states: np.ndarray, *, most: int = COIN_MOST_MARKED) -> np.ndarray:
    """The coins to doubt because the track holds more marks than a game plausibly gives.

    Parameters
    ----------
    states : (14,) int
        Decoded coin classes (empty, filled, crossed).
    most : the most marked coins read without doubt.

    Returns
    -------
    (14,) bool
        Every marked coin when more than ``most`` are marked (a printed coin the net mistakes for a mark
        is mistaken all along the track), else none.
    """
    marked = states != EMPTY
    return marked if int(marked.sum()) > most else np.zeros_like(marked)


def coins_and_spent(states: np.ndarray) -> tuple[int, int]:
    """(coins, spent) of a decoded track: its coins read filled and read crossed out."""
    states = np.asarray(states)
    return int(np.count_nonzero(states == FILLED)), int(np.count_nonzero(states == CROSSED))


def marks_beyond_run(
    probs: np.ndarray,
    states: np.ndarray,
    *,
    seen: float = COIN_BEYOND_SEEN,
    least: int = COIN_BEYOND_MARKS,
    empty: float = COIN_BEYOND_EMPTY,
) -> np.ndarray:
    """The coins to doubt because the net sees marks after a coin it sees clearly empty.

    The marked coins are a prefix of the track, so the decoded run explains a mark the net sees after
    it as a misread coin. Marks the net sees after a coin it sees clearly empty break the prefix,
    though, and several of them are ink, not the print misread: the run's own first marks barely seen
    (the run then read too short), or patches that miss the track. Which reading is right is not
    known, so they are doubts. Where the net reads the print itself as marks (an unfamiliar print),
    the coins are half marked or marked from the first, and nothing is flagged.

    Parameters
    ----------
    probs : (14, 3)
        The net's coin probabilities (empty, filled, crossed), track order.
    states : (14,) int
        The decoded track, its marked coins a prefix.
    seen : probability of a mark from which a coin is seen as marked.
    least : fewest such coins after a clearly empty one that make a doubt.
    empty : probability of a mark below which a coin is seen clearly empty.

    Returns
    -------
    (14,) bool
        The coins seen as marked after the first coin after the run seen clearly empty, when at least
        ``least`` are; else none.
    """
    probs = np.asarray(probs)
    run = int(np.count_nonzero(np.asarray(states) != EMPTY))
    mark = probs[:, FILLED] + probs[:, CROSSED]
    clear = np.flatnonzero((np.arange(len(mark)) >= run) & (mark < empty))
    flags = np.zeros(len(mark), bool)
    if clear.size:
        flags[clear[0] + 1:] = mark[clear[0] + 1:] >= seen
    return flags if int(flags.sum()) >= least else np.zeros(len(mark), bool)


def spent_against_kinds(
    probs: np.ndarray, states: np.ndarray, *, level: float = COIN_SPENT_ODDS
) -> np.ndarray:
    """The coin to doubt when the marked coins, each as the net reads it alone, make the track's
    number of spent coins unlikely.

    Twin marks pool their kinds (:func:`kinds_of_alike_marks`), so a crossed coin drawn like the filled
    ones is read filled with the rest, yet the net alone gave it fair odds of a cross: a blurred or
    dark mark hides its X. Over the marked coins each coin's odds of a cross against a fill are taken
    as independent and the chance of exactly the read number of crosses is worked out; below
    ``level`` the marked coin most likely read as the wrong kind is doubted.

    Parameters
    ----------
    probs : (14, 3)
        The net's coin probabilities (empty, filled, crossed), track order.
    states : (14,) int
        The decoded track.
    level : chance of the read number of crosses below which a coin is doubted.

    Returns
    -------
    (14,) bool
    """
    probs = np.asarray(probs, float)
    states = np.asarray(states)
    flags = np.zeros(len(states), bool)
    marked = np.flatnonzero(states != EMPTY)
    if not marked.size:
        return flags
    kinds = probs[marked][:, [FILLED, CROSSED]]
    crossed = kinds[:, 1] / np.maximum(kinds.sum(axis=1), 1e-9)
    count = np.ones(1)  # the chance of each number of crosses so far
    for q in crossed:
        count = np.convolve(count, [1.0 - q, q])
    if count[int(np.count_nonzero(states == CROSSED))] >= level:
        return flags
    other = np.where(states[marked] == CROSSED, 1.0 - crossed, crossed)  # odds of the other kind
    flags[marked[int(np.argmax(other))]] = True
    return flags


def clashing_kinds(features: np.ndarray, states: np.ndarray, *, level: float = COIN_KIND_ALIKE) -> np.ndarray:
    """The marked coins to doubt because a coin that looks like them is read as the other kind.

    A player marks the coins they gain alike, and crosses a spent coin out over (or instead of) that
    mark, so two marks that look alike are one kind. The net, meeting a mark it has never seen, can
    still call one of them filled and its twin crossed, each confidently: then which one is wrong is
    not known, and both become doubts (a spent coin scores nothing, so the kind changes the score).
    Independent of the net's odds: the sheet's own coins compared with each other.

    Parameters
    ----------
    features : (14, D)
        The coin net's features of the track's coins, track order.
    states : (14,) int
        The decoded track (empty, filled, crossed).
    level : distance between unit-length features below which two marks look alike.

    Returns
    -------
    (14,) bool
        Every coin read filled that looks like a coin read crossed, and every such crossed coin.
    """
    states = np.asarray(states)
    flags = np.zeros(len(states), bool)
    filled, crossed = np.flatnonzero(states == FILLED), np.flatnonzero(states == CROSSED)
    if filled.size == 0 or crossed.size == 0:
        return flags
    alike = _alike(features, level)[np.ix_(filled, crossed)]
    flags[filled[alike.any(axis=1)]] = True
    flags[crossed[alike.any(axis=0)]] = True
    return flags


def faint_marks_gained(probs: np.ndarray, *, seen: float = COIN_FAINT_MARK) -> np.ndarray:
    """Coin probabilities with every faintly seen mark's kind taken as filled (gained), not crossed.

    A spent coin is crossed out with an X, the one coin mark every player draws alike and the coin net
    knows from every hand it learned; a gained coin carries the player's own mark, which the net barely
    sees when it has never met it (an unfamiliar ring or dot read mostly as empty, its leftover odds of
    filled against crossed a guess). So a coin the net sees as marked with less than ``seen`` is a gain
    mark if it is a mark at all (the sheet's own count decides that).

    Parameters
    ----------
    probs : (14, 3)
        The net's coin probabilities (empty, filled, crossed), track order.
    seen : probability of a mark (filled plus crossed) below which a coin's kind is filled.

    Returns
    -------
    (14, 3) float
        A new array: each faint coin's crossed probability moved to filled (its odds of a mark, and every
        other coin, as given).
    """
    out = np.array(probs, float)
    faint = out[:, FILLED] + out[:, CROSSED] < seen
    out[faint, FILLED] += out[faint, CROSSED]
    out[faint, CROSSED] = 0.0
    return out


def odd_gain_mark(
    probs: np.ndarray,
    features: np.ndarray,
    states: np.ndarray,
    *,
    level: float = COIN_KIND_ALIKE,
    twins: int = COIN_ODD_MARK_TWINS,
    seen: float = COIN_CROSS_SEEN,
) -> np.ndarray:
    """The marks read filled to doubt because they look unlike the player's other gain marks.

    A player marks the coins they gain alike (:func:`clashing_kinds`); a spent coin is such a mark
    crossed out, and a cross drawn over a mark the net has never seen can leave it read as filled. So
    where several marks read filled are twins of each other, a clearly seen mark read filled that looks
    like no other mark of the track is likely the odd one crossed out: which kind it is, is not known.
    Independent of the net's odds of the kind: the sheet's own marks compared with each other.

    Parameters
    ----------
    probs : (14, 3)
        The net's coin probabilities (empty, filled, crossed), track order.
    features : (14, D)
        The coin net's features of the same coins.
    states : (14,) int
        The decoded track (empty, filled, crossed).
    level : distance between unit-length features below which two marks look alike.
    twins : how many other marks read filled, each alike to another of them, make the player's gain mark.
    seen : the odd mark's least probability of being a mark: seen as clearly as a cross is.

    Returns
    -------
    (14,) bool
    """
    states = np.asarray(states)
    flags = np.zeros(len(states), bool)
    marked = np.flatnonzero(states != EMPTY)
    if marked.size <= twins:
        return flags
    alike = _alike(features[marked], level)
    np.fill_diagonal(alike, False)
    filled = states[marked] == FILLED
    paired = filled & (alike & filled[None, :]).any(axis=1)  # gain marks with a gain twin
    clear = probs[marked, FILLED] + probs[marked, CROSSED] >= seen
    if np.count_nonzero(paired) >= twins:  # an odd mark has no twin itself
        flags[marked[filled & clear & ~alike.any(axis=1)]] = True
    return flags


def kinds_of_alike_marks(
    probs: np.ndarray,
    features: np.ndarray,
    states: np.ndarray,
    *,
    level: float = COIN_KIND_ALIKE,
    temperature: float = COIN_KIND_POOL_TEMPERATURE,
) -> np.ndarray:
    """Coin probabilities with each marked coin's odds of filled against crossed pooled over its twins.

    Marks that look alike are one kind (:func:`clashing_kinds`), so each marked coin's filled-against-
    crossed log-odds become the sum of those of every marked coin within ``level`` of it (itself
    included) divided by ``temperature`` (one hand's twins are misread alike, so they are not
    independent looks), while its odds of being marked at all stay its own. A coin whose kind the net half
    knows (a pencil dot read filled at 0.6) is then as sure as its twins together; twins whose odds
    disagree pull each other towards a doubt.

    Parameters
    ----------
    probs : (14, 3)
        The net's coin probabilities (empty, filled, crossed), track order.
    features : (14, D)
        The coin net's features of the same coins.
    states : (14,) int
        The decoded track (:func:`decode_coin_track`).
    level : distance between unit-length features below which two marks look alike.
    temperature : divisor of the summed log-odds.

    Returns
    -------
    (14, 3) float
        A new array: unmarked coins as given; marked coins with the same probability of a mark, split
        between filled and crossed by the pooled odds.
    """
    probs = np.asarray(probs, float)
    out = probs.copy()
    marked = np.flatnonzero(np.asarray(states) != EMPTY)
    if marked.size == 0:
        return out
    logp = np.log(np.maximum(probs[marked], LOG_FLOOR))
    odds = logp[:, FILLED] - logp[:, CROSSED]
    alike = _alike(features[marked], level)
    filled = 1.0 / (1.0 + np.exp(-(alike @ odds) / temperature))
    mark = probs[marked, FILLED] + probs[marked, CROSSED]
    out[marked, FILLED] = mark * filled
    out[marked, CROSSED] = mark * (1.0 - filled)
    return out


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
    n, size = x.shape[:2]
    _, outside = _disc_pixels(size, disc)
    # the pixels outside the disc, gathered by flat index (what a mask gives, in that order, faster),
    # each channel's in a row of its own
    ring = np.take(x.reshape(n, size * size, 3).transpose(0, 2, 1), outside, axis=2)
    paper = percentile_of(ring, percentile, axis=-1)  # (N, 3)
    x /= np.maximum(paper, 8.0)[:, None, None, :]
    return gaussian_blur(x, blur, (1, 2)) if blur > 0 else x


@cache
def _disc_pixels(size: int, disc: float) -> tuple[np.ndarray, np.ndarray]:
    """The flat indices of the pixels inside :func:`_disc` and of those outside it, ascending
    (read-only, one pair per size)."""
    mask = _disc(size, disc).ravel()
    inside, outside = np.flatnonzero(mask), np.flatnonzero(~mask)
    inside.flags.writeable = outside.flags.writeable = False
    return inside, outside


@cache
def _shifted_disc(size: int, disc: float, shift: int) -> tuple[np.ndarray, np.ndarray]:
    """The coin disc's flat pixel indices (K,), and (S, K) the flat indices each of the S shifts of
    up to ``shift`` px moves there (wrapping round, as ``np.roll``); read-only, one pair per size."""
    rows, cols = np.nonzero(_disc(size, disc))
    steps = range(-shift, shift + 1)
    moved = np.stack([((rows - dy) % size) * size + (cols - dx) % size for dy in steps for dx in steps])
    inside = rows * size + cols
    inside.flags.writeable = moved.flags.writeable = False
    return inside, moved


def coin_ink(
    paper: np.ndarray, reference: np.ndarray, *, shift: int = COIN_INK_SHIFT, disc: float = COIN_DISC,
) -> np.ndarray:
    """How much darker each coin is than a reference look, inside the coin disc.

    Parameters
    ----------
    paper : (N, P, P, 3) float
        Coins from :func:`coin_paper`.
    reference : (P, P, 3) or (N, P, P, 3) float
        The look to compare with (e.g. the median of a sheet's empty coins), one for all coins or one
        per coin.
    shift : largest shift in px tried; the best-aligned shift counts.

    Returns
    -------
    (N,) float
        Mean over the disc of the darkening, summed over channels (0 when nowhere darker).
    """
    n, size = len(paper), paper.shape[1]
    inside, moved = _shifted_disc(size, disc, shift)
    # channels first, so the gathers copy single values and the channel sum adds whole rows
    planes = np.ascontiguousarray(paper.reshape(n, size * size, 3).transpose(0, 2, 1))
    ref = np.take(np.asarray(reference).reshape(-1, size * size, 3).transpose(0, 2, 1), inside, axis=2)
    # every shift at once: the disc's pixels of each coin moved by each shift, (N, 3, S, K) (np.take
    # gathers what fancy indexing does, twice as fast)
    diff = ref[:, :, None] - np.take(planes, moved, axis=2)
    np.maximum(diff, 0.0, out=diff)
    # summed into C-contiguous rows: numpy then sums each disc pairwise on its own, so a coin's ink
    # does not depend on the coins read with it
    dark = np.add(diff[:, 0], diff[:, 1], out=np.empty(diff.shape[:1] + diff.shape[2:], diff.dtype))
    dark += diff[:, 2]
    return np.asarray(dark.mean(axis=-1).min(axis=1, initial=np.inf), float)


def _others(n: int) -> np.ndarray:
    """(n, n - 1) int: row ``i`` holds every index but ``i``, ascending."""
    return np.flatnonzero(~np.eye(n, dtype=bool)).reshape(n, -1) % n


def inks_against_others(paper: np.ndarray, *, disc: float = COIN_DISC) -> np.ndarray:
    """(N,) float: each of ``paper``'s N (>= 2) patches (from :func:`coin_paper`) as :func:`coin_ink`
    measures it against the median of the other N - 1: what is drawn on one of several patches that
    share a print."""
    return coin_ink(paper, median(paper[_others(len(paper))], axis=1), disc=disc)


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
    inside, _ = _disc_pixels(paper.shape[1], COIN_DISC)
    lightness = np.take(paper[1:].reshape(len(after), -1, 3), inside, axis=1).mean(axis=(1, 2))
    light = after[np.argsort(-lightness, kind="stable")[:references]]
    # the first coin against the light ones (a coin's ink does not depend on the coins read with it)
    ink = float(coin_ink(paper[:1], median(paper[light], axis=0)[None])[0])
    if not ink > floor:  # no mark whatever the noise: the light coins' own inks are not needed
        return flags
    noise = 0.0
    if light.size > 1:  # each light coin against the others: the sheet's noise
        noise = float(median(inks_against_others(paper[light])))
    flags[first] = bool(ink > ratio * noise)
    return flags


@cache
def star_reach() -> frozenset[tuple[int, int]]:
    """Every offset from a hero at which any hero card, in any orientation, can mark a hit star."""
    return frozenset(off for pattern in attack_patterns() for off in pattern)


@cache
def attack_patterns() -> tuple[frozenset[tuple[int, int]], ...]:
    """Every hero card's attack pattern in every orientation (offsets from the hero), each once."""
    found = {pattern for hero in HEROES.values() for pattern in hero.attack_orientations}
    return tuple(sorted(found, key=sorted))


@cache
def _pattern_gather(size: int) -> tuple[int, np.ndarray, tuple[slice, ...]]:
    """What :func:`_around_patterns` gathers on an ``size`` x ``size`` map: the padding (the longest
    reach), (T, size, size) flat indices into the padded map of every offset of every attack pattern,
    each pattern's offsets in its own iteration order, and each pattern's slice of the T offsets."""
    patterns = attack_patterns()
    reach = max(max(abs(dr), abs(dc)) for pattern in patterns for dr, dc in pattern)
    width = size + 2 * reach
    rows, cols = np.mgrid[reach:reach + size, reach:reach + size]
    index = np.stack([(rows + dr) * width + cols + dc for pattern in patterns for dr, dc in pattern])
    ends = np.cumsum([len(pattern) for pattern in patterns])
    index.flags.writeable = False
    return reach, index, tuple(slice(e - len(p), e) for e, p in zip(ends, patterns, strict=True))


def _around_patterns(values: np.ndarray, outside: float) -> list[np.ndarray]:
    """For every attack pattern (:func:`attack_patterns` order), (len(pattern), N, N): for every cell,
    ``values`` at each of the pattern's offsets from it, and ``outside`` where the offset falls off the
    map (hits past the edge are not drawn)."""
    reach, index, parts = _pattern_gather(values.shape[0])
    gathered = _padded_map(values, reach, outside, outside)[index]  # all offsets of all patterns at once
    return [gathered[part] for part in parts]


def _padded_map(values: np.ndarray, reach: int, outside: float, pad: float) -> np.ndarray:
    """``values`` (size, size) framed by ``reach`` cells of ``outside`` all round, flat, with one more
    entry ``pad`` at the end (where :func:`_padded_gather` points past a pattern's own offsets)."""
    size = values.shape[0]
    flat = np.full((size + 2 * reach) ** 2 + 1, outside, float)
    flat[-1] = pad
    flat[:-1].reshape(size + 2 * reach, -1)[reach:reach + size, reach:reach + size] = values
    return flat


@cache
def _on_map_counts(size: int) -> np.ndarray:
    """(patterns, size, size): how many cells of each attack pattern lie on the map around each cell."""
    counts = np.stack([a.sum(axis=0) for a in _around_patterns(np.ones((size, size)), 0.0)])
    counts.setflags(write=False)
    return counts


def _known_counts(known: np.ndarray) -> np.ndarray:
    """(patterns, size, size): how many of each attack pattern's cells around each cell are ``known``
    (on the map, and a cell whose star reading counts)."""
    if known.all():
        return _on_map_counts(known.shape[0])
    return np.stack([a.sum(axis=0) for a in _around_patterns(known.astype(float), 0.0)])


def hero_evidence(
    probs: np.ndarray,
    star_p: np.ndarray,
    drawable: np.ndarray,
    *,
    star_blind: np.ndarray | None = None,
    boost: float = HERO_STAR_BOOST,
    level: float = HERO_STAR_LEVEL,
    least: int = HERO_MIN_STARS,
    rings: tuple[tuple[int, float], ...] = HERO_RING_BOOSTS,
    gapped: int = HERO_GAPPED_PATTERN,
) -> np.ndarray:
    """Raise the hero reading of cells that some hero's whole attack pattern of stars surrounds.

    A hero is drawn in one space and hit stars are marked on every space its card attacks (Heroes
    rulebook), so a cell around which all the on-map cells of some attack pattern carry stars (at least
    ``least`` of them; all but one of a pattern of ``gapped`` cells or more, since a star drawn over a
    terrain reads weak) most likely holds a hero, whatever its icon looks like to the net. The stars are
    one hero's: cells are taken by their largest whole ring, then by the net's hero probability, and a
    cell whose ring holds no star that a cell taken before did not already ring (a hero's neighbour,
    ringed by part of the hero's stars; the far end of a hero's line of stars) gets ``boost`` alone.

    Parameters
    ----------
    probs : (N*N, C) float
        Cell probabilities over ``TERRAIN_CLASSES``, row-major.
    star_p : (N, N) float
        Star probability per cell.
    drawable : (N, N) bool
        Cells a hero can be drawn in.
    star_blind : (N, N) bool, optional
        Printed cells whose print the net reads as stars (:data:`STAR_BLIND_PRINT`): a star read there
        counts neither as seen nor as missing; one of them read without a star still breaks a pattern.
    boost : factor on the hero probability of such cells (rows renormalised).
    rings : ``(stars, factor)`` pairs: a further factor on cells whose whole ring has at least that many
        stars (the largest reached; a ring of three or four seldom falls round a cell by chance), unless
        the ring's stars are already explained.
    level : star probability from which a pattern cell counts as starred.
    least : fewest starred cells a pattern must show.
    gapped : on-map cells from which a pattern counts with one of them unstarred (a star hidden under
        a drawing); its ring is then the starred ones.

    Returns
    -------
    (N*N, C) float
    """
    out = probs.astype(float, copy=True)
    starred = star_p >= level
    known = np.ones_like(starred) if star_blind is None else ~(star_blind & starred)  # stars as evidence
    if (starred & known).sum() < least:  # no pattern can be whole with `least` stars: nothing to raise
        return out
    size = star_p.shape[0]
    counts = _known_counts(known)
    starred = starred.astype(float)
    ring = np.zeros(star_p.shape, int)  # the most stars of a whole pattern around each cell (0: none)
    which = np.zeros(star_p.shape, int)  # that pattern
    for k, around in enumerate(_around_patterns(starred, 1.0)):
        # every on-map cell starred (or all but one of a long pattern's), and more stars than the
        # cell's rings found so far
        unseen = (around == 0).sum(axis=0)
        seen = counts[k] - unseen
        whole = ((unseen == 0) | ((unseen == 1) & (counts[k] >= gapped))) & (seen >= least) & (seen > ring)
        ring[whole], which[whole] = seen[whole], k
    ringed = np.argwhere((ring > 0) & drawable)
    hero = TERRAIN_CLASSES.index("hero")
    order = sorted(ringed.tolist(), key=lambda rc: (-ring[rc[0], rc[1]], -probs[rc[0] * size + rc[1], hero]))
    explained: set[tuple[int, int]] = set()
    patterns = attack_patterns()
    for r, c in order:
        stars = {(r + dr, c + dc) for dr, dc in patterns[which[r, c]]
                 if 0 <= r + dr < size and 0 <= c + dc < size}
        if stars <= explained:
            factor = boost
        else:
            explained |= stars
            factor = boost * max((f for n, f in rings if ring[r, c] >= n), default=1.0)
        out[r * size + c, hero] *= factor
        out[r * size + c] /= out[r * size + c].sum()
    return out


def spare_heroes(
    probs: np.ndarray, drawable: np.ndarray, *, most: int = len(HEROES), cap: float = HERO_EXCESS_CAP
) -> np.ndarray:
    """Doubt every sure hero reading when more cells are surely heroes than a game holds.

    Parameters
    ----------
    probs : (N, C) float
        Cell probabilities over ``TERRAIN_CLASSES``.
    drawable : (N,) bool
        Cells a hero can be drawn in.
    most : heroes a game can show (one space for each hero card).
    cap : the hero probability of those cells at most (the rest of each row scaled to fill it): under
        the reporting threshold, so each is ``?``, its best guess unchanged.

    Returns
    -------
    (N, C) float; ``probs`` itself when no more than ``most`` cells read as heroes above ``cap``.
    """
    hero = TERRAIN_CLASSES.index("hero")
    high = np.flatnonzero(drawable & (probs[:, hero] > cap))
    if high.size <= most:  # the doubtful hero readings can be the ones too many
        return probs
    return cap_class(probs, high, hero, cap, np.delete(probs[high], hero, axis=1))


def attack_stars(
    star_p: np.ndarray, hero_p: np.ndarray, *, star_blind: np.ndarray | None = None,
    level: float = ATTACK_STAR_LEVEL, hero_threshold: float = STAR_HERO_PROBABILITY,
) -> frozenset[tuple[int, int]]:
    """The hit stars: for each likely hero, the on-map cells of its best-fitting attack pattern.

    A hero marks every space of its pattern (printed mountains and wasteland too, since stars do not
    fill a space), so stars are read pattern by pattern: the orientation whose cells have the highest
    mean log star probability is taken when each of its cells reaches ``level``. A star-like mark
    that fits no hero is not a star.

    Parameters
    ----------
    star_p, hero_p : (N, N) float
        Star and hero-terrain probability per cell.
    star_blind : (N, N) bool, optional
        Printed cells whose print the net reads as stars (:data:`STAR_BLIND_PRINT`): a star read there
        is left out of the fit (as in :func:`hero_evidence`); the chosen pattern's stars are still
        reported on all its on-map cells, those included.
    level : star probability every counted cell of the chosen pattern must reach.
    hero_threshold : hero probability from which a cell counts as a hero.

    Returns
    -------
    frozenset of (row, col)
    """
    heroes = np.argwhere(hero_p >= hero_threshold)
    if not len(heroes):  # stars are read around heroes only
        return frozenset()
    size = star_p.shape[0]
    known = np.ones((size, size), bool) if star_blind is None else ~star_blind | (star_p < level)
    logs = np.where(known, np.log(np.maximum(star_p, LOG_FLOOR)), 0.0)
    patterns = attack_patterns()
    # per pattern, around each likely hero: mean log star probability and lowest star probability of
    # the pattern's on-map cells (every pattern at once, each padded to the longest with what changes
    # neither a sum nor a minimum; the offsets summed in order, as one pattern's alone were)
    rows, cols = heroes[:, 0], heroes[:, 1]
    counts = _known_counts(known)[:, rows, cols]
    around = _around_heroes(logs, 0.0, 0.0, rows, cols)
    total = around[:, 0].copy()
    for j in range(1, around.shape[1]):
        total += around[:, j]
    fit = total / np.maximum(counts, 1)
    fit[counts == 0] = -np.inf
    lowest = _around_heroes(np.where(known, star_p, np.inf), 1.0, np.inf, rows, cols).min(axis=1)
    best = fit.argmax(axis=0)
    stars: set[tuple[int, int]] = set()
    for h, (r, c) in enumerate(heroes.tolist()):
        k = int(best[h])
        if counts[k, h] and lowest[k, h] >= level:
            stars.update((r + dr, c + dc) for dr, dc in patterns[k])
    return frozenset((r, c) for r, c in stars if 0 <= r < size and 0 <= c < size)


@cache
def _padded_gather(size: int) -> np.ndarray:
    """(patterns, longest, size, size): :func:`_pattern_gather`'s flat indices of every pattern's
    offsets, padded to the longest pattern with the index one past the padded map (read-only)."""
    reach, index, parts = _pattern_gather(size)
    longest = max(part.stop - part.start for part in parts)
    past = (size + 2 * reach) ** 2
    out = np.full((len(parts), longest, size, size), past, index.dtype)
    for k, part in enumerate(parts):
        out[k, : part.stop - part.start] = index[part]
    out.flags.writeable = False
    return out


def _around_heroes(
    values: np.ndarray, outside: float, pad: float, rows: np.ndarray, cols: np.ndarray
) -> np.ndarray:
    """(patterns, longest, H): ``values`` at each pattern's offsets around the cells ``(rows, cols)``,
    ``outside`` off the map and ``pad`` past each pattern's own offsets."""
    size = values.shape[0]
    reach, _, _ = _pattern_gather(size)
    around: np.ndarray = _padded_map(values, reach, outside, pad)[_padded_gather(size)[:, :, rows, cols]]
    return around
