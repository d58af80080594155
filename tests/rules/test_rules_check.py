"""rules.check: every problem of a sheet at once (docs/INTERFACES.md §3, `check`), known answers per
rule and code."""

from __future__ import annotations

import numpy as np
import pytest
from known_cases import DATA, KnownCase, read_cases

from models.synth.play import random_game, replay
from rules import Sheet, SheetError, Terrain, parse_label, parse_labels
from rules.cards import find_card
from rules.check import (
    EDITIONS,
    CheckResult,
    Code,
    _coin_shapes_in_time,
    _draw_caps,
    check_sheet,
    check_text,
    explain,
    least_time,
    outline_problems,
    pieces_from_labels,
)
from rules.season import score_cards

CASES = read_cases(
    DATA / "rules" / "check" / "problems.cases", required=("expect", "edition"), optional=("season",)
)


def _codes(result: CheckResult) -> dict[str, set[frozenset[tuple[int, int]]]]:
    found: dict[str, set[frozenset[tuple[int, int]]]] = {}
    for p in result.problems:
        found.setdefault(p.code.value, set()).add(frozenset(p.cells))
    return found


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_known_answers(case: KnownCase) -> None:
    expect = case.meta["expect"]
    result = check_sheet(Sheet.parse(case.text), edition=case.meta["edition"], season=case.meta.get("season"))
    found = _codes(result)
    if expect == "none":
        assert result.ok, [str(p) for p in result.problems]
        return
    wanted: dict[str, frozenset[tuple[int, int]] | None] = {}
    for entry in expect.split("|"):
        code, _, cells = entry.strip().partition(" ")
        wanted[code] = parse_labels(cells) if cells.strip() else None
    assert set(found) == set(wanted), [str(p) for p in result.problems]
    for code, want in wanted.items():
        if want is not None:
            assert want in found[code], (code, found[code])


def test_case_file_covers_every_grid_code() -> None:
    codes = {e.strip().split(" ")[0] for c in CASES for e in c.meta["expect"].split("|")}
    grid_codes = set(Code) - {
        Code.BAD_OUTLINE,
        Code.SEASON_REGRESSION,
        Code.SEASON_PLACEMENT,
        Code.SIDE_MISMATCH,
        Code.HEADER,
    }
    assert {c.value for c in grid_codes} <= codes


def test_json_matches_the_contract() -> None:
    """docs/INTERFACES.md §3, `check`: {"ok": bool, "problems": [{"code", "cells", "message"}]}."""
    sheet = Sheet.blank("A").replace({(2, 2): "?"}, stars="A1")
    js = check_sheet(sheet).to_json()
    assert js["ok"] is False and set(js) == {"ok", "problems"}
    assert [p["code"] for p in js["problems"]] == ["unreadable", "star_without_hero"]
    assert js["problems"][0]["cells"] == ["C3"] and isinstance(js["problems"][0]["message"], str)
    assert check_sheet(Sheet.blank("B")).to_json() == {"ok": True, "problems": []}


def test_header_problem_does_not_hide_the_grid() -> None:
    """docs/INTERFACES.md §1 header limits (coins + spent <= 14) reported beside the grid's problems."""
    text = "side: custom\ncoins: 10\nspent: 5\nstars: A1\n" + "\n".join(["..........."] * 11)
    codes = [p.code for p in check_text(text).problems]
    assert Code.COINS_EXCEED in codes and Code.STAR_WITHOUT_HERO in codes


def test_side_contradiction_does_not_hide_the_grid() -> None:
    """A terrain on a printed mountain (docs/INTERFACES.md §1) is reported, and the rest still checked."""
    rows = list(Sheet.blank("A").rows)
    r, c = next(iter(Sheet.blank("A").printed.mountains))
    rows[r] = rows[r][:c] + "F" + rows[r][c + 1 :]
    text = "side: A\nstars: K11\n" + "\n".join(rows)
    codes = {p.code for p in check_text(text).problems}
    assert {Code.SIDE_MISMATCH, Code.STAR_WITHOUT_HERO} <= codes


def test_malformed_text_is_an_error() -> None:
    with pytest.raises(SheetError):
        check_text("side: A\nFFF\n")


