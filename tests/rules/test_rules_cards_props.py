"""Property tests for the scoring cards over random ``side: custom`` sheets (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import Sheet
from rules.cards import CARDS, score_all

N = 11
# Weighted so that clusters, full lines and enclosed empty spaces all turn up.
SYMBOLS = "......FFFFVVVVPPPWWWM^H-X"
CHOICE_CARDS = {"faunlost_thicket", "outer_enclave", "caravansary"}
# Cards whose rule does not mention a direction: invariant under rotating the map.
ROTATION_INVARIANT = sorted(
    set(CARDS) - {"broken_road", "faunlost_thicket", "sleepy_valley", "jorekburg", "silos", "banded_hills"}
)
# Cards that pick one unit among equals by reading order: the points turn, the pick may not.
TIE_BROKEN = CHOICE_CARDS | {"great_city", "shieldgate", "lost_barony"}
# Upper bounds that follow from the card texts and the 11x11 map.
BOUNDS = {
    "greenbough": 22,
    "sentinel_wood": 40,
    "borderlands": 132,
    "lost_barony": 33,
    "broken_road": 33,
    "sleepy_valley": 44,
    "silos": 60,
    "jorekburg": 44,
    "banded_hills": 44,
    "dwarvenholds": 154,
    "faunlost_thicket": 22,
    "caravansary": 22,
}

Grid = list[list[str]]
Transform = Callable[[int, int], tuple[int, int]]


@st.composite
def custom_sheets(draw: st.DrawFn) -> tuple[Grid, frozenset[tuple[int, int]]]:
    """A random grid and ruins set (ruins never on printed symbols, as the notation requires)."""
    flat = draw(st.lists(st.sampled_from(SYMBOLS), min_size=N * N, max_size=N * N))
    grid = [flat[r * N : r * N + N] for r in range(N)]
    candidates = [(r, c) for r in range(N) for c in range(N) if grid[r][c] not in "^-"]
    ruins = draw(st.lists(st.sampled_from(candidates), max_size=6, unique=True)) if candidates else []
    return grid, frozenset(ruins)


def make(grid: Grid, ruins: frozenset[tuple[int, int]]) -> Sheet:
    return Sheet(["".join(row) for row in grid], side="custom", ruins=sorted(ruins))


def transformed(grid: Grid, ruins: frozenset[tuple[int, int]], f: Transform) -> Sheet:
    """The sheet with every cell (and ruins space) moved by the cell map `f`."""
    new = [["."] * N for _ in range(N)]
    for r in range(N):
        for c in range(N):
            nr, nc = f(r, c)
            new[nr][nc] = grid[r][c]
    return make(new, frozenset(f(r, c) for r, c in ruins))


def rot90(r: int, c: int) -> tuple[int, int]:
    return c, N - 1 - r  # clockwise


def rot180(r: int, c: int) -> tuple[int, int]:
    return N - 1 - r, N - 1 - c


def mirror_lr(r: int, c: int) -> tuple[int, int]:
    return r, N - 1 - c


def anti_transpose(r: int, c: int) -> tuple[int, int]:
    # Reflection in the A11-K1 diagonal: it maps each left-to-bottom diagonal onto itself.
    return N - 1 - c, N - 1 - r


@settings(max_examples=60, deadline=None)
@given(custom_sheets())
def test_scores_are_sane(data: tuple[Grid, frozenset[tuple[int, int]]]) -> None:
    sheet = make(*data)
    for card_id, result in score_all(sheet).items():
        assert result.points >= 0, card_id
        assert result.points == sum(it.points for it in result.items), card_id
        assert result.points <= BOUNDS.get(card_id, 10_000), card_id
        assert all(0 <= r < N and 0 <= c < N for r, c in result.cells), card_id
        assert (result.choice is not None) == (card_id in CHOICE_CARDS and result.points > 0), card_id
        assert bool(result.cells) == (result.points > 0), card_id
        assert result.detail and "\n" not in result.detail


@settings(max_examples=60, deadline=None)
@given(custom_sheets())
def test_rotation_invariant_cards(data: tuple[Grid, frozenset[tuple[int, int]]]) -> None:
    before = score_all(make(*data))
    after = score_all(transformed(*data, rot90))
    for card_id in ROTATION_INVARIANT:
        assert before[card_id].points == after[card_id].points, card_id
        if card_id not in TIE_BROKEN:
            assert {rot90(*cell) for cell in before[card_id].cells} == after[card_id].cells, card_id


@settings(max_examples=60, deadline=None)
@given(custom_sheets())
def test_directional_cards_keep_their_own_symmetries(data: tuple[Grid, frozenset[tuple[int, int]]]) -> None:
    base = score_all(make(*data))
    half = score_all(transformed(*data, rot180))
    mirrored = score_all(transformed(*data, mirror_lr))
    diag = score_all(transformed(*data, anti_transpose))
    for card_id in ("faunlost_thicket", "sleepy_valley", "jorekburg", "silos", "banded_hills"):
        # Rows stay rows and columns stay columns; odd column numbers stay odd (c -> 10 - c).
        assert base[card_id].points == half[card_id].points == mirrored[card_id].points, card_id
    assert base["broken_road"].points == diag["broken_road"].points


@settings(max_examples=40, deadline=None)
@given(custom_sheets(), st.integers(0, N * N - 1), st.sampled_from("FVPWMHX"))
def test_filling_never_hurts_the_space_cards(
    data: tuple[Grid, frozenset[tuple[int, int]]], index: int, symbol: str
) -> None:
    grid, ruins = data
    r, c = divmod(index, N)
    if grid[r][c] != ".":
        return
    before = score_all(make(grid, ruins))
    grid2 = [row[:] for row in grid]
    grid2[r][c] = symbol
    after = score_all(make(grid2, ruins))
    for card_id in ("borderlands", "lost_barony", "broken_road", "silos", "dwarvenholds"):
        assert after[card_id].points >= before[card_id].points, card_id
