"""The map's vocabulary: its size, cells and their labels, neighbours, lines, connected groups, the
printed sides' names and the coin track.

The ground floor of the project: every other module (the sheet, the cards, the scanner, the renderer)
takes these facts from here, and this module imports nothing of the project but :mod:`rules.errors`.
Cells are ``(row, col)``, 0-based, row 0 = A at the top; a *flat index* is ``row * SIZE + col`` (the
fast form the tables below use).

>>> cell_label((1, 3)), parse_label("k11"), LABELS[12]
('B4', (10, 10), 'B2')
>>> [LABELS[i] for i in NEIGHBOURS[0]]
['A2', 'B1']
>>> [sorted(group) for group in clusters_of([(0, 0), (0, 1), (2, 2)])]
[[(0, 0), (0, 1)], [(2, 2)]]
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rules.errors import SheetError

__all__ = [
    "CELLS",
    "COIN_TRACK",
    "COLS",
    "CUSTOM",
    "DIAGONALS",
    "EDGE",
    "LABELS",
    "NEIGHBOURS",
    "PRINTED_SIDES",
    "ROWS",
    "ROW_LETTERS",
    "SIDE_NAMES",
    "SIZE",
    "Cell",
    "cell_label",
    "cells_label",
    "clusters_of",
    "components",
    "is_edge",
    "neighbours",
    "parse_label",
    "parse_labels",
    "row_label",
]

SIZE = 11
"""Rows and columns of the map."""
ROW_LETTERS = "ABCDEFGHIJK"
"""Row names, top to bottom; columns are numbered 1..11 left to right."""
COIN_TRACK = 14
"""Coin spaces on the sheet (counted on printed sides A and B; Heroes assumed the same)."""
PRINTED_SIDES = ("A", "B", "C", "D")
"""The printed map sides: A, B (base game), C, D (Cartographers Heroes)."""
CUSTOM = "custom"
"""The side with no printed features (mountains and wasteland from the grid, ruins from a header)."""
SIDE_NAMES = (*PRINTED_SIDES, CUSTOM)

Cell = tuple[int, int]

CELLS: tuple[Cell, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
"""Every cell in row-major order: ``CELLS[i]`` is the cell of flat index ``i``."""
LABELS: tuple[str, ...] = tuple(f"{ROW_LETTERS[r]}{c + 1}" for r, c in CELLS)
"""``LABELS[i]`` is the label (``"A1"``..``"K11"``) of flat index ``i``."""
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * SIZE + (c + dc)
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r, c in CELLS
)
"""The 2-4 orthogonal neighbours of each flat index, as flat indices (up, left, right, down)."""
_NEIGHBOUR_CELLS: tuple[tuple[Cell, ...], ...] = tuple(tuple(CELLS[j] for j in nb) for nb in NEIGHBOURS)
EDGE: tuple[int, ...] = tuple(i for i in range(SIZE * SIZE) if len(NEIGHBOURS[i]) < 4)
"""Flat indices of the spaces in row A or K or in column 1 or 11."""
ROWS: tuple[tuple[int, ...], ...] = tuple(tuple(range(r * SIZE, (r + 1) * SIZE)) for r in range(SIZE))
COLS: tuple[tuple[int, ...], ...] = tuple(tuple(range(c, SIZE * SIZE, SIZE)) for c in range(SIZE))
DIAGONALS: tuple[tuple[int, ...], ...] = tuple(
    tuple((r + k) * SIZE + k for k in range(SIZE - r)) for r in range(SIZE)
)
"""The down-right diagonals that start on the left edge (row ``r``) and end on the bottom edge."""

_LABEL_RE = re.compile(r"([A-Ka-k])(1[01]|[1-9])")


def neighbours(r: int, c: int) -> tuple[Cell, ...]:
    """The 2-4 orthogonal neighbours of ``(r, c)`` that lie on the map."""
    return _NEIGHBOUR_CELLS[r * SIZE + c]


def is_edge(r: int, c: int) -> bool:
    """True for a space in row A or K or in column 1 or 11."""
    return r == 0 or c == 0 or r == SIZE - 1 or c == SIZE - 1


def row_label(r: int) -> str:
    """``2 -> "row C"`` (how the cards name the rows they score)."""
    return f"row {ROW_LETTERS[r]}"


def cell_label(cell: Cell) -> str:
    """``(1, 3) -> "B4"``.

    Raises
    ------
    SheetError
        If the cell is off the map.
    """
    r, c = cell
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise SheetError(f"cell {cell!r} is off the {SIZE}x{SIZE} map")
    return LABELS[r * SIZE + c]


def cells_label(cells: Iterable[Cell]) -> str:
    """Space-separated labels in row-major order, e.g. ``"C4 C5"`` (the header notation)."""
    return " ".join(LABELS[r * SIZE + c] for r, c in sorted(cells))


def parse_label(text: str) -> Cell:
    """``"B4" -> (1, 3)`` (case-insensitive).

    Raises
    ------
    SheetError
        If `text` is not a label ``A1``..``K11``.
    """
    m = _LABEL_RE.fullmatch(text.strip())
    if m is None:
        raise SheetError(f"{text!r} is not a cell label (A1..K11)")
    return ROW_LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1


def parse_labels(text: str) -> frozenset[Cell]:
    """Labels separated by spaces or commas, e.g. ``"C4 C5"``; duplicates are an error.

    Raises
    ------
    SheetError
        On a bad or repeated label.
    """
    seen: set[Cell] = set()
    for part in re.split(r"[\s,]+", text.strip()):
        if not part:
            continue
        cell = parse_label(part)
        if cell in seen:  # there are only 121 cells, so this stops within 122 labels
            raise SheetError(f"cell {cells_label([cell])} is listed twice")
        seen.add(cell)
    return frozenset(seen)


def components(members: Iterable[int]) -> list[list[int]]:
    """Connected groups (orthogonal neighbours) of flat indices, each ascending, ordered by its
    first index.

    >>> components([0, 1, 13, 24, 40])
    [[0, 1], [13, 24], [40]]
    """
    todo = set(members)
    comps: list[list[int]] = []
    for start in sorted(todo):
        if start not in todo:
            continue
        todo.discard(start)
        comp = [start]
        k = 0
        while k < len(comp):
            for j in NEIGHBOURS[comp[k]]:
                if j in todo:
                    todo.discard(j)
                    comp.append(j)
            k += 1
        comp.sort()
        comps.append(comp)
    return comps


def clusters_of(cells: Iterable[Cell]) -> tuple[frozenset[Cell], ...]:
    """Connected groups (orthogonal neighbours) of a set of cells, ordered by their first cell."""
    return tuple(
        frozenset(CELLS[i] for i in comp) for comp in components(r * SIZE + c for r, c in cells)
    )
