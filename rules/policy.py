"""Whether a sheet read with doubts may be scored: one policy for every front end.

A reader (the scanner, a person fixing cells, the live camera) hands over an :class:`UncertainSheet`:
its most likely reading, each doubtful cell's plausible terrains, and whole-sheet doubts (the printed
side, the A1 corner, the coin track) that no cell can express.  :func:`decide` answers with a
:class:`Verdict`:

* ``scored``: nothing was doubtful;
* ``settled``: some cells are doubtful, but no plausible reading of them changes any number the
  chosen cards, coins, monsters or season total report (:func:`rules.doubt.score_spread`);
* ``allowed``: doubts remain and the caller asked to score the most likely reading anyway
  (``--allow-doubtful``); the verdict keeps the doubts so that the result can carry them;
* ``refused``: a person must look; :attr:`Verdict.stake` says what is at stake.

A machine's reading (:attr:`UncertainSheet.from_photo`) is also checked (:func:`rules.check.check_sheet`,
its ``?`` cells as wildcards): a finding no correct reading of a legal sheet shows
(:data:`READING_SUSPECT`) means something else on it is misread, so it is never scored outright, only
allowed (``--allow-doubtful``) with the findings in :attr:`Verdict.suspect`.  The other findings
(:data:`NOT_BLOCKING`) are mostly what a player can really draw: a correct reading shows them too, so
they do not block the score (``check`` reports them).

A refused verdict is falsy, like the scanner's expected failures.  The CLI maps it to exit status 4.

>>> from rules import Sheet
>>> from rules.cards import find_card
>>> guess = Sheet.blank("A").replace({(0, 0): "F"})
>>> verdict = decide(UncertainSheet(guess, {(0, 0): ("F", ".")}), [find_card("sentinel_wood")])
>>> bool(verdict), verdict.outcome.value
(False, 'refused')
>>> verdict.stake
'1 cell(s) could not be read with confidence (A1); the total would be 0 to 1 (sentinel_wood 0 to 1)'
>>> decide(UncertainSheet(guess), [find_card("sentinel_wood")]).outcome.value
'scored'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rules.doubt import Spread, TooManyReadings, score_spread
from rules.grid import Cell, cell_label
from rules.season import Season
from rules.sheet import Sheet, Terrain

if TYPE_CHECKING:
    from rules.check import CheckProblem

__all__ = [
    "NOT_BLOCKING",
    "READING_SUSPECT",
    "SHOWN_CELLS",
    "Outcome",
    "UncertainSheet",
    "Verdict",
    "cells_text",
    "decide",
    "suspect_findings",
]

READING_SUSPECT: Mapping[str, str] = MappingProxyType(
    {
        "destroyed_without_star": "a player crosses out a space only under a hit star or next to a gorgon or "
        "troll: an X without one is a misread space or a missed star",
        "star_without_hero": "a player marks only a hero's hits: a lone star is a hero misread as another "
        "terrain, or a mark misread as a star",
        "monster_on_star": "a monster under a hit star is crossed out at once: a living one is an X misread "
        "as a monster, or a mark misread as a star",
    }
)
"""``check`` codes (:class:`rules.check.Code`) that make a machine's reading doubtful, with why: what a
player would have to draw for a correct reading to show them is not a slip of play but a misreading.
Measured (``bench_end_to_end.py --photos 300 --why``, eval and train splits): they blocked the one
photo scored outright and wrong, and 3 of 28 (eval) and 3 of 48 (train) right ones, each read with
stars missed and most with heroes misread where the chosen cards did not look."""

NOT_BLOCKING: Mapping[str, str] = MappingProxyType(
    {
        "hero_stars_missing": "no correct reading shows it either, but it is mostly stars the reader missed, "
        "which change no number: on 600 photos it blocked 2 right scores (one read without a single "
        "misread space) and no wrong one",
        "unreadable": "'?' cells are weighed as doubtful cells already",
        "unexplained_region": "a shape drawn wrong or too many draws is a player's own mistake and a correct "
        "reading shows it too (one misread cell mostly still fits a 1x1 fallback)",
        "coins_exceed": "coins marked too many are the player's; a misread coin track has its own doubts",
        "coins_missing": "a forgotten coin is the commonest slip of play; a misread coin track has its own "
        "doubts",
        "bad_outline": "outlines are not part of the reading weighed here",
        "season_regression": "needs the sheet a season earlier, which one reading has not",
        "season_placement": "needs the sheet a season earlier, which one reading has not",
        "side_mismatch": "a sheet file's notation, never a reading's",
        "header": "a sheet file's notation, never a reading's",
    }
)
"""The other ``check`` codes, with why they do not block a reading's score: what a player can really
draw (a correct reading shows it too), what one reading cannot show, and what was measured not to pay."""


class Outcome(StrEnum):
    """What :func:`decide` made of an uncertain sheet."""

    SCORED = "scored"
    SETTLED = "settled"
    ALLOWED = "allowed"
    REFUSED = "refused"


@dataclass(frozen=True)
class UncertainSheet:
    """A reading with its doubts.

    Attributes
    ----------
    guess : rules.Sheet
        The most likely reading: no ``?`` cell.
    alternatives : Mapping[(row, col), tuple of Terrain or str]
        Each doubtful cell's plausible terrains, most likely first (the first is the guess's).
    doubts : tuple of str
        Whole-sheet doubts, one line each (the printed side, which corner is A1, unsure coins, a coin
        track cut off): a wrong one would change the whole score, so they are never settled by cards.
    from_photo : bool
        A machine's reading (a photo, the camera), not a person's sheet: its :func:`suspect_findings`
        keep it from being scored outright.
    """

    guess: Sheet
    alternatives: Mapping[Cell, tuple[Terrain | str, ...]] = field(default_factory=dict)
    doubts: tuple[str, ...] = ()
    from_photo: bool = False

    @property
    def doubtful(self) -> tuple[str, ...]:
        """Labels of the doubtful cells, row-major (``("C4", "H10")``)."""
        return tuple(cell_label(cell) for cell in sorted(self.alternatives))

    @property
    def sheet(self) -> Sheet:
        """The reading with ``?`` on every doubtful cell (what ``scan`` prints)."""
        return self.guess.replace(dict.fromkeys(self.alternatives, Terrain.UNKNOWN))

    @property
    def is_certain(self) -> bool:
        """True when nothing is doubtful."""
        return not self.alternatives and not self.doubts

    @cached_property
    def suspect(self) -> tuple[CheckProblem, ...]:
        """:func:`suspect_findings`, worked out once per reading (a review decides on it twice, and
        each runs ``check``)."""
        return suspect_findings(self)

    def fix(self, cells: Mapping[Cell, Terrain | str]) -> UncertainSheet:
        """The same reading with `cells` settled by a person: their terrain given, their doubt gone.

        Raises
        ------
        rules.SheetError
            When a fix does not fit the sheet (a terrain on a printed mountain, ``?``...).
        """
        guess = self.guess.replace(dict(cells))
        guess.require_known()
        rest = {cell: alts for cell, alts in self.alternatives.items() if cell not in cells}
        return UncertainSheet(guess, rest, self.doubts, self.from_photo)


def suspect_findings(uncertain: UncertainSheet) -> tuple[CheckProblem, ...]:
    """The :data:`READING_SUSPECT` findings of ``check`` on a machine's reading; none for a person's
    sheet.

    The ``?`` cells are wildcards, and those that may be a hero count as heroes too: a finding blocks
    only when it stays whichever way they are read (a lone star beside a ``?`` that may be its hero
    does not)."""
    if not uncertain.from_photo:
        return ()
    from rules.check import check_sheet  # only for readings: its card tables cost a sheet file nothing

    found = [p for p in check_sheet(uncertain.sheet).problems if p.code.value in READING_SUSPECT]
    heroes = [cell for cell, alts in uncertain.alternatives.items() if Terrain.HERO in alts]
    if found and heroes:
        as_heroes = uncertain.sheet.replace(dict.fromkeys(heroes, Terrain.HERO))
        stays = {problem.code for problem in check_sheet(as_heroes).problems}
        found = [problem for problem in found if problem.code in stays]
    return tuple(found)


SHOWN_CELLS = 8
"""A line for a person names at most this many cells and counts the rest ("and 52 more"): a first
frame of a sheet can leave 60 cells in doubt, and a line of 60 labels says nothing a count does not.
The JSON keeps every cell."""


def cells_text(cells: Sequence[str], most: int | None = None) -> str:
    """``"A1, B2, C3"``; past `most` labels, the first `most` and how many more."""
    if most is None or len(cells) <= most:
        return ", ".join(cells)
    return f"{', '.join(cells[:most])} and {len(cells) - most} more"


def _suspect_clause(suspect: Sequence[CheckProblem]) -> str:
    """One clause for a person: the reading contradicts itself, and how."""
    found = "; ".join(f"{problem.code.value}: {problem.message}" for problem in suspect)
    return f"the reading contradicts itself, so a space or star is likely misread ({found})"


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`decide`; falsy when refused.

    Attributes
    ----------
    outcome : Outcome
    sheet : rules.Sheet or None
        What to score (no ``?``); None when refused.
    uncertain : UncertainSheet
        What was decided on.
    spread : Spread or None
        What the doubtful cells' readings score, when it was worked out (settled, or refused because
        the cells can change the score).
    stake : str
        One clause for a person on why it was refused (empty otherwise), every doubtful cell named.
    suspect : tuple of rules.check.CheckProblem
        The reading's :data:`READING_SUSPECT` findings: refused for them, or allowed despite them.
    """

    outcome: Outcome
    sheet: Sheet | None
    uncertain: UncertainSheet
    spread: Spread | None = None
    stake: str = ""
    suspect: tuple[CheckProblem, ...] = ()

    def __bool__(self) -> bool:
        return self.outcome is not Outcome.REFUSED

    @property
    def doubtful(self) -> tuple[str, ...]:
        """Labels of the doubtful cells."""
        return self.uncertain.doubtful

    @property
    def doubts(self) -> tuple[str, ...]:
        """The whole-sheet doubts."""
        return self.uncertain.doubts

    def doubtful_json(self) -> dict[str, Any] | None:
        """The ``"doubtful"`` object (docs/INTERFACES.md §3, ``score``) of a result scored despite
        doubts, or None.

        ``{"cells": [...], "certain": bool, "warnings": [...]}``: ``certain`` is True when the cells
        were shown not to change the score (settled), False when the most likely reading was scored
        on request (allowed); an allowed reading that contradicts itself adds ``"suspect"``, its
        findings as ``check`` gives them (``{"code", "cells", "message"}``)."""
        if self.outcome is Outcome.SETTLED:
            return {"cells": list(self.doubtful), "certain": True}
        if self.outcome is Outcome.ALLOWED:
            out: dict[str, Any] = {"cells": list(self.doubtful), "certain": False,
                                   "warnings": list(self.doubts)}
            if self.suspect:
                out["suspect"] = [problem.to_json() for problem in self.suspect]
            return out
        return None

    def said(self, most: int | None = SHOWN_CELLS) -> str:
        """The stake as a terminal line shows it: at most `most` doubtful cells named, the rest counted
        (None: all named, the stake itself)."""
        named = cells_text(self.doubtful)
        if not named:
            return self.stake
        return self.stake.replace(f"({named})", f"({cells_text(self.doubtful, most)})", 1)

    def message(self, most: int | None = None) -> str:
        """One line for a person: why it was refused, or what was scored despite doubts ('' if none);
        with `most`, the doubtful cells past the first `most` are only counted."""
        cells = cells_text(self.doubtful, most)
        if self.outcome is Outcome.SETTLED:
            return f"{len(self.doubtful)} unsure cell(s) ({cells}) cannot change this score"
        if self.outcome is Outcome.ALLOWED:
            parts = [f"{len(self.doubtful)} unsure cell(s) ({cells})"] if self.doubtful else []
            parts += list(self.doubts)
            if self.suspect:
                parts.append(_suspect_clause(self.suspect))
            return "scored the most likely reading despite " + "; ".join(parts)
        if self.outcome is Outcome.REFUSED:
            return self.said(most)
        return ""


