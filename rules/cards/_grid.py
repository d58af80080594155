"""A scoring view of one sheet: flat cells, filled flags and every cluster, computed once.

The 32 cards all ask the same few questions (which cells are filled, which clusters exist,
what touches what), so a sheet is analysed once into a :class:`Grid` and every card reads
from it.  Cells are flat indices ``i = 11 * row + col``; the static tables (neighbours,
rows, columns, diagonals) are built at import time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

from rules.errors import SheetError

__all__ = [
    "COLS",
    "DIAGONALS",
    "EDGE",
    "LABELS",
    "NEIGHBOURS",
    "RC",
    "ROWS",
    "Cluster",
    "Grid",
    "N",
    "SheetLike",
    "cell_label",
    "cluster_label",
    "grid_of",
    "rc",
]

N = 11
SIZE = N * N

Cell = tuple[int, int]

EMPTY = "."
UNKNOWN = "?"
# Terrain types in the rulebook sense (base p.7 plus the Heroes hero); wasteland "-",
# destroyed "X" and empty "." are deliberately absent: they have no terrain type.
TERRAIN_TYPES = frozenset("FVPWM^H")


RC: tuple[Cell, ...] = tuple((i // N, i % N) for i in range(SIZE))
LABELS: tuple[str, ...] = tuple(f"{chr(65 + r)}{c + 1}" for r, c in RC)


def rc(i: int) -> Cell:
    """(row, col) of flat index `i`."""
    return RC[i]


def cell_label(i: int) -> str:
    """Label (``"A1"``..``"K11"``) of flat index `i`."""
    return LABELS[i]


def _neighbours(i: int) -> tuple[int, ...]:
    r, c = divmod(i, N)
    out = []
    if r > 0:
        out.append(i - N)
    if r < N - 1:
        out.append(i + N)
    if c > 0:
        out.append(i - 1)
    if c < N - 1:
        out.append(i + 1)
    return tuple(out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(i) for i in range(SIZE))
EDGE: tuple[int, ...] = tuple(i for i in range(SIZE) if len(NEIGHBOURS[i]) < 4)
EDGE_SET = frozenset(EDGE)
ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(range(r * N, r * N + N)) for r in range(N))
COLS: tuple[tuple[int, ...], ...] = tuple(tuple(range(c, SIZE, N)) for c in range(N))
# The Broken Road diagonals: start on the left edge at row r, run down-right to the bottom edge.
DIAGONALS: tuple[tuple[int, ...], ...] = tuple(tuple((r + k) * N + k for k in range(N - r)) for r in range(N))


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


def cluster_label(cells: tuple[int, ...] | list[int]) -> str:
    """``"cluster at C3-D5"`` (bounding box corners) or ``"cluster at C3"`` for one cell."""
    rows = [i // N for i in cells]
    cols = [i % N for i in cells]
    first = min(rows) * N + min(cols)
    last = max(rows) * N + max(cols)
    if first == last:
        return f"cluster at {cell_label(first)}"
    return f"cluster at {cell_label(first)}-{cell_label(last)}"


class SheetLike(Protocol):
    """What scoring reads from a sheet (``rules.Sheet`` provides it)."""

    @property
    def rows(self) -> tuple[str, ...]: ...

    @property
    def ruins(self) -> frozenset[Cell]: ...

    def require_known(self) -> object: ...


class Grid:
    """Everything the cards need to know about one sheet.

    Parameters
    ----------
    cells : str
        121 notation symbols, row A first.
    ruins : frozenset of int
        Flat indices of the ruins spaces (filled or not).
    """

    def __init__(self, cells: str, ruins: frozenset[int]) -> None:
        if len(cells) != SIZE:
            raise SheetError(f"a scoring grid needs {SIZE} cells, got {len(cells)}")
        bad = cells.find(UNKNOWN)
        if bad >= 0:
            raise SheetError(f"cell {cell_label(bad)} is unreadable ('?'): fix it before scoring")
        self.cells = cells
        # Filled = anything but empty: terrain, mountain, wasteland, monster, destroyed.
        # An unfilled ruins space is written "." and so is empty (base rulebook p.9).
        self.filled: tuple[bool, ...] = tuple(ch != EMPTY for ch in cells)
        self.ruins = ruins

    @cached_property
    def clusters(self) -> tuple[Cluster, ...]:
        """Every cluster of every symbol (empty spaces included), in reading order."""
        cells = self.cells
        seen = bytearray(SIZE)
        out = []
        for start in range(SIZE):
            if seen[start]:
                continue
            sym = cells[start]
            seen[start] = 1
            members = [start]
            k = 0
            while k < len(members):
                for n in NEIGHBOURS[members[k]]:
                    if not seen[n] and cells[n] == sym:
                        seen[n] = 1
                        members.append(n)
                k += 1
            members.sort()
            border = frozenset([n for m in members for n in NEIGHBOURS[m]]).difference(members)
            out.append(Cluster(sym, tuple(members), border, not EDGE_SET.isdisjoint(members)))
        return tuple(out)

    def clusters_of(self, symbol: str) -> list[Cluster]:
        """The clusters whose cells carry `symbol`, in reading order of their first cell."""
        by = self._by_symbol
        return by.get(symbol, [])

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


# One-slot identity cache: scoring all cards of one sheet in a row analyses it once.
_last: tuple[object, Grid] | None = None


def grid_of(sheet: SheetLike) -> Grid:
    """The :class:`Grid` of `sheet` (cached for the most recent sheet object).

    Raises
    ------
    SheetError
        If a cell is unknown (``?``).
    """
    global _last
    last = _last
    if last is not None and last[0] is sheet:
        return last[1]
    sheet.require_known()  # the sheet's own message names every '?' cell
    grid = Grid("".join(sheet.rows).replace(" ", ""), frozenset(r * N + c for r, c in sheet.ruins))
    _last = (sheet, grid)
    return grid
