"""locate_sheet / locate_from_corners on drawn fixture photos: corners, side, orientation."""

from __future__ import annotations

import numpy as np
import pytest
from scanner_fixtures import sheet_photo

from scanner import Failure, Location, locate_from_corners, locate_sheet
from scanner.debug import png_writer


def _cell_error(found: np.ndarray, truth: np.ndarray) -> float:
    pitch = float(np.linalg.norm(truth[1] - truth[0])) / 11
    return float(np.linalg.norm(found - truth, axis=1).max()) / pitch


@pytest.mark.parametrize(
    ("side", "turn", "tilt"),
    [("A", 0, 0.0), ("A", 1, 0.15), ("A", 2, 0.0), ("A", 3, 0.15), ("B", 0, 0.15), ("B", 2, 0.0)],
)
def test_finds_grid_side_and_orientation(side: str, turn: int, tilt: float) -> None:
    photo, truth = sheet_photo(side, turn=turn, tilt=tilt)
    loc = locate_sheet(photo)
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05
    assert loc.side == side
    assert loc.orientation == 90 * turn
    assert loc.crossings is not None and loc.crossings.shape == (12, 12, 2)
    assert np.allclose(loc.crossings[[0, 0, 11, 11], [0, 11, 11, 0]], loc.corners)


def test_any_angle_in_the_plane() -> None:
    import cv2

    photo, truth = sheet_photo("A", fill=0.6)
    h, w = photo.shape[:2]
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), 37.0, 1.0)
    turned = cv2.warpAffine(photo, rot, (w, h), borderValue=(60, 80, 100))
    truth = truth @ rot[:, :2].T + rot[:, 2]
    loc = locate_sheet(turned)
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05 and loc.side == "A"


def test_hand_given_corners_are_refined() -> None:
    photo, truth = sheet_photo("A", tilt=0.1)
    rough = truth + np.array([[6, -5], [-4, 7], [5, 5], [-6, -4]])
    loc = locate_from_corners(photo, rough)
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05
    assert loc.orientation == 0 and loc.side == "A"


def test_hand_given_corners_in_the_wrong_order_follow_the_print() -> None:
    photo, truth = sheet_photo("B")
    loc = locate_from_corners(photo, np.roll(truth, 1, axis=0))  # the user started at K1
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.05 and loc.side == "B"


def test_debug_sink_receives_stage_images(tmp_path) -> None:  # type: ignore[no-untyped-def]
    photo, _ = sheet_photo("A")
    names: list[str] = []
    loc = locate_sheet(photo, debug=lambda name, img: names.append(name))
    assert loc and {"locate_candidates", "locate_canonical"} <= set(names)
    locate_sheet(photo, debug=png_writer(tmp_path))
    assert any(p.name.endswith("_locate_canonical.png") for p in tmp_path.iterdir())


def test_location_repr_is_one_readable_line() -> None:
    photo, _ = sheet_photo("A")
    loc = locate_sheet(photo)
    assert not isinstance(loc, Failure)
    text = repr(loc)
    assert text.startswith("Location(corners=[") and "side='A'" in text and "\n" not in text


@pytest.mark.parametrize(("dx", "dy"), [(2, 0), (0, -2), (-1, 1)])
def test_coin_track_settles_a_grid_found_cells_off(dx: int, dy: int) -> None:
    # without mountain squares the landmarks are weak, and the coin track alone must pull back a
    # grid the comb put one or two cells off (seen on the printer-friendly sheet)
    from scanner_fixtures import draw_page

    from scanner.constants import CANON_MARGIN, ORIENT_PPC
    from scanner.gridlines import warp_from
    from scanner.locate import _settle_shift
    from scanner.orient import landmark_scores
    from scanner.rectify import apply_h, grid_homography

    page, truth = draw_page("A", ppc=32, mountains=False)
    true_h = grid_homography(truth)
    cells = np.array([[0.0, 0.0], [11, 0], [11, 11], [0, 11]])
    off = grid_homography(apply_h(true_h, cells + np.array([dx, dy])))
    sources = [(page, 1.0)]
    marks = landmark_scores(warp_from(sources, off, ORIENT_PPC, CANON_MARGIN))
    settled, _ = _settle_shift(sources, off, marks)
    assert _cell_error(apply_h(off, cells), truth) > 0.9  # the test starts from a wrong grid
    corners = apply_h(settled, cells)
    assert _cell_error(corners, truth) < 0.05


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_line_fits_agree_with_one_line_at_a_time(seed: int) -> None:
    from scanner.gridlines import _robust_polyfit, _robust_polyfits

    rng = np.random.default_rng(seed)
    t = np.arange(11) + 0.5
    d = rng.normal(0, 0.01, (40, 11)) + rng.normal(0, 0.02, (40, 1)) + 0.002 * t**2
    outliers = np.asarray(rng.random(d.shape) < 0.15)
    d[outliers] += rng.normal(0, 0.3, int(np.count_nonzero(outliers)))
    ok = rng.random(d.shape) > rng.uniform(0.0, 0.7, (40, 1))  # some lines with too few points
    d[~ok] = np.nan
    coefs, valid = _robust_polyfits(t, d, 2, ok)
    assert 0 < valid.sum() < len(valid)
    for k in range(len(d)):
        one = _robust_polyfit(t, d[k], 2, ok[k])
        assert (one is not None) == valid[k]
        if one is not None:
            assert np.allclose(one, coefs[k], atol=1e-9)


