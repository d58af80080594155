"""The rules of Cartographers (and Cartographers Heroes): sheets, shapes, scoring cards, seasons.

The currency is :class:`rules.Sheet`, an immutable map sheet read from the sheet notation (docs/INTERFACES.md).
"""

import importlib
from typing import TYPE_CHECKING, Any

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
from rules.sheet import Problem, Sheet, Terrain
from rules.sides import PrintedSide, printed_side

if TYPE_CHECKING:
    from rules.policy import Outcome, UncertainSheet, Verdict, decide

# The scoring policy pulls in every scoring card and the doubt arithmetic: imported on first use
# (PEP 562), so that reading a photo (`cartoscan scan`) does not pay for them.
_LAZY = {"Outcome", "UncertainSheet", "Verdict", "decide"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("rules.policy"), name)
    raise AttributeError(f"module 'rules' has no attribute {name!r}")

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
