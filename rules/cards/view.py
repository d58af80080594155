"""The scoring cards' view of one sheet: flat cells, filled flags and every cluster, computed once.

The 32 cards all ask the same few questions (which cells are filled, which clusters exist, what
touches what), so a sheet is analysed once into a :class:`View`, kept on the sheet
(:meth:`rules.Sheet.derived`), and every card reads from it.  Cells are flat indices
``i = row * SIZE + col``; the tables (neighbours, rows, columns, labels) come from :mod:`rules.grid`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from rules.grid import COLS, EDGE, LABELS, NEIGHBOURS, ROWS, SIZE, components
from rules.sheet import Sheet, Terrain

__all__ = ["EMPTY", "TERRAIN_TYPES", "Cluster", "View", "cluster_label", "view_of"]

EMPTY = Terrain.EMPTY.value
TERRAIN_TYPES = frozenset(t.value for t in Terrain if t.is_terrain_type)
"""Symbols of the terrain types (rulebook sense, base p.7 plus the Heroes hero); wasteland, destroyed
and empty have none."""
_EDGE = frozenset(EDGE)


@dataclass(frozen=True, slots=True)
class Cluster:
    """An orthogonally connected group of cells carrying the same symbol.

    Attributes
    ----------
    symbol : str
        The notation symbol shared by the cells (``"V"``, ``"."``, ...).
    cells : tuple of int
        Flat indices, ascending.
    border : frozenset of int
        Cells outside the cluster that share a side with it.
    on_edge : bool
        True when some cell lies on the map edge.
    """

    symbol: str
    cells: tuple[int, ...]
    border: frozenset[int]
    on_edge: bool

    @property
    def size(self) -> int:
        return len(self.cells)


def cluster_label(cells: Sequence[int]) -> str:
    """``"cluster at C3-D5"`` (bounding box corners) or ``"cluster at C3"`` for one cell.

    >>> cluster_label([26, 37, 48])
    'cluster at C5-E5'
    """
    rows = [i // SIZE for i in cells]
    cols = [i % SIZE for i in cells]
    first = min(rows) * SIZE + min(cols)
    last = max(rows) * SIZE + max(cols)
    if first == last:
        return f"cluster at {LABELS[first]}"
    return f"cluster at {LABELS[first]}-{LABELS[last]}"


class View:
    """Everything the cards need to know about one sheet with no ``?`` cell.

    Attributes
    ----------
    cells : str
        121 notation symbols, row A first.
    filled : tuple of bool
        Rulebook "filled" per flat index.
    ruins : frozenset of int
        Flat indices of the ruins spaces (filled or not).
    """

    def __init__(self, sheet: Sheet) -> None:
        # Filled: anything but empty (terrain, mountain, wasteland, monster, destroyed) once no cell
        # is "?"; an unfilled ruins space is written "." and so is empty (base rulebook p.9).
        sheet.require_known()  # the sheet's own message names every '?' cell
        self.cells: str = sheet.grid
        self.filled: tuple[bool, ...] = sheet.filled_mask
        self.ruins: frozenset[int] = frozenset(r * SIZE + c for r, c in sheet.ruins)

    @cached_property
    def clusters(self) -> tuple[Cluster, ...]:
        """Every cluster of every symbol (empty spaces included), in reading order."""
        by_symbol: dict[str, list[int]] = {}
        for i, ch in enumerate(self.cells):
            by_symbol.setdefault(ch, []).append(i)
        out = [
            Cluster(
                sym,
                tuple(comp),
                frozenset([n for m in comp for n in NEIGHBOURS[m]]).difference(comp),
                not _EDGE.isdisjoint(comp),
            )
            for sym, members in by_symbol.items()
            for comp in components(members)
        ]
        out.sort(key=lambda cl: cl.cells[0])
        return tuple(out)

    def clusters_of(self, symbol: str) -> list[Cluster]:
        """The clusters whose cells carry `symbol`, in reading order of their first cell."""
        return self._by_symbol.get(symbol, [])

    @cached_property
    def _by_symbol(self) -> dict[str, list[Cluster]]:
        by: dict[str, list[Cluster]] = {}
        for cl in self.clusters:
            by.setdefault(cl.symbol, []).append(cl)
        return by

    @cached_property
    def full_rows(self) -> tuple[bool, ...]:
        f = self.filled
        return tuple(all(f[i] for i in row) for row in ROWS)

    @cached_property
    def full_cols(self) -> tuple[bool, ...]:
        f = self.filled
        return tuple(all(f[i] for i in col) for col in COLS)


def view_of(sheet: Sheet) -> View:
    """The :class:`View` of `sheet`, made once and kept on the sheet.

    Raises
    ------
    SheetError
        If a cell is unknown (``?``).
    """
    return sheet.derived(View)
