"""rules.doubt over the cap: each card scored on its own classes of drawn symbols.

Two things are checked.  First, every card's declarations (``@tells_apart`` next to each rule) and
the monster penalty's (``MONSTER_PENALTY_SEES``, ``MONSTER_PENALTY_ADDS_OVER``) are right: on random
sheets, redrawing drawn cells with other symbols of the same class never changes the points, and
the change redrawing some cells makes does not depend on cells that share no unit with them.
Second, the spread over the cap agrees with scoring every reading jointly (a larger cap):
the same card and monster spans, and a total that is the same or, when flagged ``bounded``, wider.
Known answers over the cap are in ``tests/data/rules/doubt/over_cap.cases`` (run by
``test_rules_doubt.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Sheet
from rules.cards import CARDS, ScoringCard, find_card
from rules.cards.model import DRAWN, UNITS
from rules.doubt import MAX_READINGS, Spread, TooManyReadings, score_spread
from rules.season import (
    MONSTER_PENALTY_ADDS_OVER,
    MONSTER_PENALTY_SEES,
    monster_penalty,
    score_cards,
    score_season,
)

N = 11
# Symbol pools a grid is drawn from: one balanced, the others heavy in one kind so that large clusters
# (Deepwood's five forests, Wildholds' six villages), long water runs and full lines turn up too.
POOLS = (
    "......FFFFVVVVPPPWWWMM^HH-X",
    "FFFFFFFFV.PM^",
    "FFFFFFF.P^-",
    "VVVVVVVVF.PWMH^-X",
    "PPPPWWWWF.V^",
    "PPPWW.",
    "....FVM-X",
    "FFVVPPWWMH^-X",  # no empty space: full rows, columns and diagonals
)

Points = Callable[[Sheet], int]


def card_points(card: ScoringCard) -> Points:
    """The points `card` scores on a sheet, as a function of the sheet."""

    def points(sheet: Sheet) -> int:
        return card.score(sheet).points

    return points

# Every scored part with its declared classes: the 32 cards, then the monster penalty.
PARTS: dict[str, tuple[str, Points]] = {
    **{i: (card.sees, card_points(card)) for i, card in CARDS.items()},
    "monsters": (MONSTER_PENALTY_SEES, monster_penalty),
}
# And the units each adds up over.
ADDS_OVER: dict[str, str] = {i: card.adds_over for i, card in CARDS.items()}
ADDS_OVER["monsters"] = MONSTER_PENALTY_ADDS_OVER


def same_class(symbol: str, sees: str) -> str:
    """The other drawn symbols that `sees` cannot tell from `symbol` (printed symbols have none)."""
    if symbol not in DRAWN:
        return ""
    if symbol in sees:
        return ""
    return "".join(t for t in DRAWN if t not in sees and t != symbol)


def redrawn(grid: str, sees: str, picks: list[int]) -> str:
    """`grid` with each cell's symbol swapped for another of its class; pick 0 keeps it."""
    out = []
    for symbol, pick in zip(grid, picks, strict=True):
        others = same_class(symbol, sees)
        out.append(others[(pick - 1) % len(others)] if pick and others else symbol)
    return "".join(out)


def sheet_of(grid: str, ruins: list[tuple[int, int]]) -> Sheet:
    return Sheet([grid[r * N : r * N + N] for r in range(N)], side="custom", ruins=ruins)


