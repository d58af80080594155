"""Season scoring, game totals, the tie-break, and the solo rating and title.

Base rulebook "Season scoring" (same in Heroes): at the end of each season score the two edicts the
season card names (spring A+B, summer B+C, fall C+D, winter D+A), then 1 star per coin on the coin
track (crossed-out, spent coins no longer count), then lose 1 star per empty space adjacent to one
or more monster spaces (destroyed monsters are ``X`` and cost nothing).  The game total is the sum of
the four seasons; ties go to the player who lost the fewest stars to monsters.  Solo: rating = total
minus the four cards' solo values, and the title is the highest one met or surpassed.

Seasons and titles are data in ``rules/data/seasons.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any, Protocol

from rules.errors import SheetError
from rules.grid import Cell, cells_label
from rules.sheet import Sheet, Terrain

__all__ = [
    "EDICT_LETTERS",
    "MONSTER_PENALTY_ADDS_OVER",
    "MONSTER_PENALTY_SEES",
    "GameScore",
    "Season",
    "SeasonScore",
    "SheetScore",
    "as_played",
    "game_score",
    "monster_penalty",
    "rank",
    "score_cards",
    "score_season",
    "solo_title",
]

EDICT_LETTERS = ("A", "B", "C", "D")


class _Card(Protocol):
    """What season scoring needs of a scoring card (``rules.cards.ScoringCard`` fits)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def solo_value(self) -> int: ...

    def score(self, sheet: Any) -> Any: ...


