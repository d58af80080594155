"""rules.grid: the one grid vocabulary, and the cards' view kept on the sheet it describes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rules import Sheet
from rules.cards import CARDS
from rules.cards.view import view_of
from rules.grid import (
    CELLS,
    COLS,
    DIAGONALS,
    EDGE,
    LABELS,
    NEIGHBOURS,
    ROWS,
    SIZE,
    cell_label,
    clusters_of,
    components,
    is_edge,
    neighbours,
    parse_label,
)


def test_labels_round_trip_and_run_row_major() -> None:
    assert [parse_label(label) for label in LABELS] == list(CELLS)
    assert [cell_label(cell) for cell in CELLS] == list(LABELS)
    assert LABELS[0] == "A1" and LABELS[SIZE - 1] == "A11" and LABELS[-1] == "K11"


def test_neighbour_tables_are_symmetric_and_agree() -> None:
    for i, (r, c) in enumerate(CELLS):
        assert all(i in NEIGHBOURS[j] for j in NEIGHBOURS[i])
        assert [CELLS[j] for j in NEIGHBOURS[i]] == list(neighbours(r, c))
        assert all(abs(r - nr) + abs(c - nc) == 1 for nr, nc in neighbours(r, c))
        assert (i in EDGE) == is_edge(r, c)


def test_lines_cover_the_map() -> None:
    assert sorted(i for row in ROWS for i in row) == list(range(SIZE * SIZE))
    assert sorted(i for col in COLS for i in col) == list(range(SIZE * SIZE))
    assert [len(d) for d in DIAGONALS] == list(range(SIZE, 0, -1))
    assert all(d[0] % SIZE == 0 and d[-1] // SIZE == SIZE - 1 for d in DIAGONALS)


@given(st.sets(st.integers(0, SIZE * SIZE - 1)))
def test_components_are_the_connected_groups(members: set[int]) -> None:
    comps = components(members)
    assert sorted(i for comp in comps for i in comp) == sorted(members)
    assert [comp[0] for comp in comps] == sorted(comp[0] for comp in comps)
    for comp in comps:
        inside = set(comp)
        # closed: no member outside the group touches it; connected: a walk from the first reaches all
        assert not any(j in members and j not in inside for i in comp for j in NEIGHBOURS[i])
        seen, todo = {comp[0]}, [comp[0]]
        while todo:
            for j in NEIGHBOURS[todo.pop()]:
                if j in inside and j not in seen:
                    seen.add(j)
                    todo.append(j)
        assert seen == inside
    assert [sorted(g) for g in clusters_of(CELLS[i] for i in members)] == [
        [CELLS[i] for i in comp] for comp in comps
    ]


def test_the_view_lives_on_its_sheet() -> None:
    a = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F"})
    b = Sheet.parse(a.to_text())
    assert a == b and a is not b
    assert view_of(a) is view_of(a)  # made once per sheet
    assert view_of(b) is not view_of(a)  # never shared through a module-wide slot
    for card in CARDS.values():  # interleaving sheets changes nothing
        assert card.score(a) == card.score(b)
