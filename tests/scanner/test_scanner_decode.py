"""scanner.decode: look-alike cells pool their evidence, the coin track is a prefix, heroes and stars fit."""

from __future__ import annotations

import numpy as np
import pytest

import scanner.classify as classify
from rules.shapes import HEROES
from scanner.constants import (
    CELL_INK_EMPTY_CAP,
    CELL_INK_INSET,
    CELL_INK_SHARE,
    CELL_SPOT_FLOOR,
    CELL_SPOT_INSET,
    CONFIDENCE_THRESHOLD,
    GROUP_DOUBT_SHARE,
    HERO_EXCESS_CAP,
    HERO_RING_BOOSTS,
    HERO_STAR_BOOST,
    INKED_EMPTY_RATIO,
    PAPER_EMPTY,
    PAPER_INK_SHARE,
    PAPER_QUIET_LEAST,
    PATCH,
    TERRAIN_CLASSES,
)
from scanner.decode import (
    adapt_to_sheet,
    attack_patterns,
    attack_stars,
    coloured_ink,
    crowded_track,
    dark_spots,
    decode_coin_track,
    discount_print,
    drawn_first,
    hero_evidence,
    ink_against_empty,
    ink_share,
    inked_ruins,
    look_alikes,
    paper_read_drawn,
    ruins_only,
    share_group_doubt,
    spare_heroes,
    star_reach,
)

E, F, C = (0.90, 0.05, 0.05), (0.05, 0.90, 0.05), (0.05, 0.05, 0.90)


def _track(*coins: tuple[float, float, float]) -> np.ndarray:
    return np.array(coins + (E,) * (14 - len(coins)))


def test_a_faint_coin_inside_the_marked_run_is_read_as_marked() -> None:
    # the third coin looks empty to the net, but coins are filled in order (rulebook: "the next coin")
    track = _track(F, F, (0.6, 0.3, 0.1), F, F)
    assert decode_coin_track(track).tolist() == [1, 1, 1, 1, 1] + [0] * 9
    assert track.argmax(axis=1).tolist()[2] == 0  # the net alone would have said empty


def test_a_stray_mark_after_the_run_is_dropped() -> None:
    track = _track(F, F)
    track[9] = (0.4, 0.6, 0.0)  # a smudge far down the track
    assert decode_coin_track(track).tolist() == [1, 1] + [0] * 12


@pytest.mark.parametrize(("track", "expected"), [
    (_track(), [0] * 14),
    (np.array([F] * 14), [1] * 14),
    (_track(C, C, F), [2, 2, 1] + [0] * 11),
])
def test_coin_track_keeps_clear_readings(track: np.ndarray, expected: list[int]) -> None:
    assert decode_coin_track(track).tolist() == expected


FARM = TERRAIN_CLASSES.index("farm")


def test_a_terrain_read_on_printed_ruins_alone_is_doubted() -> None:
    ruins = [(1, 5), (2, 1), (8, 9)]
    best = np.zeros(121, int)
    for r, c in ruins:
        best[r * 11 + c] = FARM
    assert np.flatnonzero(ruins_only(best, ruins)).tolist() == [16, 23, 97]
    best[3 * 11 + 3] = FARM  # a farm drawn elsewhere too: the ruins may well be farmed
    assert not ruins_only(best, ruins).any()
    best[3 * 11 + 3] = 0
    best[2 * 11 + 1] = best[8 * 11 + 9] = 0  # one ruin cell alone is too little to doubt
    assert not ruins_only(best, ruins).any()


def test_the_ruins_print_gives_back_the_farm_odds_it_lends() -> None:
    """On the real prints the ruins icon reads partly as a hatched farm (farm odds 0.35-0.41 on side
    A's bare ruins for some nets): on ruins cells only, the farm odds shrink, so a half-read print
    turns to paper and a ruin a player surely farmed stays farm."""
    ruins = [(1, 5), (2, 1)]
    probs = np.full((121, len(TERRAIN_CLASSES)), 0.01)
    probs[:, 0] = 1.0
    probs[16] = probs[3 * 11 + 3] = 0.0
    probs[16, [0, FARM]] = probs[3 * 11 + 3, [0, FARM]] = (0.4, 0.6)  # a ruin and an open cell alike
    probs[23] = 0.0
    probs[23, [0, FARM]] = (0.01, 0.99)
    probs /= probs.sum(axis=1, keepdims=True)
    out = discount_print(probs, ruins, classes=("farm",), factor=0.3)
    assert out[16].argmax() == 0 and out[3 * 11 + 3].argmax() == FARM  # only the printed ruin moves
    assert out[23].argmax() == FARM and out[23, FARM] > 0.95
    assert np.allclose(out.sum(axis=1), 1.0) and np.array_equal(np.delete(out, [16, 23], 0),
                                                                np.delete(probs, [16, 23], 0))
    assert discount_print(probs, ruins, factor=1.0) is probs


def test_classify_sheet_doubts_the_ruins_icon_read_as_farm(monkeypatch: pytest.MonkeyPatch) -> None:
    from rules.sides import printed_side

    ruins = sorted(printed_side("A").ruins)
    probs = np.full((121, 8), 0.001)
    probs[:, 0] = 0.993
    for r, c in ruins:
        probs[r * 11 + c] = 0.001
        probs[r * 11 + c, FARM] = 0.993
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (probs, np.zeros(121), np.eye(121, 8)))
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    decoded = classify.classify_sheet(cells, "A", adapt=False, decode=True)
    plain = classify.classify_sheet(cells, "A", adapt=False, decode=False)
    assert all(decoded.grid[r][c] == "?" for r, c in ruins)
    assert all(plain.grid[r][c] == "P" for r, c in ruins)


