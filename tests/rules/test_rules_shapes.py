"""rules.shapes: card data, orientations, verify / can / do placement, coins, heroes, solo ambushes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import CELLS, Sheet, SheetError, Terrain, cells_label, clusters_of, parse_labels
from rules.shapes import (
    AMBUSH,
    EXPLORE,
    HEROES,
    PlacementError,
    ambush_card,
    can_place,
    can_place_hero,
    explore_card,
    hero_card,
    legal_placements,
    mountain_coins,
    normalise,
    orientations,
    overlaps_ruins,
    parse_pattern,
    pattern_of,
    place,
    place_hero,
    place_solo_ambush,
    placement_problems,
    ruins_placements,
    solo_ambush_placement,
    surrounded_mountains,
)

ALL_SHAPES = [o for card in EXPLORE.values() for o in card.shapes] + [a.shape for a in AMBUSH.values()]
# Shapes printed as disconnected on purpose (diagonal pairs, dashed gaps): GAMEDATA.md sections 3-4.
DISCONNECTED = {"X./.X", ".X/X.", "X_X", "X_X/X_X", ".XX/X..", "X../.X./..X", "X_X/.X."}


def test_deck_composition() -> None:
    """Base rulebook p.2: 13 explore cards (2 ruins) whose time values sum to 16 outside the ruins;
    Heroes component list: 11 explore, 4 ambush, 4 hero cards."""
    base = [c for c in EXPLORE.values() if c.game == "base"]
    heroes = [c for c in EXPLORE.values() if c.game == "heroes"]
    assert len(base) == 13 and sum(c.kind == "ruins" for c in base) == 2
    assert sum(c.time for c in base) == 16
    assert len(heroes) == 11 and all(c.kind == "explore" for c in heroes)
    assert [sum(a.game == g for a in AMBUSH.values()) for g in ("base", "promo", "heroes")] == [4, 4, 4]
    assert len(HEROES) == 4
    assert all(a.effect for a in AMBUSH.values() if a.game == "heroes")


def test_coins_only_on_small_shapes_of_time_1_cards() -> None:
    for card in EXPLORE.values():
        coins = [o.coin for o in card.shapes]
        assert coins == ([True, False] if card.time == 1 else [False] * len(card.shapes)), card.name


def test_low_confidence_facts_are_marked() -> None:
    assert explore_card("mangrove swamp").confidence == "low"
    assert explore_card("Mangrove Swamp").shapes[0].size == 5  # majority U-pentomino, not the 2x3
    assert all(a.confidence == "low" for a in AMBUSH.values() if a.game == "heroes")


@pytest.mark.parametrize("option", ALL_SHAPES, ids=lambda o: o.pattern)
def test_shape_data_is_consistent(option) -> None:  # type: ignore[no-untyped-def]
    cells, gaps = parse_pattern(option.pattern)
    assert option.cells == cells and not (cells & gaps)
    assert normalise(cells) == cells
    connected = len(clusters_of(cells)) == 1
    assert connected != (option.pattern in DISCONNECTED)
    assert pattern_of(cells) == option.pattern.replace("_", ".")


@pytest.mark.parametrize(
    ("pattern", "count"),
    [("X", 1), ("XX/XX", 1), (".X./XXX/.X.", 1), ("XXXX", 2), ("X/X/X", 2), ("X./XX", 4), ("XXX/XX.", 8),
     ("..XX/XXX.", 8), ("X./.X", 2)],
)
def test_orientation_counts(pattern: str, count: int) -> None:
    assert len(orientations(parse_pattern(pattern)[0])) == count


@given(st.sampled_from(ALL_SHAPES))
def test_orientations_are_closed(option) -> None:  # type: ignore[no-untyped-def]
    group = set(option.orientations)
    assert option.cells in group
    for s in group:
        assert set(orientations(s)) == group and len(s) == option.size


# -- placement: verify / can / do ------------------------------------------------------------


@st.composite
def played_sheets(draw: st.DrawFn) -> Sheet:
    sheet = Sheet.blank(draw(st.sampled_from(["A", "B", "C", "D"])))
    drawn = draw(st.dictionaries(st.sampled_from(CELLS), st.sampled_from("FVPWMX?"), max_size=40))
    fixed = sheet.printed.mountains | sheet.printed.wasteland
    return sheet.replace({c: t for c, t in drawn.items() if c not in fixed})


@settings(max_examples=200, deadline=None)
@given(
    played_sheets(),
    st.lists(st.tuples(st.integers(-1, 11), st.integers(-1, 11)), max_size=5),
    st.sampled_from(list(Terrain)),
)
def test_verify_can_do_agree(sheet: Sheet, cells: list[tuple[int, int]], terrain: Terrain) -> None:
    problems = placement_problems(sheet, cells, terrain)
    assert can_place(sheet, cells, terrain) == (not problems)
    if problems:
        with pytest.raises(PlacementError):
            place(sheet, cells, terrain)
    else:
        after = place(sheet, cells, terrain)
        assert all(after.is_filled(r, c) for r, c in cells)
        assert after.coins >= sheet.coins


@settings(max_examples=40, deadline=None)
@given(played_sheets(), st.sampled_from(ALL_SHAPES))
def test_legal_placements_are_legal_and_complete(sheet: Sheet, option) -> None:  # type: ignore[no-untyped-def]
    spots = legal_placements(sheet, option.cells)
    assert len(set(spots)) == len(spots)
    assert all(can_place(sheet, cells, Terrain.FOREST) for cells in spots)
    assert {normalise(cells) for cells in spots} <= set(option.orientations)
    # Brute force over every anchor of every orientation finds nothing more.
    brute = set()
    for s in option.orientations:
        for ar in range(-2, 11):
            for ac in range(-2, 11):
                cells = frozenset((ar + r, ac + c) for r, c in s)
                if can_place(sheet, cells, Terrain.FOREST):
                    brute.add(cells)
    assert brute == set(spots)


def test_placement_problem_messages() -> None:
    sheet = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "?"})
    problems = placement_problems(sheet, [(0, 0), (0, 1), (1, 3), (11, 0)], "^")
    assert problems == [
        "'^' (mountain) cannot be drawn; drawable: F V P W M H",
        "cell A1 is already filled ('F')",
        "cell A2 is unreadable ('?')",
        "cell B4 is already filled ('^')",
        "cell (11, 0) is off the map",
    ]
    assert placement_problems(sheet, [], "F") == ["no cells to draw"]
    with pytest.raises(PlacementError, match="cell A1 is already filled"):
        place(sheet, [(0, 0)], "F")


def test_unfilled_ruins_are_drawable_and_count_for_ruins_cards() -> None:
    """Base rulebook p.6 (Ruins): the shape must overlap a ruins space if possible; only filled ruins
    spaces count as filled (p.9)."""
    sheet = Sheet.blank("A")
    b6 = (1, 5)
    assert can_place(sheet, [b6], "F") and overlaps_ruins(sheet, [b6, (1, 6)])
    after = place(sheet, [b6], "F")
    assert not overlaps_ruins(after, [b6]) and after.is_filled(*b6)
    spots = ruins_placements(sheet, explore_card("Fishing Village").shapes[0].cells)
    assert spots and all(cells & sheet.ruins for cells in spots)
    # With every ruins space filled no placement satisfies a ruins card (draw a 1x1 instead).
    full = sheet.replace(dict.fromkeys(sheet.ruins, Terrain.FARM))
    assert ruins_placements(full, explore_card("Fishing Village").shapes[0].cells) == []


def test_mountain_coin_once_and_shape_coin() -> None:
    """Base rulebook p.6: a coin for a shape with a coin icon; a coin when all 4 spaces orthogonally
    adjacent to a mountain are filled (B4 on side A: A4, B3, B5, C4)."""
    sheet = place(Sheet.blank("A"), [(0, 3), (1, 2)], "F")
    assert sheet.coins == 0 and surrounded_mountains(sheet) == frozenset()
    sheet = place(sheet, [(1, 4)], "F", coin=True)
    assert sheet.coins == 1
    before = sheet
    sheet = place(sheet, [(2, 3), (3, 3)], "W")
    assert sheet.coins == 2 and surrounded_mountains(sheet) == {(1, 3)} and mountain_coins(before, sheet) == 1
    sheet = place(sheet, [(2, 2)], "W")
    assert sheet.coins == 2  # the same mountain never pays twice


def test_coin_track_is_capped() -> None:
    """Heroes rulebook: 'Habt ihr alle Münzen markiert, könnt ihr keine weiteren bekommen.'"""
    sheet = Sheet.blank("A").replace(coins=10, spent=4)
    assert place(sheet, [(0, 0)], "F", coin=True).coins == 10


# -- heroes -------------------------------------------------------------------------------------


def test_hero_hits_destroy_monsters_and_do_not_fill() -> None:
    """Heroes rulebook ("Held_innen", "Zerstörte Felder"): stars may lie on filled spaces and past the
    edge (not drawn); a monster under a star is destroyed at once (X), in either order."""
    sheet = Sheet.blank("custom").replace({(0, 0): "M", (2, 2): "F"})
    dal = hero_card("Dal of Jolev")
    after = place_hero(sheet, (1, 1), dal)
    assert after[1, 1] is Terrain.HERO
    assert after.stars == parse_labels("A1 A3 C1 C3")
    assert after[0, 0] is Terrain.DESTROYED and after[2, 2] is Terrain.FOREST
    assert not after.is_filled(0, 2)  # a star alone does not fill
    # A monster drawn later on a hit space is destroyed too.
    assert place(after, [(0, 2)], "M")[0, 2] is Terrain.DESTROYED
    # Past the edge: Freyla at K10 hits only K11.
    freyla = hero_card("elf archer")
    assert place_hero(Sheet.blank("custom"), (10, 9), freyla).stars == {(10, 10)}


def test_hero_patterns_rotate_and_flip() -> None:
    wren = hero_card("Wren the Lioness")
    assert len(wren.attack_orientations) == 4
    assert len(hero_card("Dobrik of Lorkheim").attack_orientations) == 1
    left = frozenset((dr, -dc) for dr, dc in wren.attack)
    assert can_place_hero(Sheet.blank("A"), (5, 5 - 1), wren, left)
    assert place_hero(Sheet.blank("custom"), (5, 5), wren, left).stars == parse_labels("E4 F4 G4")
    with pytest.raises(PlacementError, match="not a rotation"):
        place_hero(Sheet.blank("custom"), (5, 5), wren, frozenset({(0, 1)}))
    with pytest.raises(PlacementError, match="already filled"):
        place_hero(Sheet.blank("A"), (1, 3), wren)


def test_lookup_names() -> None:
    assert hero_card("dal of joleu").name == "Dal of Jolev"
    assert ambush_card("gnoll raid").number == "04"
    with pytest.raises(SheetError, match="did you mean 'Gnoll Raid'"):
        ambush_card("gnol raid")


# -- solo ambushes --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Gnoll Raid", "A1 A2 B1 C1 C2"),  # top-left, unrotated
        ("Goblin Attack", "I9 J10 K11"),  # bottom-right
        ("Bugbear Assault", "A9 A11 B9 B11"),  # top-right; the dashed middle column stays empty
        ("Kobold Onslaught", "I1 J1 J2 K1"),  # bottom-left
    ],
)
def test_solo_ambush_starts_in_the_printed_corner(name: str, expected: str) -> None:
    """Base rulebook p.11 (Solo Mode): start in the corner shown on the card, no flipping or rotating."""
    cells = solo_ambush_placement(Sheet.blank("A"), ambush_card(name))
    assert cells is not None and cells_label(cells) == expected


def test_solo_ambush_walks_the_edge_in_the_arrow_direction() -> None:
    """Gnoll Raid is counter-clockwise from A1: with A1 taken the next edge space is B1 (down the left
    edge), not A2."""
    sheet = Sheet.blank("A").replace({(0, 0): "F"})
    cells = solo_ambush_placement(sheet, ambush_card("Gnoll Raid"))
    assert cells is not None and cells_label(cells) == "B1 B2 C1 D1 D2"


def test_solo_ambush_moves_inward_then_discards() -> None:
    edge = {c: Terrain.WASTELAND for c in CELLS if min(*c, 10 - c[0], 10 - c[1]) == 0}
    sheet = Sheet.blank("custom").replace(edge)
    assert solo_ambush_placement(sheet, ambush_card("Zombie Plague")) == frozenset({(1, 1)})
    full = Sheet.blank("custom").replace(dict.fromkeys(CELLS, Terrain.FOREST))
    assert solo_ambush_placement(full, ambush_card("Gnoll Raid")) is None
    assert place_solo_ambush(full, ambush_card("Gnoll Raid")) == full


def test_heroes_solo_ambush_may_rotate() -> None:
    """Heroes solo rules: the shape must cover the corner space and may be rotated/flipped."""
    cells = solo_ambush_placement(Sheet.blank("custom"), ambush_card("Dragon Inferno"))
    assert cells is not None and (10, 0) in cells
    unrotated = solo_ambush_placement(Sheet.blank("custom"), ambush_card("Dragon Inferno"), rotate=False)
    assert unrotated is not None and normalise(unrotated) == ambush_card("Dragon Inferno").shape.cells
    with pytest.raises(SheetError, match="no known solo corner"):
        solo_ambush_placement(Sheet.blank("A"), ambush_card("Ogre Charge"))
