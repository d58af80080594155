"""The forest scoring cards (base 26-29, Heroes forest back).  Rulings: docs/RULINGS.md."""

from __future__ import annotations

from rules.cards.model import Outcome, Rule, ScoreItem, count, item, tells_apart
from rules.cards.view import View, cluster_label
from rules.grid import COLS, EDGE, LABELS, NEIGHBOURS, ROWS, SIZE, row_label
from rules.sheet import Terrain

FOREST = Terrain.FOREST.value
VILLAGE = Terrain.VILLAGE.value
MOUNTAIN = Terrain.MOUNTAIN.value


@tells_apart("F", adds_over="cell")
def sentinel_wood(g: View) -> Outcome:
    """1 per forest space on the map edge (a corner is one space, so it counts once)."""
    cells = [i for i in EDGE if g.cells[i] == FOREST]
    items = tuple(item(f"forest {LABELS[i]}", 1, (i,)) for i in cells)
    return Outcome(items, f"{count(len(cells), 'forest space')} on the map edge x 1")


@tells_apart("F", adds_over="line")
def greenbough(g: View) -> Outcome:
    """1 per row and 1 per column holding a forest space."""
    cells = g.cells
    items: list[ScoreItem] = []
    for r, row in enumerate(ROWS):
        f = [i for i in row if cells[i] == FOREST]
        if f:
            items.append(item(row_label(r), 1, f))
    nrows = len(items)
    for c, col in enumerate(COLS):
        f = [i for i in col if cells[i] == FOREST]
        if f:
            items.append(item(f"column {c + 1}", 1, f))
    return Outcome(
        tuple(items), f"{count(nrows, 'row')} + {count(len(items) - nrows, 'column')} with forest x 1"
    )


@tells_apart("F.", adds_over="neighbourhood")  # empty versus filled neighbours
def treetower(g: View) -> Outcome:
    """1 per forest space whose every side is a filled space or the map edge."""
    cells, filled = g.cells, g.filled
    hit = [i for i in range(SIZE * SIZE) if cells[i] == FOREST and all(filled[n] for n in NEIGHBOURS[i])]
    items = tuple(item(f"forest {LABELS[i]}", 1, (i,)) for i in hit)
    return Outcome(items, f"{count(len(hit), 'forest space')} surrounded by filled spaces or the edge x 1")


@tells_apart("F")  # mountains are printed
def stoneside_forest(g: View) -> Outcome:
    """3 per mountain touching a forest cluster that touches another mountain (each once)."""
    cells = g.cells
    scored: set[int] = set()
    for cl in g.clusters_of(FOREST):
        mountains = [n for n in cl.border if cells[n] == MOUNTAIN]
        if len(mountains) >= 2:
            scored.update(mountains)
    items = tuple(item(f"mountain {LABELS[m]}", 3, (m,)) for m in sorted(scored))
    return Outcome(items, f"{count(len(scored), 'mountain')} linked to another by forest x 3")


@tells_apart("F")
def faunlost_thicket(g: View) -> Outcome:
    """Choose a column: 2 per forest in its longest unbroken vertical run of forest."""
    cells = g.cells
    best: list[int] = []
    best_col = -1
    for c, col in enumerate(COLS):
        run: list[int] = []
        for i in col:
            if cells[i] == FOREST:
                run.append(i)
                if len(run) > len(best):
                    best, best_col = list(run), c
            else:
                run = []
    if not best:
        return Outcome((), "no forest in any column", None)
    choice = f"column {best_col + 1}"
    span = f"{LABELS[best[0]]}-{LABELS[best[-1]]}" if len(best) > 1 else LABELS[best[0]]
    return Outcome(
        (item(f"{choice} ({span})", 2 * len(best), best),),
        f"longest forest run: {len(best)} spaces in {choice} x 2",
        choice,
    )


@tells_apart("FV")  # a village beside the cluster spoils it
def deepwood(g: View) -> Outcome:
    """6 per forest cluster of 5 or more spaces touching no village."""
    cells = g.cells
    items = tuple(
        item(cluster_label(cl.cells), 6, cl.cells)
        for cl in g.clusters_of(FOREST)
        if cl.size >= 5 and all(cells[n] != VILLAGE for n in cl.border)
    )
    return Outcome(items, f"{count(len(items), 'forest cluster')} of >=5 away from villages x 6")


@tells_apart("F", adds_over="neighbourhood")
def heart_of_the_forest(g: View) -> Outcome:
    """2 per forest space whose every side is forest or the map edge."""
    cells = g.cells
    hit = [
        i for i in range(SIZE * SIZE) if cells[i] == FOREST and all(cells[n] == FOREST for n in NEIGHBOURS[i])
    ]
    items = tuple(item(f"forest {LABELS[i]}", 2, (i,)) for i in hit)
    return Outcome(items, f"{count(len(hit), 'forest space')} surrounded by forest or the edge x 2")


@tells_apart("F", adds_over="row")
def sleepy_valley(g: View) -> Outcome:
    """4 per row holding at least 3 forest spaces."""
    cells = g.cells
    items = []
    for r, row in enumerate(ROWS):
        f = [i for i in row if cells[i] == FOREST]
        if len(f) >= 3:
            items.append(item(row_label(r), 4, f))
    return Outcome(tuple(items), f"{count(len(items), 'row')} with >=3 forest x 4")


RULES: dict[str, Rule] = {
    "sentinel_wood": sentinel_wood,
    "greenbough": greenbough,
    "treetower": treetower,
    "stoneside_forest": stoneside_forest,
    "faunlost_thicket": faunlost_thicket,
    "deepwood": deepwood,
    "heart_of_the_forest": heart_of_the_forest,
    "sleepy_valley": sleepy_valley,
}
