"""The space scoring cards (base 38-41, Heroes space back).  Rulings: docs/RULINGS.md."""

from __future__ import annotations

from rules.cards.model import Outcome, Rule, ScoreItem, count, item, tells_apart
from rules.cards.view import EMPTY, TERRAIN_TYPES, View, cluster_label
from rules.grid import COLS, DIAGONALS, LABELS, NEIGHBOURS, ROWS, SIZE, row_label
from rules.sheet import Terrain

MOUNTAIN = Terrain.MOUNTAIN.value


@tells_apart(".", adds_over="line")
def borderlands(g: View) -> Outcome:
    """6 per completely filled row and per completely filled column."""
    items = [item(row_label(r), 6, ROWS[r]) for r in range(SIZE) if g.full_rows[r]]
    nrows = len(items)
    items += [item(f"column {c + 1}", 6, COLS[c]) for c in range(SIZE) if g.full_cols[c]]
    return Outcome(
        tuple(items), f"{count(nrows, 'full row')} + {count(len(items) - nrows, 'full column')} x 6"
    )


@tells_apart(".")
def lost_barony(g: View) -> Outcome:
    """3 per space along one side of the largest completely filled square."""
    filled = g.filled
    # side[i]: side of the largest filled square whose bottom-right corner is cell i.
    side = [0] * (SIZE * SIZE)
    best, best_at = 0, -1
    for i in range(SIZE * SIZE):
        if not filled[i]:
            continue
        r, c = divmod(i, SIZE)
        s = 1 if r == 0 or c == 0 else 1 + min(side[i - SIZE], side[i - 1], side[i - SIZE - 1])
        side[i] = s
        if s > best:
            best, best_at = s, i
    if best == 0:
        return Outcome((), "no filled space")
    r1, c1 = divmod(best_at, SIZE)
    square = [(r1 - dr) * SIZE + (c1 - dc) for dr in range(best) for dc in range(best)]
    top_left = (r1 - best + 1) * SIZE + (c1 - best + 1)
    label = f"{best}x{best} square {LABELS[top_left]}-{LABELS[best_at]}"
    return Outcome(
        (item(label, 3 * best, sorted(square)),), f"largest filled square {best}x{best}: side {best} x 3"
    )


@tells_apart(".", adds_over="diagonal")
def broken_road(g: View) -> Outcome:
    """3 per completely filled down-right diagonal from the left edge to the bottom edge."""
    filled = g.filled
    items = tuple(
        item(
            f"diagonal {LABELS[d[0]]}-{LABELS[d[-1]]}"
            if len(d) > 1
            else f"diagonal {LABELS[d[0]]}",
            3,
            d,
        )
        for d in DIAGONALS
        if all(filled[i] for i in d)
    )
    return Outcome(items, f"{count(len(items), 'filled diagonal')} x 3")


@tells_apart(".", adds_over="neighbourhood")
def cauldrons(g: View) -> Outcome:
    """1 per empty space whose every side is a filled space or the map edge."""
    cells, filled = g.cells, g.filled
    hit = [i for i in range(SIZE * SIZE) if cells[i] == EMPTY and all(filled[n] for n in NEIGHBOURS[i])]
    items = tuple(item(f"empty {LABELS[i]}", 1, (i,)) for i in hit)
    return Outcome(items, f"{count(len(hit), 'enclosed empty space')} x 1")


@tells_apart(".", adds_over="line")  # mountains are printed
def dwarvenholds(g: View) -> Outcome:
    """7 per completely filled row, and per completely filled column, holding a mountain."""
    cells = g.cells
    items: list[ScoreItem] = [
        item(row_label(r), 7, ROWS[r])
        for r in range(SIZE)
        if g.full_rows[r] and any(cells[i] == MOUNTAIN for i in ROWS[r])
    ]
    nrows = len(items)
    items += [
        item(f"column {c + 1}", 7, COLS[c])
        for c in range(SIZE)
        if g.full_cols[c] and any(cells[i] == MOUNTAIN for i in COLS[c])
    ]
    return Outcome(
        tuple(items),
        f"{count(nrows, 'row')} + {count(len(items) - nrows, 'column')} full and with a mountain x 7",
    )


@tells_apart(".", adds_over="column")
def silos(g: View) -> Outcome:
    """10 per completely filled odd-numbered column (1, 3, ..., 11)."""
    items = tuple(item(f"column {c + 1}", 10, COLS[c]) for c in range(0, SIZE, 2) if g.full_cols[c])
    return Outcome(items, f"{count(len(items), 'full odd-numbered column')} x 10")


@tells_apart("FVPWMH", adds_over="row")  # each terrain type in the row; empty and destroyed have none
def banded_hills(g: View) -> Outcome:
    """4 per row holding at least 5 different terrain types."""
    cells = g.cells
    items = []
    for r, row in enumerate(ROWS):
        kinds = {cells[i] for i in row} & TERRAIN_TYPES
        if len(kinds) >= 5:
            cells_of_kinds = [i for i in row if cells[i] in kinds]
            items.append(item(f"{row_label(r)} ({len(kinds)} types)", 4, cells_of_kinds))
    return Outcome(tuple(items), f"{count(len(items), 'row')} with >=5 terrain types x 4")


@tells_apart(".")
def starlit_sigil(g: View) -> Outcome:
    """4 per cluster of exactly 3 empty spaces (bordered only by filled spaces or the edge)."""
    items = tuple(
        item(f"empty {cluster_label(cl.cells)}", 4, cl.cells) for cl in g.clusters_of(EMPTY) if cl.size == 3
    )
    return Outcome(items, f"{count(len(items), 'enclosed group')} of exactly 3 empty spaces x 4")


RULES: dict[str, Rule] = {
    "borderlands": borderlands,
    "lost_barony": lost_barony,
    "broken_road": broken_road,
    "cauldrons": cauldrons,
    "dwarvenholds": dwarvenholds,
    "silos": silos,
    "banded_hills": banded_hills,
    "starlit_sigil": starlit_sigil,
}
