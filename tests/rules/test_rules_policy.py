"""rules.policy.decide: one answer to "may this reading be scored?" for every front end."""

from __future__ import annotations

import pytest

from rules import Sheet, SheetError
from rules.cards import find_card
from rules.policy import Outcome, UncertainSheet, decide

# Side A, forests on A1 and A2: Sentinel Wood (a star per forest on the map edge) scores 2.
BASE = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F"})
WOOD = [find_card("sentinel_wood")]
INNER = (6, 6)  # G7: far from the edge, no reading of it moves Sentinel Wood or the monster penalty
EDGE = (0, 2)  # A3: a forest there is a star more


def test_a_certain_reading_is_scored_as_it_is() -> None:
    verdict = decide(UncertainSheet(BASE), WOOD)
    assert verdict and verdict.outcome is Outcome.SCORED and verdict.sheet == BASE
    assert verdict.doubtful_json() is None and verdict.message() == ""


def test_cells_that_cannot_change_the_score_are_settled() -> None:
    guess = BASE.replace({INNER: "F"})
    verdict = decide(UncertainSheet(guess, {INNER: ("F", ".", "V")}), WOOD)
    assert verdict.outcome is Outcome.SETTLED and verdict.sheet == guess
    assert verdict.spread is not None and verdict.spread.certain
    assert verdict.doubtful_json() == {"cells": ["G7"], "certain": True}


def test_cells_that_change_the_score_are_refused_with_the_stake() -> None:
    guess = BASE.replace({EDGE: "F"})
    verdict = decide(UncertainSheet(guess, {EDGE: ("F", ".")}), WOOD)
    assert not verdict and verdict.sheet is None
    assert verdict.stake == "1 cell(s) could not be read with confidence (A3); the total would be 2 to 3 " \
        "(sentinel_wood 2 to 3)"


def test_whole_sheet_doubts_are_refused_whatever_the_cells() -> None:
    doubt = "the printed side is unclear (A or B)"
    verdict = decide(UncertainSheet(BASE.replace({INNER: "F"}), {INNER: ("F", ".")}, (doubt,)), WOOD)
    assert verdict.outcome is Outcome.REFUSED and verdict.stake == doubt


def test_allow_doubtful_scores_the_guess_and_keeps_the_trace() -> None:
    doubt = "coin track unclear at coin(s) 3"
    uncertain = UncertainSheet(BASE.replace({EDGE: "F"}), {EDGE: ("F", ".")}, (doubt,))
    verdict = decide(uncertain, WOOD, allow_doubtful=True)
    assert verdict.outcome is Outcome.ALLOWED and verdict.sheet == uncertain.guess
    assert verdict.doubtful_json() == {"cells": ["A3"], "certain": False, "warnings": [doubt]}
    assert "A3" in verdict.message() and doubt in verdict.message()


def test_too_many_readings_are_refused_without_a_range() -> None:
    cells = [(r, c) for r in (3, 4) for c in (0, 1, 3, 4, 5, 6)]  # twelve cells, two readings each
    uncertain = UncertainSheet(BASE.replace(dict.fromkeys(cells, "F")), dict.fromkeys(cells, ("F", ".")))
    verdict = decide(uncertain, WOOD)
    assert not verdict and verdict.spread is None and "more than 2048" in verdict.stake


def test_a_season_is_weighed_on_its_own_edicts_only() -> None:
    cards = [find_card(n) for n in ("sentinel_wood", "canal_lake", "great_city", "borderlands")]
    uncertain = UncertainSheet(BASE.replace({INNER: "F"}), {INNER: ("F", ".", "V")})
    verdict = decide(uncertain, cards, "summer")  # G7 as a village moves Great City (edict C)
    assert not verdict and "great_city 0 to 1" in verdict.stake
    # spring scores edicts A and B: Great City does not score, so it cannot block the season's score
    assert decide(uncertain, cards, "spring").outcome is Outcome.SETTLED
    with pytest.raises(SheetError):
        decide(uncertain, cards[:1], "spring")  # a season needs four cards


def test_a_person_fixing_cells_settles_them() -> None:
    uncertain = UncertainSheet(BASE.replace({EDGE: "F", INNER: "F"}), {EDGE: ("F", "."), INNER: ("F", ".")})
    fixed = uncertain.fix({EDGE: "."})
    assert fixed.doubtful == ("G7",) and fixed.guess[EDGE] == "."
    assert uncertain.sheet[EDGE] == "?" and fixed.sheet[EDGE] == "."
    assert decide(fixed, WOOD).outcome is Outcome.SETTLED
    with pytest.raises(SheetError):
        uncertain.fix({(1, 3): "F"})  # B4 is a printed mountain on side A
