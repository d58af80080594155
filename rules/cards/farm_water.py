"""The farm / water scoring cards (base 30-33, Heroes farm/water back).  Rulings: docs/RULINGS.md."""

from __future__ import annotations

from rules.cards.model import Outcome, Rule, ScoreItem, count, item, tells_apart
from rules.cards.view import View, cluster_label
from rules.grid import COLS, LABELS, NEIGHBOURS, SIZE
from rules.sheet import Terrain

FARM = Terrain.FARM.value
WATER = Terrain.WATER.value
MOUNTAIN = Terrain.MOUNTAIN.value

_NAME = {FARM: "farm", WATER: "water"}


def _touching(g: View, symbol: str, other: str) -> list[int]:
    """Cells of `symbol` with at least one `other` neighbour."""
    cells = g.cells
    return [
        i for i in range(SIZE * SIZE) if cells[i] == symbol and any(cells[n] == other for n in NEIGHBOURS[i])
    ]


@tells_apart("PW", adds_over="neighbourhood")
def canal_lake(g: View) -> Outcome:
    """1 per water next to a farm + 1 per farm next to water; each space scores once."""
    water = _touching(g, WATER, FARM)
    farm = _touching(g, FARM, WATER)
    items = tuple(item(f"{_NAME[g.cells[i]]} {LABELS[i]}", 1, (i,)) for i in sorted(water + farm))
    return Outcome(
        items,
        f"{count(len(water), 'water space')} next to farm + {count(len(farm), 'farm space')} next to water",
    )


@tells_apart("PW", adds_over="neighbourhood")
def mages_valley(g: View) -> Outcome:
    """2 per water next to a mountain + 1 per farm next to a mountain."""
    water = _touching(g, WATER, MOUNTAIN)
    farm = _touching(g, FARM, MOUNTAIN)
    items = tuple(
        item(f"{_NAME[g.cells[i]]} {LABELS[i]}", 2 if g.cells[i] == WATER else 1, (i,))
        for i in sorted(water + farm)
    )
    return Outcome(
        items,
        f"{count(len(water), 'water space')} x 2 + {count(len(farm), 'farm space')} x 1 next to mountains",
    )


@tells_apart("PW", adds_over="neighbourhood")
def golden_granary(g: View) -> Outcome:
    """1 per water next to a ruins space (filled or not) + 3 per farm drawn on a ruins space."""
    cells, ruins = g.cells, g.ruins
    water = [i for i in range(SIZE * SIZE) if cells[i] == WATER and any(n in ruins for n in NEIGHBOURS[i])]
    farm = [i for i in sorted(ruins) if cells[i] == FARM]
    items = tuple(
        item(f"{_NAME[cells[i]]} {LABELS[i]}", 1 if cells[i] == WATER else 3, (i,))
        for i in sorted(water + farm)
    )
    return Outcome(
        items,
        f"{count(len(water), 'water space')} next to ruins x 1 + {count(len(farm), 'farm')} on ruins x 3",
    )


@tells_apart("PW")
def shoreside_expanse(g: View) -> Outcome:
    """3 per farm cluster touching neither water nor the edge, same for water versus farm."""
    cells = g.cells
    items: list[ScoreItem] = []
    counts = {}
    for sym, other in ((FARM, WATER), (WATER, FARM)):
        good = [
            cl for cl in g.clusters_of(sym) if not cl.on_edge and all(cells[n] != other for n in cl.border)
        ]
        counts[sym] = len(good)
        items += [item(f"{_NAME[sym]} {cluster_label(cl.cells)}", 3, cl.cells) for cl in good]
    return Outcome(
        tuple(items),
        f"inland clusters apart: {counts[FARM]} farm + {counts[WATER]} water, x 3",
    )


@tells_apart("PW")
def craylund(g: View) -> Outcome:
    """7 per farm cluster next to at least 3 different water spaces."""
    cells = g.cells
    items = []
    for cl in g.clusters_of(FARM):
        water = sum(1 for n in cl.border if cells[n] == WATER)
        if water >= 3:
            items.append(item(f"farm {cluster_label(cl.cells)} ({water} water)", 7, cl.cells))
    return Outcome(tuple(items), f"{count(len(items), 'farm cluster')} next to >=3 water spaces x 7")


@tells_apart("PW", adds_over="neighbourhood")
def ulems_wallow(g: View) -> Outcome:
    """4 per water space next to at least 2 farm spaces."""
    cells = g.cells
    hit = [
        i
        for i in range(SIZE * SIZE)
        if cells[i] == WATER and sum(1 for n in NEIGHBOURS[i] if cells[n] == FARM) >= 2
    ]
    items = tuple(item(f"water {LABELS[i]}", 4, (i,)) for i in hit)
    return Outcome(items, f"{count(len(hit), 'water space')} next to >=2 farms x 4")


@tells_apart("PW")
def clawsgrave_peaks(g: View) -> Outcome:
    """5 per mountain joined to a farm by a water cluster touching both (each mountain once)."""
    cells = g.cells
    scored: set[int] = set()
    for cl in g.clusters_of(WATER):
        if any(cells[n] == FARM for n in cl.border):
            scored.update(n for n in cl.border if cells[n] == MOUNTAIN)
    items = tuple(item(f"mountain {LABELS[m]}", 5, (m,)) for m in sorted(scored))
    return Outcome(items, f"{count(len(scored), 'mountain')} linked to a farm by water x 5")


@tells_apart("PW", adds_over="column")
def jorekburg(g: View) -> Outcome:
    """4 per column with equally many farm and water spaces, at least one of each."""
    cells = g.cells
    items = []
    for c, col in enumerate(COLS):
        farm = [i for i in col if cells[i] == FARM]
        water = [i for i in col if cells[i] == WATER]
        if farm and len(farm) == len(water):
            items.append(item(f"column {c + 1}", 4, farm + water))
    return Outcome(tuple(items), f"{count(len(items), 'column')} with equal farm and water x 4")


RULES: dict[str, Rule] = {
    "canal_lake": canal_lake,
    "mages_valley": mages_valley,
    "golden_granary": golden_granary,
    "shoreside_expanse": shoreside_expanse,
    "craylund": craylund,
    "ulems_wallow": ulems_wallow,
    "clawsgrave_peaks": clawsgrave_peaks,
    "jorekburg": jorekburg,
}
