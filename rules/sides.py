"""The printed map sides A, B (base game) and C, D (Cartographers Heroes), as data.

The positions live in ``rules/data/sides.json`` (copied from the shared game-data
research).  Confidence is recorded per fact: sides A and B were read from scans of the
printed sheets (high); side C mountains agree across three implementations (medium) but
its ruins, and everything on side D, come from a single implementation (LOW).  Check
:attr:`PrintedSide.confidence` before trusting a C/D result blindly.

A sheet may also use ``side: custom``: no printed features, mountains and wasteland are
whatever the grid shows and the ruins come from the sheet's own ``ruins:`` header.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from rules.errors import SheetError
from rules.grid import CUSTOM, SIDE_NAMES, Cell, parse_label

__all__ = ["PrintedSide", "printed_side"]


@dataclass(frozen=True, slots=True)
class PrintedSide:
    """What a side prints before play: mountains, wasteland and ruins spaces.

    Attributes
    ----------
    name : str
        ``"A"``..``"D"`` (or ``"custom"``, which prints nothing).
    title : str
        A human description, e.g. ``"Wilderness (base side A)"``.
    game : str
        ``"base"`` or ``"heroes"``.
    mountains, wasteland, ruins : frozenset of (row, col)
        0-based cells.
    confidence : dict
        ``{"mountains": ..., "wasteland": ..., "ruins": ...}`` with values
        ``"high"``, ``"medium"`` or ``"low"``.
    """

    name: str
    title: str
    game: str
    mountains: frozenset[Cell]
    wasteland: frozenset[Cell]
    ruins: frozenset[Cell]
    confidence: dict[str, str]

    @property
    def is_low_confidence(self) -> bool:
        """True when any printed fact of this side rests on a single source."""
        return "low" in self.confidence.values()


@cache
def _load() -> dict[str, PrintedSide]:
    raw = json.loads(resources.files("rules").joinpath("data/sides.json").read_text(encoding="utf-8"))
    sides = {}
    for name, entry in raw["sides"].items():
        sides[name] = PrintedSide(
            name=name,
            title=entry["name"],
            game=entry["game"],
            mountains=frozenset(map(parse_label, entry["mountains"])),
            wasteland=frozenset(map(parse_label, entry["wasteland"])),
            ruins=frozenset(map(parse_label, entry["ruins"])),
            confidence=dict(entry["confidence"]),
        )
    sides[CUSTOM] = PrintedSide(
        CUSTOM,
        "Custom map (features from the grid and the ruins header)",
        "custom",
        frozenset(),
        frozenset(),
        frozenset(),
        {"mountains": "high", "wasteland": "high", "ruins": "high"},
    )
    return sides


def printed_side(name: str) -> PrintedSide:
    """The printed features of side `name` (``"A"``..``"D"`` or ``"custom"``, case-insensitive).

    Raises
    ------
    SheetError
        If `name` is not a known side.
    """
    key = name.strip()
    key = key.lower() if key.lower() == CUSTOM else key.upper()
    try:
        return _load()[key]
    except KeyError:
        raise SheetError(f"unknown side {name!r}: expected one of {', '.join(SIDE_NAMES)}") from None
