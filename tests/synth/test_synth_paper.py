"""The page renderer: determinism, geometry where the scanner expects it, exact truth, every style."""

from __future__ import annotations

import numpy as np
import pytest

from models.synth.paper import Page, coin_states_for, derive_pieces, render_page
from models.synth.printed import blank_on_image, printed_blank
from models.synth.style import FAMILIES, FILL_MODES, ICONS, DrawStyle
from rules import Sheet, Terrain
from rules.grid import SIZE
from rules.sides import printed_side
from scanner.geometry import geometry

PPC = 20

GRID_A = """
FFF..WWW.VV
FF.^.WW..VV
..PPP...^..
MM..PP.....
M..........
.....^.HH..
XX...F.....
..VVV......
..^VV....W.
.....W.^.WW
.......PPPP
"""


def _sheet(side: str = "A", rows: str = GRID_A, **fields: object) -> Sheet:
    blank = Sheet.blank(side)
    cells = {}
    for r, row in enumerate(rows.split()):
        for c, ch in enumerate(row):
            if ch not in ".^-" and blank[r, c] not in (Terrain.MOUNTAIN, Terrain.WASTELAND):
                cells[(r, c)] = Terrain(ch)
    return blank.replace(cells, **fields)


def _gray(page: Page, img: np.ndarray | None = None) -> np.ndarray:
    im = page.image if img is None else img
    grey: np.ndarray = im.astype(np.float32).mean(axis=2)
    return grey


def _at(page: Page, x: float, y: float, img: np.ndarray | None = None, r: int = 1) -> float:
    px, py = page.cells_to_page((x, y)).round().astype(int)
    return float(_gray(page, img)[py - r : py + r + 1, px - r : px + r + 1].mean())


def test_same_seed_same_page_and_truth() -> None:
    s = _sheet(coins=3, spent=1)
    a = render_page(s, np.random.default_rng(7), ppc=PPC)
    b = render_page(s, np.random.default_rng(7), ppc=PPC)
    c = render_page(s, np.random.default_rng(8), ppc=PPC)
    assert np.array_equal(a.image, b.image)
    assert a.coin_states == b.coin_states
    assert np.array_equal(a.edges_h, b.edges_h) and np.array_equal(a.edges_v, b.edges_v)
    assert not np.array_equal(a.image, c.image)


def test_page_size_and_origin_follow_geometry() -> None:
    page = render_page(Sheet.blank("A"), np.random.default_rng(0), ppc=PPC)
    x0, y0, x1, y1 = geometry().page
    h, w = page.image.shape[:2]
    assert (w, h) == (round((x1 - x0) * PPC), round((y1 - y0) * PPC))
    assert page.grid_origin == pytest.approx((-x0 * PPC, -y0 * PPC))
    pts = np.array([[0.5, 2.0], [11.0, 11.0]])
    assert np.allclose(page.page_to_cells(page.cells_to_page(pts)), pts)
    homog = page.affine @ np.array([3.0, 4.0, 1.0])
    assert np.allclose(homog[:2], page.cells_to_page((3.0, 4.0)))


@pytest.mark.parametrize("side", ["A", "B"])
def test_printed_frame_and_mountains_sit_where_geometry_says(side: str) -> None:
    sheet = Sheet.blank(side)
    page = render_page(sheet, np.random.default_rng(1), ppc=PPC)
    paper = np.median(_gray(page))
    # the heavy frame: dark on the grid edge, in a non-hatched cell's band of every side
    for x, y in ((0.0, 1.5), (11.0, 1.5), (1.5, 0.0), (1.5, 11.0)):
        assert _at(page, x, y, r=0) < paper - 60, (x, y)
    # outside the outer frame line the paper is light again
    out = geometry().frame_outer + 0.12
    assert _at(page, -out, 1.5, r=0) > paper - 40
    mountains = [
        (r, c) for r in range(SIZE) for c in range(SIZE) if sheet[r, c] == Terrain.MOUNTAIN
    ]
    assert len(mountains) == 5
    for r, c in mountains:
        # a dark brown square; the coin sits low in the middle, so probe the upper corners
        assert _at(page, c + 0.15, r + 0.15) < paper - 80
        assert _at(page, c + 0.85, r + 0.12) < paper - 80
        # the neighbours' centres (empty) are paper
        for nr, nc in ((r - 1, c), (r + 1, c)):
            if 0 <= nr < SIZE and sheet[nr, nc] == Terrain.EMPTY and (nr, nc) not in sheet.ruins:
                assert _at(page, nc + 0.5, nr + 0.5) > paper - 45