def test_outlines_checked_against_the_cards() -> None:
    """Outlined pieces (from a photo): a forest L of four is Orchard's shape; a village L of four is no
    village card's (base cards 09, 12, 14, 16); a gapped shape is outlined as its parts."""
    orchard = frozenset({(0, 0), (0, 1), (0, 2), (1, 2)})
    assert outline_problems([(orchard, Terrain.FOREST)], "base") == []
    bad = outline_problems([(orchard, Terrain.VILLAGE)], "base")
    assert [p.code for p in bad] == [Code.BAD_OUTLINE] and set(bad[0].cells) == orchard
    assert outline_problems([(frozenset({(0, 0)}), Terrain.FARM)], "heroes") == []  # Pasture's X_X part
    grid = np.zeros((11, 11), int)
    grid[0, :3] = 1
    grid[1, 2] = 1
    sheet = Sheet.blank("A").replace(dict.fromkeys(orchard, "V"))
    pieces = pieces_from_labels(grid, sheet)
    assert pieces == [(orchard, Terrain.VILLAGE)]
    assert [p.code for p in check_sheet(sheet, outlines=pieces).problems] == [Code.BAD_OUTLINE]


def test_season_regression() -> None:
    """Spaces never become empty again (base rulebook p.5: shapes are drawn on empty spaces only)."""
    before = Sheet.blank("A").replace({(0, 0): "F", (1, 1): "F"}, stars="K11")
    after = Sheet.blank("A").replace({(0, 0): "V"})
    codes = _codes(check_sheet(after, before=before))
    assert parse_labels("A1") in codes["season_regression"]
    assert parse_labels("B2") in codes["season_regression"]
    assert parse_labels("K11") in codes["season_regression"]


def test_season_placement() -> None:
    """One season reveals each explore card once (base rulebook p.9): two village lines of four (only
    Fishing Village draws one) are not one season's draws; one is."""
    before = Sheet.blank("custom")
    one = before.replace(dict.fromkeys([(0, c) for c in range(4)], "V"))
    two = one.replace(dict.fromkeys([(5, c) for c in range(4)], "V"))
    assert check_sheet(one, before=before, edition="base").ok
    codes = _codes(check_sheet(two, before=before, edition="base"))
    assert set(codes) == {"season_placement"}


def test_season_time() -> None:
    """A season's new spaces cost the time of the cards that drew them: winter ends once its cards' time
    meets 6 (base rulebook "Check Phase"), so at most 6 - 1 + 2 = 7.  Three time-2 shapes (Hinterland
    Stream, Orchard, Marshlands) are; five (with Fishing Village and Homestead: 10, or 9 with the
    Fishing Village line as a Great River line of three and a Rift Lands 1x1) are not."""
    before = Sheet.blank("custom")
    three = before.replace(
        {
            **dict.fromkeys([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)], "P"),
            **dict.fromkeys([(0, 6), (0, 7), (0, 8), (1, 8)], "F"),
            **dict.fromkeys([(5, 8), (6, 8), (6, 9), (6, 10), (7, 8)], "W"),
        }
    )
    five = three.replace(
        {
            **dict.fromkeys([(9, c) for c in range(1, 5)], "W"),
            **dict.fromkeys([(4, 1), (5, 1), (5, 2), (6, 1)], "V"),
        }
    )
    assert check_sheet(three, before=before, edition="base", season="winter").ok
    problems = check_sheet(five, before=before, edition="base", season="winter").problems
    assert [p.code.value for p in problems] == ["season_placement"], [str(p) for p in problems]
    assert "at least 9 in all; winter shows at most 7" in problems[0].message


def test_coin_shapes_within_a_seasons_time() -> None:
    """Coin shapes are small, so drawing more of them can take more time than a season shows (base
    rulebook "Check Phase": winter at most 6 - 1 + 2 = 7).  An S of four forests is a Forgotten Forest
    (time 1) or two of its coin diagonals (2); beside it a Treetop Village (2), a Marshlands (2) and a
    Great River W (1) make 6, so two coin shapes fit winter's time; with a Farmland plus (1) more they
    do not."""
    base = EDITIONS["base"]
    cells = {
        **dict.fromkeys([(0, 0), (1, 0), (1, 1), (2, 1)], "F"),
        **dict.fromkeys([(0, 8), (0, 9), (1, 6), (1, 7), (1, 8)], "V"),
        **dict.fromkeys([(5, 8), (6, 8), (6, 9), (6, 10), (7, 8)], "W"),
        **dict.fromkeys([(8, 0), (9, 0), (9, 1), (10, 1), (10, 2)], "W"),
    }
    plus = dict.fromkeys([(4, 3), (5, 2), (5, 3), (5, 4), (6, 3)], "P")
    six = Sheet.blank("custom").replace(cells)
    seven = six.replace(plus)
    assert _coin_shapes_in_time(six, base, frozenset(cells), 3, 2) == 2
    assert _coin_shapes_in_time(seven, base, frozenset(cells) | frozenset(plus), 3, 2) == 1


