"""rules.sheet: notation round trips, errors that name the line and cell, rulebook semantics."""

from __future__ import annotations

import json
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import (
    CELLS,
    Sheet,
    SheetError,
    Terrain,
    cell_label,
    clusters_of,
    is_edge,
    neighbours,
    parse_label,
    printed_side,
)
from rules.sheet import Problem

DRAWN = [
    Terrain.EMPTY,
    Terrain.FOREST,
    Terrain.VILLAGE,
    Terrain.FARM,
    Terrain.WATER,
    Terrain.MONSTER,
    Terrain.HERO,
    Terrain.DESTROYED,
    Terrain.UNKNOWN,
]
labels = st.sampled_from(CELLS)


@st.composite
def sheets(draw: st.DrawFn) -> Sheet:
    side = draw(st.sampled_from(["A", "B", "C", "D", "custom"]))
    base = Sheet.blank(side)
    printed = printed_side(side)
    fixed = printed.mountains | printed.wasteland
    symbols = [Terrain.MOUNTAIN, Terrain.WASTELAND, *DRAWN] if side == "custom" else DRAWN
    cells = {cell: draw(st.sampled_from(symbols)) for cell in CELLS if cell not in fixed}
    coins = draw(st.integers(0, 14))
    spent = draw(st.integers(0, 14 - coins))
    stars = draw(st.frozensets(labels, max_size=6))
    fields: dict[str, object] = {"coins": coins, "spent": spent, "stars": stars}
    if side == "custom":
        free = [c for c in CELLS if not cells[c].is_printed]
        fields["ruins"] = draw(st.frozensets(st.sampled_from(free), max_size=6)) if free else frozenset()
    return base.replace(cells, **fields)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_text_round_trip(sheet: Sheet) -> None:
    assert Sheet.parse(sheet.to_text()) == sheet
    assert Sheet.parse(str(sheet)).to_text() == sheet.to_text()


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_repr_pastes_back(sheet: Sheet) -> None:
    again = eval(repr(sheet), {"Sheet": Sheet})
    assert again == sheet and hash(again) == hash(sheet)
    assert Sheet.from_json(json.loads(json.dumps(sheet.to_json()))) == sheet


@settings(max_examples=60, deadline=None)
@given(sheets(), st.data())
def test_whitespace_comments_and_spaced_rows_parse_the_same(sheet: Sheet, data: st.DataObject) -> None:
    lines = sheet.to_text().splitlines()
    header = [line for line in lines if ":" in line]
    grid = [" ".join(row) if data.draw(st.booleans()) else row for row in sheet.rows]
    text = "# a comment\n\n" + "\n".join(header) + "\n\n" + "\n  ".join(grid) + "\n# end\n"
    assert Sheet.parse(text) == sheet


@settings(max_examples=60, deadline=None)
@given(sheets())
def test_pickle_and_filled_mask(sheet: Sheet) -> None:
    assert pickle.loads(pickle.dumps(sheet)) == sheet
    for (r, c), t in zip(CELLS, sheet.cells, strict=True):
        assert sheet[r, c] is t
        if t is Terrain.UNKNOWN:
            with pytest.raises(SheetError, match=cell_label((r, c))):
                sheet.is_filled(r, c)
        else:
            assert sheet.is_filled(r, c) == (t is not Terrain.EMPTY)


def test_defaults_and_canonical_text() -> None:
    blank = Sheet.blank()
    assert blank.side == "A" and blank.coins == 0 and blank.spent == 0 and blank.stars == frozenset()
    assert blank.ruins == printed_side("A").ruins
    text = blank.to_text()
    assert text.splitlines()[0] == "side: A" and len(text.splitlines()) == 12
    # A header-less text is side A with no coins.
    assert Sheet.parse("\n".join(blank.rows)) == blank


def test_contract_example_fields() -> None:
    rows = list(Sheet.blank("A").rows)
    rows[0] = "FFF........"
    text = "# Alice, game 3, after winter\nside: A\ncoins: 5\nstars: C4 c5\n" + "\n".join(rows)
    sheet = Sheet.parse(text)
    assert sheet.coins == 5 and sheet.stars == {(2, 3), (2, 4)}
    assert sheet[0, 0] is Terrain.FOREST and sheet.rows[0] == "FFF........"


def test_side_a_positions_match_gamedata_md() -> None:
    """GAMEDATA.md section 1 / printed side A: mountains B4 C9 F6 I3 J8, ruins B6 C2 C10 I2 I10 J6."""
    a = printed_side("A")
    assert a.mountains == {parse_label(x) for x in ["B4", "C9", "F6", "I3", "J8"]}
    assert a.ruins == {parse_label(x) for x in ["B6", "C2", "C10", "I2", "I10", "J6"]}
    assert len(printed_side("B").wasteland) == 7
    assert printed_side("c").is_low_confidence and printed_side("D").is_low_confidence
    assert not printed_side("B").is_low_confidence


