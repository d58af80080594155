"""Label the sampled patches with the committed ONNX models (onnxruntime only, no torch).

Stage contract: patches in (from :mod:`scanner.sample`), a :class:`SheetReading` out — a
:class:`rules.Sheet` with ``?`` on every cell whose calibrated confidence is below
:data:`CONFIDENCE_THRESHOLD`, the 11x11 confidences, coins, stars and outline probabilities.

The models are loaded and checked against their manifest by :mod:`scanner.nets`.

Printed mountains and wasteland come from the side, never from the net. One player draws a whole sheet
in one style, so cells drawn alike pool their evidence; the coin track is read as a prefix and stars are
kept only where a hero can reach, and a cell read empty that holds coloured ink is doubted
(:mod:`scanner.decode`); a cell that disagrees with its outlined piece or with the cards of that
piece's shape is corrected (:mod:`scanner.pieces`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from rules.grid import SIZE, cell_label
from rules.sides import PrintedSide, printed_side
from scanner.constants import (
    ADAPT_DEFAULT,
    ADAPT_TEMPERATURE,
    CELL_INK_INSET,
    COIN_CLASSES,
    COIN_THRESHOLD,
    COIN_TRACK_THRESHOLD,
    CONFIDENCE_THRESHOLD,
    DECODE_DEFAULT,
    PAPER_INK_SHARE,
    PAPER_QUIET_LEAST,
    STAR_BLIND_PRINT,
    STAR_THRESHOLD,
    TERRAIN_CLASSES,
    TERRAIN_SYMBOLS,
    UNREAD_EDGE,
)
from scanner.decode import (
    adapt_to_sheet,
    attack_stars,
    both_counts,
    cells_mask,
    clashing_kinds,
    coins_and_spent,
    coloured_ink,
    count_against_print,
    crowded_track,
    dark_spots,
    decode_coin_track,
    discount_print,
    drawn_first,
    faint_marks_gained,
    hero_evidence,
    ink_against_empty,
    ink_share,
    inked_ruins,
    kinds_of_alike_marks,
    look_alike_groups,
    marks_beyond_run,
    odd_gain_mark,
    overrule_print,
    paper_read_drawn,
    ruins_only,
    share_group_doubt,
    spare_heroes,
    spent_against_kinds,
    track_counts,
    track_sureness,
    unseen_marks,
)
from scanner.nets import Models, default_models, paper_gain, softmax, white_balance
from scanner.pieces import (
    drawn_over_ruins,
    edges_near_pieces,
    edges_to_read,
    find_pieces,
    piece_evidence,
    unoffered_alternatives,
)

__all__ = [
    "ADAPT_DEFAULT",
    "CONFIDENCE_THRESHOLD",
    "Models",  # re-exported: scanner.pipeline takes it from here
    "SheetReading",
    "classify_sheet",
]

#: The edge strips' keys the pieces are found from (``scanner.sample.edge_strips``).
_EDGE_KEYS = ("horizontal", "vertical")


@dataclass(frozen=True)
class SheetReading:
    """What the classifier read on one sheet.

    ``probabilities`` is (11, 11, 8) over :data:`TERRAIN_CLASSES` (printed cells one-hot on their
    printed class, shown as mountain/wasteland in ``grid``); ``confidence`` is (11, 11); ``groups``
    are the cells drawn alike (:func:`scanner.decode.look_alike_groups`) as (row, col) tuples.
    """

    side: str
    grid: tuple[str, ...]
    confidence: np.ndarray
    probabilities: np.ndarray
    coins: int
    spent: int
    coin_states: tuple[str, ...]
    coin_confidence: np.ndarray
    stars: frozenset[tuple[int, int]]
    star_probability: np.ndarray
    outlines: dict[str, np.ndarray] = field(default_factory=dict)
    doubtful: tuple[str, ...] = ()
    doubtful_coins: tuple[int, ...] = ()
    groups: tuple[tuple[tuple[int, int], ...], ...] = ()


def classify_cells(
    models: Models, patches: np.ndarray, *, gain: np.ndarray | None = None, ruins: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Calibrated terrain probabilities (121, 8), star probabilities (121,) and features (121, D).

    ``patches`` is (11, 11, P, P, 3) white-balanced BGR, or raw with ``gain`` (the sheet's
    :func:`scanner.nets.paper_gain`, applied on the way into the net: the same numbers). ``ruins``
    (121,) bool, the printed ruins cells: read by the net's ruins head where its manifest has one.
    """
    flat = patches.reshape(-1, *patches.shape[2:])
    terrain_logits, star_logits, features = models.cell.run(flat, gain=gain)
    t = models.cell.temperature
    probs = softmax(terrain_logits, t["terrain"], models.cell.prior_shift.get("terrain"))
    head = models.cell.ruins_head
    if head is not None and ruins is not None and ruins.any():
        probs[ruins] = head.probabilities(features[ruins])
    stars = softmax(star_logits, t["star"])[:, 1]
    return probs, stars, features


