"""The grid decides, not the sheet's edge: cropped photos, a grid cut by the photo, two sheets (issue 13)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scanner_fixtures import draw_page, photograph, sheet_photo

from rules.grid import SIZE as GRID_SIZE
from scanner import Failure, Location, locate_sheet
from scanner.gridlines import REFINE_MARGIN, frame_evidence, warp_from
from scanner.locate import COIN_TRACK_CUT, cut_parts, inside, locate_sheets
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