@pytest.mark.parametrize("shape", [(1, 1), (2, 1), (7, 9), (10, 10), (300, 401)])
def test_histogram_median_is_numpys(shape: tuple[int, int]) -> None:
    from scanner.quads import _median_u8

    values = np.random.default_rng(sum(shape)).integers(0, 60, shape).astype(np.uint8)
    assert _median_u8(values) == float(np.median(values))


def test_close_calls_are_reported_as_doubts() -> None:
    photo, _ = sheet_photo("B")
    loc = locate_sheet(photo)
    assert isinstance(loc, Location) and loc.doubts() == ()
    from dataclasses import replace

    shaky = replace(loc, orientation_confidence=0.1, side_confidence=0.2)
    doubts = shaky.doubts()
    assert len(doubts) == 2 and "A1" in doubts[0] and "side B" in doubts[1]


@pytest.mark.parametrize("n", [1, 2, 5, 224])
def test_profile_sampling_is_numpys_interp(n: int) -> None:
    from scanner.comb import sample_profile

    rng = np.random.default_rng(n)
    profile = rng.normal(0.0, 3.0, n)
    x = rng.uniform(-3.0, n + 2.0, (7, 5, 12))
    x.flat[:4] = [0.0, n - 1.0, n / 2.0, -1e-9]  # the ends, a whole position, just outside
    expected = np.interp(x, np.arange(n, dtype=np.float64), profile, left=np.nan, right=np.nan)
    np.testing.assert_array_equal(sample_profile(profile, x), expected)


@pytest.mark.parametrize(
    "shape", [(2000, 1500), (3024, 4032), (1921, 1000), (1000, 3839), (4000, 3000), (900, 700)]
)
def test_downscale_keeps_the_side_and_averages(shape: tuple[int, int]) -> None:
    from scanner.quads import downscale

    h, w = shape
    image = np.zeros((h, w, 3), np.uint8)
    image[::2] = 200  # stripes a pixel wide: an average makes them grey, a decimation would not
    small, scale = downscale(image, 960)
    assert max(small.shape[:2]) == min(960, max(shape))
    assert abs(small.shape[1] - w * scale) < 1.0 and abs(small.shape[0] - h * scale) < 1.0
    if 960 < max(shape) <= 4 * 960:  # (further down a nearest-neighbour decimation comes first)
        inner = small[3:-3, 3:-3].astype(np.float64)
        assert abs(float(inner.mean()) - 100.0) < 3.0 and float(inner.std()) < 40.0