def test_printfriendly_has_white_paper_and_thin_solid_grid() -> None:
    page = render_page(Sheet.blank("A"), np.random.default_rng(2), ppc=PPC, theme="printfriendly")
    assert np.median(_gray(page)) > 235
    # solid lines: dark everywhere along an internal grid line, including mid-cell
    assert _at(page, 5.0, 2.5, r=0) < 150
    assert _at(page, 4.5, 6.0, r=0) < 150


def test_coin_truth_matches_sheet_and_pixels() -> None:
    sheet = _sheet(coins=4, spent=2)
    page = render_page(sheet, np.random.default_rng(3), ppc=PPC, theme="printfriendly")
    st = page.coin_states
    assert len(st) == 14
    assert [s != 0 for s in st] == [True] * 6 + [False] * 8
    assert st.count(2) == 2
    # a marked coin is darker than it was printed, on it or round it (a loop, a box); an unmarked one
    # is untouched
    r = round(geometry().coin_radius * 1.4 * PPC)
    for i, (x, y) in enumerate(geometry().coin_centers()):
        drawn = _at(page, x, y, r=r) < _at(page, x, y, img=page.blank, r=r) - 1
        assert drawn == (st[i] != 0), i


def test_coin_states_fill_a_full_track() -> None:
    sheet = _sheet(coins=9, spent=5)
    st = coin_states_for(sheet, np.random.default_rng(0))
    assert st.count(0) == 0 and st.count(2) == 5


def test_derived_pieces_are_same_terrain_components() -> None:
    sheet = _sheet()
    pieces = derive_pieces(sheet)
    cells = [cell for p in pieces for cell in p]
    assert len(cells) == len(set(cells))
    drawn = {(r, c) for r in range(SIZE) for c in range(SIZE) if str(sheet[r, c].value) in "FVPWMH"}
    assert set(cells) == drawn
    forest_ul = next(p for p in pieces if (0, 0) in p)
    assert forest_ul == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)}


def _expected_edges(pieces: list[frozenset[tuple[int, int]]]) -> tuple[np.ndarray, np.ndarray]:
    owner = {cell: i for i, p in enumerate(pieces) for cell in p}
    eh = np.zeros((10, 11), bool)
    ev = np.zeros((11, 10), bool)
    for r in range(11):
        for c in range(11):
            a = owner.get((r, c))
            if r < 10:
                b = owner.get((r + 1, c))
                eh[r, c] = (a is not None or b is not None) and a != b
            if c < 10:
                b = owner.get((r, c + 1))
                ev[r, c] = (a is not None or b is not None) and a != b
    return eh, ev