def read_coins(
    models: Models, coin_patches: np.ndarray, *, gain: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Calibrated probabilities (14, 3) over :data:`COIN_CLASSES` and features (14, D) of the coins,
    white-balanced, or raw with ``gain`` (as :func:`classify_cells`)."""
    (logits, features) = models.coin.run(coin_patches, gain=gain)
    return softmax(logits, models.coin.temperature["coin"]), features


def read_coin_track(
    probs: np.ndarray, features: np.ndarray, patches: np.ndarray, *, decode: bool = DECODE_DEFAULT,
    track_threshold: float = COIN_TRACK_THRESHOLD,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coin track from the coin net's reading of its 14 coins.

    Parameters
    ----------
    probs, features : from :func:`read_coins`.
    patches : (14, P, P, 3) the white-balanced coin patches (for :func:`scanner.decode.unseen_marks`).
    decode : read the track as a prefix, by the net's count and the sheet's own together, kinds pooled
        over twin marks, a barely seen mark taken as gained; else each coin's most likely class.
    track_threshold : the track's sureness below which it is doubted (``COIN_TRACK_THRESHOLD``).

    Returns
    -------
    states : (14,) int, index into :data:`COIN_CLASSES`.
    confidence : (14,) float, each coin's probability of its state.
    doubtful : (14,) bool, the coins a person must look at.
    """
    if not decode:
        states = probs.argmax(axis=1)
        confidence = probs[np.arange(len(states)), states]
        return states, confidence, confidence < COIN_THRESHOLD
    probs = faint_marks_gained(probs)  # an X is seen: a barely seen mark is a gain mark
    states = decode_coin_track(probs)
    # marks alike are one kind: their sureness of the kind is pooled
    confidence = kinds_of_alike_marks(probs, features, states)[np.arange(len(states)), states]
    by_sheet = count_against_print(features)
    # a run of marks the sheet's own coins do not show is the print misread
    overruled, over_confidence = overrule_print(states, confidence, probs, by_sheet)
    if overruled is not states:
        states, confidence = overruled, over_confidence
        own = states
        doubtful = confidence < COIN_THRESHOLD
    else:  # the net's count and the sheet's own together; the track sure as a whole
        count = both_counts(track_counts(probs), by_sheet)
        own = decode_coin_track(probs, count)  # each mark's kind as the net reads that coin alone
        pooled = kinds_of_alike_marks(probs, features, own)
        states = decode_coin_track(pooled, count)  # ... and as its twins and it read it together
        sure, confidence = track_sureness(pooled, states, count)
        doubtful = np.zeros(len(states), bool)
        if sure < track_threshold:  # the coins that make it unsure (or, of several half-sure, the least)
            doubtful = confidence < track_threshold
            doubtful[int(np.argmin(confidence))] = True
    # a first "empty" coin darker than the empty ones holds a mark the net missed; a track marked from
    # end to end is the print misread; of twin marks the net reads as different kinds one is misread (the
    # pooled kinds are the best guess then, but twins are not always one kind: a cross over a mark)
    doubtful |= unseen_marks(patches, states) | crowded_track(states) | clashing_kinds(features, own)
    # ... and a clearly seen mark read filled beside twin gain marks but like none of them may be crossed;
    # marks the net sees past a coin it sees empty break the prefix: ink the decoding explained away
    doubtful |= odd_gain_mark(probs, features, states) | marks_beyond_run(probs, states)
    doubtful |= spent_against_kinds(probs, states)
    return states, confidence, doubtful


def read_edges(models: Models, strips: np.ndarray, *, gain: np.ndarray | None = None) -> np.ndarray:
    """Outline probability for each strip ``(N, h, w, 3)`` (horizontal strips; see scanner.sample),
    white-balanced, or raw with ``gain`` (as :func:`classify_cells`)."""
    if strips.shape[0] == 0:
        return np.zeros(0)
    (logits, _features) = models.edge.run(strips, gain=gain)
    return softmax(logits, models.edge.temperature["edge"])[:, 1]


def read_outlines(
    models: Models,
    edge_strips: Mapping[str, np.ndarray],
    gain: np.ndarray,
    needed: Mapping[str, np.ndarray] | None = None,
) -> dict[str, np.ndarray]:
    """Outline probabilities per key of ``edge_strips``, each of its strips' leading shape.

    Parameters
    ----------
    edge_strips : ``{"horizontal": (10, 11, h, w, 3), "vertical": (11, 10, h, w, 3)}``-like mapping of
        uint8 strips already turned to lie horizontally.
    gain : the sheet's :func:`scanner.nets.paper_gain`.
    needed : per key, bool of the strips' leading shape: the strips to read (default: all); the others
        get :data:`UNREAD_EDGE` (see :func:`scanner.pieces.edges_to_read`).

    Every strip read goes through the edge net in one run (the same numbers as one run per key, or
    as reading all: the net reads each strip on its own).
    """
    keys = list(edge_strips)
    if not keys:
        return {}
    shapes = [edge_strips[k].shape[:-3] for k in keys]
    given = needed if needed is not None else {}
    masks = [given.get(k, np.ones(shape, bool)) for k, shape in zip(keys, shapes, strict=True)]
    ends = np.cumsum([0, *(int(np.count_nonzero(mask)) for mask in masks)]).tolist()
    strip = edge_strips[keys[0]].shape[-3:]
    batch = np.empty((ends[-1], *strip), edge_strips[keys[0]].dtype)
    for k, mask, start, end in zip(keys, masks, ends[:-1], ends[1:], strict=True):
        # the strips read, gathered once, straight into the one batch
        np.compress(mask.ravel(), edge_strips[k].reshape(-1, *strip), axis=0, out=batch[start:end])
    probs = read_edges(models, batch, gain=gain) if len(batch) else np.zeros(0)
    out = {}
    for k, shape, mask, start, end in zip(keys, shapes, masks, ends[:-1], ends[1:], strict=True):
        outline = np.full(shape, UNREAD_EDGE)
        outline[mask] = probs[start:end]
        out[k] = outline
    return out


def read_piece_outlines(
    models: Models, edge_strips: Mapping[str, np.ndarray], gain: np.ndarray, drawable: np.ndarray,
    settled: np.ndarray,
) -> dict[str, np.ndarray]:
    """:func:`read_outlines` of the strips the pieces need: the cells' reading comes out as with all.

    First the edges touching a cell not read as empty, then those that can still bound a card-shaped
    piece of such cells (:func:`scanner.pieces.edges_near_pieces`); on a typical sheet the second run
    reads none. The others, between empty cells far from any other or touching a printed cell, are
    :data:`UNREAD_EDGE`.

    Parameters
    ----------
    edge_strips : with ``"horizontal"`` (10, 11, h, w, 3) and ``"vertical"`` (11, 10, h, w, 3) strips.
    drawable : (121,) bool, the cells not printed.
    settled : (121,) bool, the cells read as empty (most likely class).
    """
    cells, empty = drawable.reshape(SIZE, SIZE), settled.reshape(SIZE, SIZE)
    first = edges_to_read(cells, empty)
    outlines = read_outlines(models, edge_strips, gain, dict(zip(_EDGE_KEYS, first, strict=True)))
    more = edges_near_pieces(cells, empty, outlines["horizontal"], outlines["vertical"], first)
    if more[0].any() or more[1].any():
        extra = read_outlines(models, edge_strips, gain, dict(zip(_EDGE_KEYS, more, strict=True)))
        for key, mask in zip(_EDGE_KEYS, more, strict=True):
            outlines[key][mask] = extra[key][mask]
    return outlines


def label_cells(
    best: np.ndarray, unsure: np.ndarray, printed: PrintedSide, confidence: np.ndarray
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The grid in sheet notation from each cell's most likely class and doubt.

    Parameters
    ----------
    best : (121,) int, index into :data:`TERRAIN_SYMBOLS` of each cell's most likely class.
    unsure : (121,) bool, cells to write as ``?``.
    printed : the side whose mountains (``^``) and wasteland (``-``) are printed, never read.
    confidence : (121,) float; set to 1.0 on printed cells, in place.

    Returns
    -------
    rows : 11 notation strings, row A first.
    doubtful : labels of the ``?`` cells, row-major.
    """
    rows: list[list[str]] = [[""] * SIZE for _ in range(SIZE)]
    doubtful: list[str] = []
    for i in range(SIZE * SIZE):
        r, c = divmod(i, SIZE)
        if (r, c) in printed.mountains:
            rows[r][c], confidence[i] = "^", 1.0
        elif (r, c) in printed.wasteland:
            rows[r][c], confidence[i] = "-", 1.0
        elif unsure[i]:
            rows[r][c] = "?"
            doubtful.append(cell_label((r, c)))
        else:
            rows[r][c] = TERRAIN_SYMBOLS[best[i]]
    return tuple("".join(row) for row in rows), tuple(doubtful)


def doubt_inked_empties(
    probs: np.ndarray, balanced: np.ndarray, drawable: np.ndarray, printed: PrintedSide
) -> tuple[np.ndarray, np.ndarray]:
    """``probs`` (121, C) with the cells read empty that hold coloured ink or dark spots doubted
    (:func:`scanner.decode.ink_against_empty`, :func:`scanner.decode.dark_spots`), the paper judged from
    the cells read empty; and (121,) bool, the cells doubted. ``balanced``: the (11, 11, P, P, 3) cell
    patches, white-balanced.

    Printed ruins are left alone: their print is coloured and drawn on most sheets.
    """
    open_cells = drawable & ~cells_mask(printed.ruins, SIZE)
    i = CELL_INK_INSET
    # every other pixel of the centre: a share of ink pixels needs no more, at a quarter of the work
    centres = np.ascontiguousarray(balanced[..., i:-i:2, i:-i:2, :])
    quiet = open_cells & (probs.argmax(axis=1) == TERRAIN_CLASSES.index("empty"))
    ink = coloured_ink(centres.reshape(-1, *centres.shape[-3:]), quiet)
    # dark spots only where a cell read empty could be doubted: they are those cells' paper too
    spotted = np.zeros(len(probs), bool)
    at = np.flatnonzero(quiet)
    if at.size:
        spotted[at] = dark_spots(balanced.reshape(-1, *balanced.shape[-3:])[at], np.ones(at.size, bool))
    return ink_against_empty(probs, ink, open_cells, spotted=spotted)


def doubt_paper_drawn(
    probs: np.ndarray, balanced: np.ndarray, drawable: np.ndarray, printed: PrintedSide
) -> tuple[np.ndarray, np.ndarray]:
    """``probs`` (121, C) with the cells read drawn that hold no ink doubted as paper
    (:func:`scanner.decode.paper_read_drawn`), the paper judged from the cells read empty; and (121,)
    bool, the cells doubted. Printed ruins are left alone (their print is ink); so is a sheet with
    fewer than :data:`PAPER_QUIET_LEAST` cells read empty. ``balanced``: the (11, 11, P, P, 3) cell
    patches, white-balanced.
    """
    open_cells = drawable & ~cells_mask(printed.ruins, SIZE)
    read_empty = probs.argmax(axis=1) == TERRAIN_CLASSES.index("empty")
    quiet = open_cells & read_empty
    if quiet.sum() < PAPER_QUIET_LEAST:
        return probs, np.zeros(len(probs), bool)
    i = CELL_INK_INSET
    centres = np.ascontiguousarray(balanced[..., i:-i:2, i:-i:2, :])
    ink = ink_share(centres.reshape(-1, *centres.shape[-3:]), quiet)
    # faint pencil stands out of the paper around it without being dark: those cells are drawn too
    inkless = open_cells & ~read_empty & (ink < PAPER_INK_SHARE)
    if inkless.any():
        judged = inkless | quiet
        spotted = np.zeros(len(probs), bool)
        spotted[judged] = dark_spots(balanced.reshape(-1, *balanced.shape[-3:])[judged], quiet[judged])
        ink[inkless & spotted] = 1.0
    return paper_read_drawn(probs, ink, open_cells)


def bare_ruins(probs: np.ndarray, balanced: np.ndarray, printed: PrintedSide) -> np.ndarray:
    """(121,) bool: the printed ruins read as paper that the sheet's other bare ruins show bare too
    (:func:`scanner.decode.inked_ruins`); a ruin they show drawn over is not among them. ``balanced``:
    the cell patches, white-balanced."""
    at = np.flatnonzero(cells_mask(printed.ruins, SIZE))
    ruins = balanced.reshape(-1, *balanced.shape[-3:])[at]
    drawn, compared = inked_ruins(ruins, probs[at].argmax(axis=1) == TERRAIN_CLASSES.index("empty"))
    out = np.zeros(SIZE * SIZE, bool)
    out[at[compared & ~drawn]] = True
    return out


def classify_sheet(
    patches: np.ndarray,
    side: str,
    *,
    coin_patches: np.ndarray | None = None,
    edge_strips: Mapping[str, np.ndarray] | None = None,
    models: Models | None = None,
    threshold: float = CONFIDENCE_THRESHOLD,
    adapt: bool = ADAPT_DEFAULT,
    decode: bool = DECODE_DEFAULT,
    every_edge: bool = False,
) -> SheetReading:
    """Read one sheet's patches.

    Parameters
    ----------
    patches : (11, 11, P, P, 3) uint8 BGR cell patches.
    side : ``"A"``..``"D"``; its printed mountains and wasteland are taken as printed.
    coin_patches : (14, P, P, 3), optional.
    edge_strips : ``{"horizontal": (10, 11, h, w, 3), "vertical": (11, 10, h, w, 3)}``-like mapping
        of strips already turned to lie horizontally, optional.
    threshold : cells below it become ``?``.
    adapt : pool each cell's evidence with the cells drawn like it (see ``ADAPT_DEFAULT``).
    decode : read the coin track as a prefix (and by its own coins where the net reads the print as
        marks), correct cells by their outlined pieces (and doubt a printed ruin read as empty inside
        a drawn piece), read a cell ringed by a hero's attack pattern of stars as a hero and the stars
        as whole patterns around heroes (in drawable spaces; stars read on printed wasteland are no
        evidence), doubt a cell read empty that holds coloured ink and one read drawn that holds no
        ink, let the cells drawn like doubtful cells share their doubt (not a printed ruin read as
        paper that the sheet's other bare ruins show bare), and best-guess a doubted empty cell the
        sheet shows drawn as its likeliest terrain (``DECODE_DEFAULT``).
    every_edge : read every edge strip; else, with ``decode``, only those whose outline can change a
        cell's reading (:func:`scanner.pieces.edges_to_read`; the others are :data:`UNREAD_EDGE`).
    """
    m = models if models is not None else default_models()
    printed = printed_side(side)
    gain = paper_gain(patches)  # one paper estimate balances the cells, edges and coins alike
    balanced = white_balance(patches, gain=gain)  # the net and the cells' ink checks read it
    probs, star_p, features = classify_cells(m, balanced, ruins=cells_mask(printed.ruins, SIZE))
    if decode:  # the ruins icon lends its cells farm odds of its own
        probs = discount_print(probs, printed.ruins)
    drawable = ~cells_mask(printed.mountains | printed.wasteland, SIZE)
    groups = look_alike_groups(features, drawable) if adapt else ()
    if adapt:
        # the pooling's temperature belongs to the net it was fitted for (models.fit_decode)
        t_adapt = m.cell.temperature.get("adapt", ADAPT_TEMPERATURE)
        probs = adapt_to_sheet(probs, features, drawable, groups=groups, temperature=t_adapt)
    outlines = {}
    found = None  # the outlined pieces, when decoding reads them
    inked = np.zeros(len(probs), bool)  # cells read empty that the sheet shows drawn
    if edge_strips is not None and decode and not every_edge and set(_EDGE_KEYS) <= edge_strips.keys():
        empty = probs.argmax(axis=1) == TERRAIN_CLASSES.index("empty")
        outlines = read_piece_outlines(m, edge_strips, gain, drawable, empty)
    elif edge_strips is not None:
        outlines = read_outlines(m, edge_strips, gain)
    if decode and set(_EDGE_KEYS) <= outlines.keys():
        # pieces from the outlines alone, so a drawn cell the net read as empty still joins its piece
        found = find_pieces(drawable.reshape(SIZE, SIZE), outlines["horizontal"], outlines["vertical"])
        probs = piece_evidence(probs, found)
        ruins = cells_mask(printed.ruins, SIZE).reshape(SIZE, SIZE)
        probs, drawn_on = drawn_over_ruins(probs, ruins, drawable.reshape(SIZE, SIZE), outlines["horizontal"],
                                           outlines["vertical"])
        inked |= drawn_on
    if decode:
        blind_cells = set().union(*(getattr(printed, kind) for kind in STAR_BLIND_PRINT))
        star_blind = cells_mask(blind_cells, SIZE).reshape(SIZE, SIZE)
        probs = hero_evidence(probs, star_p.reshape(SIZE, SIZE), drawable.reshape(SIZE, SIZE),
                              star_blind=star_blind)
        probs = spare_heroes(probs, drawable)  # more heroes than a game's hero cards: none is sure
        probs, shown = doubt_inked_empties(probs, balanced, drawable, printed)
        inked |= shown
        probs, _paper = doubt_paper_drawn(probs, balanced, drawable, printed)
    best = probs.argmax(axis=1)
    conf = probs.max(axis=1)
    # a terrain read on printed ruins and nowhere else is the ruins icon misread
    unsure_cells = conf < threshold
    if decode:
        unsure_cells |= ruins_only(best, printed.ruins)
        # a terrain drawn in an unfamiliar way is misread as a whole: its look-alikes share its doubt
        # (at the default threshold no best class changes; best is taken again for any other), but a
        # printed ruin read as paper and no darker than the sheet's other bare ruins has answered for
        # itself what its look-alikes' doubt would ask (the print makes every ruin one look-alike group)
        bare = bare_ruins(probs, balanced, printed)
        probs = share_group_doubt(probs, groups, unsure_cells, exempt=bare)
        # ... and a cell the sheet shows drawn is best guessed as drawn (it stays '?': under 0.95),
        # unless the ink is a hit star the net sees there
        probs = drawn_first(probs, inked & unsure_cells & (star_p <= STAR_THRESHOLD))
        best = probs.argmax(axis=1)
        conf = probs.max(axis=1)
        unsure_cells |= conf < threshold
    rows, doubtful = label_cells(best, unsure_cells, printed, conf)
    if found is not None:
        # a doubtful cell of a card-shaped piece offers nothing its piece rules out (a terrain no card
        # draws in that shape, paper in a drawn piece, a terrain other than its sure cells'); its '?'
        # (and shown confidence) stays as decided above, so no doubt is lifted by the pruning
        probs = unoffered_alternatives(probs, found, ~unsure_cells)
    if decode:
        # a hero stands in a drawable space: what the net reads on the print is not one
        hero_p = np.where(drawable, probs[:, TERRAIN_CLASSES.index("hero")], 0.0)
        stars = attack_stars(star_p.reshape(SIZE, SIZE), hero_p.reshape(SIZE, SIZE), star_blind=star_blind)
    else:
        sure = drawable & (star_p > STAR_THRESHOLD)
        stars = frozenset(divmod(int(i), SIZE) for i in np.flatnonzero(sure))
    coins = spent = 0
    states: tuple[str, ...] = ()
    coin_conf = np.zeros(0)
    doubtful_coins: tuple[int, ...] = ()
    if coin_patches is not None:
        coins_balanced = white_balance(coin_patches, gain=gain)  # the net and the coin doubts read it
        coin_p, coin_f = read_coins(m, coins_balanced)
        cls, coin_conf, unsure_coins = read_coin_track(coin_p, coin_f, coins_balanced, decode=decode)
        states = tuple(COIN_CLASSES[k] for k in cls)
        coins, spent = coins_and_spent(cls)
        doubtful_coins = tuple(int(i) for i in np.flatnonzero(unsure_coins))
    return SheetReading(
        side=side,
        grid=rows,
        confidence=conf.reshape(SIZE, SIZE),
        probabilities=probs.reshape(SIZE, SIZE, -1),
        coins=coins,
        spent=spent,
        coin_states=states,
        coin_confidence=coin_conf,
        stars=stars,
        star_probability=star_p.reshape(SIZE, SIZE),
        outlines=outlines,
        doubtful=doubtful,
        doubtful_coins=doubtful_coins,
        groups=tuple(tuple(divmod(i, 11) for i in group) for group in groups),
    )
