"""The values the scoring cards trade: :class:`ScoringCard`, :class:`CardScore`, :class:`ScoreItem`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from rules.cards.view import View, view_of
from rules.grid import CELLS, COLS, DIAGONALS, LABELS, NEIGHBOURS, ROWS, SIZE, Cell
from rules.sheet import Sheet

__all__ = ["DRAWN", "UNITS", "CardScore", "Category", "ScoreItem", "ScoringCard", "tells_apart"]

DRAWN = ".FVPWMHX"
"""Every symbol a drawn (not printed) space can hold: empty, the drawable terrains, destroyed."""


def _units(lines: Iterable[Iterable[int]]) -> tuple[frozenset[Cell], ...]:
    return tuple(frozenset(CELLS[i] for i in line) for line in lines)


UNITS: Mapping[str, tuple[frozenset[Cell], ...]] = {
    "map": _units([range(SIZE * SIZE)]),
    "cell": _units((i,) for i in range(SIZE * SIZE)),
    "neighbourhood": _units((i, *NEIGHBOURS[i]) for i in range(SIZE * SIZE)),
    "row": _units(ROWS),
    "column": _units(COLS),
    "line": _units((*ROWS, *COLS)),
    "diagonal": _units(DIAGONALS),  # the Broken Road's, from the left edge down-right
}
"""The units a rule's points can add up over (:func:`tells_apart`'s ``adds_over``): the points are a
sum of terms, each depending on the cells of one unit only ("map": one term, the whole map)."""


class Category(StrEnum):
    """The card back: one card of each category is dealt under the four edicts."""

    FOREST = "forest"
    FARM_WATER = "farm_water"
    VILLAGE = "village"
    SPACE = "space"


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One unit a card scored: a row, a column, a cluster, a mountain, a square...

    Attributes
    ----------
    label : str
        What the unit is, e.g. ``"row C"``, ``"mountain F6"``, ``"cluster at C3-D5"``.
    points : int
        Stars it earned.
    cells : frozenset of (row, col)
        The cells that earned them.
    """

    label: str
    points: int
    cells: frozenset[Cell]


@dataclass(frozen=True, slots=True)
class CardScore:
    """The result of scoring one card on one sheet.

    Attributes
    ----------
    card_id : str
        The card's id (docs/INTERFACES.md §2).
    points : int
        Stars earned (never negative).
    cells : frozenset of (row, col)
        Cells that earned stars (for the report and the overlay).
    detail : str
        One line saying why, e.g. ``"2 clusters of >=6 villages x 8"``.
    choice : str or None
        The choice made for the player on choice cards (``"column 4"``,
        ``"cluster at C3-D5"``), else None.
    items : tuple of ScoreItem
        Per-unit breakdown; their points add up to `points`.
    """

    card_id: str
    points: int
    cells: frozenset[Cell]
    detail: str
    choice: str | None = None
    items: tuple[ScoreItem, ...] = field(default=())

    def __int__(self) -> int:
        return self.points

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: points, choice, detail, cell labels and the per-unit items."""
        return {
            "points": self.points,
            "choice": self.choice,
            "detail": self.detail,
            "cells": _labels(self.cells),
            "items": [
                {"label": it.label, "points": it.points, "cells": _labels(it.cells)} for it in self.items
            ],
        }


def _labels(cells: frozenset[Cell]) -> list[str]:
    return [LABELS[r * SIZE + c] for r, c in sorted(cells)]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a rule function returns; the card adds its id to make a :class:`CardScore`."""

    items: tuple[ScoreItem, ...]
    detail: str
    choice: str | None = None