def test_edges_follow_given_pieces_and_are_drawn() -> None:
    rows = """
    ...........
    .FFF.......
    .FVV.......
    ...V.......
    ...........
    ......WW...
    ......WW...
    ...........
    ...........
    ...........
    ...........
    """
    sheet = _sheet(rows=rows)
    pieces = [
        frozenset({(1, 1), (1, 2), (1, 3), (2, 1)}),
        frozenset({(2, 2), (2, 3), (3, 3)}),
        frozenset({(5, 6), (5, 7)}),
        frozenset({(6, 6), (6, 7)}),
    ]
    rng = np.random.default_rng(4)
    style = DrawStyle.random(rng, "train", family="color")
    style = type(style)(**{**style.__dict__, "outline_prob": 1.0, "smudges": 0})
    page = render_page(sheet, rng, ppc=PPC, style=style, pieces=pieces)
    eh, ev = _expected_edges(pieces)
    assert np.array_equal(page.edges_h, eh)
    assert np.array_equal(page.edges_v, ev)
    # the two water pieces touch along row 5/6: an outline is drawn between them
    assert page.edges_h[5, 6] and page.edges_h[5, 7]
    # pixels: an outlined edge is darker than the same edge printed only (far from the pieces)
    dark = _at(page, 6.5, 6.0, r=1)
    plain = _at(page, 6.5, 8.0, r=1)  # same column, so the same phase of the printed dashes
    assert dark < plain - 25


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("theme", ["color", "printfriendly"])
def test_every_family_and_terrain_renders_and_marks_its_cells(family: str, theme: str) -> None:
    sheet = _sheet(side="B", rows=GRID_A.replace("X", "."), coins=2, stars=frozenset({(0, 0), (8, 9)}))
    for seed in range(2):
        rng = np.random.default_rng(seed)
        style = DrawStyle.random(rng, "train" if seed == 0 else "eval", family=family)
        page = render_page(sheet, rng, ppc=PPC, theme=theme, style=style)
        diff = np.abs(page.image.astype(int) - page.blank.astype(int)).sum(axis=2)
        for r in range(SIZE):
            for c in range(SIZE):
                if str(sheet[r, c].value) in "FVPWMH":
                    y0, x0 = page.cells_to_page((c + 0.2, r + 0.2)).round().astype(int)[::-1]
                    y1, x1 = page.cells_to_page((c + 0.8, r + 0.8)).round().astype(int)[::-1]
                    assert diff[y0:y1, x0:x1].max() > 30, (family, theme, seed, r, c)


def test_destroyed_cells_carry_a_big_x() -> None:
    sheet = _sheet(rows="\n".join(["XX........."] + ["..........."] * 10))
    page = render_page(sheet, np.random.default_rng(5), ppc=PPC, theme="printfriendly")
    # both diagonals of each X are dark near the cell's corners
    for c in (0, 1):
        for x, y in ((0.2, 0.2), (0.8, 0.8), (0.8, 0.2), (0.2, 0.8)):
            assert _at(page, c + x, y, r=1) < _at(page, c + x, y, img=page.blank, r=1) - 30


@pytest.mark.parametrize("side", ["A", "B", "D"])
def test_printed_cells_are_never_drawn_on(side: str) -> None:
    sheet = Sheet.blank(side)
    fill = {
        (r, c): Terrain.FOREST
        for r in range(SIZE)
        for c in range(SIZE)
        if sheet[r, c] == Terrain.EMPTY
    }
    sheet = sheet.replace(fill)
    for seed in range(3):
        page = render_page(sheet, np.random.default_rng(seed), ppc=PPC)
        for r in range(SIZE):
            for c in range(SIZE):
                if sheet[r, c] in (Terrain.MOUNTAIN, Terrain.WASTELAND):
                    (x0, y0), (x1, y1) = page.cells_to_page([(c + 0.3, r + 0.3), (c + 0.7, r + 0.7)]).astype(
                        int
                    )
                    assert np.array_equal(page.image[y0:y1, x0:x1], page.blank[y0:y1, x0:x1]), (r, c)


def test_eval_styles_use_held_out_variants() -> None:
    rng = np.random.default_rng(6)
    train = [DrawStyle.random(rng, "train") for _ in range(60)]
    evals = [DrawStyle.random(rng, "eval") for _ in range(60)]

    def variants(styles: list[DrawStyle]) -> set[str]:
        return {v for s in styles for lk in s.looks.values() for v in (lk.fill, lk.icon) if v}

    assert variants(train) <= set(FILL_MODES["train"]) | {i for d in ICONS.values() for i in d["train"]}
    assert variants(evals) <= set(FILL_MODES["eval"]) | {i for d in ICONS.values() for i in d["eval"]}
    widths_t = [s.hand.width for s in train if s.hand.medium == "pencil"]
    widths_e = [s.hand.width for s in evals if s.hand.medium == "pencil"]
    assert widths_t and widths_e
    # pencil widths come from alternating bins: train [0.022, 0.03) U [0.035, 0.045) U ..., eval the gaps
    assert all(0.022 <= w < 0.03 or 0.035 <= w < 0.045 or 0.05 <= w < 0.06 for w in widths_t)
    assert all(0.03 <= w < 0.035 or 0.045 <= w < 0.05 for w in widths_e)


