"""Card lookup (ids, printed names in four languages, aliases), the card facts, and the scoring API."""

from __future__ import annotations

import pytest

from rules import Sheet, SheetError
from rules.cards import (
    CARDS,
    CardScore,
    Category,
    UnknownCardError,
    find_card,
    normalize_name,
    parse_card_list,
    score_all,
)

BLANK = "\n".join(["side: custom"] + ["..........."] * 11)


@pytest.mark.parametrize("card_id", sorted(CARDS))
def test_every_printed_name_finds_its_card(card_id: str) -> None:
    card = CARDS[card_id]
    for name in (card_id, *card.names.values(), *card.aliases):
        assert find_card(name) is card, name
        assert find_card(name.upper()) is card, name
        assert find_card(f"  {name.lower()}  ") is card, name


@pytest.mark.parametrize(
    ("typed", "card_id"),
    [
        ("The Broken Road", "broken_road"),
        ("broken road", "broken_road"),
        ("BROKEN-ROAD", "broken_road"),
        ("Cauldrons", "cauldrons"),
        ("golden granary", "golden_granary"),
        ("Grunflache", "greenbough"),  # ü typed as u
        ("Unzugangliche Baronie", "lost_barony"),
        ("Die Lange Strasse", "broken_road"),  # ß typed as ss
        ("lange straße", "broken_road"),  # without the article
        ("Ausserste Enklave", "outer_enclave"),
        ("Lesna Warta", "sentinel_wood"),  # ł typed as l, ś as s
        ("blota ulema", "ulems_wallow"),
        ("Ulem’s Wallow", "ulems_wallow"),  # typographic apostrophe
        ("ulems wallow", "ulems_wallow"),
        ("Зеленый край", "greenbough"),  # ё typed as е
        ("ЗОЛОТАЯ ЖИЛА", "golden_granary"),
        ("Gęstwina Faunlost", "faunlost_thicket"),
        ("Faunawald", "faunlost_thicket"),  # the de Heroes glossary spelling
        ("Schild des Reiches", "shieldgate"),  # a common misspelling of the printed "Reichs"
        ("Enklave im Grenzgebiet", "outer_enclave"),  # the de Heroes glossary name
    ],
)
def test_loose_spellings(typed: str, card_id: str) -> None:
    assert find_card(typed).id == card_id


def test_unknown_card_suggests_the_nearest() -> None:
    with pytest.raises(UnknownCardError, match="did you mean 'Sentinel Wood'") as info:
        find_card("sentinal wod")
    assert isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_unknown_card_without_a_near_name() -> None:
    with pytest.raises(UnknownCardError) as info:
        find_card("qqqqqqqq")
    assert "did you mean" not in str(info.value)


def test_parse_card_list_keeps_order() -> None:
    cards = parse_card_list("sentinel_wood, Metropole,silos ,Die Kessel")
    assert [c.id for c in cards] == ["sentinel_wood", "great_city", "silos", "cauldrons"]


@pytest.mark.parametrize("text", ["", " , ", "sentinel_wood,nonsense"])
def test_parse_card_list_rejects(text: str) -> None:
    with pytest.raises(UnknownCardError):
        parse_card_list(text)


def test_normalize_name_folds() -> None:
    assert normalize_name("Die äußerste Enklave") == normalize_name("die ausserste-enklave")
    assert normalize_name("Błota Ulema") == "blotaulema"
    assert normalize_name("Зелёный край") == normalize_name("зеленый КРАЙ")


def test_card_facts() -> None:
    assert len(CARDS) == 32
    for category in Category:
        in_cat = [c for c in CARDS.values() if c.category is category]
        assert sorted(c.expansion for c in in_cat) == ["base"] * 4 + ["heroes"] * 4, category
    base = sorted((c for c in CARDS.values() if c.expansion == "base"), key=lambda c: c.card_no or 0)
    # Printed card numbers 26-41 run forest, farm/water, village, space (GAMEDATA §6).
    assert [c.card_no for c in base] == list(range(26, 42))
    assert [c.category for c in base] == [cat for cat in Category for _ in range(4)]
    for card in CARDS.values():
        assert {"en", "de", "pl"} <= set(card.names), card.id
        assert 10 <= card.solo_value <= 30, card.id
        if card.expansion == "base":
            assert "ru" in card.names, card.id
    # A few solo values read off the printed cards (GAMEDATA §6).
    assert (CARDS["sentinel_wood"].solo_value, CARDS["cauldrons"].solo_value) == (25, 20)
    assert (CARDS["craylund"].solo_value, CARDS["silos"].solo_value) == (12, 30)


def test_repr_pastes_back() -> None:
    card = CARDS["great_city"]
    assert eval(repr(card), {"find_card": find_card}) is card


def test_unreadable_cell_is_a_clear_error() -> None:
    sheet = Sheet.parse(BLANK.replace("...........", "....?......", 1))
    with pytest.raises(SheetError, match="A5"):
        find_card("greenbough").score(sheet)
    with pytest.raises(SheetError, match="A5"):
        score_all(sheet)


def test_score_all_matches_single_cards_and_does_not_go_stale() -> None:
    one = Sheet.parse(BLANK.replace("...........", "FFFFFFFFFFF", 1))
    two = Sheet.parse(BLANK)
    first = score_all(one)
    assert set(first) == set(CARDS)
    assert score_all(two)["borderlands"].points == 0
    assert first["borderlands"].points == 6
    for card_id, result in score_all(one).items():
        assert result == CARDS[card_id].score(one)
        assert isinstance(result, CardScore) and result.card_id == card_id


CHOICE_CARDS = {"faunlost_thicket", "outer_enclave", "caravansary"}


def test_choice_reporting() -> None:
    sheet = Sheet.parse(
        "\n".join(
            [
                "side: custom",
                "...........",
                "..V........",
                "..VV.......",
                "...........",
                "......F....",
                "......F....",
                "...........",
                "...........",
                "...........",
                "...........",
                "........VVV",
            ]
        )
    )
    results = score_all(sheet)
    assert results["faunlost_thicket"].choice == "column 7"
    # B3-C4 (3 spaces) has 7 empty neighbours; K9-K11 on the bottom edge has 4.
    assert results["outer_enclave"].choice == "cluster at B3-C4"
    assert results["outer_enclave"].points == 7
    # B3-C4 spans 2 rows + 2 columns = 4; K9-K11 spans 1 row + 3 columns = 4: a tie goes to the first.
    assert results["caravansary"].choice == "cluster at B3-C4"
    assert results["caravansary"].points == 4
    for card_id, result in results.items():
        if card_id not in CHOICE_CARDS:
            assert result.choice is None, card_id


def test_items_explain_the_points() -> None:
    sheet = Sheet.parse(BLANK.replace("...........", "VVVVVV.....", 1))
    result = find_card("wildholds").score(sheet)
    assert result.points == 8
    assert [(it.label, it.points) for it in result.items] == [("cluster at A1-A6", 8)]
    assert result.detail == "1 cluster of >=6 villages x 8"
    assert int(result) == 8
    as_json = result.to_dict()
    assert as_json["points"] == 8 and as_json["choice"] is None
    assert as_json["cells"] == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert as_json["items"] == [{"label": "cluster at A1-A6", "points": 8, "cells": as_json["cells"]}]
    assert len({CARDS["wildholds"], find_card("Bastionen in der Wildnis")}) == 1  # cards are hashable