@pytest.mark.parametrize(
    ("shape", "ppc"), [((195, 195), 16.0), ((30, 7), 24.0), ((1, 5), 3.0), ((64, 40), 160.0)]
)
def test_line_response_is_the_rolled_formula(shape: tuple[int, int], ppc: float) -> None:
    # darker than both neighbours LINE_HALF_WIDTH cells away, wrapping round the ends as np.roll does
    from scanner.comb import line_response
    from scanner.constants import LINE_HALF_WIDTH

    dark = np.random.default_rng(shape[0]).normal(0.0, 40.0, shape).astype(np.float32)
    w = max(1, round(LINE_HALF_WIDTH * ppc))
    for axis, got in zip((1, 0), line_response(dark, ppc), strict=True):
        a, b = np.roll(dark, w, axis=axis), np.roll(dark, -w, axis=axis)
        np.testing.assert_array_equal(got, np.maximum(np.minimum(dark - a, dark - b), 0.0))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_dark_lines_is_the_threshold_formula(seed: int) -> None:
    # darker than the neighbourhood's mean by a share of it, and by a few noise sigmas at least
    import cv2

    from scanner.constants import LOCATE_DENOISE, LOCATE_DEPTH, LOCATE_NOISE_SIGMAS
    from scanner.quads import _median_u8, dark_lines

    rng = np.random.default_rng(seed)
    grey = np.clip(rng.normal(150.0, 10.0 + 20.0 * seed, (300, 400)), 0, 255).astype(np.uint8)
    grey[::37] //= 3  # lines
    block = max(15, (400 // 40) | 1)
    smooth = cv2.GaussianBlur(grey, (0, 0), LOCATE_DENOISE)
    local = cv2.blur(smooth, (block, block)).astype(np.float32)
    noise = 1.4826 * _median_u8(cv2.absdiff(grey, smooth))
    depth = np.maximum(LOCATE_DEPTH * local, LOCATE_NOISE_SIGMAS * noise / 2.0 + 2.0)
    mask = ((local - smooth.astype(np.float32)) > depth).astype(np.uint8) * 255
    expected = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    np.testing.assert_array_equal(dark_lines(grey), expected)
    assert 0 < int(np.count_nonzero(expected)) < expected.size // 2


def test_second_guess_outlines_are_no_slivers() -> None:
    # the sample's grid outline is broken by the banner over it; the second guesses through other
    # hull sides of its outlines once included the coin track's box joined to a frame side (~8:1)
    from pathlib import Path

    import cv2

    from scanner.constants import PAGE_ASPECT_RANGE
    from scanner.orient import min_channel
    from scanner.quads import candidate_quads, downscale, elongation

    sample = cv2.imread(str(Path(__file__).parents[2] / "samples" / "phone_clear_A.jpg"), cv2.IMREAD_COLOR)
    assert sample is not None
    for image in (sample, cv2.resize(sample, (1500, 2000), interpolation=cv2.INTER_CUBIC)):
        _, _, alternates, _ = candidate_quads(min_channel(downscale(image)[0]))
        assert all(elongation(q) <= PAGE_ASPECT_RANGE[1] for q in alternates)
    assert elongation(np.array([[0.0, 0.0], [80.0, 0.0], [80.0, 10.0], [0.0, 10.0]])) == 8.0
    assert elongation(np.zeros((4, 2))) == float("inf")


def _smeared(photo: np.ndarray, *, sigma: float, motion: int, gain: float) -> np.ndarray:
    # defocus, a horizontal motion streak `motion` px long, dim light and sensor noise
    import cv2

    img = cv2.GaussianBlur(photo, (0, 0), sigma).astype(np.float32)
    streak = np.zeros((motion, motion), np.float32)
    streak[motion // 2] = 1.0 / motion
    img = cv2.filter2D(img, -1, streak) * gain
    img += np.random.default_rng(0).normal(0.0, 4.0, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_dim_smeared_photo_is_found_by_the_second_look(side: str) -> None:
    # defocus 0.07 cell, motion 0.4 cell, 45 % exposure: the 2-px line response finds no comb here,
    # the wide one of the second look does (without it: no_sheet)
    photo, truth = sheet_photo(side, tilt=0.1, fill=0.6)
    loc = locate_sheet(_smeared(photo, sigma=1.5, motion=9, gain=0.45))
    assert isinstance(loc, Location), loc
    assert _cell_error(loc.corners, truth) < 0.3
    assert loc.side == side and loc.orientation == 0


def test_the_wide_line_response_lifts_a_smeared_comb() -> None:
    # the same grid outline: below the comb's bar with the usual half width, above it with the wide one
    from scanner.comb import GridFit, verify_candidate
    from scanner.constants import BLURRED_HALF_WIDTH
    from scanner.orient import min_channel
    from scanner.quads import order_clockwise

    photo, truth = sheet_photo("A", tilt=0.1, fill=0.6)
    grey = min_channel(_smeared(photo, sigma=1.5, motion=9, gain=0.45))
    quad = order_clockwise(truth)
    assert not isinstance(verify_candidate(grey, quad), GridFit)
    assert isinstance(verify_candidate(grey, quad, half_width=BLURRED_HALF_WIDTH), GridFit)


@pytest.mark.parametrize("which", ["blank", "chessboard", "plain grid"])
def test_the_second_look_finds_no_sheet_in_smeared_non_sheets(which: str) -> None:
    # what nothing verifies in at first is asked again: dim smeared non-sheets stay refused
    from test_scanner_badphotos import blank_page, chessboard, plain_grid

    make = {"blank": blank_page, "chessboard": chessboard, "plain grid": plain_grid}[which]
    got = locate_sheet(_smeared(make(), sigma=1.5, motion=9, gain=0.45))
    assert isinstance(got, Failure) and got.reason == "no_sheet", got
