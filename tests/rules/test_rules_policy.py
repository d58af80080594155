"""rules.policy.decide: one answer to "may this reading be scored?" for every front end."""

from __future__ import annotations

import pytest
from known_cases import DATA, KnownCase, read_cases

from rules import Sheet, SheetError, parse_label
from rules.cards import find_card
from rules.check import Code, check_sheet
from rules.policy import NOT_BLOCKING, READING_SUSPECT, SHOWN_CELLS, Outcome, UncertainSheet, decide
from rules.sides import printed_side

# Side A, forests on A1 and A2: Sentinel Wood (a star per forest on the map edge) scores 2.
BASE = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F"})
WOOD = [find_card("sentinel_wood")]
INNER = (6, 6)  # G7: far from the edge, no reading of it moves Sentinel Wood or the monster penalty
EDGE = (0, 2)  # A3: a forest there is a star more
MOUNTAINS = printed_side("A").mountains


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


def test_a_terminal_line_names_the_first_cells_and_counts_the_rest_the_stake_names_all() -> None:
    free = [(r, c) for r in range(11) for c in range(11) if (r, c) not in MOUNTAINS]
    cells = free[2:62]  # sixty doubtful cells, after A1 and A2
    uncertain = UncertainSheet(BASE.replace(dict.fromkeys(cells, "F")), dict.fromkeys(cells, ("F", ".")))
    verdict = decide(uncertain, WOOD)
    labels = ", ".join(uncertain.doubtful)
    assert not verdict and f"({labels})" in verdict.stake  # the JSON's stake keeps every cell
    shown = ", ".join(uncertain.doubtful[:SHOWN_CELLS])
    assert verdict.said() == verdict.stake.replace(f"({labels})", f"({shown} and {60 - SHOWN_CELLS} more)")
    assert verdict.message(SHOWN_CELLS) == verdict.said() and verdict.message() == verdict.stake
    few = decide(UncertainSheet(BASE.replace({EDGE: "F"}), {EDGE: ("F", ".")}), WOOD)
    assert few.said() == few.stake  # nothing to cap


def test_a_settled_line_caps_its_cells_too() -> None:
    cells = [(r, c) for r in range(3, 8) for c in range(3, 8) if (r, c) not in MOUNTAINS]  # 24 inner cells
    uncertain = UncertainSheet(BASE.replace(dict.fromkeys(cells, "F")), dict.fromkeys(cells, ("F", "W")))
    verdict = decide(uncertain, WOOD)
    assert verdict.outcome is Outcome.SETTLED and len(verdict.doubtful_json()["cells"]) == 24  # type: ignore[index]
    line = verdict.message(SHOWN_CELLS)
    assert line.startswith("24 unsure cell(s) (D4, D5, D6, D7, D8, E4, E5, E6 and 16 more)")


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


# --- the consistency gate: a machine's reading that contradicts itself is not scored outright --------

GATE = read_cases(DATA / "rules" / "policy" / "gate.cases", required=("from", "outcome", "suspect"),
                  optional=("unsure", "finds"))


def _gate_case(case: KnownCase) -> UncertainSheet:
    sheet = Sheet.parse(case.text)
    unsure = {}
    for entry in case.meta.get("unsure", "").split():
        label, _, readings = entry.partition("=")
        unsure[parse_label(label)] = tuple(readings)
    assert case.meta["from"] in ("photo", "sheet"), case.meta["from"]
    return UncertainSheet(sheet, unsure, from_photo=case.meta["from"] == "photo")


@pytest.mark.parametrize("case", GATE, ids=[c.id for c in GATE])
def test_gate_known_answers(case: KnownCase) -> None:
    uncertain = _gate_case(case)
    verdict = decide(uncertain, WOOD)
    assert verdict.outcome.value == case.meta["outcome"]
    want = set(case.meta["suspect"].split()) - {"none"}
    assert {p.code.value for p in verdict.suspect} == want
    found = {p.code.value for p in check_sheet(uncertain.sheet).problems}
    assert set(case.meta.get("finds", "").split()) | want <= found  # the case raises what it is about
    if want:
        assert not verdict and verdict.sheet is None
        assert all(code in verdict.stake for code in want) and "contradicts itself" in verdict.stake


def test_every_check_code_blocks_or_says_why_not() -> None:
    assert not READING_SUSPECT.keys() & NOT_BLOCKING.keys()
    assert READING_SUSPECT.keys() | NOT_BLOCKING.keys() == {code.value for code in Code}
    assert all(why.strip() for why in [*READING_SUSPECT.values(), *NOT_BLOCKING.values()])


def test_gate_cases_cover_every_suspect_code() -> None:
    covered = {code for case in GATE for code in case.meta["suspect"].split()}
    assert set(READING_SUSPECT) <= covered


def test_allowed_despite_a_contradiction_says_why() -> None:
    guess = BASE.replace({(5, 7): "X"})  # F8: an X without a star
    verdict = decide(UncertainSheet(guess, from_photo=True), WOOD, allow_doubtful=True)
    assert verdict.outcome is Outcome.ALLOWED and verdict.sheet == guess
    doubtful = verdict.doubtful_json()
    assert doubtful is not None and doubtful["certain"] is False
    assert [(p["code"], p["cells"]) for p in doubtful["suspect"]] == [("destroyed_without_star", ["F8"])]
    assert "contradicts itself" in verdict.message() and "destroyed_without_star" in verdict.message()


def test_a_contradiction_joins_the_stake_of_cells_that_change_the_score() -> None:
    guess = BASE.replace({EDGE: "F", (5, 7): "X"})
    verdict = decide(UncertainSheet(guess, {EDGE: ("F", ".")}, from_photo=True), WOOD)
    assert not verdict and verdict.spread is not None
    assert "the total would be 2 to 3" in verdict.stake and "destroyed_without_star" in verdict.stake


def test_a_person_fixing_a_reading_keeps_it_a_reading() -> None:
    guess = BASE.replace({INNER: "X"})
    uncertain = UncertainSheet(guess, {EDGE: ("F", ".")}, from_photo=True)
    assert decide(uncertain.fix({EDGE: "."}), WOOD).suspect  # G7's X is still unexplained
    assert decide(uncertain.fix({EDGE: ".", INNER: "."}), WOOD).outcome is Outcome.SCORED