def _paper_centres(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` cell centres of grey paper with sensor noise (white-balanced, uint8)."""
    side = PATCH - 2 * CELL_INK_INSET
    grey = rng.normal(225, 4, (n, side, side, 1))
    tint = rng.normal(0, 2, (n, side, side, 3))  # colour noise: a pixel's channels differ a little
    return np.clip(grey + tint, 0, 255).astype(np.uint8)


def test_coloured_ink_counts_pixels_more_coloured_than_the_paper() -> None:
    rng = np.random.default_rng(5)
    centres = _paper_centres(6, rng)
    centres[1, ::4, ::4] = (150, 215, 235)  # pale yellow dots (BGR): a dotted farm in a wash of colour
    centres[2, 4:12, 4:12] = (90, 90, 90)  # a grey pencil mark: ink, but not coloured
    ink = coloured_ink(centres, np.array([True, False, False, True, True, True]))
    assert ink[1] >= 0.05  # a sixteenth of the pixels, all of them coloured
    assert ink[[0, 2, 3, 4, 5]].max() < CELL_INK_SHARE
    # judged against the sheet's own paper: a whole sheet under a tinted light is not coloured ink
    tinted = np.clip(centres.astype(int) + np.array([0, 20, 40]), 0, 255).astype(np.uint8)
    assert np.allclose(coloured_ink(tinted, np.ones(6, bool))[[0, 2, 3]], 0.0)


def test_ink_against_empty_doubts_an_empty_reading_of_coloured_ink() -> None:
    probs = np.tile([[0.97, 0.01, 0.01, 0.006, 0.002, 0.001, 0.0005, 0.0005]], (4, 1))
    probs[3] = [0.02, 0.9, 0.02, 0.02, 0.02, 0.01, 0.005, 0.005]  # a forest, read as one
    ink = np.array([0.0, 0.1, 0.1, 0.1])
    candidates = np.array([True, True, False, True])  # cell 2 lies on printed ruins
    out, flagged = ink_against_empty(probs, ink, candidates)
    assert flagged.tolist() == [False, True, False, False]
    assert out[1, 0] == pytest.approx(CELL_INK_EMPTY_CAP)
    assert out[1].sum() == pytest.approx(1.0)
    # the terrains keep the net's order: farm (third likeliest) stays behind forest and village
    assert np.argsort(-out[1, 1:]).tolist()[:3] == [0, 1, 2]
    assert np.array_equal(out[[0, 2, 3]], probs[[0, 2, 3]])
    same, none = ink_against_empty(probs, np.zeros(4), candidates)
    assert same is probs and not none.any()


def _paper(n: int, *, grain: float = 3.0, seed: int = 5) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal(228, grain, (n, PATCH, PATCH, 3)), 0, 255).astype(np.uint8)


def _dots(cell: np.ndarray, grey: int, step: int = 4) -> None:
    """Grey dots of 2 px every ``step`` px over the cell's middle, in place (a dotted farm in pencil)."""
    for y in range(8, 24, step):
        for x in range(8, 24, step):
            cell[y : y + 2, x : x + 2] = grey


def test_dark_spots_finds_grey_dots_that_coloured_ink_cannot() -> None:
    cells = _paper(12)
    _dots(cells[3], 170)  # grey: no chroma at all
    quiet = np.ones(12, bool)
    assert dark_spots(cells, quiet).tolist() == [i == 3 for i in range(12)]
    i = CELL_INK_INSET
    assert coloured_ink(np.ascontiguousarray(cells[:, i:-i, i:-i]), quiet)[3] < CELL_INK_SHARE


def test_dark_spots_are_set_against_the_sheets_own_grain_and_the_floor() -> None:
    # a noisy photo: every cell grainy; dots no stronger than the grain are no drawing
    noisy = _paper(12, grain=14.0)
    _dots(noisy[3], 205)
    assert not dark_spots(noisy, np.ones(12, bool)).any()
    # faint dots on clean paper: under the floor they are not taken, above it they are
    cells = _paper(12, grain=1.0)
    _dots(cells[3], 224)
    assert not dark_spots(cells, np.ones(12, bool))[3]
    assert dark_spots(cells, np.ones(12, bool), floor=CELL_SPOT_FLOOR / 10)[3]


def test_dark_spots_leave_the_rim_to_the_outlines_and_need_no_cells() -> None:
    cells = _paper(8)
    cells[5, :CELL_SPOT_INSET, :] = 40  # a piece's pencil outline along the cell's top edge
    assert not dark_spots(cells, np.ones(8, bool)).any()
    assert dark_spots(cells[:0], np.zeros(0, bool)).shape == (0,)


def test_ink_against_empty_doubts_a_spotted_empty_reading() -> None:
    probs = np.tile([[0.97, 0.01, 0.01, 0.006, 0.002, 0.001, 0.0005, 0.0005]], (3, 1))
    candidates = np.array([True, True, False])
    spotted = np.array([False, True, True])  # cell 2 lies on printed ruins
    out, flagged = ink_against_empty(probs, np.zeros(3), candidates, spotted=spotted)
    assert flagged.tolist() == [False, True, False]
    assert out[1, 0] == pytest.approx(CELL_INK_EMPTY_CAP)


def test_drawn_first_puts_empty_under_the_likeliest_drawn_class() -> None:
    probs = np.zeros((3, 8))
    probs[:, 0] = 0.5, 0.5, 1.0
    probs[0, 1:3], probs[1, 1] = 0.25, 0.5  # forest and village alike; a forest alone
    flagged = np.array([True, True, False])
    out = drawn_first(probs, flagged)
    # e = ratio * (1 - e) * the top share, solved: two alike share the drawn mass, empty under both
    assert out[0, 0] == pytest.approx(INKED_EMPTY_RATIO * out[0, 1]) and out[0, 1] == pytest.approx(out[0, 2])
    assert out[1, 0] == pytest.approx(INKED_EMPTY_RATIO / (1 + INKED_EMPTY_RATIO))
    assert out[:2].argmax(axis=1).tolist() == [1, 1] and out[:2].max() < CONFIDENCE_THRESHOLD
    assert out[:2, 0].min() > 0.02  # empty stays a plausible reading
    assert np.allclose(out.sum(axis=1), 1.0) and np.array_equal(out[2], probs[2])
    # never more empty than before; nothing flagged, nothing done
    low = probs.copy()
    low[1, :2] = 0.1, 0.9
    assert drawn_first(low, flagged)[1, 0] == pytest.approx(0.1)
    assert drawn_first(probs, np.zeros(3, bool)) is probs


def _net_reads_paper(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in cell net reading every cell as paper at 0.993, farm the likeliest terrain after it."""
    probs = np.full((121, 8), 0.001)
    probs[:, 0] = 0.993
    probs[:, 3] = 0.002
    probs /= probs.sum(axis=1, keepdims=True)
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (probs, np.zeros(121), np.eye(121, 8)))


def test_classify_sheet_doubts_an_empty_cell_holding_coloured_ink(monkeypatch: pytest.MonkeyPatch) -> None:
    _net_reads_paper(monkeypatch)
    rng = np.random.default_rng(9)
    cells = np.clip(rng.normal(228, 3, (11, 11, PATCH, PATCH, 3)), 0, 255).astype(np.uint8)
    cells[0, 0, 8:24:3, 8:24:3] = (120, 200, 230)  # A1: pale yellow dots the net reads as paper
    decoded = classify.classify_sheet(cells, "A", adapt=False, decode=True)
    plain = classify.classify_sheet(cells, "A", adapt=False, decode=False)
    assert decoded.grid[0][0] == "?" and plain.grid[0][0] == "."
    assert decoded.doubtful == ("A1",)
    # its best guess is the terrain the net ranks first after paper (drawn_first), paper still plausible
    a1 = decoded.probabilities[0, 0]
    assert a1.argmax() == TERRAIN_CLASSES.index("farm") and 0.02 < a1[0] < CELL_INK_EMPTY_CAP


def test_classify_sheet_doubts_an_empty_cell_holding_grey_dots(monkeypatch: pytest.MonkeyPatch) -> None:
    _net_reads_paper(monkeypatch)
    cells = _paper(121).reshape(11, 11, PATCH, PATCH, 3)
    _dots(cells[0, 0], 160)  # A1: a grey dotted farm the net reads as paper
    decoded = classify.classify_sheet(cells, "A", adapt=False, decode=True)
    assert decoded.grid[0][0] == "?" and decoded.doubtful == ("A1",)
    assert decoded.probabilities[0, 0].argmax() == TERRAIN_CLASSES.index("farm")
    assert classify.classify_sheet(cells, "A", adapt=False, decode=False).grid[0][0] == "."


def test_ink_share_counts_dark_and_coloured_pixels_against_the_paper() -> None:
    rng = np.random.default_rng(5)
    centres = _paper_centres(5, rng)
    centres[1, 4:12, 4:12] = (120, 120, 120)  # a grey pencil mark: dark ink
    centres[2, ::4, ::4] = (150, 215, 235)  # pale yellow dots: coloured ink
    centres[3, 4:12, 4:12] = (210, 210, 210)  # a shade too pale to be ink
    ink = ink_share(centres, np.array([True, False, False, False, True]))
    assert ink[1] == pytest.approx(64 / 400) and ink[2] >= 0.05
    assert ink[[0, 3, 4]].max() < PAPER_INK_SHARE
    # judged against the sheet's own paper: a darker, tinted sheet holds no more ink
    dim = np.clip(centres.astype(int) - np.array([40, 30, 10]), 0, 255).astype(np.uint8)
    assert ink_share(dim, np.array([True, False, False, False, True]))[[0, 3, 4]].max() < PAPER_INK_SHARE


def test_paper_read_drawn_doubts_a_drawn_reading_without_ink() -> None:
    probs = np.tile([[0.02, 0.9, 0.02, 0.03, 0.02, 0.005, 0.0025, 0.0025]], (4, 1))  # forests
    probs[3] = [0.97, 0.01, 0.01, 0.004, 0.002, 0.002, 0.001, 0.001]  # paper, read as such
    ink = np.array([0.0, 0.3, 0.0, 0.0])
    candidates = np.array([True, True, False, True])  # cell 2 lies on printed ruins
    out, flagged = paper_read_drawn(probs, ink, candidates)
    assert flagged.tolist() == [True, False, False, False]
    assert out[0, 0] == pytest.approx(PAPER_EMPTY) and out[0].argmax() == 0
    assert out[0].sum() == pytest.approx(1.0)
    # the drawn classes keep the net's order, and the others their readings
    assert np.argsort(-out[0, 1:]).tolist()[:2] == [0, 2]
    assert np.array_equal(out[1:], probs[1:])
    same, none = paper_read_drawn(probs, np.ones(4), candidates)
    assert same is probs and not none.any()


def _net_reads_forest_at(monkeypatch: pytest.MonkeyPatch, cells: list[int]) -> None:
    """A stand-in cell net reading ``cells`` as forest at 0.97, the others as paper."""
    probs = np.full((121, 8), 0.001)
    probs[:, 0] = 0.993
    for k in cells:
        probs[k] = [0.02, 0.97, 0.002, 0.002, 0.002, 0.002, 0.001, 0.001]
    probs /= probs.sum(axis=1, keepdims=True)
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (probs, np.zeros(121), np.eye(121, 8)))


def test_classify_sheet_doubts_a_drawn_reading_of_bare_paper(monkeypatch: pytest.MonkeyPatch) -> None:
    _net_reads_forest_at(monkeypatch, [0, 1, 2])
    cells = _paper(121).reshape(11, 11, PATCH, PATCH, 3)
    cells[0, 1, 8:24, 15:17] = 90  # A2: a pencil tree trunk
    _dots(cells[0, 2], 200)  # A3: faint pencil dots, pale but standing out of the paper
    decoded = classify.classify_sheet(cells, "A", adapt=False, decode=True)
    assert decoded.grid[0][0] == "?" and decoded.probabilities[0, 0].argmax() == 0
    assert decoded.grid[0][1] == "F" and decoded.grid[0][2] == "F"
    assert classify.classify_sheet(cells, "A", adapt=False, decode=False).grid[0][0] == "F"
    # a sheet with too few cells read as paper has no yardstick: nothing is doubted
    _net_reads_forest_at(monkeypatch, [0, *range(PAPER_QUIET_LEAST, 121)])  # 7 cells read as paper
    assert classify.classify_sheet(cells, "A", adapt=False, decode=True).grid[0][0] == "F"


def test_a_track_marked_from_end_to_end_is_doubted() -> None:
    full = np.array([1] * 13 + [0])
    assert crowded_track(full).tolist() == [True] * 13 + [False]
    assert crowded_track(np.array([2, 2] + [1] * 12)).all()
    assert not crowded_track(np.array([1] * 12 + [0, 0])).any()
    assert not crowded_track(np.zeros(14, int)).any()


@pytest.mark.parametrize("decode", [True, False])
def test_classify_sheet_doubts_a_crowded_track(monkeypatch: pytest.MonkeyPatch, decode: bool) -> None:
    # 13 coins look marked and alike, the last looks like something else: the print
    look = np.array([[1.0, 0.0]] * 13 + [[0.0, 1.0]])
    monkeypatch.setattr(classify, "read_coins", lambda models, patches, gain=None: (np.array([F] * 14), look))
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (np.full((121, 8), 1 / 8),
                                                                        np.zeros(121), np.eye(121, 8)))
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    coins = np.full((14, PATCH, PATCH, 3), 235, np.uint8)
    sheet = classify.classify_sheet(cells, "A", coin_patches=coins, adapt=False, decode=decode)
    assert sheet.coins == (13 if decode else 14)
    assert sheet.doubtful_coins == (tuple(range(13)) if decode else ())


def test_star_reach_is_the_union_of_every_hero_pattern_in_every_orientation() -> None:
    expected = {off for hero in HEROES.values() for pattern in hero.attack_orientations for off in pattern}
    reach = star_reach()
    assert reach == expected
    assert (0, 3) in reach and (3, 0) in reach  # the archer shoots three spaces in a row
    assert (0, 0) not in reach and (0, 4) not in reach and (3, 3) not in reach


HERO = TERRAIN_CLASSES.index("hero")
# Dobrik of Lorkheim hits the four orthogonal neighbours; Freyla the True three in a line
PLUS = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def _star_map(cells: list[tuple[int, int]], value: float = 0.99) -> np.ndarray:
    star_p = np.full((11, 11), 0.01)
    for cell in cells:
        star_p[cell] = value
    return star_p


def _hero_map(cells: list[tuple[int, int]]) -> np.ndarray:
    hero_p = np.zeros((11, 11))
    for cell in cells:
        hero_p[cell] = 0.9
    return hero_p


def test_attack_patterns_are_each_orientation_once() -> None:
    patterns = attack_patterns()
    assert len(set(patterns)) == len(patterns)
    assert frozenset(PLUS) in patterns
    assert {frozenset({(-1, 0), (-2, 0), (-3, 0)}), frozenset({(1, 0), (2, 0), (3, 0)})} <= set(patterns)


def test_stars_are_read_as_a_heros_whole_pattern() -> None:
    plus = [(5 + dr, 5 + dc) for dr, dc in PLUS]
    # a stray star-like mark far from the hero and one next to it but off its pattern are not stars
    got = attack_stars(_star_map([*plus, (1, 1), (4, 4)]), _hero_map([(5, 5)]))
    assert got == set(plus)


def test_a_pattern_with_a_missing_star_gives_no_stars() -> None:
    plus = [(5 + dr, 5 + dc) for dr, dc in PLUS]
    assert attack_stars(_star_map(plus[:3]), _hero_map([(5, 5)])) == frozenset()


def test_stars_past_the_edge_are_not_required_and_printed_cells_carry_stars() -> None:
    # a hero in the corner: only two of Dobrik's hits lie on the map; (0, 1) may be a printed space
    got = attack_stars(_star_map([(1, 0), (0, 1)]), _hero_map([(0, 0)]))
    assert got == {(1, 0), (0, 1)}


def test_a_star_read_on_star_blind_print_is_no_evidence_but_is_still_reported() -> None:
    # the blank printer-friendly side B: the rift's jagged outline reads as stars on its wasteland
    plus = [(5 + dr, 5 + dc) for dr, dc in PLUS]
    blind = np.zeros((11, 11), bool)
    for cell in plus:
        blind[cell] = True
    assert attack_stars(_star_map(plus), _hero_map([(5, 5)]), star_blind=blind) == frozenset()
    assert attack_stars(_star_map(plus), _hero_map([(5, 5)])) == set(plus)  # as read before
    # such a cell read without a star still breaks the pattern, as before
    blind[:] = False
    blind[4, 5] = True
    assert attack_stars(_star_map(plus[1:]), _hero_map([(5, 5)]), star_blind=blind) == frozenset()
    # the hero's whole pattern is reported, the blind cell too
    assert attack_stars(_star_map(plus), _hero_map([(5, 5)]), star_blind=blind) == set(plus)


def test_no_hero_means_no_stars() -> None:
    assert attack_stars(_star_map([(3, 3), (4, 4)]), _hero_map([])) == frozenset()


def test_a_cell_ringed_by_stars_is_read_as_a_hero() -> None:
    probs = np.full((121, 8), 0.02)
    probs[:, TERRAIN_CLASSES.index("village")] = 0.8  # the net sees a village everywhere
    probs[:, HERO] = 0.08
    drawable = np.ones((11, 11), bool)
    star_p = _star_map([(5 + dr, 5 + dc) for dr, dc in PLUS])
    out = hero_evidence(probs, star_p, drawable)
    assert out[5 * 11 + 5].argmax() == HERO
    assert np.allclose(out.sum(axis=1), 1.0)
    changed = np.flatnonzero(~np.isclose(out, probs).all(axis=1))
    assert changed.tolist() == [5 * 11 + 5]  # no other cell has a whole pattern around it
    # a single star is not enough, and a printed cell never becomes a hero
    assert np.allclose(hero_evidence(probs, _star_map([(5, 6)]), drawable), probs)
    drawable[5, 5] = False
    assert np.allclose(hero_evidence(probs, star_p, drawable), probs)
    # stars read on star-blind print alone ring nobody
    drawable[5, 5] = True
    blind = np.zeros((11, 11), bool)
    for dr, dc in PLUS:
        blind[5 + dr, 5 + dc] = True
    assert np.allclose(hero_evidence(probs, star_p, drawable, star_blind=blind), probs)
    # ... but one such star in a ring of drawn ones neither helps nor breaks it
    blind[:] = False
    blind[4, 5] = True
    out = hero_evidence(probs, star_p, drawable, star_blind=blind)
    assert out[5 * 11 + 5].argmax() == HERO


def test_a_ring_of_four_stars_weighs_more_than_three_and_three_more_than_two() -> None:
    # a hero the net has never seen (an orange fill it takes for a village): hero odds 0.001
    probs = np.full((121, 8), 0.001)
    probs[:, TERRAIN_CLASSES.index("village")] = 1 - 0.007
    drawable = np.ones((11, 11), bool)
    four = hero_evidence(probs, _star_map([(5 + dr, 5 + dc) for dr, dc in PLUS]), drawable)
    two = hero_evidence(probs, _star_map([(1, 0), (0, 1)]), drawable)  # the corner cell's on-map hits
    # Freyla's line of three to the right of (5, 1), where the net sees a little more of a hero than
    # in the other cells the line rings (see the next test)
    hinted = probs.copy()
    hinted[5 * 11 + 1, HERO] *= 2
    three = hero_evidence(hinted, _star_map([(5, 2), (5, 3), (5, 4)]), drawable)

    def odds(p: np.ndarray) -> float:  # hero against village, which the factor multiplies
        return float(p[HERO] / p[TERRAIN_CLASSES.index("village")])

    base = odds(probs[0])
    rings = dict(HERO_RING_BOOSTS)
    assert odds(two[0]) == pytest.approx(base * HERO_STAR_BOOST)
    assert odds(three[5 * 11 + 1]) == pytest.approx(2 * base * HERO_STAR_BOOST * rings[3])
    assert odds(four[5 * 11 + 5]) == pytest.approx(base * HERO_STAR_BOOST * rings[4])
    assert four[5 * 11 + 5].argmax() == HERO and two[0].argmax() != HERO
    # without the further factors every whole ring weighs the same
    plain = hero_evidence(probs, _star_map([(5 + dr, 5 + dc) for dr, dc in PLUS]), drawable, rings=())
    assert odds(plain[5 * 11 + 5]) == pytest.approx(base * HERO_STAR_BOOST)


def test_a_four_cell_pattern_counts_with_one_star_unseen_a_three_cell_one_does_not() -> None:
    # a star drawn over a terrain reads weak: three of a plus's four stars still ring its hero, as a
    # ring of three; two of a line of three ring nobody
    probs = np.full((121, 8), 0.001)
    probs[:, TERRAIN_CLASSES.index("village")] = 1 - 0.007
    drawable = np.ones((11, 11), bool)
    three = _star_map([(5 + dr, 5 + dc) for dr, dc in PLUS][:3])
    out = hero_evidence(probs, three, drawable)
    village = TERRAIN_CLASSES.index("village")
    gain = out[5 * 11 + 5, HERO] / out[5 * 11 + 5, village] / (probs[0, HERO] / probs[0, village])
    assert gain == pytest.approx(HERO_STAR_BOOST * dict(HERO_RING_BOOSTS)[3])
    assert np.allclose(hero_evidence(probs, three, drawable, gapped=5), probs)  # no pattern that long
    assert np.allclose(hero_evidence(probs, _star_map([(5, 2), (5, 3)]), drawable), probs)


def test_stars_another_cell_explains_weigh_no_more_for_a_second_hero() -> None:
    probs = np.full((121, 8), 0.001)
    probs[:, TERRAIN_CLASSES.index("village")] = 1 - 0.007
    probs[5 * 11 + 1, HERO] = 0.01  # the net's faint hint of the hero at one end of the line
    probs[5 * 11 + 1] /= probs[5 * 11 + 1].sum()
    drawable = np.ones((11, 11), bool)
    line = _star_map([(5, 2), (5, 3), (5, 4)])  # rings (5, 1) and (5, 5) at its ends, (3, 3) and (7, 3)
    out = hero_evidence(probs, line, drawable)

    def gain(i: int) -> float:  # the factor on a cell's hero odds against village
        v = TERRAIN_CLASSES.index("village")
        return float(out[i, HERO] / out[i, v] / (probs[i, HERO] / probs[i, v]))

    ringed = [5 * 11 + 1, 5 * 11 + 5, 3 * 11 + 3, 7 * 11 + 3]
    assert np.flatnonzero(~np.isclose(out, probs).all(axis=1)).tolist() == sorted(ringed)
    # one hero for one line of stars: the likeliest takes the ring's weight, the others the plain factor
    assert gain(5 * 11 + 1) == pytest.approx(HERO_STAR_BOOST * dict(HERO_RING_BOOSTS)[3])
    assert [gain(i) for i in ringed[1:]] == pytest.approx([HERO_STAR_BOOST] * 3)
    assert out[5 * 11 + 1].argmax() == HERO and all(out[i].argmax() != HERO for i in ringed[1:])


def _heroes_read(cells: list[int], sure: float = 0.99) -> np.ndarray:
    probs = np.full((121, 8), 0.001)
    probs[:, TERRAIN_CLASSES.index("forest")] = 1 - 0.007
    for i in cells:
        probs[i] = (1 - sure) / 7
        probs[i, HERO] = sure
    return probs


def test_more_heroes_than_hero_cards_are_all_doubted_and_kept_as_best_guess() -> None:
    drawable = np.ones(121, bool)
    cells = list(range(len(HEROES) + 1))  # one more than a game's hero cards (Heroes rulebook)
    probs = _heroes_read(cells)
    out = spare_heroes(probs, drawable)
    assert out[cells, HERO] == pytest.approx([HERO_EXCESS_CAP] * len(cells))
    assert (out[cells].argmax(axis=1) == HERO).all() and (out[cells].max(axis=1) < CONFIDENCE_THRESHOLD).all()
    assert out.sum(axis=1) == pytest.approx(np.ones(121))
    # the other readings keep their proportions; the rest of the sheet is untouched
    assert out[0, 1:HERO] / out[0, 1] == pytest.approx(probs[0, 1:HERO] / probs[0, 1])
    assert np.array_equal(out[len(cells):], probs[len(cells):])


def test_heroes_read_past_underflow_are_doubted_without_nan() -> None:
    """A hero reading of exactly 1 (the other classes underflowed to 0) is still capped: the rest of
    its probability spread evenly, never a division by zero."""
    cells = list(range(len(HEROES) + 1))
    probs = _heroes_read(cells, sure=1.0)
    out = spare_heroes(probs, np.ones(121, bool))
    assert np.isfinite(out).all() and out.sum(axis=1) == pytest.approx(np.ones(121))
    assert out[cells, HERO] == pytest.approx([HERO_EXCESS_CAP] * len(cells))
    assert out[0, 0] == pytest.approx((1 - HERO_EXCESS_CAP) / 7)


def test_as_many_heroes_as_hero_cards_or_undrawable_ones_are_left_alone() -> None:
    drawable = np.ones(121, bool)
    probs = _heroes_read(list(range(len(HEROES))))
    assert spare_heroes(probs, drawable) is probs
    probs = _heroes_read(list(range(len(HEROES) + 1)))
    drawable[0] = False  # a printed space the net reads as a hero is no hero drawn
    assert spare_heroes(probs, drawable) is probs
    # one more cell read as a hero but doubted already: it can be the one too many
    probs = _heroes_read(list(range(len(HEROES))))
    probs[len(HEROES)] = _heroes_read([0], sure=0.6)[0]
    assert spare_heroes(probs, np.ones(121, bool)) is probs


@pytest.mark.parametrize("decode", [True, False])
def test_classify_sheet_reads_a_hero_from_its_stars(monkeypatch: pytest.MonkeyPatch, decode: bool) -> None:
    hero_cell = (6, 6)  # drawable on side A; (5, 6) above it is too, (5, 5) is a printed mountain
    plus = [(hero_cell[0] + dr, hero_cell[1] + dc) for dr, dc in PLUS]
    probs = np.full((121, 8), 0.02)
    probs[:, TERRAIN_CLASSES.index("village")] = 0.8
    probs[:, HERO] = 0.08

    def fixed_cells(
        models: object, patches: np.ndarray, *, gain: np.ndarray | None = None,
        ruins: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return probs, _star_map([*plus, (0, 10)]).ravel(), np.eye(121, 8)

    monkeypatch.setattr(classify, "classify_cells", fixed_cells)
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    sheet = classify.classify_sheet(cells, "A", adapt=False, decode=decode)
    best = TERRAIN_CLASSES[int(sheet.probabilities[hero_cell].argmax())]
    assert best == ("hero" if decode else "village")
    # decoded, the stray mark at A11 is no star; read one by one, every mark is
    assert sheet.stars == (set(plus) if decode else {*plus, (0, 10)})


def test_classify_sheet_reads_no_hero_on_the_print(monkeypatch: pytest.MonkeyPatch) -> None:
    """A printed mountain the net reads as a hero, ringed by star-like print, holds no hero and gives no
    stars (real side B prints: a net read the rift's wasteland as heroes and the print round them as
    stars); the same reading on a drawable cell does (the control)."""
    def read_hero_at(cell: tuple[int, int]) -> frozenset[tuple[int, int]]:
        probs = np.full((121, 8), 0.02)
        probs[:, 0] = 0.86
        probs[cell[0] * 11 + cell[1]] = [0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.86, 0.02]
        plus = [(cell[0] + dr, cell[1] + dc) for dr, dc in PLUS]
        monkeypatch.setattr(classify, "classify_cells",
                            lambda models, patches, gain=None, ruins=None: (probs, _star_map(plus).ravel(),
                                                                            np.eye(121, 8)))
        cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
        return classify.classify_sheet(cells, "A", adapt=False, decode=True).stars

    assert read_hero_at((5, 5)) == frozenset()  # a printed mountain on side A
    assert read_hero_at((6, 6)) == {(5, 6), (7, 6), (6, 5), (6, 7)}


def test_look_alikes_separates_two_ways_of_drawing() -> None:
    rng = np.random.default_rng(0)
    a = np.array([1.0, 0.0, 0.0]) + rng.normal(0, 0.03, (6, 3))
    b = np.array([0.0, 1.0, 0.0]) + rng.normal(0, 0.03, (5, 3))
    groups = look_alikes(np.vstack([a, b]))
    assert len(set(groups[:6])) == 1 and len(set(groups[6:])) == 1 and groups[0] != groups[6]


def test_a_doubtful_cell_follows_the_cells_drawn_like_it() -> None:
    feats = np.array([[1.0, 0.0]] * 4 + [[0.0, 1.0]] * 4 + [[1.0, 0.02], [0.7, 0.7]])
    probs = np.array([[0.98, 0.02]] * 4 + [[0.02, 0.98]] * 4 + [[0.45, 0.55], [0.5, 0.5]])
    drawable = np.ones(10, bool)
    drawable[9] = False  # printed: never pooled
    out = adapt_to_sheet(probs, feats, drawable, temperature=1.0)
    assert out[8].argmax() == 0 and out[8, 0] > 0.8  # its look-alikes all say class 0
    assert np.allclose(out.sum(axis=1), 1.0)
    assert np.array_equal(out[9], probs[9])
    # a lone misreading in a group is outvoted, but the group's confident cells stay confident
    assert out[:4, 0].min() > 0.9 and out[4:8, 1].min() > 0.9


@pytest.mark.parametrize("seed", range(12))
def test_groups_are_pooled_each_on_its_own(seed: int) -> None:
    """Every group at once gives, to the last digit, what pooling each group alone gives."""
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(8, rng.uniform(0.05, 2.0)), 121)
    probs[rng.random(121) < 0.3] = np.eye(8)[0]  # sure cells: log 0 and the floor
    cuts = np.sort(rng.choice(np.arange(1, 121), size=int(rng.integers(1, 30)), replace=False))
    parts = np.split(rng.permutation(121), cuts)
    groups = tuple(sorted(tuple(sorted(int(i) for i in g)) for g in parts if len(g) >= 2))
    expected = probs.copy()
    for g in groups:
        alone = adapt_to_sheet(probs[list(g)], np.zeros((len(g), 2)), np.ones(len(g), bool),
                               groups=(tuple(range(len(g))),))
        expected[list(g)] = alone
    got = adapt_to_sheet(probs, np.zeros((121, 2)), np.ones(121, bool), groups=groups)
    assert np.array_equal(got, expected)
    assert not np.array_equal(got, probs)


def test_a_cell_alone_in_its_group_keeps_the_nets_reading() -> None:
    feats = np.array([[1.0, 0.0, 0.0]] * 3 + [[0.0, 0.0, 1.0]])
    probs = np.array([[0.9, 0.1]] * 3 + [[0.3, 0.7]])
    out = adapt_to_sheet(probs, feats, np.ones(4, bool))
    assert np.allclose(out[3], probs[3])


def _whole_terrain_misread() -> tuple[np.ndarray, np.ndarray, tuple[tuple[int, ...], ...]]:
    """Six houses of one unfamiliar look, read as forest: two doubtful, four sure; beside them four
    forests of another look, one of them doubtful."""
    forest, village = TERRAIN_CLASSES.index("forest"), TERRAIN_CLASSES.index("village")
    probs = np.full((10, 8), 0.001)
    probs[:6, forest], probs[:6, village] = 0.96, 0.034  # the houses, sure (and wrong)
    probs[:2, forest], probs[:2, village] = 0.55, 0.444  # two of them doubtful
    probs[6:, forest] = 0.993  # the forests
    probs[6, forest], probs[6, 0] = 0.80, 0.194  # one of them doubtful (empty?)
    groups = ((0, 1, 2, 3, 4, 5), (6, 7, 8, 9))
    return probs, probs.max(axis=1) < CONFIDENCE_THRESHOLD, groups


def test_a_group_mostly_doubtful_makes_its_sure_cells_doubtful() -> None:
    probs, unsure, groups = _whole_terrain_misread()
    out = share_group_doubt(probs, groups, unsure)
    village = TERRAIN_CLASSES.index("village")
    pull = GROUP_DOUBT_SHARE * 2 / 6
    assert np.allclose(out[2:6], (1 - pull) * probs[2:6] + pull * probs[:2].mean(axis=0))
    assert (out[2:6].max(axis=1) < CONFIDENCE_THRESHOLD).all()  # the sure houses are doubted now
    assert (out[2:6, village] >= 0.02).all()  # with the village among their alternatives
    assert np.array_equal(out[:2], probs[:2])  # the doubtful cells keep their own reading
    assert np.allclose(out.sum(axis=1), 1.0)


def test_one_doubtful_cell_among_many_barely_moves_its_group() -> None:
    probs, unsure, groups = _whole_terrain_misread()
    out = share_group_doubt(probs, groups, unsure)
    assert (out[7:].max(axis=1) >= CONFIDENCE_THRESHOLD).all()  # 1 of 4 doubtful: the forests stay sure
    assert (out[7:].max(axis=1) < probs[7:].max(axis=1)).all()  # if a little less sure


def test_groups_without_a_doubt_and_cells_outside_groups_are_left_alone() -> None:
    probs, unsure, groups = _whole_terrain_misread()
    assert np.array_equal(share_group_doubt(probs, (), unsure), probs)
    assert np.array_equal(share_group_doubt(probs, groups, np.zeros(10, bool)), probs)
    assert np.array_equal(share_group_doubt(probs, groups[1:], unsure)[:6], probs[:6])


@pytest.mark.parametrize("seed", range(20))
def test_sharing_doubt_never_changes_a_sure_cells_best_class(seed: int) -> None:
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(8, 0.1), 40)
    probs[rng.random(40) < 0.6] = 0.95 * np.eye(8)[rng.integers(0, 8)] + 0.05 / 8
    unsure = probs.max(axis=1) < CONFIDENCE_THRESHOLD
    cuts = np.sort(rng.choice(np.arange(1, 40), size=6, replace=False))
    groups = tuple(tuple(int(i) for i in g) for g in np.split(rng.permutation(40), cuts))
    out = share_group_doubt(probs, groups, unsure)
    assert np.array_equal(out.argmax(axis=1), probs.argmax(axis=1))
    assert np.array_equal(out[unsure], probs[unsure])


def test_classify_sheet_doubts_the_sure_cells_of_a_mostly_doubtful_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Decoding passes the look-alike groups' doubt on; without decoding the sure houses stay read."""
    from rules.sides import printed_side

    printed = printed_side("A")
    free = [i for i in range(121) if divmod(i, 11) not in printed.mountains | printed.wasteland
            | printed.ruins]
    houses, rest = free[:6], free[6:]
    probs6, _, _ = _whole_terrain_misread()
    probs = np.full((121, 8), 0.001)
    probs[:, 0] = 0.993
    probs[houses] = probs6[:6]
    feats = np.zeros((121, 4))
    feats[:, 0] = 1.0
    feats[houses] = (0.0, 1.0, 0.0, 0.0)  # the houses alike, unlike every other cell
    feats[rest] = np.eye(4)[np.arange(len(rest)) % 2 + 2]  # the rest in two groups of empty cells
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (probs, np.zeros(121), feats))
    # the groups as made, their pooling left out (tested above): the doubt is what is looked at
    monkeypatch.setattr(classify, "adapt_to_sheet", lambda probs, *args, **kwargs: probs)
    cells = np.full((11, 11, PATCH, PATCH, 3), 235, np.uint8)
    decoded = classify.classify_sheet(cells, "A", decode=True)
    plain = classify.classify_sheet(cells, "A", decode=False)
    labels = [divmod(i, 11) for i in houses]
    assert [decoded.grid[r][c] for r, c in labels] == ["?"] * 6
    assert [plain.grid[r][c] for r, c in labels] == ["?", "?"] + ["F"] * 4
    assert all(decoded.grid[r][c] == "." for r, c in map(lambda i: divmod(i, 11), rest))


def _ruins_print(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` cell patches of one printed ruin (a dark doorway and a lintel on paper) with sensor noise."""
    cell = np.full((PATCH, PATCH, 3), 228.0)
    cell[8:26, 9:13] = cell[8:26, 19:23] = cell[7:10, 8:24] = 70.0
    noisy = cell + rng.normal(0, 3, (n, PATCH, PATCH, 3))
    return np.clip(noisy, 0, 255).astype(np.uint8)


def test_a_ruin_darker_than_the_other_bare_ruins_is_drawn_over() -> None:
    rng = np.random.default_rng(3)
    patches = _ruins_print(6, rng)
    patches[2, 12:20, 4:28] = (40, 160, 200)  # a farm's strokes in ochre over the third ruin
    bare = np.array([True, True, True, True, True, False])  # the last read as a terrain
    drawn, compared = inked_ruins(patches, bare)
    assert drawn.tolist() == [False, False, True, False, False, False]
    assert compared.tolist() == bare.tolist()


def test_bare_ruins_are_only_compared_when_enough_are_read_as_paper() -> None:
    rng = np.random.default_rng(4)
    patches = _ruins_print(6, rng)
    patches[0, 12:20, 4:28] = 60
    drawn, compared = inked_ruins(patches, np.array([True, True, False, False, False, False]))
    assert not drawn.any() and not compared.any()  # one against a single other: no median to trust
    drawn, compared = inked_ruins(patches, np.array([True, True, True, False, False, False]))
    assert drawn.tolist() == [True] + [False] * 5 and compared[:3].all()


def test_noisy_bare_ruins_are_not_called_drawn_over() -> None:
    rng = np.random.default_rng(5)
    for _ in range(20):
        patches = _ruins_print(5, rng)
        shade = rng.uniform(0.85, 1.0, (5, 1, 1, 1))  # shade along the sheet
        drawn, compared = inked_ruins((patches * shade).astype(np.uint8), np.ones(5, bool))
        assert compared.all() and not drawn.any()


def test_an_exempt_sure_cell_takes_no_doubt_from_its_group() -> None:
    probs, unsure, groups = _whole_terrain_misread()
    exempt = np.zeros(10, bool)
    exempt[[2, 3]] = True
    out = share_group_doubt(probs, groups, unsure, exempt=exempt)
    assert np.array_equal(out[[2, 3]], probs[[2, 3]])
    # the others are pulled as before: the exempt cells still count in the group's size
    assert np.allclose(out[[4, 5]], share_group_doubt(probs, groups, unsure)[[4, 5]])


def test_classify_sheet_keeps_a_bare_ruin_out_of_its_look_alikes_doubt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The printed ruins are one look-alike group; one is doubtful. The bare ones that their own pixels
    show bare stay sure; a ruin drawn over (darker than the others) keeps the shared doubt."""
    from rules.sides import printed_side

    ruins = [r * 11 + c for r, c in sorted(printed_side("A").ruins)]
    probs = np.full((121, 8), 0.001)
    probs[:, 0] = 0.993
    # a forest, not a farm: the farm odds the print lends a ruin are discounted first (discount_print)
    forest = TERRAIN_CLASSES.index("forest")
    probs[ruins[0], 0], probs[ruins[0], forest] = 0.6, 0.394  # the doubtful one
    probs[ruins[1:], 0], probs[ruins[1:], forest] = 0.96, 0.034
    feats = np.zeros((121, 4))
    feats[:, 0] = 1.0
    feats[ruins] = (0.0, 1.0, 0.0, 0.0)
    monkeypatch.setattr(classify, "classify_cells",
                        lambda models, patches, gain=None, ruins=None: (probs, np.zeros(121), feats))
    monkeypatch.setattr(classify, "adapt_to_sheet", lambda probs, *args, **kwargs: probs)
    cells = np.full((11, 11, PATCH, PATCH, 3), 228, np.uint8)
    cells.reshape(121, PATCH, PATCH, 3)[ruins] = _ruins_print(len(ruins), np.random.default_rng(6))
    cells.reshape(121, PATCH, PATCH, 3)[ruins[1], 12:20, 4:28] = (40, 160, 200)  # drawn over
    reading = classify.classify_sheet(cells, "A", decode=True)
    labels = [reading.grid[i // 11][i % 11] for i in ruins]
    assert labels[:2] == ["?", "?"] and labels[2:] == ["."] * (len(ruins) - 2)