def count(n: int, noun: str) -> str:
    """``count(1, "row") -> "1 row"``, ``count(3, "row") -> "3 rows"`` (for the one-line details)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def item(label: str, points: int, cells: Iterable[int]) -> ScoreItem:
    """A :class:`ScoreItem` from flat cell indices."""
    return ScoreItem(label, points, frozenset(map(CELLS.__getitem__, cells)))


Rule = Callable[[View], Outcome]

_TOLD_APART: dict[Rule, tuple[str, str]] = {}


def tells_apart(symbols: str, *, adds_over: str = "map") -> Callable[[Rule], Rule]:
    """Declare the drawn symbols a rule tells apart (every other drawn symbol is one class to it),
    and the units its points add up over.

    A rule's points depend on a drawn space only through that space's class: ``@tells_apart("F.")``
    says forest, empty, and "anything else drawn" (village = farm = water = ... here).  Printed spaces
    (mountain, wasteland) never change, so they need no class.  ``adds_over`` names :data:`UNITS`:
    with ``"row"`` the points are a sum of one term per row, each depending on that row's cells only.
    :mod:`rules.doubt` uses both to score unsure cells in small independent pieces;
    ``tests/rules/test_rules_doubt_projection.py`` checks every declaration.  When unsure, declare
    more symbols and ``"map"``: always correct, only slower.
    """
    if set(symbols) - set(DRAWN) or len(set(symbols)) != len(symbols):
        raise ValueError(f"tells_apart: {symbols!r} must be distinct symbols among {DRAWN!r}")
    if adds_over not in UNITS:
        raise ValueError(f"tells_apart: adds_over {adds_over!r} is not one of {sorted(UNITS)}")

    def declare(rule: Rule) -> Rule:
        _TOLD_APART[rule] = (symbols, adds_over)
        return rule

    return declare


def told_apart(rule: Rule) -> tuple[str, str]:
    """What `rule` was declared with (:func:`tells_apart`): its symbols and units; KeyError if none."""
    return _TOLD_APART[rule]


# eq=False: the 32 cards are singletons, compared and hashed by identity.
@dataclass(frozen=True, slots=True, repr=False, eq=False)
class ScoringCard:
    """One scoring card: its printed facts (from ``rules/data/cards.json``) and its rule.

    Attributes
    ----------
    id : str
        Stable snake_case id (docs/INTERFACES.md §2).
    names : Mapping[str, str]
        Printed names by language code (``en``, ``de``, ``pl``, ``ru``; missing when unknown).
    aliases : tuple of str
        Other names the card goes by (misprints, other editions, implementations).
    category : Category
        Card back.
    solo_value : int
        Number in the lower corner, subtracted in solo mode.
    card_no : int or None
        Printed card number where known.
    expansion : str
        ``"base"`` or ``"heroes"``.
    text : str
        The rule in our own words.
    rule : callable
        Scores a :class:`~rules.cards.view.View` of a sheet.
    sees : str
        The drawn symbols the rule tells apart (:func:`tells_apart`); the other drawn symbols are
        one class to it.  The default tells every drawn symbol apart (always correct).
    adds_over : str
        The :data:`UNITS` the points add up over; the default ``"map"`` is one term (always correct).
    """

    id: str
    names: Mapping[str, str]
    aliases: tuple[str, ...]
    category: Category
    solo_value: int
    card_no: int | None
    expansion: str
    text: str
    rule: Rule
    sees: str = DRAWN
    adds_over: str = "map"

    @property
    def name(self) -> str:
        """The English printed name."""
        return self.names["en"]

    def score(self, sheet: Sheet) -> CardScore:
        """Score this card on `sheet`.

        Raises
        ------
        SheetError
            If the sheet has an unreadable (``?``) cell.
        """
        out = self.rule(view_of(sheet))
        cells: set[Cell] = set()
        for it in out.items:
            cells |= it.cells
        return CardScore(
            self.id, sum(it.points for it in out.items), frozenset(cells), out.detail, out.choice, out.items
        )

    def drawn_class(self, symbol: str) -> str:
        """The class of drawn `symbol` for this card: the symbol itself if the card tells it apart,
        else ``"*"`` (the same for every symbol it does not)."""
        return symbol if symbol in self.sees else "*"

    def __repr__(self) -> str:
        return f"find_card({self.id!r})"
