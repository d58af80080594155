"""rules.season: season edicts, coins, monster penalty, game totals, tie-break, solo rating and title."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from known_cases import DATA, KnownCase, read_cases

from rules import Sheet, SheetError
from rules.cards import CARDS, find_card
from rules.season import (
    Season,
    game_score,
    monster_penalty,
    rank,
    score_cards,
    score_season,
    solo_title,
)


@dataclass(frozen=True)
class _Points:
    points: int
    detail: str = ""
    choice: str | None = None
    cells: frozenset[tuple[int, int]] = frozenset()


@dataclass(frozen=True)
class FixedCard:
    """A stand-in scoring card worth a fixed number of points, to pin the edict arithmetic."""

    id: str
    points: int
    solo_value: int = 0

    @property
    def name(self) -> str:
        return self.id

    def score(self, sheet: Any) -> _Points:
        return _Points(self.points)


EDICTS = [FixedCard("a", 1, 10), FixedCard("b", 10, 20), FixedCard("c", 100, 30), FixedCard("d", 1000, 40)]


PENALTY_CASES = read_cases(DATA / "rules" / "season" / "penalty.cases", required=("monsters", "coins"))


@pytest.mark.parametrize("case", PENALTY_CASES, ids=lambda c: c.name)
def test_coins_and_monster_penalty_known_answers(case: KnownCase) -> None:
    sheet = Sheet.parse(case.text)
    monsters, coins = int(case.meta["monsters"]), int(case.meta["coins"])
    result = score_season(sheet, EDICTS, "spring")
    assert (result.monsters, result.coins) == (monsters, coins)
    assert monster_penalty(sheet) == monsters == -len(result.monster_cells)
    assert result.total == 11 + coins + monsters


def test_case_file_is_not_empty() -> None:
    assert len(PENALTY_CASES) >= 5


@pytest.mark.parametrize(
    ("season", "letters", "edict_points"),
    [
        ("spring", ("A", "B"), 11),
        ("summer", ("B", "C"), 110),
        ("fall", ("C", "D"), 1100),
        ("winter", ("D", "A"), 1001),
    ],
)
def test_season_scores_its_two_edicts(season: str, letters: tuple[str, str], edict_points: int) -> None:
    """Printed season cards 18-21: spring A+B, summer B+C, fall C+D, winter D+A."""
    sheet = Sheet.blank("A").replace(coins=4)
    result = score_season(sheet, EDICTS, season)
    assert Season(season).edicts == letters and tuple(result.edicts) == letters
    assert result.total == edict_points + 4
    js = result.to_json()
    assert set(js) >= {"name", "edicts", "coins", "monsters", "total"}
    assert js["name"] == season and js["coins"] == 4 and js["monsters"] == 0
    assert list(js["edict_letters"]) == list(letters)
    assert list(js["edicts"]) == [js["edict_letters"][x] for x in letters]
    assert sum(js["edicts"].values()) == edict_points


def test_season_thresholds() -> None:
    """Base season cards 8/8/7/6; Heroes rulebook 'Überprüfen': spring 8, summer and fall 7, winter 6."""
    assert [s.threshold("base") for s in Season] == [8, 8, 7, 6]
    assert [s.threshold("heroes") for s in Season] == [8, 7, 7, 6]
    assert Season.parse(" Autumn ") is Season.FALL
    with pytest.raises(SheetError, match="unknown season"):
        Season.parse("monsoon")


def test_season_needs_four_distinct_cards_and_a_known_sheet() -> None:
    with pytest.raises(SheetError, match="needs 4 scoring cards"):
        score_season(Sheet.blank("A"), EDICTS[:3], "spring")
    with pytest.raises(SheetError, match="given twice"):
        score_season(Sheet.blank("A"), [*EDICTS[:3], EDICTS[0]], "spring")
    with pytest.raises(SheetError, match=r"unreadable.*A1"):
        score_season(Sheet.blank("A").replace({(0, 0): "?"}), EDICTS, "spring")
    with pytest.raises(SheetError, match="unreadable"):
        score_cards(Sheet.blank("A").replace({(0, 0): "?"}), EDICTS)


def test_real_cards_match_their_own_scores() -> None:
    sheet = Sheet.blank("B").replace(
        {(0, 0): "F", (0, 1): "F", (1, 0): "W", (2, 0): "P", (0, 4): "V", (0, 5): "V", (10, 10): "M"}, coins=2
    )
    cards = [find_card(x) for x in ("sentinel_wood", "canal_lake", "wildholds", "borderlands")]
    result = score_cards(sheet, cards)
    assert result.scores == {card.id: card.score(sheet) for card in cards}
    season = score_season(sheet, cards, "winter")
    expected = cards[3].score(sheet).points + cards[0].score(sheet).points + 2 - 2
    assert season.total == expected
    js = result.to_json()
    assert js["monsters"] == -2 and js["cards"]["sentinel_wood"] == cards[0].score(sheet).points


def test_game_total_tie_break_and_solo() -> None:
    """Base rulebook: the game total is the four seasons; ties go to the fewest stars lost to monsters;
    solo rating = total minus the four solo values, titled by the highest rating met."""
    calm = Sheet.blank("custom")
    wild = Sheet.blank("custom").replace({(5, 5): "M"})
    game = game_score([calm, calm, wild, wild], EDICTS)
    assert [s.season for s in game.seasons] == list(Season)
    assert game.total == 11 + 110 + 1100 + 1001 - 8
    assert game.monster_loss == 8
    assert game.solo_rating == game.total - 100
    again = game_score(list(game.seasons))
    assert again.total == game.total and again.solo_values == 100
    with pytest.raises(SheetError, match="4 seasons"):
        game_score([calm], EDICTS)

    players = {"ann": _Fixed(50, 3), "bob": _Fixed(50, 1), "cy": _Fixed(60, 9), "dee": _Fixed(50, 1)}
    order = rank(players)  # type: ignore[arg-type]
    assert [(place, name) for place, name, _ in order] == [(1, "cy"), (2, "bob"), (2, "dee"), (4, "ann")]


@dataclass(frozen=True)
class _Fixed:
    total: int
    monster_loss: int


@pytest.mark.parametrize(
    ("rating", "title"),
    [
        (45, "Legendary Cartographer"),
        (30, "Legendary Cartographer"),
        (29, "Master Mapsmith"),
        (10, "Journeyman Topographer"),
        (0, "Apprentice Surveyor"),
        (-1, "Amateur Assessor"),
        (-10, "Inept Assistant"),
        (-29, "Oblivious Inkdrinker"),
        (-30, "Oblivious Inkdrinker"),
        (-31, None),
    ],
)
def test_solo_titles(rating: int, title: str | None) -> None:
    """Base rulebook, Solo Mode: 'a title based on the highest rating that you met or surpassed'."""
    assert solo_title(rating) == title


def test_all_cards_score_a_random_sheet() -> None:
    sheet = Sheet.blank("A").replace(
        {
            (r, c): "FVPWM"[(r * 3 + c) % 5]
            for r in range(0, 11, 2)
            for c in range(11)
            if Sheet.blank("A")[r, c] == "."
        }
    )
    result = score_cards(sheet, list(CARDS.values()))
    assert len(result.scores) == 32 and all(s.points >= 0 for s in result.scores.values())
    assert result.total == sum(s.points for s in result.scores.values()) + result.coins + result.monsters