def test_bad_arguments_raise_value_errors() -> None:
    with pytest.raises(ValueError, match="theme"):
        render_page(Sheet.blank("A"), np.random.default_rng(0), ppc=PPC, theme="neon")
    with pytest.raises(ValueError, match="split"):
        DrawStyle.random(np.random.default_rng(0), "test")
    with pytest.raises(ValueError, match="family"):
        DrawStyle.random(np.random.default_rng(0), "train", family="crayon")


def test_rift_covers_exactly_the_wasteland_cells() -> None:
    sheet = Sheet.blank("B")
    page = render_page(sheet, np.random.default_rng(9), ppc=PPC)
    paper = np.median(_gray(page))
    for r in range(SIZE):
        for c in range(SIZE):
            # skip the printed icons that sit in the middle of a cell
            if (r, c) in sheet.ruins or sheet[r, c] == Terrain.MOUNTAIN:
                continue
            dark = _at(page, c + 0.5, r + 0.5, img=page.blank, r=2) < paper - 25
            assert dark == (sheet[r, c] == Terrain.WASTELAND), (r, c)


def test_coin_circles_are_printed_at_the_geometry_centres() -> None:
    page = render_page(Sheet.blank("A"), np.random.default_rng(10), ppc=PPC)
    for x, y in page.coin_centers.round().astype(int):
        b, g, r = page.blank[y, x].astype(int)
        assert r > 170 and b < 120 and r > g > b, (x, y)  # gold
    assert np.allclose(page.corners[0], page.grid_origin)
    assert np.allclose(page.corners[2], np.asarray(page.grid_origin) + 11 * PPC)


def test_a_game_draws_on_a_given_printed_sheet_where_its_grid_is() -> None:
    # a printed sheet from elsewhere: here the renderer's own blank, shifted by a margin and rescaled
    sheet = _sheet(coins=2)
    own = render_page(Sheet.blank("A"), np.random.default_rng(1), ppc=PPC)
    image = np.pad(own.blank, ((30, 10), (14, 6), (0, 0)), constant_values=200)
    corners = own.corners + np.array([14.0, 30.0])
    printed = frozenset(
        (r, c) for r in range(SIZE) for c in range(SIZE)
        if sheet[r, c] in (Terrain.MOUNTAIN, Terrain.WASTELAND)
    )
    page = render_page(sheet, np.random.default_rng(2), blank=blank_on_image(image, corners, printed))
    assert page.image.shape == image.shape and page.ppc == pytest.approx(PPC)
    assert np.allclose(page.corners, corners)
    # the drawing lands in the grid's cells: a drawn forest darkens its cell, an empty one stays printed
    assert _at(page, 0.5, 0.5, r=3) < _at(page, 0.5, 0.5, image, r=3) - 10
    assert _at(page, 4.5, 0.5, r=3) == pytest.approx(_at(page, 4.5, 0.5, image, r=3), abs=3)
    for r, c in printed:
        (x0, y0), (x1, y1) = page.cells_to_page([(c + 0.3, r + 0.3), (c + 0.7, r + 0.7)]).astype(int)
        assert np.array_equal(page.image[y0:y1, x0:x1], image[y0:y1, x0:x1]), (r, c)


def test_a_skewed_grid_is_refused_as_a_printed_sheet() -> None:
    corners = np.array([[10.0, 10.0], [230.0, 10.0], [250.0, 230.0], [10.0, 230.0]])
    with pytest.raises(ValueError, match="upright square"):
        blank_on_image(np.zeros((260, 260, 3), np.uint8), corners, frozenset())


def test_the_printed_blank_is_made_once_and_shared() -> None:
    side = printed_side("A")
    first = printed_blank("A", "color", PPC, 0, side.mountains, side.wasteland, side.ruins)
    assert printed_blank("A", "color", PPC, 0, side.mountains, side.wasteland, side.ruins) is first
    assert not first.image.flags.writeable