@pytest.mark.parametrize(
    ("edit", "pattern"),
    [
        (lambda t: t.replace("side: A", "side: E"), r"^line 1: side 'E'"),
        (lambda t: t.replace("side: A", "side: A\ncolour: red"), r"^line 2: unknown header key 'colour'"),
        (lambda t: t.replace("side: A", "side: A\ncoins: 15"), r"^line 2: coins is 15, expected 0\.\.14"),
        (lambda t: t.replace("side: A", "side: A\ncoins: x"), r"^line 2: coins 'x' is not a whole number"),
        (lambda t: t.replace("side: A", "side: A\ncoins: 9\nspent: 6"), r"^line 2: coins 9 \+ spent 6 = 15"),
        (
            lambda t: t.replace("side: A", "side: A\nruins: B2"),
            r"^line 2: ruins can only be listed for side custom",
        ),
        (lambda t: t.replace("side: A", "side: A\nstars: B12"), r"^line 2: 'B12' is not a cell label"),
        (lambda t: t.replace("side: A", "side: A\nstars: B2 b2"), r"^line 2: cell B2 is listed twice"),
        (lambda t: t.replace("........^..", "........^.", 1), r"^line 4 \(row C\): 10 cells, expected 11"),
        (
            lambda t: t.replace("........^..", "...Z....^..", 1),
            r"^line 4 \(row C\): unknown symbol 'Z' at cell C4",
        ),
        (
            lambda t: t.replace("........^..", "...........", 1),
            r"^line 4 \(row C\): cell C9 is '\.' but side A prints a mountain there",
        ),
        (
            lambda t: t.replace("...........\n", "-..........\n", 1),
            r"^line 2 \(row A\): cell A1 is '-' but side A has no wasteland there",
        ),
        (lambda t: t.rsplit("\n", 2)[0], r"found 10 grid lines, expected 11"),
        (lambda t: t + "...........\n", r"found 12 grid lines, expected 11"),
        (lambda t: t + "coins: 3\n", r"^line 13: header line 'coins:' after the grid"),
    ],
)
def test_parse_errors_name_line_and_cell(edit, pattern: str) -> None:  # type: ignore[no-untyped-def]
    text = edit(Sheet.blank("A").to_text())
    with pytest.raises(SheetError, match=pattern):
        Sheet.parse(text)
    assert isinstance(SheetError("x"), ValueError)


def test_check_reports_every_problem_at_once() -> None:
    text = Sheet.blank("A").to_text().replace("side: A", "side: A\ncoins: 99\nfoo: 1")
    text = text.replace("........^..", "...Z.......", 1)
    problems = Sheet.check(text)
    assert [p.code for p in problems] == ["header", "header", "symbol"]
    assert all(p.fatal for p in problems)
    # A parsable text with '?' and a monster left on a hit space: warnings only.
    sheet = Sheet.blank("A").replace({(0, 0): "?", (0, 1): "M"}, stars="A2")
    warnings = Sheet.check(sheet.to_text())
    assert [p.code for p in warnings] == ["unknown", "monster_on_star"]
    assert not any(p.fatal for p in warnings)
    assert warnings == list(sheet.problems())


def test_side_contradictions_all_listed() -> None:
    text = Sheet.blank("B").to_text().replace("side: B", "side: A")
    problems = Sheet.check(text)
    assert {p.code for p in problems} == {"side"}
    # One problem per cell where the features differ: B's mountains and wasteland, A's mountains
    # (F6 is both an A mountain and B wasteland, so it is reported once).
    a, b = printed_side("A"), printed_side("B")
    assert len(problems) == len(a.mountains | b.mountains | b.wasteland) == 16


def test_custom_side_takes_ruins_from_header() -> None:
    sheet = Sheet.blank("custom").replace({(3, 3): "^"}, ruins="B2 K11")
    assert sheet.ruins == {(1, 1), (10, 10)}
    assert "ruins: B2 K11" in sheet.to_text()
    assert Sheet.parse(sheet.to_text()) == sheet
    # A ruins space under a mountain is odd but scores: a warning, not a refusal.
    odd = sheet.replace({(1, 1): "^"})
    assert [(p.code, p.fatal) for p in odd.problems()] == [("ruins", False)]
    assert "B2 is a ruins space but holds '^'" in str(odd.problems()[0])


def test_require_known_names_cells() -> None:
    sheet = Sheet.blank("A").replace({(0, 0): "?", (10, 10): "?"})
    assert sheet.unknown == ((0, 0), (10, 10))
    with pytest.raises(SheetError, match=r"2 unreadable spaces \('\?'\): A1 K11"):
        sheet.require_known()
    assert Sheet.blank("A").require_known() == Sheet.blank("A")