def decide(
    uncertain: UncertainSheet,
    cards: Sequence[Any],
    season: Season | str | None = None,
    *,
    allow_doubtful: bool = False,
) -> Verdict:
    """May `uncertain` be scored with these `cards` (and `season`)?

    Parameters
    ----------
    uncertain : the reading and its doubts.
    cards : scoring cards (``rules.cards.ScoringCard``), edicts A-D in order with a season.
    season : optional season; its total is then one of the numbers that must not move.
    allow_doubtful : score the most likely reading whatever the doubts (the verdict keeps them).

    Returns
    -------
    Verdict, falsy when refused.

    Raises
    ------
    rules.SheetError
        The cards do not fit (given twice; not four with a season), found while weighing the cells.
    """
    suspect = uncertain.suspect
    if uncertain.is_certain and not suspect:
        return Verdict(Outcome.SCORED, uncertain.guess, uncertain)
    if allow_doubtful:
        return Verdict(Outcome.ALLOWED, uncertain.guess, uncertain, suspect=suspect)
    against = [_suspect_clause(suspect)] if suspect else []
    if uncertain.doubts or not uncertain.alternatives:
        stake = "; ".join([*uncertain.doubts, *against])
        return Verdict(Outcome.REFUSED, None, uncertain, stake=stake, suspect=suspect)
    cells = cells_text(uncertain.doubtful)
    unsure = f"{len(uncertain.alternatives)} cell(s) could not be read with confidence ({cells})"
    alternatives = {cell: tuple(str(t) for t in alts) for cell, alts in uncertain.alternatives.items()}
    spread = score_spread(uncertain.guess, alternatives, cards, season)
    if isinstance(spread, TooManyReadings):
        stake = "; ".join([unsure, spread.message, *against])
        return Verdict(Outcome.REFUSED, None, uncertain, stake=stake, suspect=suspect)
    if not spread.certain:
        stake = "; ".join([unsure, spread.describe(), *against])
        return Verdict(Outcome.REFUSED, None, uncertain, spread, stake, suspect)
    if suspect:  # the cells cannot change the score, but the rest of the reading is in doubt
        return Verdict(Outcome.REFUSED, None, uncertain, spread, "; ".join(against), suspect)
    return Verdict(Outcome.SETTLED, uncertain.guess, uncertain, spread)
