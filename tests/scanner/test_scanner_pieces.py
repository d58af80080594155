"""scanner.pieces: outlined pieces are found, and a cell that conflicts with its piece or its cards is
corrected, while cells that agree keep the confidence they had."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pytest

import scanner.classify as classify
from rules.shapes import AMBUSH, EXPLORE, normalise, orientations
from rules.sheet import Terrain
from rules.sides import printed_side
from scanner.constants import (
    EDGE_ACROSS,
    EDGE_ALONG,
    LOG_FLOOR,
    PAPER_LEVEL,
    PATCH,
    PIECE_FLOOR,
    PIECE_WEIGHT,
    RUINS_JOINED_EMPTY_CAP,
    UNREAD_EDGE,
)
from scanner.pieces import (
    drawn_over_ruins,
    edges_near_pieces,
    edges_to_read,
    find_pieces,
    piece_evidence,
    shape_terrains,
    unoffered_alternatives,
)

SYMBOLS = ".FVPWMHX"


def _open_edges() -> tuple[np.ndarray, np.ndarray]:
    return np.zeros((10, 11)), np.zeros((11, 10))


def _outline(cells: set[tuple[int, int]], h: np.ndarray, v: np.ndarray) -> None:
    """Draw the outline of `cells` on the internal edges (as a player outlines a shape)."""
    for r, c in cells:
        if r + 1 < 11 and (r + 1, c) not in cells:
            h[r, c] = 1.0
        if r > 0 and (r - 1, c) not in cells:
            h[r - 1, c] = 1.0
        if c + 1 < 11 and (r, c + 1) not in cells:
            v[r, c] = 1.0
        if c > 0 and (r, c - 1) not in cells:
            v[r, c - 1] = 1.0


def _probs(reading: dict[tuple[int, int], dict[str, float]]) -> np.ndarray:
    """(121, 8) probabilities: the given cells as given (rest spread evenly), all others empty."""
    p = np.zeros((121, 8))
    p[:, 0] = 1.0
    for (r, c), dist in reading.items():
        row = np.full(8, (1.0 - sum(dist.values())) / (8 - len(dist)))
        for sym, q in dist.items():
            row[SYMBOLS.index(sym)] = q
        p[r * 11 + c] = row
    return p


def _paper_with_ink(drawn: Iterable[tuple[int, int]]) -> np.ndarray:
    """(11, 11, PATCH, PATCH, 3) paper cells with a pencil stroke across each ``drawn`` cell: the
    stand-in nets read those as drawn, and a drawn reading of bare paper is doubted (paper_read_drawn)."""
    cells = np.full((11, 11, PATCH, PATCH, 3), PAPER_LEVEL, np.uint8)
    for r, c in drawn:
        cells[r, c, PATCH // 2 - 1 : PATCH // 2 + 1, 4:-4] = 60
    return cells


def _numbered_strips() -> dict[str, np.ndarray]:
    """The 220 edge strips, each filled with its number (horizontal ones first), so that a stand-in
    edge net can tell which strips it was given."""
    numbers = np.arange(220).astype(np.uint8)[:, None, None, None]
    each = np.broadcast_to(numbers, (220, EDGE_ACROSS, EDGE_ALONG, 3))
    return {"horizontal": each[:110].reshape(10, 11, *each.shape[1:]),
            "vertical": each[110:].reshape(11, 10, *each.shape[1:])}


# Hamlet's five-cell shape XXX/XX. (village only) and the S tetromino (Forgotten Forest: forest;
# Pasture: farm; an ambush: monsters)
HAMLET = {(2, 2), (2, 3), (2, 4), (3, 2), (3, 3)}
S_PIECE = {(2, 5), (3, 5), (3, 6), (4, 6)}


def test_outlines_split_touching_pieces_and_a_missing_outline_merges_them() -> None:
    h, v = _open_edges()
    filled = np.zeros((11, 11), bool)
    for r, c in HAMLET | S_PIECE:
        filled[r, c] = True
    _outline(HAMLET, h, v)
    _outline(S_PIECE, h, v)
    labels = find_pieces(filled, h, v)
    assert len({labels[rc] for rc in HAMLET}) == 1
    assert len({labels[rc] for rc in S_PIECE}) == 1
    assert labels[2, 2] != labels[2, 5]
    assert labels[0, 0] == 0
    v[2, 4] = 0.2  # the shared edge drawn too faintly to count
    merged = find_pieces(filled, h, v)
    assert merged[2, 2] == merged[2, 5]


def _flood_fill(cells: np.ndarray, h: np.ndarray, v: np.ndarray, threshold: float) -> np.ndarray:
    """Pieces as the definition says, cell by cell: numbered in row-major order of first cells."""
    rows, cols = cells.shape
    labels = np.zeros((rows, cols), int)
    for start in zip(*np.nonzero(cells), strict=True):
        if labels[start]:
            continue
        labels[start] = number = labels.max() + 1
        stack = [start]
        while stack:
            r, c = stack.pop()
            steps = [((r + 1, c), h[r, c] if r + 1 < rows else 1.0), ((r - 1, c), h[r - 1, c] if r else 1.0),
                     ((r, c + 1), v[r, c] if c + 1 < cols else 1.0), ((r, c - 1), v[r, c - 1] if c else 1.0)]
            for (nr, nc), edge in steps:
                # an unread (NaN) edge is crossed, as no outline
                inside = 0 <= nr < rows and 0 <= nc < cols
                if inside and cells[nr, nc] and not labels[nr, nc] and not edge >= threshold:
                    labels[nr, nc] = number
                    stack.append((nr, nc))
    return labels


@pytest.mark.parametrize("seed", range(40))
def test_pieces_are_the_flood_fill_of_the_open_edges(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = (11, 11) if seed % 4 else tuple(int(n) for n in rng.integers(1, 13, 2))
    cells = rng.random(shape) < (1.0 if seed % 5 == 0 else rng.uniform(0.2, 1.0))
    h, v = rng.random((shape[0] - 1, shape[1])), rng.random((shape[0], shape[1] - 1))
    h[rng.random(h.shape) < 0.1] = np.nan
    threshold = float(rng.uniform(0.2, 0.9))
    labels = find_pieces(cells, h, v, threshold=threshold)
    assert labels.shape == shape and labels.dtype == int
    assert np.array_equal(labels, _flood_fill(cells, h, v, threshold))


def test_every_card_shape_allows_exactly_the_terrains_of_its_cards() -> None:
    table = shape_terrains()
    hamlet_big = normalise(EXPLORE["Hamlet"].shapes[1].cells)
    assert table[hamlet_big] == {Terrain.VILLAGE}
    orchard = EXPLORE["Orchard"].shapes[0].cells
    for o in orientations(normalise(orchard)):
        assert {Terrain.FOREST, Terrain.FARM} <= table[o]
    assert table[normalise(S_PIECE)] == {Terrain.FOREST, Terrain.FARM, Terrain.MONSTER}
    for ambush in AMBUSH.values():
        # each edge-connected part of the ambush's shape (gapped and diagonal shapes fall apart)
        filled = np.zeros((11, 11), bool)
        for r, c in ambush.shape.cells:
            filled[r + 1, c + 1] = True
        labels = find_pieces(filled, *_open_edges())
        for n in range(1, labels.max() + 1):
            part = list(zip(*np.nonzero(labels == n), strict=True))
            if len(part) >= 2:
                assert Terrain.MONSTER in table[normalise(part)], ambush.name
    assert all(len(shape) >= 2 for shape in table)  # 1x1s are open to every terrain


def _hamlet_and_s_pieces() -> np.ndarray:
    """The pieces of a sheet holding an outlined Hamlet and an outlined S piece, nothing else drawn."""
    h, v = _open_edges()
    _outline(HAMLET, h, v)
    _outline(S_PIECE, h, v)
    filled = np.zeros((11, 11), bool)
    for r, c in HAMLET | S_PIECE:
        filled[r, c] = True
    return find_pieces(filled, h, v)


def _hamlet_and_s(reading: dict[tuple[int, int], dict[str, float]]) -> np.ndarray:
    return piece_evidence(_probs(reading), _hamlet_and_s_pieces())


def test_a_terrain_the_cards_never_give_that_shape_is_vetoed() -> None:
    # every Orchard cell read as village: no card offers village in that shape, forest is next best
    reading = {rc: {"V": 0.7, "F": 0.2, "P": 0.05} for rc in S_PIECE}
    out = _hamlet_and_s(reading)
    for r, c in S_PIECE:
        assert SYMBOLS[out[r * 11 + c].argmax()] == "F"


def test_a_cell_read_unlike_its_piece_follows_the_piece() -> None:
    reading = {rc: {"V": 0.97} for rc in HAMLET}
    reading[(3, 3)] = {"W": 0.5, "V": 0.4}
    out = _hamlet_and_s(reading)
    assert SYMBOLS[out[3 * 11 + 3].argmax()] == "V"


def test_cells_that_agree_keep_their_confidence() -> None:
    # a piece read consistently (rightly or wrongly) gains no confidence from its own agreement
    reading = {rc: {"F": 0.8, "P": 0.15} for rc in S_PIECE}
    reading.update({rc: {"V": 0.9} for rc in HAMLET})
    p = _probs(reading)
    out = _hamlet_and_s(reading)
    assert np.allclose(out, p)


@pytest.mark.parametrize("outlined", [False, True])
def test_pieces_of_no_card_shape_are_left_alone(outlined: bool) -> None:
    # a 2x3 block is no card's shape: whether outlined or merged, nothing is corrected
    block = {(r, c) for r in (5, 6) for c in (1, 2, 3)}
    reading = {rc: {"V": 0.9} for rc in block}
    reading[(6, 3)] = {"W": 0.6, "V": 0.3}
    h, v = _open_edges()
    if outlined:
        _outline(block, h, v)
    filled = np.zeros((11, 11), bool)
    for r, c in block:
        filled[r, c] = True
    p = _probs(reading)
    assert normalise(block) not in shape_terrains()
    assert np.allclose(piece_evidence(p, find_pieces(filled, h, v)), p)


def _one_piece(part: np.ndarray, allowed: frozenset[Terrain]) -> np.ndarray:
    """piece_evidence's two corrections of one piece's rows, written out for that piece alone."""
    part = part.copy()
    forbidden = np.array([s in "FVPWMH" and Terrain(s) not in allowed for s in SYMBOLS])
    vetoed = forbidden[part.argmax(axis=1)]
    fixed = part * np.where(forbidden, PIECE_FLOOR, 1.0)
    part[vetoed] = fixed[vetoed] / fixed[vetoed].sum(axis=1, keepdims=True)
    logp = np.log(np.maximum(part, LOG_FLOOR))
    pooled = logp + PIECE_WEIGHT * (logp.sum(axis=0) - logp) / (len(part) - 1)
    z = np.exp(pooled - pooled.max(axis=1, keepdims=True))
    z /= z.sum(axis=1, keepdims=True)
    follow = z.argmax(axis=1) != part.argmax(axis=1)
    part[follow] = z[follow]
    return part


@pytest.mark.parametrize("seed", range(16))
def test_pieces_are_corrected_each_on_its_own(seed: int) -> None:
    """Every piece at once gives, to the last digit, what each piece alone gives."""
    rng = np.random.default_rng(seed)
    h = (rng.random((10, 11)) < 0.6).astype(float)
    v = (rng.random((11, 10)) < 0.6).astype(float)
    labels = find_pieces(rng.random((11, 11)) > 0.1, h, v)
    p = rng.dirichlet(np.full(8, 0.5), 121)
    expected = p.copy()
    for number in range(1, labels.max() + 1):
        cells = np.flatnonzero(labels.ravel() == number)
        allowed = shape_terrains().get(normalise(divmod(int(i), 11) for i in cells))
        if allowed is not None:
            expected[cells] = _one_piece(p[cells], allowed)
    got = piece_evidence(p, labels)
    assert np.array_equal(got, expected)
    assert not np.array_equal(got, p)  # some piece of a card's shape was corrected


def test_a_drawn_cell_read_as_empty_joins_its_outlined_piece() -> None:
    # pieces come from the outlines over every drawable cell: the faint cell is still inside the
    # Hamlet's outline, while the unoutlined empty space around it is one big region of no card's shape
    reading = {rc: {"V": 0.97} for rc in HAMLET}
    reading[(2, 4)] = {".": 0.6, "V": 0.3}
    h, v = _open_edges()
    _outline(HAMLET, h, v)
    labels = find_pieces(np.ones((11, 11), bool), h, v)
    assert len({labels[rc] for rc in HAMLET}) == 1
    assert (labels == labels[0, 0]).sum() == 121 - len(HAMLET)
    p = _probs(reading)
    out = piece_evidence(p, labels)
    assert SYMBOLS[out[2 * 11 + 4].argmax()] == "V"
    outside = [i for i in range(121) if divmod(i, 11) not in HAMLET]
    assert np.allclose(out[outside], p[outside])


@pytest.mark.parametrize("decode", [True, False])
def test_classify_sheet_corrects_a_cell_by_its_outlined_piece(
    monkeypatch: pytest.MonkeyPatch, decode: bool
) -> None:
    reading = {rc: {"V": 0.97} for rc in HAMLET}
    reading[(3, 3)] = {"W": 0.6, "V": 0.35}
    h, v = _open_edges()
    _outline(HAMLET, h, v)
    outlines = np.concatenate([h.ravel(), v.ravel()])  # one run, in the order the strips are given

    def fixed_cells(
        models: object, patches: np.ndarray, *, gain: np.ndarray | None = None,
        ruins: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _probs(reading), np.zeros(121), np.eye(121, 8)

    sent: list[np.ndarray] = []

    def fake_edges(models: object, strips: np.ndarray, *, gain: np.ndarray | None = None) -> np.ndarray:
        sent.append(strips[:, 0, 0, 0].astype(int))  # each strip carries its number
        return np.asarray(outlines[sent[-1]])

    monkeypatch.setattr(classify, "classify_cells", fixed_cells)
    monkeypatch.setattr(classify, "read_edges", fake_edges)
    strips = _numbered_strips()
    cells = _paper_with_ink(reading)
    sheet = classify.classify_sheet(cells, "A", edge_strips=strips, adapt=False, decode=decode)
    best = SYMBOLS[int(sheet.probabilities[3, 3].argmax())]
    assert best == ("V" if decode else "W")
    assert sheet.outlines["horizontal"].shape == (10, 11)
    read = np.concatenate(sent)
    # with the pieces, only the strips touching the Hamlet (every other cell is read empty, and it is
    # outlined all round) and no printed cell are read
    ends = [((r, c), (r + 1, c)) for r in range(10) for c in range(11)]
    ends += [((r, c), (r, c + 1)) for r in range(11) for c in range(10)]
    printed = printed_side("A").mountains | printed_side("A").wasteland
    touching = [k for k, (a, b) in enumerate(ends) if {a, b} & HAMLET and not {a, b} & printed]
    assert 10 < len(touching) < 16  # the Hamlet's 11 outline edges and 4 inside, less the printed
    expected = touching if decode else list(range(220))
    assert sorted(read.tolist()) == expected
    given = np.concatenate([sheet.outlines["horizontal"].ravel(), sheet.outlines["vertical"].ravel()])
    assert np.array_equal(given[read], outlines[read])
    assert np.all(np.delete(given, read) == UNREAD_EDGE)


def test_a_doubtful_cell_offers_no_terrain_its_piece_s_shape_never_takes() -> None:
    # the S piece may be forest, farm or monsters, never water or village; the Hamlet only villages
    reading = {rc: {"F": 0.8, "W": 0.1, "M": 0.06} for rc in S_PIECE}
    reading.update({rc: {"V": 0.98} for rc in HAMLET})
    reading[(2, 2)] = {"V": 0.7, "W": 0.2, "F": 0.05}
    reading[(3, 3)] = {"W": 0.6, "V": 0.35}  # read as a terrain its shape never takes: its best stays
    p = _probs(reading)
    out = unoffered_alternatives(p, _hamlet_and_s_pieces())
    assert np.allclose(out.sum(axis=1), 1.0)
    s = SYMBOLS.index
    for r, c in S_PIECE:
        i = r * 11 + c
        assert out[i].argmax() == s("F")
        # water scaled by the floor against the kept terrains; monsters are an S piece's: kept
        assert out[i, s("W")] / out[i, s("F")] == pytest.approx(PIECE_FLOOR * p[i, s("W")] / p[i, s("F")])
        assert out[i, s("M")] / out[i, s("F")] == pytest.approx(p[i, s("M")] / p[i, s("F")])
    hamlet = 2 * 11 + 2
    assert out[hamlet, s("W")] < 0.01 and out[hamlet, s("F")] < 0.003 and out[hamlet].argmax() == s("V")
    assert out[3 * 11 + 3].argmax() == s("W") and out[3 * 11 + 3, s("V")] > p[3 * 11 + 3, s("V")]
    outside = [i for i in range(121) if divmod(i, 11) not in HAMLET | S_PIECE]
    assert np.array_equal(out[outside], p[outside])


def test_a_doubtful_cell_read_drawn_in_a_drawn_piece_offers_no_empty_paper() -> None:
    s = SYMBOLS.index
    reading = {rc: {"V": 0.97} for rc in HAMLET}
    reading[(2, 3)] = {"V": 0.85, ".": 0.1}
    # the S piece is an empty pocket the outlines happen to cut out, one cell of it read as a farm
    reading[(3, 5)] = {"P": 0.6, ".": 0.35}
    p = _probs(reading)
    out = unoffered_alternatives(p, _hamlet_and_s_pieces())
    assert out[2 * 11 + 3, s(".")] < 0.005 and out[2 * 11 + 3].argmax() == s("V")
    assert out[3 * 11 + 5, s(".")] / out[3 * 11 + 5, s("P")] == pytest.approx(0.35 / 0.6)  # kept
    # a cell read empty in a drawn piece keeps its reading: pruning never changes a best guess
    reading[(2, 3)] = {".": 0.6, "V": 0.35}
    out = unoffered_alternatives(_probs(reading), _hamlet_and_s_pieces())
    assert out[2 * 11 + 3].argmax() == s(".")


def test_a_piece_s_sure_cells_name_the_terrain_its_doubtful_cells_may_hold() -> None:
    s = SYMBOLS.index
    reading = {rc: {"F": 0.98} for rc in S_PIECE}
    doubtful = (3, 6)
    reading[doubtful] = {"F": 0.8, "M": 0.1, "P": 0.08}  # monsters and farms fit the S shape too
    p = _probs(reading)
    sure = np.ones(121, bool)
    sure[doubtful[0] * 11 + doubtful[1]] = False
    i = doubtful[0] * 11 + doubtful[1]
    by_shape = unoffered_alternatives(p, _hamlet_and_s_pieces())
    assert by_shape[i, s("M")] > 0.05 and by_shape[i, s("P")] > 0.05
    named = unoffered_alternatives(p, _hamlet_and_s_pieces(), sure)
    assert named[i, s("M")] < 0.005 and named[i, s("P")] < 0.005 and named[i].argmax() == s("F")
    assert (named.argmax(axis=1) == p.argmax(axis=1)).all()  # no best reading changes
    # sure cells that disagree name nothing
    reading[(2, 5)] = {"P": 0.98}
    torn = unoffered_alternatives(_probs(reading), _hamlet_and_s_pieces(), sure)
    assert torn[i, s("M")] > 0.05 and torn[i, s("P")] > 0.05


def test_a_piece_mostly_read_empty_is_left_alone() -> None:
    # a pocket of paper the outlines around it cut to the S shape, one cell of it read as a village
    reading = {(2, 5): {"V": 0.6, "W": 0.3, ".": 0.05}}
    p = _probs(reading)
    assert np.array_equal(unoffered_alternatives(p, _hamlet_and_s_pieces(), np.ones(121, bool)), p)


def test_classify_sheet_keeps_the_doubt_of_a_cell_whose_alternatives_its_piece_rules_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reading = {rc: {"V": 0.99} for rc in HAMLET}
    reading[(2, 3)] = {"V": 0.9, "W": 0.08}  # doubtful; pruned, it would read 0.99
    h, v = _open_edges()
    _outline(HAMLET, h, v)
    outlines = np.concatenate([h.ravel(), v.ravel()])

    def fixed_cells(
        models: object, patches: np.ndarray, *, gain: np.ndarray | None = None,
        ruins: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _probs(reading), np.zeros(121), np.eye(121, 8)

    def fake_edges(models: object, strips: np.ndarray, *, gain: np.ndarray | None = None) -> np.ndarray:
        return np.asarray(outlines[strips[:, 0, 0, 0].astype(int)])

    monkeypatch.setattr(classify, "classify_cells", fixed_cells)
    monkeypatch.setattr(classify, "read_edges", fake_edges)
    cells = _paper_with_ink(reading)
    sheet = classify.classify_sheet(cells, "A", edge_strips=_numbered_strips(), adapt=False)
    assert sheet.grid[2][3] == "?" and sheet.doubtful == ("C4",)
    assert sheet.confidence[2, 3] == pytest.approx(0.9)
    assert sheet.probabilities[2, 3, SYMBOLS.index("W")] < 0.02  # water is no longer offered
    assert sheet.probabilities[2, 3].argmax() == SYMBOLS.index("V")


def test_a_strip_between_two_empty_cells_is_not_read_first() -> None:
    cells = np.ones((11, 11), bool)
    cells[5, 5] = False  # printed: its edges are never crossed
    empty = np.ones((11, 11), bool)
    empty[2, 3] = False  # one cell read as drawn
    h, v = edges_to_read(cells, empty)
    assert h.sum() + v.sum() == 4  # the four edges of the drawn cell
    assert h[1, 3] and h[2, 3] and v[2, 2] and v[2, 3]
    empty[4, 5] = False  # drawn, next to the printed cell: three edges, not the printed one's
    h, v = edges_to_read(cells, empty)
    assert h.sum() + v.sum() == 7 and not h[4, 5]


def test_edges_between_empty_cells_are_read_near_an_unoutlined_drawn_cell() -> None:
    cells = np.ones((11, 11), bool)
    empty = np.ones((11, 11), bool)
    empty[5, 5] = False
    first = edges_to_read(cells, empty)
    h, v = _open_edges()
    _outline({(5, 5)}, h, v)
    assert not any(m.any() for m in edges_near_pieces(cells, empty, h, v, first))  # outlined: alone
    v[5, 5] = 0.0  # its right edge missed: the pieces it can join reach 4 steps further right
    more_h, more_v = edges_near_pieces(cells, empty, h, v, first)
    assert more_v[5, 6:10].all() and more_h[4, 6] and more_h[5, 9]
    assert not more_h[5, 10] and not more_v[0, 5]  # (5, 10) is 5 steps away, (6, 10) 6, row 0 7
    assert not (more_h & first[0]).any() and not (more_v & first[1]).any()


@pytest.mark.parametrize("seed", range(40))
def test_pieces_from_the_strips_read_correct_cells_as_all_strips_do(seed: int) -> None:
    """Unread strips (set to no line) never change what piece_evidence does: random sheets with many
    cells read as empty, outlines of every density."""
    rng = np.random.default_rng(seed)
    cells = rng.random((11, 11)) > 0.1
    density = rng.uniform(0.1, 0.9)
    h = (rng.random((10, 11)) < density).astype(float)
    v = (rng.random((11, 10)) < density).astype(float)
    p = rng.dirichlet(np.full(8, 0.3), 121)
    drawn = rng.random(121) < rng.uniform(0.1, 0.5)
    p[~drawn, 0] += 2.0  # empty most likely
    p /= p.sum(axis=1, keepdims=True)
    assert _as_with_all_strips(cells, h, v, p) < 220


def _as_with_all_strips(cells: np.ndarray, h: np.ndarray, v: np.ndarray, p: np.ndarray) -> int:
    """Assert that the strips read (the rest set to no line) correct cells as all strips do; how many
    were read."""
    empty = (p.argmax(axis=1) == 0).reshape(11, 11)
    first = edges_to_read(cells, empty)
    more = edges_near_pieces(cells, empty, h, v, first)
    read_h, read_v = first[0] | more[0], first[1] | more[1]
    partial_h, partial_v = np.where(read_h, h, UNREAD_EDGE), np.where(read_v, v, UNREAD_EDGE)
    expected = piece_evidence(p, find_pieces(cells, h, v))
    assert np.array_equal(piece_evidence(p, find_pieces(cells, partial_h, partial_v)), expected)
    return int(read_h.sum() + read_v.sum())


def test_a_largest_card_shape_of_one_drawn_cell_and_empty_ones_is_outlined_as_read() -> None:
    # a drawn cell at one end of a 5-cell L (farm or water) whose other cells the net reads as empty:
    # the outline at the far end, 4 steps away, decides whether it is a card's shape, so it is read
    corner = {(4, 2), (4, 3), (4, 4), (5, 4), (6, 4)}
    h, v = _open_edges()
    _outline(corner, h, v)
    p = _probs({(4, 2): {"F": 0.5, ".": 0.45}})
    cells = np.ones((11, 11), bool)
    assert _as_with_all_strips(cells, h, v, p) < 220
    assert SYMBOLS[piece_evidence(p, find_pieces(cells, h, v))[4 * 11 + 2].argmax()] == "."  # no forest


def test_a_sheet_read_all_empty_sends_no_strip_to_the_edge_net(monkeypatch: pytest.MonkeyPatch) -> None:
    def empty_cells(
        models: object, patches: np.ndarray, *, gain: np.ndarray | None = None,
        ruins: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return _probs({}), np.zeros(121), np.eye(121, 8)

    def no_net(models: object, strips: np.ndarray, *, gain: np.ndarray | None = None) -> np.ndarray:
        raise AssertionError(f"{len(strips)} strips sent")

    monkeypatch.setattr(classify, "classify_cells", empty_cells)
    monkeypatch.setattr(classify, "read_edges", no_net)
    strips = {"horizontal": np.zeros((10, 11, EDGE_ACROSS, EDGE_ALONG, 3), np.uint8),
              "vertical": np.zeros((11, 10, EDGE_ACROSS, EDGE_ALONG, 3), np.uint8)}
    cells = np.full((11, 11, PATCH, PATCH, 3), PAPER_LEVEL, np.uint8)
    sheet = classify.classify_sheet(cells, "B", edge_strips=strips, adapt=False)
    assert sheet.outlines.keys() == strips.keys()
    assert all(np.all(o == UNREAD_EDGE) for o in sheet.outlines.values())


# side A's printed ruins at (2, 1) inside a Pasture (S tetromino) of farms drawn over it
RUIN = (2, 1)
PASTURE = {(2, 1), (3, 1), (3, 2), (4, 2)}


def _ruins_and_drawable() -> tuple[np.ndarray, np.ndarray]:
    side = printed_side("A")
    ruins = np.zeros((11, 11), bool)
    drawable = np.ones((11, 11), bool)
    for r, c in side.ruins:
        ruins[r, c] = True
    for r, c in side.mountains | side.wasteland:
        drawable[r, c] = False
    return ruins, drawable


def _pasture_over_the_ruin(ruin_read: dict[str, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    reading = {rc: {"P": 0.97} for rc in PASTURE}
    reading[RUIN] = ruin_read
    h, v = _open_edges()
    _outline(PASTURE, h, v)
    return _probs(reading), h, v


def test_a_ruin_read_empty_inside_a_drawn_piece_is_doubted_with_the_pieces_terrain() -> None:
    p, h, v = _pasture_over_the_ruin({".": 0.99})
    ruins, drawable = _ruins_and_drawable()
    out, flagged = drawn_over_ruins(p, ruins, drawable, h, v)
    i = RUIN[0] * 11 + RUIN[1]
    assert np.flatnonzero(flagged).tolist() == [i]
    assert out[i, 0] == RUINS_JOINED_EMPTY_CAP and out[i].max() < 0.95  # a '?' now
    assert out[i, SYMBOLS.index("P")] > 0.45  # its piece's farm is the other reading
    assert np.isclose(out[i].sum(), 1.0)
    assert np.array_equal(np.delete(out, i, axis=0), np.delete(p, i, axis=0))


def test_a_bare_ruin_parted_from_a_drawing_by_its_outline_is_left_alone() -> None:
    # the Pasture drawn beside the ruin: the ruin is outside its outline
    beside = {(3, 1), (3, 2), (4, 2), (4, 3)}
    reading = {rc: {"P": 0.97} for rc in beside}
    reading[RUIN] = {".": 0.99}
    h, v = _open_edges()
    _outline(beside, h, v)
    p = _probs(reading)
    ruins, drawable = _ruins_and_drawable()
    out, flagged = drawn_over_ruins(p, ruins, drawable, h, v)
    assert not flagged.any() and out is p


def test_a_ruin_read_empty_but_outlined_against_the_paper_is_doubted_by_its_own_odds() -> None:
    # a single space drawn over the ruin (the ruins' 1x1 fallback), outlined all round, read as paper
    reading = {RUIN: {".": 0.99, "W": 0.008}}
    h, v = _open_edges()
    _outline({RUIN}, h, v)
    p = _probs(reading)
    ruins, drawable = _ruins_and_drawable()
    out, flagged = drawn_over_ruins(p, ruins, drawable, h, v)
    i = RUIN[0] * 11 + RUIN[1]
    assert np.flatnonzero(flagged).tolist() == [i]
    assert out[i, 0] == RUINS_JOINED_EMPTY_CAP
    assert out[i, 1:].argmax() + 1 == SYMBOLS.index("W")  # its own next reading leads the rest
    assert np.isclose(out[i].sum(), 1.0)


@pytest.mark.parametrize("neighbour", [".", "X"])
def test_a_ruin_joined_only_to_paper_or_a_destroyed_space_is_left_alone(neighbour: str) -> None:
    # no outline anywhere (an empty sheet), one neighbour read as paper or as a destroyed space
    reading = {RUIN: {".": 0.99}, (3, 1): {neighbour: 0.97}}
    p = _probs(reading)
    h, v = _open_edges()
    ruins, drawable = _ruins_and_drawable()
    assert not drawn_over_ruins(p, ruins, drawable, h, v)[1].any()


def test_only_ruins_read_as_empty_are_doubted() -> None:
    ruins, drawable = _ruins_and_drawable()
    p, h, v = _pasture_over_the_ruin({"P": 0.9})  # read as the farm it is: nothing to doubt
    assert not drawn_over_ruins(p, ruins, drawable, h, v)[1].any()
    p, h, v = _pasture_over_the_ruin({".": 0.99})
    ruins[RUIN] = False  # the same reading on a space with no ruins printed: the net's word stands
    assert not drawn_over_ruins(p, ruins, drawable, h, v)[1].any()


@pytest.mark.parametrize("decode", [True, False])
def test_classify_sheet_doubts_a_ruin_read_empty_inside_a_drawn_piece(
    monkeypatch: pytest.MonkeyPatch, decode: bool
) -> None:
    p, h, v = _pasture_over_the_ruin({".": 0.99})
    outlines = np.concatenate([h.ravel(), v.ravel()])
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (p, np.zeros(121), np.eye(121, 8)))
    # each strip carries its number, which says its outline
    monkeypatch.setattr(classify, "read_edges",
                        lambda models, strips, gain=None: outlines[strips[:, 0, 0, 0].astype(int)])
    strips = _numbered_strips()
    cells = _paper_with_ink(PASTURE - {RUIN})
    sheet = classify.classify_sheet(cells, "A", edge_strips=strips, adapt=False, decode=decode)
    assert sheet.grid[RUIN[0]][RUIN[1]] == ("?" if decode else ".")
    assert all(sheet.grid[r][c] == "P" for r, c in PASTURE - {RUIN})