def test_season_coins() -> None:
    """Coins gained in one season: a surrounded mountain pays one (base rulebook p.5)."""
    before = Sheet("/".join(["..........."] * 5 + [".....^....."] + ["..........."] * 5), side="custom")
    cells = {(4, 5): "W", (6, 5): "W", (5, 4): "W", (5, 6): "W"}
    after = before.replace(cells)
    codes = _codes(check_sheet(after, before=before, edition="base"))
    assert "coins_missing" in codes
    assert "coins_missing" not in _codes(check_sheet(after.replace(coins=1), before=before, edition="base"))


def test_cover_prefers_shapes_and_reports_pieces() -> None:
    """Hamlet's XXX/XX. village (base card 09) is one piece, not five 1x1s."""
    sheet = Sheet.blank("custom").replace({(0, 0): "V", (0, 1): "V", (0, 2): "V", (1, 0): "V", (1, 1): "V"})
    ex = explain(sheet, "base")
    assert len(ex.pieces) == 1 and ex.pieces[0].cards == ("Hamlet",) and not ex.singles


def test_search_budget_gives_a_partial_answer() -> None:
    """A tiny node budget still answers (flagged partial), never hangs or raises."""
    sheet = random_game(np.random.default_rng(7), season=4).sheet
    result = check_sheet(sheet, budget=3)
    assert isinstance(result.partial, bool)
    assert explain(sheet, EDITIONS["base"].name, budget=1).partial
    edition = "heroes" if sheet.side in ("C", "D") else "base"
    full, cut = least_time(sheet, edition)
    short, cut_short = least_time(sheet, edition, budget=1)
    assert not cut and cut_short and short < full  # a cut region counts nothing: never a false alarm


def test_draw_caps() -> None:
    """Most explore cards one season reveals: Rift Lands (0), the four 1-time cards, then 2-time cards
    until the threshold (8, 8, 7, 6 base; 8, 7, 7, 6 Heroes)."""
    assert _draw_caps(EDITIONS["base"]) == [7, 7, 7, 6]
    assert _draw_caps(EDITIONS["heroes"]) == [7, 7, 7, 6]


@pytest.mark.parametrize("seed", range(12))
def test_random_legal_games_have_no_problems(seed: int) -> None:
    """The renderer's game player plays by rules.shapes: its games must check clean."""
    game = random_game(np.random.default_rng(seed))
    assert replay(game.sheet.side, game.moves) == game.sheet
    result = check_sheet(game.sheet)
    assert result.ok, [str(p) for p in result.problems]


def test_monster_on_star_scores_as_destroyed() -> None:
    """de-H "Zerstörte Felder": a monster on a hit space is destroyed at once and has no terrain type,
    so Greengold Plains does not see a monster beside the village."""
    grid = ["..........."] * 11
    grid[5] = "....VM....."
    sheet = Sheet("/".join(grid), side="custom", stars="F6")
    assert sheet[parse_label("F6")] is Terrain.MONSTER
    result = score_cards(sheet, [find_card("greengold_plains")])
    assert result.monsters == 0 and result.scores["greengold_plains"].points == 0
    assert any(p.code == "monster_on_star" for p in sheet.problems())


def test_custom_ruins_on_a_mountain_is_a_warning() -> None:
    """A custom map's ruins header naming a mountain scores (with a warning) instead of failing."""
    grid = ["..........."] * 11
    grid[0] = "^.........."
    sheet = Sheet.parse("side: custom\nruins: A1 B2\n" + "\n".join(grid))
    assert [p.code for p in sheet.problems()] == ["ruins"]
    assert not sheet.problems()[0].fatal