@st.composite
def grids(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    """A random 121-symbol grid and ruins spaces (never on printed symbols)."""
    pool = draw(st.sampled_from(POOLS))
    grid = "".join(draw(st.lists(st.sampled_from(pool), min_size=N * N, max_size=N * N)))
    free = [(i // N, i % N) for i, ch in enumerate(grid) if ch not in "^-"]
    ruins = draw(st.lists(st.sampled_from(free), max_size=6, unique=True)) if free else []
    return grid, ruins


def test_every_part_declares_classes_of_drawn_symbols() -> None:
    assert len(PARTS) == len(ADDS_OVER) == 33
    for name, (sees, _) in PARTS.items():
        assert sees and set(sees) <= set(DRAWN) and len(set(sees)) == len(sees), name
        assert ADDS_OVER[name] in UNITS, name


def test_the_check_catches_a_partition_too_coarse() -> None:
    """Declared as forest-only, Treetower would miss the empty space beside its forest: the redrawing
    the property test makes under that (wrong) partition changes the points."""
    grid = "F." + "." * (N * N - 2)  # A1 forest with an empty space on each side
    walled = grid.replace(".", "V")
    treetower = find_card("treetower")
    assert redrawn(grid, "F", [0] + [1] * (N * N - 1)) == walled  # '.' and 'V' one class under "F"
    assert treetower.score(sheet_of(grid, [])).points != treetower.score(sheet_of(walled, [])).points
    assert redrawn(grid, treetower.sees, [0] + [1] * (N * N - 1)) == grid  # the declared classes keep '.'


@settings(max_examples=150, deadline=None)
@given(data=grids(), picks=st.lists(st.integers(0, 7), min_size=N * N, max_size=N * N))
def test_redrawing_within_a_class_never_changes_the_points(
    data: tuple[str, list[tuple[int, int]]], picks: list[int]
) -> None:
    """One random grid and one random redrawing per example, checked for every part at once (drawing
    the grid costs far more than scoring it)."""
    grid, ruins = data
    sheet = sheet_of(grid, ruins)
    moved = {}
    for name, (sees, points) in PARTS.items():
        before, after = points(sheet), points(sheet_of(redrawn(grid, sees, picks), ruins))
        if before != after:
            moved[name] = (before, after)
    assert not moved, f"redrawn within their classes, these parts scored differently: {moved}"


def redrawn_cells(grid: str, cells: set[int], picks: list[int]) -> str:
    """`grid` with each drawn cell of `cells` given any drawn symbol; pick 0 keeps it."""
    return "".join(
        DRAWN[pick - 1] if i in cells and pick and ch in DRAWN else ch
        for i, (ch, pick) in enumerate(zip(grid, picks, strict=True))
    )


def apart_from(cells: set[int], units: str) -> set[int]:
    """The flat cells that share no unit with any of `cells`."""
    joined = {r * N + c for unit in UNITS[units] if any(divmod(i, N) in unit for i in cells) for r, c in unit}
    return set(range(N * N)) - joined - cells


def test_the_check_catches_units_too_coarse() -> None:
    """Declared as adding up over rows, Greenbough would miss its column term: a forest on A1 is worth
    2 (row A, column 1) alone but 1 beside a forest on C1, a cell sharing no row with A1."""
    grid = "." * (N * N)
    picks = [0] * (N * N)
    picks[0] = picks[2 * N] = 1 + DRAWN.index("F")
    there = apart_from({0}, "row")
    assert 2 * N in there and 1 not in there  # C1 is apart from A1 by rows, A2 is not
    both = redrawn_cells(redrawn_cells(grid, {0}, picks), there, picks)
    b = redrawn_cells(grid, there, picks)
    greenbough = find_card("greenbough")

    def points(g: str) -> int:
        return greenbough.score(sheet_of(g, [])).points

    assert (points(redrawn_cells(grid, {0}, picks)), points(both) - points(b)) == (2, 1)
    assert 2 * N not in apart_from({0}, greenbough.adds_over)  # the declared lines join A1 and C1


@settings(max_examples=200, deadline=None)
@given(
    data=grids(),
    here=st.sets(st.integers(0, N * N - 1), min_size=1, max_size=6),
    picks=st.lists(st.integers(0, len(DRAWN)), min_size=N * N, max_size=N * N),
)
def test_points_add_up_over_the_declared_units(
    data: tuple[str, list[tuple[int, int]]], here: set[int], picks: list[int]
) -> None:
    """Redraw some cells (A) and, apart, every cell sharing no unit with them (B): the change A makes
    is the same with or without B's change.  That is what lets rules.doubt score them on their own."""
    grid, ruins = data
    moved = {}
    for name, (_, points) in PARTS.items():
        units = ADDS_OVER[name]
        if units == "map":
            continue
        there = apart_from(here, units)
        a, b = redrawn_cells(grid, here, picks), redrawn_cells(grid, there, picks)
        both = redrawn_cells(a, there, picks)
        change_alone = points(sheet_of(a, ruins)) - points(sheet_of(grid, ruins))
        change_with_b = points(sheet_of(both, ruins)) - points(sheet_of(b, ruins))
        if change_alone != change_with_b:
            moved[name] = (change_alone, change_with_b)
    assert not moved, f"these parts do not add up over their units: {moved}"


# ---------------------------------------------------------------------------------------------
# The spread over the cap against every reading scored jointly


@st.composite
def spreads(draw: st.DrawFn) -> tuple[Sheet, dict[tuple[int, int], str], list[str], str | None]:
    """A random sheet, up to 5 unsure drawn cells with 1-4 readings each (the guess among them), and
    1-4 cards (4 with an optional season)."""
    grid, ruins = draw(grids())
    guess = sheet_of(grid, ruins)
    drawn = [(i // N, i % N) for i, ch in enumerate(grid) if ch in DRAWN]
    cells = draw(st.lists(st.sampled_from(drawn), max_size=5, unique=True)) if drawn else []
    unsure = {}
    for cell in cells:
        others = draw(st.lists(st.sampled_from(DRAWN), max_size=3, unique=True))
        unsure[cell] = guess[cell].value + "".join(t for t in others if t != guess[cell].value)
    card_ids = draw(st.lists(st.sampled_from(sorted(CARDS)), min_size=1, max_size=4, unique=True))
    seasons = [None, "spring", "summer", "fall", "winter"] if len(card_ids) == 4 else [None]
    season = draw(st.sampled_from(seasons))
    return guess, unsure, card_ids, season


@settings(max_examples=80, deadline=None)
@given(case=spreads(), cap=st.integers(1, 8))
def test_over_the_cap_agrees_with_every_reading_scored(
    case: tuple[Sheet, dict[tuple[int, int], str], list[str], str | None], cap: int
) -> None:
    guess, unsure, card_ids, season = case
    cards = [CARDS[i] for i in card_ids]
    joint = score_spread(guess, unsure, cards, season, cap=10**6)
    projected = score_spread(guess, unsure, cards, season, cap=cap)
    assert isinstance(joint, Spread) and not joint.bounded
    if isinstance(projected, TooManyReadings):
        assert projected.readings == joint.readings > cap
        return
    assert (projected.cells, projected.readings) == (joint.cells, joint.readings)
    assert projected.season == joint.season
    assert projected.cards == joint.cards and list(projected.cards) == list(joint.cards)
    assert (projected.coins, projected.monsters) == (joint.coins, joint.monsters)
    if projected.bounded:
        assert projected.total.low <= joint.total.low and joint.total.high <= projected.total.high
        assert not projected.certain and "a bound" in projected.describe()
    else:
        assert projected.total == joint.total
    assert projected.certain == joint.certain or projected.bounded


def test_cells_no_card_tells_apart_settle_any_number_of_readings() -> None:
    """Twelve inner cells each village or farm: 4096 readings, but Sentinel Wood, Borderlands and the
    monster penalty see no difference, so the photo's score is certain; Greengold Plains (village
    clusters, over the whole map) still sees 4096, Banded Hills (row by row) only 2 x 64."""
    guess = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F"})
    cells = [(r, c) for r in (4, 6) for c in (1, 2, 4, 5, 6, 7)]
    guess = guess.replace(dict.fromkeys(cells, "V"))
    unsure = dict.fromkeys(cells, "VP")
    cards = [find_card("sentinel_wood"), find_card("borderlands")]
    spread = score_spread(guess, unsure, cards)
    assert isinstance(spread, Spread) and spread.readings == 2**12 > MAX_READINGS
    assert spread.certain and not spread.bounded
    assert spread.total.low == score_cards(guess, cards).total
    over = score_spread(guess, unsure, [*cards, find_card("greengold_plains")])
    assert isinstance(over, TooManyReadings) and not over and over.readings == 2**12
    rows = score_spread(guess, unsure, [*cards, find_card("banded_hills")])
    assert isinstance(rows, Spread) and rows.certain


def test_a_bound_over_the_cap_says_so_and_counts_only_the_seasons_edicts() -> None:
    """A3-A9 forest, village or farm move Sentinel Wood and Caravansary at once; scored together they
    need 3**7 readings, over the cap, so their spans add up to a bound on the total."""
    guess = Sheet.blank("custom").replace({(0, c): "F" for c in range(9)})
    unsure = {(0, c): "FVP" for c in range(2, 9)}
    cards = [find_card(i) for i in ("sentinel_wood", "caravansary")]
    spread = score_spread(guess, unsure, cards)
    assert isinstance(spread, Spread) and spread.readings == 3**7 and spread.bounded
    assert (str(spread.cards["sentinel_wood"]), str(spread.cards["caravansary"])) == ("2 to 9", "0 to 8")
    assert str(spread.total) == "2 to 17"  # the readings themselves reach 2 to 10
    assert spread.describe() == (
        "the total would be within 2 to 17 (a bound, each card weighed on its own: "
        "sentinel_wood 2 to 9, caravansary 0 to 8)"
    )
    # Summer scores edicts B and C only: Sentinel Wood (A) is not weighed at all, only Caravansary moves
    # the total, so the total is exact.
    four = [*cards, find_card("borderlands"), find_card("canal_lake")]
    season = score_spread(guess, unsure, four, "summer")
    assert isinstance(season, Spread) and not season.bounded and not season.certain
    assert str(season.total) == "0 to 8" and "sentinel_wood" not in season.cards
    assert season.total.low == score_season(guess, four, "summer").total
