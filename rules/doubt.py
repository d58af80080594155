"""How far a few unsure cells can move a score: every plausible reading scored, lowest to highest.

A scanner marks the cells it is not sure of; each has a short list of plausible terrains. When every
combination of them gives the same card points, coins, monster penalty and total, the unsure cells
cannot change the score and the most likely reading can be scored outright.  Otherwise the spread says
what is at stake ("the total would be 41 to 47").

Up to :data:`MAX_READINGS` combinations are scored jointly.  Above it each card (and the monster
penalty) is scored on its own projection: a card tells only a few drawn symbols apart
(:attr:`rules.cards.ScoringCard.sees`; a forest card cannot tell a village from a farm), so a cell
whose plausible terrains fall in one class of that card cannot move it, and the others need one
reading per class.  A card whose points add up over units (``adds_over``: rows, a space and its
neighbours...) is scored piece by piece: unsure cells that share no unit move it independently, so
its lowest is its guess plus the lowest change of each piece.  Every card's span is then exact.  The
total adds up numbers moved by disjoint cells; numbers moved by shared cells are scored together
when that takes at most the cap, else their spans are added up, a bound (:attr:`Spread.bounded`).
The cap then holds for the readings each card scores.

>>> from rules import Sheet
>>> from rules.cards import find_card
>>> guess = Sheet.blank("A").replace({(0, 0): "F"})
>>> spread = score_spread(guess, {(0, 0): "F."}, [find_card("sentinel_wood")])
>>> spread.certain, str(spread.total), spread.readings
(False, '0 to 1', 2)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.cards.model import DRAWN, UNITS
from rules.errors import SheetError
from rules.grid import Cell, cell_label
from rules.season import (
    MONSTER_PENALTY_ADDS_OVER,
    MONSTER_PENALTY_SEES,
    Season,
    SeasonScore,
    monster_penalty,
    score_cards,
    score_season,
)
from rules.sheet import Sheet, Terrain

__all__ = ["MAX_READINGS", "Span", "Spread", "TooManyReadings", "score_spread"]

MAX_READINGS = 2048
"""Most readings :func:`score_spread` enumerates (eleven unsure cells with two plausible terrains each,
or six with three).  Each reading costs one scoring of the cards (~0.45 ms for the four slowest on a
dense sheet): the worst case measured 0.83 s median, 1.03 s worst for 2048 readings on a loaded 2-core
machine (``python benchmarks/bench_rules_doubt.py ``).  Above it the same cap holds for the readings
each card (or group of cards with the same classes and units) scores, see the module docstring."""


@dataclass(frozen=True, slots=True)
class Span:
    """The lowest and highest value one reported number takes over the readings."""

    low: int
    high: int

    @property
    def certain(self) -> bool:
        return self.low == self.high

    def __str__(self) -> str:
        return str(self.low) if self.certain else f"{self.low} to {self.high}"

    @classmethod
    def of(cls, values: Iterable[int]) -> Span:
        seen = list(values)
        return cls(min(seen), max(seen))


@dataclass(frozen=True, slots=True)
class Spread:
    """What every plausible reading of the unsure cells scores.

    Attributes
    ----------
    cells : tuple of (row, col)
        The unsure cells, row-major.
    readings : int
        How many readings the spread covers (the product of the alternatives' counts); above the cap
        they are covered card by card, through each card's classes, not scored one by one.
    cards : Mapping[str, Span]
        Each weighed card's points by card id, in the order the cards were given: with a season only
        its two edicts (a card that does not score this season never blocks the season's score).
    coins, monsters : Span
        Stars for coins (never in doubt: coins are not cells) and the monster penalty (<= 0).
    total : Span
        The total a score reports: the season's when a season is given, else cards + coins + monsters.
    season : Season or None
    bounded : bool
        True when `total` is only a bound (the lowest and highest of its parts added up, which no one
        reading need reach): over the cap, when numbers that move share unsure cells allowing more
        than the cap readings together.  The other spans are always exact.
    """

    cells: tuple[Cell, ...]
    readings: int
    cards: Mapping[str, Span]
    coins: Span
    monsters: Span
    total: Span
    season: Season | None = None
    bounded: bool = False

    @property
    def certain(self) -> bool:
        """True when every reported number is the same in all readings."""
        return all(span.certain for span in self._numbers().values())

    def _numbers(self) -> dict[str, Span]:
        return {**self.cards, "coins": self.coins, "monsters": self.monsters, "total": self.total}

    def describe(self) -> str:
        """One clause for a person, e.g. ``"the total would be 41 to 47 (sentinel_wood 3 to 9)"``; a bound
        says so: ``"the total would be within 38 to 49 (a bound, each card weighed on its own: ...)"``."""
        if self.certain:
            return f"the total is {self.total} in all {self.readings} readings"
        others = [f"{name} {span}" for name, span in self._numbers().items() if name != "total"
                  and not span.certain]
        if self.bounded:
            parts = ", ".join(others)
            return f"the total would be within {self.total} (a bound, each card weighed on its own: {parts})"
        tail = f" ({', '.join(others)})" if others else ""
        return f"the total would be {self.total}{tail}"


@dataclass(frozen=True, slots=True)
class TooManyReadings:
    """Falsy: the unsure cells allow more readings than the cap, even for some card (or the monster
    penalty) scored alone on its own classes, so none were scored.  `readings` counts them all."""

    cells: tuple[Cell, ...]
    readings: int
    cap: int

    def __bool__(self) -> bool:
        return False

    @property
    def message(self) -> str:
        return f"{len(self.cells)} unsure cells allow {self.readings} readings, more than {self.cap} to score"


def _alternatives(
    guess: Sheet, alternatives: Mapping[Cell, Sequence[Terrain | str]]
) -> dict[Cell, tuple[str, ...]]:
    """The alternatives checked and de-duplicated (order kept), row-major; raises SheetError."""
    out: dict[Cell, tuple[str, ...]] = {}
    for cell in sorted(alternatives):
        here = guess[cell]
        if here.is_printed:
            raise SheetError(f"cell {cell_label(cell)} is printed ({here.value}); it is never unsure")
        symbols: list[str] = []
        for value in alternatives[cell]:
            terrain = value if isinstance(value, Terrain) else Terrain.from_word(value)
            if not terrain.is_known or terrain.is_printed:
                raise SheetError(f"cell {cell_label(cell)}: {terrain.value!r} cannot be a drawn reading")
            if terrain.value not in symbols:
                symbols.append(terrain.value)
        if here.value not in symbols:
            raise SheetError(
                f"cell {cell_label(cell)}: the guess {here.value!r} is not among its alternatives {symbols}"
            )
        out[cell] = tuple(symbols)
    return out


def score_spread(
    guess: Sheet,
    alternatives: Mapping[Cell, Sequence[Terrain | str]],
    cards: Sequence[Any],
    season: Season | str | None = None,
    *,
    cap: int = MAX_READINGS,
) -> Spread | TooManyReadings:
    """Score every combination of the unsure cells' alternatives on `guess`.

    Parameters
    ----------
    guess : Sheet
        The most likely reading (no ``?``).
    alternatives : Mapping[(row, col), Sequence[Terrain]]
        For each unsure cell its plausible terrains, most likely first; a string like ``"F."`` is a
        sequence of symbols too.  The guess's own terrain must be among them.
    cards : the scoring cards, as :func:`rules.season.score_cards` takes them (edicts A-D in order
        when `season` is given).
    season : optional season, as :func:`rules.season.score_season` takes it.
    cap : most readings to score.

    Returns
    -------
    Spread, or a falsy TooManyReadings when some card alone (or the monster penalty) still allows more
    than `cap` readings of its classes (nothing is scored).  Within `cap` combinations every one is
    scored; above it each card on its own classes (the module docstring says what is then exact).

    Raises
    ------
    SheetError
        If `guess` has ``?`` cells, an unsure cell is printed (mountain, wasteland), an alternative is
        not a drawn reading, or the cards do not fit (given twice; not 4 with a season).
    """
    choices = _alternatives(guess, alternatives)
    cells = tuple(choices)
    count = math.prod(len(v) for v in choices.values())
    # The guess is scored first: it checks the cards and the season once, whatever the count.
    first = score_cards(guess, cards)
    first_season = score_season(guess, cards, season) if season is not None else None
    # With a season only its two edicts score: a card that does not score this season is not weighed
    # (it can neither block the season's score nor push the readings over the cap).
    weighed = [card for card, _ in first_season.edicts.values()] if first_season is not None else list(cards)
    if count > cap:
        return _projected_spread(guess, choices, weighed, first, first_season, cap)
    season_edicts = list(first_season.edicts.items()) if first_season is not None else []
    points: dict[str, list[int]] = {card.id: [] for card in weighed}
    monsters: list[int] = []
    totals: list[int] = []
    for combo in itertools.product(*choices.values()):
        sheet = guess.replace(dict(zip(cells, combo, strict=True)))
        result = score_cards(sheet, weighed) if sheet != guess else first
        for card_id, values in points.items():
            values.append(result.scores[card_id].points)
        monsters.append(result.monsters)
        if first_season is None:
            totals.append(result.total)
        else:  # the season's edicts re-used from this reading's card scores: each card scored once
            edicts = {letter: (card, result.scores[card.id]) for letter, (card, _) in season_edicts}
            season_score = SeasonScore(
                first_season.season, edicts, result.coins, result.monsters, result.monster_cells
            )
            totals.append(season_score.total)
    return Spread(
        cells=cells,
        readings=count,
        cards={card_id: Span.of(values) for card_id, values in points.items()},
        coins=Span(first.coins, first.coins),
        monsters=Span.of(monsters),
        total=Span.of(totals),
        season=first_season.season if first_season is not None else None,
    )


@dataclass(frozen=True, slots=True)
class _Part:
    """Cards (and perhaps the monster penalty) that tell the same drawn symbols apart and add up over
    the same units, with the unsure cells that can move them (per cell one reading per class, the
    guess's own first), split into pieces that no unit joins: the points move by a sum of one change
    per piece, so each piece is scored on its own, the other cells kept as guessed."""

    sees: str
    cards: list[Any]
    monsters: bool
    choices: dict[Cell, tuple[str, ...]]
    pieces: list[tuple[Cell, ...]]

    @property
    def readings(self) -> int:
        """How many readings scoring the part takes: each piece's combinations."""
        return sum(math.prod(len(self.choices[cell]) for cell in piece) for piece in self.pieces)

    @property
    def names(self) -> list[str]:
        """The numbers it reports: card ids, and ``"monsters"`` for the monster penalty."""
        return [card.id for card in self.cards] + (["monsters"] if self.monsters else [])

    def values(self, sheet: Sheet) -> dict[str, int]:
        """Its numbers on `sheet`."""
        out = {card.id: int(card.score(sheet).points) for card in self.cards}
        if self.monsters:
            out["monsters"] = monster_penalty(sheet)
        return out

    def value(self, name: str, sheet: Sheet) -> int:
        """One of its numbers on `sheet`."""
        if name == "monsters":
            return monster_penalty(sheet)
        return int(next(card for card in self.cards if card.id == name).score(sheet).points)


def _classes(guess: Sheet, choices: Mapping[Cell, tuple[str, ...]], sees: str) -> dict[Cell, tuple[str, ...]]:
    """The cells whose alternatives fall in more than one class of `sees`, one reading per class."""
    out: dict[Cell, tuple[str, ...]] = {}
    for cell, alts in choices.items():
        here = guess[cell].value
        picks = {here if here in sees else "*": here}
        for symbol in alts:
            picks.setdefault(symbol if symbol in sees else "*", symbol)
        if len(picks) > 1:
            out[cell] = tuple(picks.values())
    return out


def _pieces(cells: Iterable[Cell], units: Iterable[frozenset[Cell]]) -> list[tuple[Cell, ...]]:
    """`cells` grouped so that cells sharing a unit share a group (row-major, groups by first cell)."""
    parent = {cell: cell for cell in cells}

    def root(cell: Cell) -> Cell:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for unit in units:
        inside = [cell for cell in unit if cell in parent]
        for cell in inside[1:]:
            a, b = root(inside[0]), root(cell)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[Cell, list[Cell]] = {}
    for cell in sorted(parent):
        groups.setdefault(root(cell), []).append(cell)
    return [tuple(group) for group in groups.values()]


def _parts(guess: Sheet, choices: dict[Cell, tuple[str, ...]], cards: Sequence[Any]) -> list[_Part]:
    """The cards grouped by classes and units (a card declaring neither: every symbol, whole map)."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for card in cards:
        key = (getattr(card, "sees", DRAWN), getattr(card, "adds_over", "map"))
        groups.setdefault(key, []).append(card)
    keys = [*groups, (MONSTER_PENALTY_SEES, MONSTER_PENALTY_ADDS_OVER)]
    parts = []
    for n, (sees, adds_over) in enumerate(keys):
        moving = _classes(guess, choices, sees)
        pieces = _pieces(moving, UNITS[adds_over])
        parts.append(_Part(sees, groups.get((sees, adds_over), []), n == len(groups), moving, pieces))
    return parts


def _projected_spread(
    guess: Sheet,
    choices: dict[Cell, tuple[str, ...]],
    cards: Sequence[Any],
    first: Any,
    first_season: SeasonScore | None,
    cap: int,
) -> Spread | TooManyReadings:
    """The spread over the cap.

    Every part's pieces are merged where they share cells; merged groups share no cell, so every
    number moves by a sum of independent changes, one per group.  A group is scored jointly, on the
    classes of every part in it, while that takes at most `cap` readings (all groups together): exact
    for every number and the total.  Past that, each part scores its pieces in the group on its own
    (exact for each number), and :func:`_total_change` adds up what they do to the total.
    """
    cells = tuple(choices)
    count = math.prod(len(v) for v in choices.values())
    parts = _parts(guess, choices, cards)
    if any(part.readings > cap for part in parts):
        return TooManyReadings(cells, count, cap)
    at_guess = {card.id: first.scores[card.id].points for card in cards} | {"monsters": first.monsters}
    counted = [card.id for card, _ in first_season.edicts.values()] if first_season else [c.id for c in cards]
    counted.append("monsters")
    low, high = dict(at_guess), dict(at_guess)
    total_low = total_high = 0
    budget = cap
    moving: list[tuple[str, tuple[Cell, ...], int, int]] = []  # counted numbers' pieces scored apart
    pieces = [(part, piece) for part in parts for piece in part.pieces]
    for group in _pieces(choices, [frozenset(piece) for _, piece in pieces]):
        inside = [(part, piece) for part, piece in pieces if piece[0] in group]
        if not inside:
            continue
        sees = "".join(sorted({symbol for part, _ in inside for symbol in part.sees}))
        classes = _classes(guess, {cell: choices[cell] for cell in group}, sees)
        readings = math.prod(len(v) for v in classes.values())
        together = len(inside) > 1 and readings <= budget
        if together:
            budget -= readings
            jobs = [(list({id(part): part for part, _ in inside}.values()), tuple(classes), classes)]
        else:  # each part's pieces on their own (one piece alone: the same thing)
            jobs = [([part], piece, {cell: part.choices[cell] for cell in piece}) for part, piece in inside]
        for job_parts, at, options in jobs:
            changes: dict[str, list[int]] = {name: [] for part in job_parts for name in part.names}
            totals = []
            for combo in itertools.product(*(options[cell] for cell in at)):
                sheet = guess.replace(dict(zip(at, combo, strict=True)))
                for part in job_parts:
                    for name, value in part.values(sheet).items():
                        changes[name].append(value - at_guess[name])
                totals.append(sum(changes[name][-1] for name in changes if name in counted))
            for name, values in changes.items():  # the guess is among them: 0 always is
                low[name] += min(values)
                high[name] += max(values)
                if not together and name in counted and min(values) != max(values):
                    moving.append((name, at, min(values), max(values)))
            if together:
                total_low += min(totals)
                total_high += max(totals)
    by_name = {name: part for part in parts for name in part.names}
    change, exact = _total_change(guess, choices, moving, by_name, at_guess, budget)
    spans = {name: Span(low[name], high[name]) for name in at_guess}
    at_total = first.coins + sum(at_guess[name] for name in counted)
    return Spread(
        cells=cells,
        readings=count,
        cards={card.id: spans[card.id] for card in cards},
        coins=Span(first.coins, first.coins),
        monsters=spans["monsters"],
        total=Span(at_total + total_low + change.low, at_total + total_high + change.high),
        season=first_season.season if first_season is not None else None,
        bounded=not exact,
    )


def _total_change(
    guess: Sheet,
    choices: dict[Cell, tuple[str, ...]],
    moving: list[tuple[str, tuple[Cell, ...], int, int]],
    parts: Mapping[str, _Part],
    at_guess: Mapping[str, int],
    budget: int,
) -> tuple[Span, bool]:
    """How far the moving pieces of the counted numbers move the total, and whether that is exact.

    Pieces sharing cells are merged; merged groups share no cell, so they move the total
    independently and their lowest and highest changes add up.  A group of one piece is exact; a
    larger one is scored jointly on the classes of every number in it when that takes at most `budget`
    readings (all groups together), else its pieces' changes are added up: a bound.
    """
    groups = _pieces({cell for _, piece, _, _ in moving for cell in piece}, [frozenset(m[1]) for m in moving])
    low = high = 0
    exact = True
    for group in groups:
        inside = [m for m in moving if m[1][0] in group]
        names = sorted({name for name, _, _, _ in inside})
        sees = "".join(sorted({symbol for name in names for symbol in parts[name].sees}))
        classes = _classes(guess, {cell: choices[cell] for cell in group}, sees)
        readings = math.prod(len(v) for v in classes.values())
        if len(inside) == 1 or readings > budget:
            exact = exact and len(inside) == 1
            low += sum(m[2] for m in inside)
            high += sum(m[3] for m in inside)
            continue
        budget -= readings
        at = tuple(classes)
        totals = []
        for combo in itertools.product(*classes.values()):
            sheet = guess.replace(dict(zip(at, combo, strict=True)))
            totals.append(sum(parts[name].value(name, sheet) - at_guess[name] for name in names))
        low += min(totals)
        high += max(totals)
    return Span(low, high), exact
