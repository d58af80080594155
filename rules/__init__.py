"""The rules of Cartographers (and Cartographers Heroes): sheets, shapes, scoring cards, seasons.

The currency is :class:`rules.Sheet`, an immutable map sheet read from the sheet notation
(docs/INTERFACES.md). The names below are the package's public face; the submodules hold the rest
(``rules.grid`` the grid's vocabulary, ``rules.shapes`` drawing, ``rules.check`` a sheet's problems,
``rules.doubt`` the spread of unsure cells).
"""

import importlib
from typing import TYPE_CHECKING, Any

from rules.errors import SheetError
from rules.grid import (
    CELLS,
    COIN_TRACK,
    CUSTOM,
    LABELS,
    PRINTED_SIDES,
    ROW_LETTERS,
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
    from rules.cards import CARDS, CardScore, ScoringCard, UnknownCardError, find_card, parse_card_list
    from rules.policy import Outcome, UncertainSheet, Verdict, decide
    from rules.season import Season, SeasonScore, SheetScore, score_cards, score_season

# The scoring cards (their data), the seasons and the scoring policy (with the doubt arithmetic) are
# imported on first use (PEP 562), so that reading a photo (`cartoscan scan`) does not pay for them.
_LAZY = {
    **dict.fromkeys(("Outcome", "UncertainSheet", "Verdict", "decide"), "rules.policy"),
    **dict.fromkeys(
        ("CARDS", "CardScore", "ScoringCard", "UnknownCardError", "find_card", "parse_card_list"),
        "rules.cards",
    ),
    **dict.fromkeys(("Season", "SeasonScore", "SheetScore", "score_cards", "score_season"), "rules.season"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'rules' has no attribute {name!r}")


__all__ = [
    "CARDS",
    "CELLS",
    "COIN_TRACK",
    "CUSTOM",
    "LABELS",
    "PRINTED_SIDES",
    "ROW_LETTERS",
    "SIZE",
    "CardScore",
    "Cell",
    "Outcome",
    "PrintedSide",
    "Problem",
    "ScoringCard",
    "Season",
    "SeasonScore",
    "Sheet",
    "SheetError",
    "SheetScore",
    "Terrain",
    "UncertainSheet",
    "UnknownCardError",
    "Verdict",
    "cell_label",
    "cells_label",
    "clusters_of",
    "decide",
    "find_card",
    "is_edge",
    "neighbours",
    "parse_card_list",
    "parse_label",
    "parse_labels",
    "printed_side",
    "score_cards",
    "score_season",
]
