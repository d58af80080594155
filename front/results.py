"""What every front end shows of one sheet: the ``score --json`` object, a person's fixes, the review.

The CLI (``score``, ``batch``, ``report``), the web API and the page all build their score object with
:func:`score_json`, so ``cartoscan score --json`` and ``POST /api/score`` answer the same object.
:func:`review` asks the one scoring policy (:func:`rules.policy.decide`) and, when it refuses, still
gives the most likely reading's figures, marked provisional, for a person to look at and fix.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules import Cell, Sheet, SheetError, Terrain, cell_label, parse_label, parse_labels
from rules.policy import Outcome, UncertainSheet, Verdict, decide
from rules.season import Season, score_cards, score_season

__all__ = [
    "Review",
    "alike",
    "alike_taking",
    "outcome_label",
    "parse_fixes",
    "problems_of",
    "review",
    "score_json",
    "sheet_text",
    "sheet_warnings",
    "uncertain_of",
]

_FIX = re.compile(r"^\s*([A-Ka-k](?:[1-9]|1[01]))\s*[=:]\s*(\S)\s*$")
_FIXABLE = frozenset(".FVPWMHX")  # what a person may draw on a space (printed ^ and - come from the side)


def score_json(
    sheet: Sheet, cards: Sequence[Any], season: Season | str | None = None, verdict: Verdict | None = None
) -> dict[str, Any]:
    """The ``score --json`` object of one sheet (docs/INTERFACES.md §3).

    A verdict scored despite doubts adds the ``"doubtful"`` object.

    Raises
    ------
    rules.SheetError
        For ``?`` cells, or cards that do not fit the season.
    """
    out: dict[str, Any] = {"side": sheet.side, **score_cards(sheet, cards).to_json()}
    if season is not None:
        season_result = score_season(sheet, cards, season)
        out["season"] = season_result.to_json()
        out["total"] = season_result.total
    doubtful = verdict.doubtful_json() if verdict is not None else None
    if doubtful is not None:
        out["doubtful"] = doubtful
    warnings = sheet_warnings(sheet)
    if warnings:
        out["warnings"] = warnings
    return out


def sheet_warnings(sheet: Sheet) -> list[str]:
    """What a person should know about a scored sheet: its warnings, a side not checked on a real one."""
    out = [str(problem) for problem in sheet.problems()]
    if sheet.printed.is_low_confidence:
        out.append(f"side {sheet.side} positions are not confirmed on a real sheet")
    return out


def parse_fixes(text: str | Mapping[str, str]) -> dict[Cell, Terrain]:
    """A person's fixes: ``"B7=W,C3=."`` (or ``{"B7": "W"}``) -> ``{(1, 6): Terrain.WATER, ...}``.

    Raises
    ------
    rules.SheetError
        For a malformed entry, an unknown cell or a symbol a person cannot draw (``?``, ``^``, ``-``).
    """
    if isinstance(text, Mapping):
        items = [(str(cell), str(symbol)) for cell, symbol in text.items()]
    else:
        items = [part.partition("=")[::2] for part in re.split(r"[,;\s]+", text.strip()) if part]
    out: dict[Cell, Terrain] = {}
    for cell, symbol in items:
        match = _FIX.match(f"{cell}={symbol}")
        if match is None:
            raise SheetError(f"a fix is CELL=SYMBOL like B7=W, not {f'{cell}={symbol}'!r}")
        if match.group(2).upper() not in _FIXABLE:
            raise SheetError(
                f"{match.group(1).upper()}: {match.group(2)!r} is not a terrain a person draws "
                "(one of . F V P W M H X)"
            )
        out[parse_label(match.group(1).upper())] = Terrain(match.group(2).upper())
    return out


def alike(groups: Sequence[Sequence[Cell]], cell: Cell, among: Sequence[Cell]) -> tuple[Cell, ...]:
    """The cells of `among` (e.g. the doubtful cells still to fix) drawn like `cell`, other than it:
    what a person fixing `cell` is offered to fix the same way (the reader's look-alike groups)."""
    for group in groups:
        if cell in group:
            return tuple(c for c in sorted(group) if c != cell and c in among)
    return ()


def alike_taking(peers: Sequence[Cell], answer: str) -> tuple[Cell, ...]:
    """The look-alikes `peers` that take the person's answer too, from what they said when offered
    them: Enter or ``y`` all of them, ``n`` none, else the labels of those that hold something else
    (``"C4 D5"``): all the others.

    Raises
    ------
    rules.SheetError
        On a bad label, or a cell that was not offered.
    """
    said = answer.strip().lower()
    if said in ("", "y", "yes"):
        return tuple(peers)
    if said in ("n", "no"):
        return ()
    differ = parse_labels(said)
    stray = sorted(differ - set(peers))
    if stray:
        raise SheetError(f"{cell_label(stray[0])} was not offered: name only cells listed above")
    return tuple(p for p in peers if p not in differ)


@dataclass(frozen=True)
class Review:
    """A sheet as a person reviews it: the policy's verdict and the figures to show.

    Attributes
    ----------
    verdict : the policy's answer (falsy when refused).
    shown : the score object shown: the verdict's when scored, else the most likely reading's.
    provisional : True when `shown` is the most likely reading of a refused sheet.
    """

    verdict: Verdict
    shown: dict[str, Any]
    provisional: bool

    @property
    def uncertain(self) -> UncertainSheet:
        return self.verdict.uncertain

    def to_json(self) -> dict[str, Any]:
        """``{"outcome", "message", "doubtful", "warnings", "provisional", "score"}``."""
        return {
            "outcome": self.verdict.outcome.value,
            "message": self.verdict.message(),
            "doubtful": list(self.verdict.doubtful),
            "warnings": list(self.verdict.doubts),
            "provisional": self.provisional,
            "score": self.shown,
        }


def uncertain_of(sheet: Sheet) -> UncertainSheet:
    """A sheet file's ``?`` cells as doubts: any terrain a person draws, empty first."""
    anything = tuple(Terrain(s) for s in ".FVPWMHX")
    return UncertainSheet(sheet.replace(dict.fromkeys(sheet.unknown, Terrain.EMPTY)),
                          dict.fromkeys(sheet.unknown, anything))


def review(uncertain: UncertainSheet, cards: Sequence[Any], season: Season | str | None = None) -> Review:
    """Decide on `uncertain` with the one policy; a refused sheet still shows its most likely figures.

    Raises
    ------
    rules.SheetError
        When the cards do not fit the season.
    """
    verdict = decide(uncertain, cards, season)
    if verdict:
        assert verdict.sheet is not None  # a verdict that is not refused always has its sheet
        return Review(verdict, score_json(verdict.sheet, cards, season, verdict), provisional=False)
    allowed = decide(uncertain, cards, season, allow_doubtful=True)
    return Review(verdict, score_json(uncertain.guess, cards, season, allowed), provisional=True)


def sheet_text(uncertain: UncertainSheet, *, title: str = "") -> str:
    """The ``.sheet`` text of a reviewed reading: ``?`` on the cells still doubtful, a comment naming
    them with their likely terrains and the whole-sheet doubts.  `title` becomes a comment line
    (control characters removed, so a file name cannot add header lines)."""
    lines = []
    clean = _one_line(title)
    if clean:
        lines.append(f"# {clean}")
    for cell, alts in sorted(uncertain.alternatives.items()):
        lines.append(f"# {cell_label(cell)} unsure: {'/'.join(str(t) for t in alts)}")
    lines += [f"# warning: {_one_line(doubt)}" for doubt in uncertain.doubts]
    return "\n".join(lines) + ("\n" if lines else "") + uncertain.sheet.to_text()


def problems_of(uncertain: UncertainSheet) -> list[dict[str, Any]]:
    """``check``'s problems (docs/INTERFACES.md §3, ``check``) of a reading, its unsure cells as wildcards."""
    from rules.check import check_sheet

    return [problem.to_json() for problem in check_sheet(uncertain.sheet).problems]


def _one_line(text: str) -> str:
    return re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()


def outcome_label(outcome: Outcome) -> str:
    """A few words for a person: 'scored', 'scored (doubts cannot change it)', 'needs a look'."""
    return {
        Outcome.SCORED: "scored",
        Outcome.SETTLED: "scored (the unsure cells cannot change it)",
        Outcome.ALLOWED: "scored despite doubts",
        Outcome.REFUSED: "needs a look",
    }[outcome]