def test_a_long_rendering_run_keeps_only_a_few_paper_textures() -> None:
    """Every page size is new (the cell pitch is drawn from a continuum), so a cache of every texture
    grew by a page-sized map a sheet until a training run's renderer ran out of memory."""
    from models.synth import strokes

    strokes.grain_texture.cache_clear()
    sheet = Sheet.blank("A")
    for k in range(strokes.GRAIN_CACHE + 4):
        render_page(sheet, np.random.default_rng(k), ppc=20.0 + k)
    info = strokes.grain_texture.cache_info()
    assert info.misses == strokes.GRAIN_CACHE + 4 and info.currsize == strokes.GRAIN_CACHE


def _cell_box(lay: object, r: int, c: int) -> tuple[slice, slice]:
    ppc, ox, oy = lay.ppc, lay.ox, lay.oy  # type: ignore[attr-defined]
    y0, x0 = int(oy + r * ppc), int(ox + c * ppc)
    return slice(y0 + 2, int(y0 + ppc) - 2), slice(x0 + 2, int(x0 + ppc) - 2)


@pytest.mark.parametrize("theme", ["color", "printfriendly"])
def test_ruins_icon_is_printed_in_each_look_only_on_the_ruins(theme: str) -> None:
    """The looks change the ruins icon and nothing else of the print; a worn icon keeps most of its
    ink (it is still the printed ruins, not a blank cell)."""
    from models.synth.ink import Layout
    from models.synth.printed import RUINS_LOOKS, _print_master

    side = printed_side("A")
    lay = Layout.make(24.0)
    prints = [_print_master("A", theme, look, side.mountains, side.wasteland, side.ruins, 24.0)
              for look in range(RUINS_LOOKS)]
    masters = [ink.astype(np.float32) for ink, _, _ in prints]
    ruins = np.zeros(masters[0].shape[:2], bool)
    for r, c in side.ruins:
        ys, xs = _cell_box(lay, r, c)
        ruins[ys.start - 3 : ys.stop + 3, xs.start - 3 : xs.stop + 3] = True
    ink = [float((255 - m[ruins]).sum()) for m in masters]
    for look in range(1, RUINS_LOOKS):
        assert np.array_equal(masters[look][~ruins], masters[0][~ruins])
        assert not np.array_equal(masters[look][ruins], masters[0][ruins])
        assert 0.2 * ink[0] < ink[look]


def test_printed_blank_cycles_the_ruins_looks_with_the_variant_when_marked() -> None:
    from models.synth.printed import PAPER_VARIANTS, RUINS_LOOKS

    side = printed_side("B")
    r, c = sorted(side.ruins)[0]
    looks = []
    for variant in range(RUINS_LOOKS):
        # variants a multiple of 4 * PAPER_VARIANTS apart share paper and flip: the look differs
        v = variant * 4 * PAPER_VARIANTS
        b = printed_blank("B", "printfriendly", PPC, v, side.mountains, side.wasteland, side.ruins, True)
        looks.append(b.image[_cell_box(b.layout, r, c)].astype(np.float32))
    pairs = [(i, j) for i in range(RUINS_LOOKS) for j in range(i)]
    assert all(not np.allclose(looks[i], looks[j], atol=8) for i, j in pairs)


def test_marked_parchment_carries_fine_marks_like_the_real_print() -> None:
    """The publisher's parchment shows veins and grain in every empty cell (grey-level standard
    deviation above a 1.5 px blur 1.9-2.6 on the reference prints rectified to 64 px a cell, against
    1.3-1.4 for the unmarked renderer's paper measured the same way, 1.6-2.2 marked): with ``marks``
    the renderer's empty cells carry clearly more fine detail than without."""
    import cv2

    side = printed_side("A")
    for variant in range(3):
        spreads = []
        for marks in (True, False):
            b = printed_blank("A", "color", 64.0, variant, side.mountains, side.wasteland, side.ruins, marks)
            grey = cv2.cvtColor(b.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
            fine = grey - cv2.GaussianBlur(grey, (0, 0), 1.5)
            empty = [(r, c) for r in range(SIZE) for c in range(SIZE)
                     if (r, c) not in side.mountains | side.wasteland | side.ruins]
            spreads.append(np.mean([fine[_cell_box(b.layout, r, c)][8:-8, 8:-8].std() for r, c in empty]))
        assert 1.15 * spreads[1] < spreads[0] < 5.0