@cache
def _data() -> dict[str, Any]:
    text = resources.files("rules").joinpath("data/seasons.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class Season(StrEnum):
    """The four seasons; the value is the CLI / JSON name."""

    SPRING = "spring"
    SUMMER = "summer"
    FALL = "fall"
    WINTER = "winter"

    @classmethod
    def parse(cls, text: str) -> Season:
        """``"Spring"``, ``"fall"``, ``"autumn"`` -> Season; raises :class:`SheetError` otherwise."""
        key = text.strip().lower()
        key = "fall" if key == "autumn" else key
        try:
            return cls(key)
        except ValueError:
            raise SheetError(f"unknown season {text!r}: expected spring, summer, fall or winter") from None

    @property
    def _entry(self) -> dict[str, Any]:
        return next(s for s in _data()["seasons"] if s["name"] == self.value)

    @property
    def edicts(self) -> tuple[str, str]:
        """The two edict letters scored at the end of this season, e.g. ``("A", "B")``."""
        a, b = self._entry["edicts"]
        return a, b

    def threshold(self, game: str = "base") -> int:
        """How much time the season lasts (``game`` is ``"base"`` or ``"heroes"``)."""
        return int(self._entry["threshold"][game])


MONSTER_PENALTY_SEES = "M."
"""The drawn symbols :func:`monster_penalty` tells apart (as a card's ``sees``): a living monster, an
empty space, and anything else drawn (one class: filled, no monster)."""
MONSTER_PENALTY_ADDS_OVER = "neighbourhood"
"""The units the monster penalty adds up over (as a card's ``adds_over``): one term per space, which
depends on that space and its four neighbours only."""


def as_played(sheet: Sheet) -> Sheet:
    """`sheet` with every monster on a hit space written as destroyed (``X``), as the Heroes rules
    have it: "Sobald sich ein * auf einem Feld mit der Geländeart Monster befindet, wird das Feld
    sofort zerstört" (de-H "Zerstörte Felder"); a destroyed space has no terrain type and costs nothing."""
    on_star = sheet.cells_of(Terrain.MONSTER) & sheet.stars
    return sheet.replace(dict.fromkeys(on_star, Terrain.DESTROYED)) if on_star else sheet


def monster_penalty(sheet: Sheet) -> int:
    """Stars lost to monsters (a number <= 0): one per distinct empty space next to a monster."""
    return -len(sheet.monster_penalty_cells())


def _edict_cards(cards: Sequence[_Card]) -> dict[str, _Card]:
    if len(cards) != len(EDICT_LETTERS):
        raise SheetError(f"season scoring needs 4 scoring cards (edicts A-D in order), got {len(cards)}")
    ids = [card.id for card in cards]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise SheetError(f"scoring card {twice!r} is given twice")
    return dict(zip(EDICT_LETTERS, cards, strict=True))


@dataclass(frozen=True, slots=True)
class SheetScore:
    """Any number of scoring cards on one sheet, plus its coins and monster penalty.

    ``total`` is the sum of all of them (a "what if these were the season's edicts" figure).
    """

    sheet: Sheet
    cards: tuple[Any, ...]
    scores: Mapping[str, Any]
    coins: int
    monsters: int
    monster_cells: frozenset[Cell]

    @property
    def total(self) -> int:
        points: int = sum(score.points for score in self.scores.values())
        return points + self.coins + self.monsters

    def to_json(self) -> dict[str, Any]:
        """``{"cards": {id: points}, "coins", "monsters", "total", "details": {id: {...}}}``."""
        return {
            "cards": {card_id: score.points for card_id, score in self.scores.items()},
            "coins": self.coins,
            "monsters": self.monsters,
            "total": self.total,
            "details": {
                card_id: {
                    "points": score.points,
                    "detail": score.detail,
                    "choice": score.choice,
                    "cells": cells_label(score.cells).split(),
                }
                for card_id, score in self.scores.items()
            },
            "monster_cells": cells_label(self.monster_cells).split(),
        }


def score_cards(sheet: Sheet, cards: Sequence[_Card]) -> SheetScore:
    """Score each of `cards` (distinct) on `sheet`, with its coins and monster penalty.

    Raises
    ------
    SheetError
        If the sheet has unreadable spaces or a card is given twice.
    """
    sheet.require_known()
    ids = [card.id for card in cards]
    if len(set(ids)) != len(ids):
        twice = next(i for i in ids if ids.count(i) > 1)
        raise SheetError(f"scoring card {twice!r} is given twice")
    played = as_played(sheet)
    scores = {card.id: card.score(played) for card in cards}
    return SheetScore(
        sheet, tuple(cards), scores, sheet.coins, monster_penalty(sheet), sheet.monster_penalty_cells()
    )


@dataclass(frozen=True, slots=True)
class SeasonScore:
    """One season's score box: two edicts, coins, monsters, total.

    Attributes
    ----------
    season : Season
    edicts : Mapping[str, tuple[card, score]]
        The two scored edicts by letter (in season order), each the card and its result.
    coins : int
        Stars for unspent coins.
    monsters : int
        Stars lost to monsters (<= 0).
    monster_cells : frozenset of (row, col)
        The empty spaces that cost them.
    """

    season: Season
    edicts: Mapping[str, tuple[Any, Any]]
    coins: int
    monsters: int
    monster_cells: frozenset[Cell]

    @property
    def total(self) -> int:
        points: int = sum(score.points for _, score in self.edicts.values())
        return points + self.coins + self.monsters

    def to_json(self) -> dict[str, Any]:
        """The ``season`` object of docs/INTERFACES.md §3 (``score``): ``{"name", "edicts", "coins",
        "monsters", "total"}``; ``edicts`` maps each scored card id to its points (ids, like the
        top-level ``cards``), and ``edict_letters`` says which edict letter each card stood under."""
        return {
            "name": self.season.value,
            "edicts": {card.id: score.points for card, score in self.edicts.values()},
            "edict_letters": {letter: card.id for letter, (card, _) in self.edicts.items()},
            "coins": self.coins,
            "monsters": self.monsters,
            "total": self.total,
        }


def score_season(sheet: Sheet, cards: Sequence[_Card], season: Season | str) -> SeasonScore:
    """Score `sheet` at the end of `season` with `cards` as edicts A, B, C, D (in that order).

    Raises
    ------
    SheetError
        If the sheet has unreadable spaces, or `cards` is not 4 cards.
    """
    sheet.require_known()
    season = season if isinstance(season, Season) else Season.parse(season)
    by_letter = _edict_cards(cards)
    played = as_played(sheet)
    edicts = {letter: (by_letter[letter], by_letter[letter].score(played)) for letter in season.edicts}
    return SeasonScore(season, edicts, sheet.coins, monster_penalty(sheet), sheet.monster_penalty_cells())


@dataclass(frozen=True, slots=True)
class GameScore:
    """A whole game: the four season scores (spring first) and the solo figures."""

    seasons: tuple[SeasonScore, ...]
    solo_values: int

    @property
    def total(self) -> int:
        return sum(s.total for s in self.seasons)

    @property
    def monster_loss(self) -> int:
        """Stars lost to monsters over the game (>= 0): the tie-break, fewer is better."""
        return -sum(s.monsters for s in self.seasons)

    @property
    def solo_rating(self) -> int:
        """Total minus the four cards' solo values (base rulebook, Solo Mode)."""
        return self.total - self.solo_values

    @property
    def title(self) -> str | None:
        """The solo title for :attr:`solo_rating` (None below the lowest threshold)."""
        return solo_title(self.solo_rating)

    def to_json(self) -> dict[str, Any]:
        return {
            "seasons": [s.to_json() for s in self.seasons],
            "total": self.total,
            "monster_loss": self.monster_loss,
            "solo_rating": self.solo_rating,
            "title": self.title,
        }


def game_score(
    sheets: Sequence[Sheet] | Sequence[SeasonScore], cards: Sequence[_Card] | None = None
) -> GameScore:
    """A game total from the four season-end sheets (with the 4 `cards`) or four season scores.

    Raises
    ------
    SheetError
        Unless there are exactly four seasons (spring to winter) and, for sheets, four cards.
    """
    if len(sheets) != 4:
        raise SheetError(f"a game has 4 seasons, got {len(sheets)}")
    if all(isinstance(s, Sheet) for s in sheets):
        if cards is None:
            raise SheetError("scoring four sheets needs the 4 scoring cards")
        seasons = tuple(score_season(s, cards, season) for s, season in zip(sheets, Season, strict=True))  # type: ignore[arg-type]
    else:
        seasons = tuple(s for s in sheets if isinstance(s, SeasonScore))
        if len(seasons) != 4 or [s.season for s in seasons] != list(Season):
            raise SheetError("give the four season scores in order spring, summer, fall, winter")
        if cards is None:
            cards = [
                seasons[0].edicts["A"][0],
                seasons[0].edicts["B"][0],
                seasons[2].edicts["C"][0],
                seasons[2].edicts["D"][0],
            ]
    return GameScore(seasons, sum(int(card.solo_value) for card in cards))


def solo_title(rating: int) -> str | None:
    """The title for a solo rating: the highest threshold met or surpassed (None below -30)."""
    for entry in _data()["solo_titles"]:
        if rating >= entry["min"]:
            return str(entry["title"])
    return None


def rank(
    games: Mapping[str, GameScore] | Iterable[tuple[str, GameScore]],
) -> list[tuple[int, str, GameScore]]:
    """Players ordered best first as ``(place, name, game)``: highest total, then fewest stars lost to
    monsters; players still tied share the place (base rulebook, "Game end")."""
    items = list(games.items()) if isinstance(games, Mapping) else list(games)
    items.sort(key=lambda kv: (-kv[1].total, kv[1].monster_loss))
    out: list[tuple[int, str, GameScore]] = []
    for i, (name, game) in enumerate(items):
        if out and (out[-1][2].total, out[-1][2].monster_loss) == (game.total, game.monster_loss):
            out.append((out[-1][0], name, game))
        else:
            out.append((i + 1, name, game))
    return out