def test_filled_semantics_rulebook_p9() -> None:
    """Base rulebook p.9: 'Monster spaces, mountain spaces, and wasteland spaces all count as filled
    spaces. Only filled ruins spaces count as filled spaces.' Heroes: destroyed spaces are filled and
    have no terrain type; hit stars do not fill a space."""
    sheet = Sheet.blank("B").replace({(1, 6): "F", (0, 0): "M", (0, 1): "X"}, stars="A3")
    assert sheet.is_filled(1, 6) and (1, 6) in sheet.filled_ruins
    assert not sheet.is_filled(2, 2) and (2, 2) in sheet.unfilled_ruins  # C3 ruins, unfilled
    assert sheet.is_filled(1, 8) and sheet.is_filled(3, 5)  # mountain B9, wasteland D6
    assert sheet.is_filled(0, 0) and sheet.is_filled(0, 1)
    assert not sheet.is_filled(0, 2)  # a star alone does not fill
    assert not Terrain.WASTELAND.is_terrain_type and not Terrain.DESTROYED.is_terrain_type
    assert Terrain.MOUNTAIN.is_terrain_type and not Terrain.MOUNTAIN.is_drawable
    assert Terrain.HERO.is_drawable and Terrain.MONSTER.is_drawable
    assert not Terrain.UNKNOWN.is_filled and not Terrain.UNKNOWN.is_known


def test_monster_penalty_cells_counts_distinct_empty_neighbours() -> None:
    """Rulebook p.8: one lost star per empty space adjacent to monster spaces; destroyed monsters are X."""
    sheet = Sheet.blank("custom").replace({(0, 0): "M", (0, 2): "M", (1, 1): "F", (5, 5): "X"})
    assert sheet.monster_penalty_cells() == {(0, 1), (1, 0), (1, 2), (0, 3)}


def test_clusters_and_neighbours() -> None:
    sheet = Sheet.blank("custom").replace({(0, 0): "V", (0, 1): "V", (1, 1): "V", (3, 3): "V", (0, 3): "F"})
    assert sheet.clusters(Terrain.VILLAGE) == (frozenset({(0, 0), (0, 1), (1, 1)}), frozenset({(3, 3)}))
    assert sheet.clusters("VF") == (
        frozenset({(0, 0), (0, 1), (1, 1)}),
        frozenset({(0, 3)}),
        frozenset({(3, 3)}),
    )
    assert sheet.clusters(lambda t: t is Terrain.VILLAGE) == sheet.clusters("V")
    assert clusters_of(sheet.cells_of("V")) == sheet.clusters("V")
    assert sorted(neighbours(0, 0)) == [(0, 1), (1, 0)] and len(neighbours(5, 5)) == 4
    assert is_edge(0, 5) and is_edge(5, 10) and not is_edge(5, 5)
    assert len(sheet.clusters(".")) == 1


def test_labels() -> None:
    assert cell_label((1, 3)) == "B4" and cell_label((10, 10)) == "K11"
    assert parse_label("b4") == (1, 3) and parse_label("K11") == (10, 10)
    for bad in ("L1", "A0", "A12", "4B", ""):
        with pytest.raises(SheetError):
            parse_label(bad)
    assert all(parse_label(cell_label(c)) == c for c in CELLS)


def test_immutable_and_replace() -> None:
    sheet = Sheet.blank("A")
    with pytest.raises(AttributeError):
        sheet.coins = 3
    changed = sheet.replace({(0, 0): Terrain.FOREST}, coins=2)
    assert sheet[0, 0] is Terrain.EMPTY and changed[0, 0] is Terrain.FOREST and changed.coins == 2
    with pytest.raises(SheetError, match=r"B4 is '\.' but side A prints a mountain"):
        sheet.replace({(1, 3): "."})
    with pytest.raises(TypeError):
        sheet.replace(colour="red")
    with pytest.raises(IndexError):
        sheet[11, 0]
    assert {sheet, Sheet.blank("A")} == {sheet}


def test_json_errors_and_row_lengths() -> None:
    rows = list(Sheet.blank("A").rows)
    with pytest.raises(SheetError, match="lacks 'grid'"):
        Sheet.from_json({"side": "A"})
    with pytest.raises(SheetError, match="coins is 15"):
        Sheet.from_json({"grid": rows, "coins": 15})
    with pytest.raises(SheetError, match="row A has 10 cells"):
        Sheet([rows[0][:-1], rows[1] + ".", *rows[2:]])
    # A printed side turned custom keeps its ruins spaces.
    assert Sheet.blank("B").replace(side="custom").ruins == printed_side("B").ruins


def test_problem_str_without_line() -> None:
    assert str(Problem("coins", "coins is 15")) == "coins is 15"


def test_terrain_words() -> None:
    assert Terrain.from_word("forest") is Terrain.FOREST and Terrain.from_word("p") is Terrain.FARM
    assert Terrain.FARM.word == "farm"
    with pytest.raises(SheetError):
        Terrain.from_word("lava")
