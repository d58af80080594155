"""rules.doubt: known answers from tests/data/rules/doubt/*.cases, the cap, and bad input.

The case format is described at the top of spread.cases: a sheet with ``?`` on the unsure cells and
comment lines giving the cards, each unsure cell's readings (the guess first) and the expected spans;
over_cap.cases adds whether the total is only a bound.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from known_cases import DATA, KnownCase, read_folder

from rules import Sheet, SheetError, parse_label
from rules.cards import CARDS, find_card
from rules.doubt import MAX_READINGS, Span, Spread, TooManyReadings, score_spread
from rules.season import score_cards, score_season

_SPAN = re.compile(r"^(\w+) (-?\d+)(?: to (-?\d+))?$")


@dataclass(frozen=True)
class Case:
    name: str
    sheet: Sheet
    cards: tuple[str, ...]
    season: str | None
    unsure: dict[tuple[int, int], str]
    readings: int
    certain: bool
    expect: dict[str, Span]
    bounded: bool = False

    @property
    def guess(self) -> Sheet:
        return self.sheet.replace({cell: alts[0] for cell, alts in self.unsure.items()})


def _case(known: KnownCase) -> Case:
    meta = known.meta
    expect: dict[str, Span] = {}
    for part in meta["expect"].split(","):
        m = _SPAN.match(part.strip())
        assert m, f"bad expect item {part!r}"
        low = int(m.group(2))
        expect[m.group(1)] = Span(low, int(m.group(3)) if m.group(3) else low)
    unsure = {parse_label(k): v for k, v in (item.split("=") for item in meta["unsure"].split())}
    return Case(
        name=known.name,
        sheet=Sheet.parse(known.text),
        cards=tuple(meta["cards"].split(",")),
        season=meta.get("season"),
        unsure=unsure,
        readings=int(meta["readings"]),
        certain={"yes": True, "no": False}[meta["certain"]],
        expect=expect,
        bounded={"yes": True, "no": False}[meta.get("bounded", "no")],
    )


CASES = [
    _case(known)
    for known in read_folder(
        DATA / "rules" / "doubt",
        required=("pins", "cards", "unsure", "readings", "certain", "expect"),
        optional=("season", "bounded"),
    )
]


def test_the_suite_is_there() -> None:
    assert len(CASES) >= 9
    assert {c.certain for c in CASES} == {True, False}
    assert {c.bounded for c in CASES if c.readings > MAX_READINGS} == {True, False}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_known_answers(case: Case) -> None:
    assert set(case.sheet.unknown) == set(case.unsure), "every '?' has readings, and only those"
    cards = [find_card(i) for i in case.cards]
    spread = score_spread(case.guess, case.unsure, cards, case.season)
    assert isinstance(spread, Spread) and spread
    assert spread.readings == case.readings
    assert spread.certain is case.certain
    assert spread.bounded is case.bounded
    assert spread.cells == tuple(sorted(case.unsure))
    numbers = {**spread.cards, "coins": spread.coins, "monsters": spread.monsters, "total": spread.total}
    for name, span in case.expect.items():
        assert numbers[name] == span, name


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_guess_is_one_of_the_readings(case: Case) -> None:
    cards = [find_card(i) for i in case.cards]
    spread = score_spread(case.guess, case.unsure, cards, case.season)
    assert isinstance(spread, Spread)
    total = (
        score_season(case.guess, cards, case.season).total
        if case.season
        else score_cards(case.guess, cards).total
    )
    assert spread.total.low <= total <= spread.total.high


def test_describe_names_what_is_at_stake() -> None:
    case = next(c for c in CASES if c.name == "a possible monster costs stars")
    spread = score_spread(case.guess, case.unsure, [find_card(i) for i in case.cards])
    assert isinstance(spread, Spread)
    assert spread.describe() == "the total would be -2 to 2 (monsters -4 to 0)"


def test_over_the_cap_is_falsy_and_scores_nothing() -> None:
    cells = [(5, c) for c in range(11)] + [(6, 0)]  # 12 cells x 2 readings = 4096 > 2048
    guess = Sheet.blank("custom")
    result = score_spread(guess, {cell: ".F" for cell in cells}, [find_card("sentinel_wood")])
    assert not result
    assert isinstance(result, TooManyReadings)
    assert (result.readings, result.cap) == (2**12, MAX_READINGS)
    small = score_spread(guess, {cell: ".F" for cell in cells[:3]}, [find_card("sentinel_wood")], cap=7)
    assert isinstance(small, TooManyReadings) and small.readings == 8
    assert score_spread(guess, {cell: ".F" for cell in cells[:3]}, [find_card("sentinel_wood")], cap=8)


@pytest.mark.parametrize(
    ("unsure", "message"),
    [
        ({(1, 3): ".F"}, "printed"),  # B4 is a mountain on side A
        ({(0, 0): "F^"}, "cannot be a drawn reading"),
        ({(0, 0): "F?"}, "cannot be a drawn reading"),
        ({(0, 0): "VF"}, "not among its alternatives"),  # the guess holds '.' at A1
    ],
)
def test_bad_alternatives_raise(unsure: dict[tuple[int, int], str], message: str) -> None:
    with pytest.raises(SheetError, match=message):
        score_spread(Sheet.blank("A"), unsure, [find_card("sentinel_wood")])


def test_cards_must_fit_the_season_even_with_few_readings() -> None:
    with pytest.raises(SheetError, match="needs 4 scoring cards"):
        score_spread(Sheet.blank("A"), {(0, 0): ".F"}, [find_card("sentinel_wood")], "spring")


@settings(max_examples=25, deadline=None)
@given(
    card_ids=st.lists(st.sampled_from(sorted(CARDS)), min_size=1, max_size=3, unique=True),
    cells=st.sets(st.tuples(st.integers(0, 10), st.integers(0, 10)), max_size=4),
)
def test_bounds_hold_every_reading(card_ids: list[str], cells: set[tuple[int, int]]) -> None:
    """Each reading scored on its own lies within the spread, and some reading reaches each bound."""
    guess = Sheet.blank("custom").replace({(r, 0): "V" for r in range(11)})
    unsure = {cell: guess[cell].value + ("M" if guess[cell] == "." else ".") for cell in cells}
    cards = [CARDS[i] for i in card_ids]
    spread = score_spread(guess, unsure, cards)
    assert isinstance(spread, Spread) and spread.readings == 2 ** len(cells)
    totals = []
    for mask in range(2 ** len(cells)):
        sheet = guess.replace({cell: unsure[cell][(mask >> k) & 1] for k, cell in enumerate(sorted(cells))})
        totals.append(score_cards(sheet, cards).total)
    assert spread.total == Span(min(totals), max(totals))
    if spread.certain:
        assert len(set(totals)) == 1
