"""The rules of Cartographers (and Cartographers Heroes): sheets, shapes, scoring cards, seasons.

The currency is :class:`rules.Sheet`, an immutable map sheet read from the CONTRACT notation.
"""

from rules.errors import SheetError
from rules.grid import (
    CELLS,
    COIN_TRACK,
    SIZE,
    Cell,
    cell_label,
    cells_label,
    clusters_of,
    is_edge,
    neighbours,
    parse_label,
    parse_labels,
)
from rules.policy import Outcome, UncertainSheet, Verdict, decide
from rules.sheet import Problem, Sheet, Terrain
from rules.sides import PrintedSide, printed_side

__all__ = [
    "CELLS",
    "COIN_TRACK",
    "SIZE",
    "Cell",
    "Outcome",
    "PrintedSide",
    "Problem",
    "Sheet",
    "SheetError",
    "Terrain",
    "UncertainSheet",
    "Verdict",
    "cell_label",
    "cells_label",
    "clusters_of",
    "decide",
    "is_edge",
    "neighbours",
    "parse_label",
    "parse_labels",
    "printed_side",
]
