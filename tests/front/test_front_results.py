"""front.results and front.report: fixes, look-alikes, the review of a refused sheet, the HTML report."""

from __future__ import annotations

import re

import numpy as np
import pytest

from front.report import index_html, photo_part, report_html
from front.results import alike, alike_taking, parse_fixes, review, sheet_text, uncertain_of
from rules import Sheet, SheetError, Terrain, cell_label
from rules.cards import find_card
from rules.policy import UncertainSheet

CARDS = [find_card(c) for c in ("sentinel_wood", "canal_lake", "wildholds", "borderlands")]


def test_fixes_parse_labels_and_symbols() -> None:
    assert parse_fixes("B7=W, c3=.;K11=x") == {(1, 6): Terrain.WATER, (2, 2): Terrain.EMPTY, (10, 10): "X"}
    assert parse_fixes({"A1": "f"}) == {(0, 0): Terrain.FOREST}
    for bad in ("B7", "L1=F", "A12=F", "B7=?", "B7=^", "B7=FW"):
        with pytest.raises(SheetError):
            parse_fixes(bad)


def test_alike_offers_the_unfixed_cells_of_the_group() -> None:
    groups = [((0, 0), (0, 1), (3, 3)), ((5, 5), (6, 6))]
    assert alike(groups, (0, 1), [(0, 0), (0, 1), (5, 5)]) == ((0, 0),)
    assert alike(groups, (5, 5), [(5, 5)]) == ()
    assert alike(groups, (9, 9), [(9, 9), (0, 0)]) == ()


@pytest.mark.parametrize(("answer", "taking"), [
    ("", "B2 C3 D4"), ("y", "B2 C3 D4"), (" YES ", "B2 C3 D4"), ("n", ""), ("No", ""),
    ("c3", "B2 D4"), ("B2, d4", "C3"), ("B2 C3 D4", ""),
])
def test_the_person_says_which_look_alikes_take_their_answer(answer: str, taking: str) -> None:
    peers = ((1, 1), (2, 2), (3, 3))
    assert " ".join(cell_label(c) for c in alike_taking(peers, answer)) == taking


@pytest.mark.parametrize("answer", ["E5", "C3 C3", "maybe", "C12"])
def test_a_cell_not_offered_or_not_a_cell_is_refused(answer: str) -> None:
    with pytest.raises(SheetError):
        alike_taking(((1, 1), (2, 2), (3, 3)), answer)


def _uncertain() -> UncertainSheet:
    guess = Sheet.blank("A").replace({(0, 0): "F", (0, 1): "F"})
    return UncertainSheet(guess, {(0, 0): (Terrain.FOREST, Terrain.WATER)})


def test_a_refused_sheet_still_shows_its_most_likely_figures() -> None:
    got = review(_uncertain(), CARDS, "winter")
    assert not got.verdict and got.provisional
    assert got.shown["cards"]["sentinel_wood"] == 2 and got.shown["doubtful"]["certain"] is False
    fixed = review(_uncertain().fix({(0, 0): "W"}), CARDS, "winter")
    assert fixed.verdict and not fixed.provisional and fixed.shown["cards"]["sentinel_wood"] == 1
    assert fixed.to_json()["outcome"] == "scored"


def test_a_photos_reading_that_contradicts_itself_is_shown_provisional_in_the_report() -> None:
    crossed = Sheet.blank("A").replace({(0, 0): "F", (5, 7): "X"})  # F8: an X with no hit star
    got = review(UncertainSheet(crossed, from_photo=True), CARDS, "winter")
    assert not got.verdict and got.provisional and "destroyed_without_star" in got.verdict.stake
    assert [p["code"] for p in got.shown["doubtful"]["suspect"]] == ["destroyed_without_star"]
    html = report_html(got, CARDS, "winter", title="crossed")
    assert "contradicts itself" in html and "compare the reading with the sheet" in html
    typed = review(UncertainSheet(crossed), CARDS, "winter")  # a person's sheet: scored as written
    assert typed.verdict and not typed.provisional


def test_the_sheet_text_keeps_doubts_and_a_title_cannot_add_headers() -> None:
    text = sheet_text(_uncertain(), title="alice.jpg\ncoins: 14\rside: B")
    sheet = Sheet.parse(text)
    assert sheet.coins == 0 and sheet.side == "A" and sheet.unknown == ((0, 0),)
    assert "# A1 unsure: F/W" in text and text.count("\n# ") == 1


def test_a_sheet_files_unknown_cells_may_be_anything() -> None:
    sheet = Sheet.blank("A").replace({(0, 0): "?"})
    got = uncertain_of(sheet)
    assert got.guess[0, 0] == "." and len(got.alternatives[(0, 0)]) == 8


def test_the_report_is_self_contained_and_escaped() -> None:
    got = review(_uncertain(), CARDS, "winter")
    canonical = np.full((720, 720, 3), 230, np.uint8)
    hostile = '<script>alert("x")</script>.jpg'
    page = report_html(
        got, CARDS, "winter", title=hostile, photo=canonical, canonical=canonical,
        problems=[{"code": "unknown", "cells": ["A1"], "message": "<img src=x onerror=alert(1)>"}],
    )
    assert hostile not in page and "&lt;script&gt;" in page and "<img src=x" not in page
    sources = re.findall(r'(?:src|href)="([^"]*)"', page)
    assert sources and all(s.startswith("data:image/jpeg;base64,") for s in sources)
    assert "provisional" in page and 'id="c-A1"' in page and "needs a look" in page
    assert page.count("<script>") == 1  # the report's own script only
    # each card's row names the cells it scored, for the highlight
    assert 'data-cells="A1 A2"' in page


def test_the_index_ranks_players_with_the_tie_break() -> None:
    page = index_html([
        {"name": "bob", "report": "bob.html", "total": 40, "monsters": -3},
        {"name": "<ann>", "report": "ann x.html", "total": 40, "monsters": -1},
        {"name": "cy", "report": "cy.html", "total": None, "note": "unreadable"},
        {"name": "di", "report": "di.html", "total": 52, "monsters": -5},
    ])
    order = re.findall(r"<td class=n>([0-9–]+)</td><td><a href=\"([^\"]+)\">", page)
    assert order == [("1", "di.html"), ("2", "ann%20x.html"), ("3", "bob.html"), ("–", "cy.html")]
    assert "&lt;ann&gt;" in page and "<ann>" not in page


def test_photo_part_keeps_the_sheet_around_its_grid_and_stays_inside() -> None:
    image = np.arange(400 * 900, dtype=np.uint32).reshape(400, 900)[:, :, None].repeat(3, axis=2)
    # a grid of 110 px (10 px a cell) at x 600-710, y 100-210: 3 cells (30 px) kept around it
    corners = np.array([[600.0, 100.0], [710.0, 100.0], [710.0, 210.0], [600.0, 210.0]])
    part = photo_part(image, corners)
    assert part.shape[:2] == (170, 170)
    assert part[0, 0, 0] == image[70, 570, 0]
    # near the photo's edge the part is cut there; a grid outside the photo shows the whole photo
    edge = photo_part(image, corners + np.array([250.0, -90.0]))
    assert edge.shape[:2] == (150, 900 - 820) and edge[0, 0, 0] == image[0, 820, 0]
    assert photo_part(image, corners + np.array([2000.0, 0.0])).shape == image.shape
