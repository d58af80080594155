"""The village scoring cards (base 34-37, Heroes village back).  Rulings: docs/RULINGS.md."""

from __future__ import annotations

from rules.cards.model import Outcome, Rule, count, item, tells_apart
from rules.cards.view import EMPTY, TERRAIN_TYPES, Cluster, View, cluster_label
from rules.grid import SIZE
from rules.sheet import Terrain

VILLAGE = Terrain.VILLAGE.value
MOUNTAIN = Terrain.MOUNTAIN.value
# Greengold Plains: the types a village cluster can border (a village neighbour would be part
# of the cluster).  Hero counts when playing with heroes (pl Heroes rulebook, "Łączenie gier").
_NEIGHBOUR_TYPES = TERRAIN_TYPES - {VILLAGE}


def _largest(clusters: list[Cluster]) -> Cluster | None:
    """The largest cluster; ties go to the first in reading order."""
    best: Cluster | None = None
    for cl in clusters:
        if best is None or cl.size > best.size:
            best = cl
    return best


@tells_apart("V")
def wildholds(g: View) -> Outcome:
    """8 per village cluster of 6 or more spaces."""
    items = tuple(item(cluster_label(cl.cells), 8, cl.cells) for cl in g.clusters_of(VILLAGE) if cl.size >= 6)
    return Outcome(items, f"{count(len(items), 'cluster')} of >=6 villages x 8")


@tells_apart("V")  # mountains are printed
def great_city(g: View) -> Outcome:
    """1 per space of the largest village cluster that touches no mountain."""
    cells = g.cells
    eligible = [cl for cl in g.clusters_of(VILLAGE) if all(cells[n] != MOUNTAIN for n in cl.border)]
    best = _largest(eligible)
    if best is None:
        return Outcome((), "no village cluster away from mountains")
    return Outcome(
        (item(cluster_label(best.cells), best.size, best.cells),),
        f"largest village cluster away from mountains: {best.size} spaces x 1",
    )


@tells_apart("VFPWMH")  # each terrain type beside the cluster; empty and destroyed have none
def greengold_plains(g: View) -> Outcome:
    """3 per village cluster bordering at least 3 different terrain types."""
    cells = g.cells
    items = []
    for cl in g.clusters_of(VILLAGE):
        kinds = {cells[n] for n in cl.border} & _NEIGHBOUR_TYPES
        if len(kinds) >= 3:
            names = ", ".join(sorted(Terrain(k).word for k in kinds))
            items.append(item(f"{cluster_label(cl.cells)} ({names})", 3, cl.cells))
    return Outcome(tuple(items), f"{count(len(items), 'village cluster')} next to >=3 terrain types x 3")


@tells_apart("V")
def shieldgate(g: View) -> Outcome:
    """2 per space of the second largest village cluster (a tie for largest gives the largest size)."""
    ranked = sorted(g.clusters_of(VILLAGE), key=lambda cl: -cl.size)
    if len(ranked) < 2:
        return Outcome((), "fewer than two village clusters")
    second = ranked[1]
    return Outcome(
        (item(cluster_label(second.cells), 2 * second.size, second.cells),),
        f"second largest village cluster: {second.size} spaces x 2 (largest {ranked[0].size})",
    )


def _has_line4(cl: Cluster) -> bool:
    inside = set(cl.cells)
    for i in cl.cells:
        r, c = divmod(i, SIZE)
        if c <= SIZE - 4 and i + 1 in inside and i + 2 in inside and i + 3 in inside:
            return True
        if r <= SIZE - 4 and i + SIZE in inside and i + 2 * SIZE in inside and i + 3 * SIZE in inside:
            return True
    return False


def _has_square2(cl: Cluster) -> bool:
    inside = set(cl.cells)
    for i in cl.cells:
        r, c = divmod(i, SIZE)
        if r < SIZE - 1 and c < SIZE - 1 and {i + 1, i + SIZE, i + SIZE + 1} <= inside:
            return True
    return False


@tells_apart("V")
def traylo_monastery(g: View) -> Outcome:
    """7 per village cluster containing 4 villages in a straight line."""
    items = tuple(
        item(cluster_label(cl.cells), 7, cl.cells)
        for cl in g.clusters_of(VILLAGE)
        if cl.size >= 4 and _has_line4(cl)
    )
    return Outcome(items, f"{count(len(items), 'village cluster')} with a 1x4 line x 7")


@tells_apart("V")
def gnomish_colony(g: View) -> Outcome:
    """6 per village cluster containing a 2x2 square of villages."""
    items = tuple(
        item(cluster_label(cl.cells), 6, cl.cells)
        for cl in g.clusters_of(VILLAGE)
        if cl.size >= 4 and _has_square2(cl)
    )
    return Outcome(items, f"{count(len(items), 'village cluster')} with a 2x2 square x 6")


@tells_apart("V.")  # empty neighbours score
def outer_enclave(g: View) -> Outcome:
    """Choose a village cluster: 1 per empty space next to it (best choice; ties: reading order)."""
    cells = g.cells
    best: Cluster | None = None
    best_empty: list[int] = []
    for cl in g.clusters_of(VILLAGE):
        empty = sorted(n for n in cl.border if cells[n] == EMPTY)
        if len(empty) > len(best_empty):
            best, best_empty = cl, empty
    if best is None:
        return Outcome((), "no village cluster with an empty neighbour")
    choice = cluster_label(best.cells)
    return Outcome(
        (item(f"empty spaces next to the {choice}", len(best_empty), best_empty),),
        f"best village cluster has {len(best_empty)} empty neighbours x 1",
        choice,
    )


@tells_apart("V")
def caravansary(g: View) -> Outcome:
    """Choose a village cluster: 1 per row and 1 per column it occupies (best choice)."""
    best: Cluster | None = None
    best_rows = best_cols = 0
    for cl in g.clusters_of(VILLAGE):
        rows = len({i // SIZE for i in cl.cells})
        cols = len({i % SIZE for i in cl.cells})
        if rows + cols > best_rows + best_cols:
            best, best_rows, best_cols = cl, rows, cols
    if best is None:
        return Outcome((), "no village cluster")
    choice = cluster_label(best.cells)
    return Outcome(
        (item(choice, best_rows + best_cols, best.cells),),
        f"best village cluster spans {best_rows} rows + {best_cols} columns x 1",
        choice,
    )


RULES: dict[str, Rule] = {
    "wildholds": wildholds,
    "great_city": great_city,
    "greengold_plains": greengold_plains,
    "shieldgate": shieldgate,
    "traylo_monastery": traylo_monastery,
    "outer_enclave": outer_enclave,
    "gnomish_colony": gnomish_colony,
    "caravansary": caravansary,
}
