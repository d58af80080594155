"""The grid decides, not the sheet's edge: cropped photos, a grid cut by the photo, two sheets (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from scanner_fixtures import draw_page, photograph, sheet_photo

from rules.grid import SIZE as GRID_SIZE
from scanner import Failure, Location, locate_sheet
from scanner.gridlines import REFINE_MARGIN, frame_evidence, warp_from
from scanner.locate import COIN_TRACK_CUT, cut_parts, inside, locate_sheets, lying_apart
from scanner.rectify import grid_homography

N = GRID_SIZE


def _pitch(corners: np.ndarray) -> float:
    return float(np.linalg.norm(corners[1] - corners[0])) / N


def _cell_error(found: np.ndarray, truth: np.ndarray) -> float:
    return float(np.linalg.norm(found - truth, axis=1).max()) / _pitch(truth)


def _big_sheet() -> tuple[np.ndarray, np.ndarray]:
    # the page fills the photo, so that cutting a margin leaves the grid large
    return sheet_photo("B", fill=0.95, size=(1000, 1300))


def _crop(photo: np.ndarray, truth: np.ndarray, side: str, clearance: float) -> tuple[np.ndarray, np.ndarray]:
    """Cut the upright photo `clearance` cells beyond the grid on `side` (negative: into it)."""
    p = _pitch(truth)
    x0, y0 = truth.min(axis=0)
    x1, y1 = truth.max(axis=0)
    if side == "left":
        start = round(x0 - clearance * p)
        return photo[:, start:].copy(), truth - [start, 0]
    if side == "top":
        start = round(y0 - clearance * p)
        return photo[start:].copy(), truth - [0, start]
    if side == "right":
        return photo[:, : round(x1 + clearance * p)].copy(), truth
    return photo[: round(y1 + clearance * p)].copy(), truth


@pytest.mark.parametrize(
    ("sides", "clearance"), [(("left",), 0.3), (("right",), 0.5), (("left", "top"), 0.25)]
)
def test_a_cut_margin_is_read_when_the_grid_is_whole(sides: tuple[str, ...], clearance: float) -> None:
    photo, truth = _big_sheet()
    for side in sides:
        photo, truth = _crop(photo, truth, side, clearance)
    loc = locate_sheet(photo)
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05 and loc.side == "B"
    assert "page edge" in loc.cut and "coin track" not in loc.cut
    assert loc.doubts() == ()


def test_a_cut_coin_track_is_reported_as_a_doubt() -> None:
    photo, truth = _big_sheet()
    photo, truth = _crop(photo, truth, "bottom", 0.6)  # the coins sit 1.2-1.6 cells below row K
    loc = locate_sheet(photo)
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05
    assert "coin track" in loc.cut
    assert COIN_TRACK_CUT in loc.doubts()


@pytest.mark.parametrize(
    ("side", "clearance"), [("left", -0.3), ("top", -0.5), ("right", -0.2), ("bottom", -0.7)]
)
def test_a_grid_cut_by_the_photo_is_refused(side: str, clearance: float) -> None:
    photo, truth = _big_sheet()
    photo, _ = _crop(photo, truth, side, clearance)
    got = locate_sheet(photo)
    assert isinstance(got, Failure), got
    assert got.reason == "cut_off"


def test_two_sheets_are_reported_and_each_found() -> None:
    left, truth_a = sheet_photo("A", size=(800, 900))
    right, truth_b = sheet_photo("B", size=(800, 900), turn=2)
    photo = np.hstack([left, right])
    truth_b = truth_b + np.array([800.0, 0.0])
    got = locate_sheet(photo)
    assert isinstance(got, Failure) and got.reason == "several_sheets", got
    assert len(got.sheets) == 2 and "2 map sheets" in got.message
    each = locate_sheets(photo)
    assert isinstance(each, tuple) and len(each) == 2
    by_side = {loc.side: loc for loc in each}
    assert set(by_side) == {"A", "B"}
    assert _cell_error(by_side["A"].corners, truth_a) < 0.05
    assert _cell_error(by_side["B"].corners, truth_b) < 0.05


def test_frame_evidence_tells_a_whole_grid_from_one_a_cell_off() -> None:
    page, corners = draw_page("A", ppc=32)
    sources = [(page, 1.0)]
    h = grid_homography(corners)
    whole = frame_evidence(warp_from(sources, h, 32, REFINE_MARGIN), 32)
    assert whole.shape == (2, 4) and whole.min() >= 0.9
    down = h @ np.array([[1.0, 0, 0], [0, 1.0, 1.0], [0, 0, 1.0]])  # the grid a row lower
    off = frame_evidence(warp_from(sources, down, 32, REFINE_MARGIN), 32)
    assert off[1, 2] < 0.5  # the bottom row, now below the grid, is crossed by no grid line
    assert off[1, 0] >= 0.75 and off[1, 1] >= 0.75


def test_cut_parts_names_what_lies_past_the_photo() -> None:
    h = np.diag([50.0, 50.0, 1.0]) @ np.array([[1.0, 0, 2.0], [0, 1.0, 5.0], [0, 0, 1.0]])  # 50 px a cell
    tall = ((50 * 22), (50 * 16))  # page from -3.9 to 15.3 cells, grid 5 cells down
    assert cut_parts(h, tall) == ()
    short = (round(50 * (5 + 12.3)), tall[1])  # the photo ends 1.3 cells below row K
    assert cut_parts(h, short) == ("coin track", "season boxes", "page edge")
    assert cut_parts(h, (round(50 * (5 + 13.0)), tall[1])) == ("season boxes", "page edge")


def test_inside_keeps_its_clearance() -> None:
    pts = np.array([[5.0, 5.0], [94.0, 44.0]])
    assert inside(pts, (50, 100), 5.0)
    assert not inside(pts, (50, 100), 5.5)
    assert not inside(pts - [6.0, 0.0], (50, 100), 0.0)


def test_a_photo_of_a_cut_coin_track_reads_no_coins() -> None:
    from scanner.pipeline import read_image

    photo, truth = _big_sheet()
    photo, _ = _crop(photo, truth, "bottom", 0.6)
    reading = read_image(np.ascontiguousarray(photo))
    assert not isinstance(reading, Failure), reading
    assert reading.coins == 0 and reading.spent == 0
    assert COIN_TRACK_CUT in reading.doubts


def test_two_sheets_of_the_same_photo_scaled_apart_are_not_one() -> None:
    # the same sheet twice at different sizes: two grids, neither may be read silently
    page, corners = draw_page("A", ppc=24)
    a, _ = photograph(page, corners, size=(700, 900))
    b, _ = photograph(page, corners, size=(700, 900), fill=0.6)
    got = locate_sheet(cv2.hconcat([a, b]))
    assert isinstance(got, Failure) and got.reason == "several_sheets", got


def test_lying_apart_keeps_only_outlines_away_from_the_grids_found() -> None:
    grid = np.array([[100.0, 100.0], [300.0, 100.0], [300.0, 300.0], [100.0, 300.0]])
    page = np.array([[60.0, 40.0], [340.0, 40.0], [340.0, 420.0], [60.0, 420.0]])  # the grid's own page
    inner = grid * 0.25 + 150.0  # a drawn pattern inside the grid
    other = grid + np.array([400.0, 20.0])  # another sheet's page to the right
    near_copy = other + 0.4
    kept = lying_apart([page, inner, other, near_copy], [grid])
    assert len(kept) == 1 and np.allclose(kept[0], other)
    assert len(lying_apart([page, inner], [])) == 2


def test_settle_shift_moves_a_grid_found_rows_off_back_onto_its_print() -> None:
    # a grid found two rows low (a grid cut by the photo's edge, found inwards): the printed
    # mountains are two rows up from where the lines put them, and only the true place explains them
    from scanner.constants import CANON_MARGIN, ORIENT_PPC, SHIFT_REACH
    from scanner.gridlines import warp_from
    from scanner.locate import settle_shift
    from scanner.orient import landmark_scores
    from scanner.rectify import apply_h

    page, truth = draw_page("B", ppc=32, coins=False)
    cells = np.array([[0.0, 0.0], [N, 0], [N, N], [0, N]])
    off = grid_homography(apply_h(grid_homography(truth), cells + np.array([0.0, 2.0])))
    sources = [(page, 1.0)]
    marks = landmark_scores(warp_from(sources, off, ORIENT_PPC, CANON_MARGIN))
    wide = warp_from(sources, off, ORIENT_PPC, CANON_MARGIN + SHIFT_REACH)
    assert settle_shift(wide, marks) == (0, -2, "print")
    right = landmark_scores(warp_from(sources, grid_homography(truth), ORIENT_PPC, CANON_MARGIN))
    wide_right = warp_from(sources, grid_homography(truth), ORIENT_PPC, CANON_MARGIN + SHIFT_REACH)
    assert settle_shift(wide_right, right) == (0, 0, "")


def _table(*photos: np.ndarray, size: tuple[int, int] = (4000, 3000)) -> np.ndarray:
    # photos side by side in one frame, each scaled to fit its share (an organiser's table photo)
    return _placed(photos, size)[0]


def _placed(
    photos: tuple[np.ndarray, ...] | list[np.ndarray], size: tuple[int, int] = (4000, 3000)
) -> tuple[np.ndarray, list[tuple[float, np.ndarray]]]:
    # _table's frame, and each photo's scale and offset in it (photo px -> frame px: p * s + offset)
    w, h = size
    share = w // len(photos)
    out, where = [], []
    for k, img in enumerate(photos):
        s = min(share / img.shape[1], h / img.shape[0])
        fit = (round(img.shape[1] * s), round(img.shape[0] * s))
        small = cv2.resize(img, fit, interpolation=cv2.INTER_AREA)
        part = np.full((h, share, 3), 90, np.uint8)
        y, x = (h - small.shape[0]) // 2, (share - small.shape[1]) // 2
        part[y : y + small.shape[0], x : x + small.shape[1]] = small
        out.append(part)
        where.append((s, np.array([x + k * share, y], np.float64)))
    return np.hstack(out), where


TABLE_PHOTOS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "scanner" / "table_photos.json").read_text()
)


@pytest.mark.parametrize("case", TABLE_PHOTOS["cases"], ids=lambda c: f"{c['left']}+{c['right']}")
def test_each_sheet_of_a_table_photo_is_found_and_the_two_reported(case: dict[str, int | str]) -> None:
    from models.synth.generate import make_sample

    samples = [make_sample(int(case[k]), tier="phone", split="params") for k in ("left", "right")]
    photo, where = _placed([s.image for s in samples])
    truths = [
        s.crossings[[0, 0, N, N], [0, N, N, 0]] * scale + offset
        for s, (scale, offset) in zip(samples, where, strict=True)
    ]
    table = np.full((photo.shape[0], photo.shape[1] // 2, 3), 90, np.uint8)
    half = photo.shape[1] // 2
    for k, truth in enumerate(truths):  # each sheet alone in its half of the frame
        alone = np.hstack([photo[:, :half], table] if k == 0 else [table, photo[:, half:]])
        loc = locate_sheet(alone)
        assert isinstance(loc, Location), (k, loc)
        assert _any_turn_error(loc.corners, truth) < 0.15
    got = locate_sheet(photo)
    assert isinstance(got, Failure) and got.reason == "several_sheets", got
    each = locate_sheets(photo)
    assert isinstance(each, tuple) and len(each) == 2, each
    for loc, truth in zip(each, truths, strict=True):  # left one first
        assert _any_turn_error(loc.corners, truth) < 0.15


def _any_turn_error(found: np.ndarray, truth: np.ndarray) -> float:
    # worst corner error in cells, whichever corner the locator took for A1 (placement, not turn)
    return min(_cell_error(np.roll(found, k, axis=0), truth) for k in range(4))


def test_brighter_quads_keep_a_page_apart_from_a_pale_card_against_it() -> None:
    # seen in eval_crops (A_printfriendly#8+#9): beside a second, larger page the whole photo's
    # threshold let a pale card lying against the first page join it, and the page's outline ran
    # round the card; thresholded on its own surroundings the page comes out alone
    from scanner.quads import brighter_quads, outline_quads, paper_blobs

    rng = np.random.default_rng(3)
    grey = rng.integers(20, 110, (720, 960)).astype(np.uint8)  # a busy table
    page = np.array([[160, 200], [360, 200], [360, 480], [160, 480]], np.int32)
    card = np.array([[40, 120], [220, 120], [220, 330], [40, 330]], np.int32)  # under the page's corner
    cv2.fillConvexPoly(grey, card, 165)
    cv2.fillConvexPoly(grey, page, 250)
    cv2.fillConvexPoly(grey, np.array([[500, 40], [930, 40], [930, 690], [500, 690]], np.int32), 250)
    joined = outline_quads(paper_blobs(grey))  # at the whole photo's threshold the card joins the page
    assert min(float(np.abs(q - page).max()) for q in joined) > 30.0
    quads = brighter_quads(grey, paper_blobs(grey))
    assert min(float(np.abs(q - page).max()) for q in quads) < 6.0, quads


def test_read_sheets_reads_each_sheet_left_to_right() -> None:
    from scanner.pipeline import read_image, read_sheets

    left, _ = sheet_photo("B", size=(800, 900), turn=2)
    right, _ = sheet_photo("A", size=(800, 900))
    photo = np.hstack([left, right])
    got = read_sheets(photo)
    assert isinstance(got, tuple) and [r.side for r in got] == ["B", "A"]
    assert got[0].corners[:, 0].max() < 800 < got[1].corners[:, 0].min()
    alone = read_sheets(right)
    assert isinstance(alone, tuple) and len(alone) == 1
    one = read_image(right)
    assert not isinstance(one, Failure) and alone[0].sheet == one.sheet
    assert isinstance(read_sheets(np.zeros((4, 4), np.float32)), Failure)


def test_grids_in_page_follow_the_printed_layout_through_the_page_perspective() -> None:
    from scanner.quads import grids_in_page

    page, corners = draw_page("A", ppc=20)
    h, w = page.shape[:2]
    outline = np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]])
    skew = np.array([[40, 10], [w - 30, 60], [w - 10, h - 20], [20, h - 90]], np.float32)
    tilt = cv2.getPerspectiveTransform(outline.astype(np.float32), skew)
    tilted_page = cv2.perspectiveTransform(outline.reshape(-1, 1, 2), tilt).reshape(4, 2)
    truth = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), tilt).reshape(4, 2)
    found = grids_in_page(tilted_page)
    assert len(found) == 4
    # the upright turn puts the grid where it is printed (to the page's own rounding, < 1 px)
    assert np.abs(found[0] - truth).max() < 1.0
    # the other turns put it elsewhere: quarter turns far off, the half turn 0.4 cell off (the grid
    # sits 3.9 cells below the page's top edge and 4.3 above its bottom edge)
    assert min(np.abs(found[k] - truth).max() for k in (1, 3)) > 20
    assert np.abs(found[2] - truth).max() > 0.3 * 20


def test_page_like_takes_a_tilted_page_and_not_the_coin_box() -> None:
    from scanner.quads import page_like

    page = np.array([[0.0, 0.0], [136.0, 0.0], [136.0, 192.0], [0.0, 192.0]])
    assert page_like(page) and page_like(page[:, ::-1])  # portrait or landscape
    tilted = np.array([[10.0, 0.0], [120.0, 20.0], [140.0, 180.0], [0.0, 200.0]])
    assert page_like(tilted)
    assert not page_like(np.array([[0.0, 0.0], [110.0, 0.0], [110.0, 14.0], [0.0, 14.0]]))  # coin box
    assert not page_like(np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]]))  # a square


def test_a_sheet_alone_is_not_called_two_through_its_coin_box() -> None:
    # seen in eval_crops: the coin track's box, lying apart from the grid's outline, was taken for a
    # page and a comb found in the grid its layout placed there; a long thin box is no page
    from models.synth.generate import make_sample

    s = make_sample(17, tier="phone", split="params")
    each = locate_sheets(s.image)
    assert isinstance(each, tuple) and len(each) == 1, each
    truth = s.crossings[[0, 0, N, N], [0, N, N, 0]]
    assert _cell_error(each[0].corners, truth) < 0.15


def test_a_card_with_printed_lines_is_no_second_sheet() -> None:
    # seen in bench_scanner (phone#39): a card on the table, page-shaped with lines printed on it,
    # held a grid the page layout put in it, smaller than any candidate, and it passed for a sheet
    from models.synth.generate import make_sample

    s = make_sample(39, tier="phone", split="eval")
    each = locate_sheets(s.image)
    assert isinstance(each, tuple) and len(each) == 1, each
    assert _cell_error(each[0].corners, s.corners) < 0.15
