"""The camera simulator: determinism, exact truth (corners, coins, orientation) and photo sizes."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from models.synth.camera import TIERS, CameraError, PaperWarp, Photo, choose_size, page_landmarks, photograph
from rules.grid import SIZE
from scanner.geometry import geometry

PAPER = (200, 225, 235)
COIN = (200, 60, 20)  # blue: far from paper and from every table colour in the blue channel's ratio


@dataclass(frozen=True)
class FlatPage:
    """A minimal printed page: paper, an 11x11 grid with a heavy frame, 14 filled coin circles."""

    image: np.ndarray
    ppc: float
    grid_origin: tuple[float, float]


def flat_page(ppc: int = 30) -> FlatPage:
    g = geometry()
    x0, y0, x1, y1 = g.page
    w, h = round((x1 - x0) * ppc), round((y1 - y0) * ppc)
    img = np.full((h, w, 3), PAPER, np.uint8)
    ox, oy = -x0 * ppc, -y0 * ppc
    for i in range(1, SIZE):
        a, b = round(ox + i * ppc), round(oy + i * ppc)
        cv2.line(img, (a, round(oy)), (a, round(oy + 11 * ppc)), (120, 170, 220), 1)
        cv2.line(img, (round(ox), b), (round(ox + 11 * ppc), b), (120, 170, 220), 1)
    lw = max(2, round(0.08 * ppc))
    cv2.rectangle(img, (round(ox), round(oy)), (round(ox + 11 * ppc), round(oy + 11 * ppc)), (20, 20, 20), lw)
    for cx, cy in g.coin_centers():
        cv2.circle(img, (round(ox + cx * ppc), round(oy + cy * ppc)), round(g.coin_radius * ppc), COIN, -1)
    return FlatPage(img, float(ppc), (ox, oy))


PAGE = flat_page()
SHOT_SIZE = (720, 960)


def _shot(seed: int, tier: str, size: tuple[int, int] | None = SHOT_SIZE) -> Photo:
    return photograph(PAGE, np.random.default_rng(seed), tier=tier, size=size)


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_same_seed_same_photo(tier: str) -> None:
    a, b = _shot(7, tier), _shot(7, tier)
    assert a.jpeg == b.jpeg
    assert np.array_equal(a.image, b.image)
    assert np.array_equal(a.corners, b.corners) and np.array_equal(a.coin_centers, b.coin_centers)
    assert _shot(8, tier).jpeg != a.jpeg


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("tier", sorted(TIERS))
def test_corners_are_the_grid_through_the_homography(tier: str, seed: int) -> None:
    photo = _shot(seed, tier)
    grid, coins = page_landmarks(PAGE)
    assert np.allclose(photo.page_to_photo(grid), photo.corners)
    assert np.allclose(photo.page_to_photo(coins), photo.coin_centers)
    flat = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), photo.homography).reshape(-1, 2)
    cell = np.linalg.norm(photo.corners[1] - photo.corners[0]) / SIZE
    if not photo.warp.curls and photo.warp.fold is None:
        assert np.allclose(flat, photo.corners, atol=1e-6)
    else:  # curl moves the truth away from the flat projection, but not by much
        assert np.abs(flat - photo.corners).max() < 1.0 * cell


def _darkness_along(photo: Photo, pts_page: np.ndarray) -> np.ndarray:
    """Darkest grey level in a 5x5 window around each page point's place in the photo."""
    grey = cv2.erode(cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY), np.ones((5, 5), np.uint8))
    xy = np.round(photo.page_to_photo(pts_page)).astype(int)
    dark: np.ndarray = grey[xy[:, 1], xy[:, 0]]
    return dark


def _border(offset: float) -> np.ndarray:
    """Page points along the grid border moved ``offset`` cells inward."""
    t = np.linspace(0.05, 0.95, 40)[:, None]
    a, b = offset, SIZE - offset
    quad = np.array([[a, a], [b, a], [b, b], [a, b]])
    pts = np.vstack([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)])
    return np.asarray(PAGE.grid_origin) + PAGE.ppc * pts


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("tier", ["scan", "phone"])
def test_printed_frame_is_where_the_truth_says(tier: str, seed: int) -> None:
    photo = _shot(seed, tier)
    on_frame = _darkness_along(photo, _border(0.0))
    inside = _darkness_along(photo, _border(0.5))
    assert np.median(on_frame) < 0.6 * np.median(inside)
    assert (on_frame < np.median(inside) - 40).mean() > 0.9


@pytest.mark.parametrize("seed", range(4))
def test_coin_centres_land_on_coins_in_a_scan(seed: int) -> None:
    photo = _shot(seed, "scan")
    xy = np.round(photo.coin_centers).astype(int)
    bgr = photo.image[xy[:, 1], xy[:, 0]].astype(int)
    assert (bgr[:, 0] - bgr[:, 2] > 80).all()  # blue coins, not yellowish paper


@pytest.mark.parametrize("seed", range(12))
def test_orientation_names_the_corner_order(seed: int) -> None:
    photo = _shot(seed, "hard")
    # Turn the photo back by the claimed orientation: A1 must then be the top-left corner.
    a = np.deg2rad(-photo.orientation)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    upright = (photo.corners - photo.corners.mean(0)) @ rot.T
    assert int(np.argmin(upright.sum(1))) == 0
    assert int(np.argmax(upright.sum(1))) == 2


@pytest.mark.parametrize("tier", sorted(TIERS))
def test_sizes_stay_in_the_tier_range(tier: str) -> None:
    lo, hi = TIERS[tier].megapixels
    for seed in range(200):
        w, h = choose_size(np.random.default_rng(seed), TIERS[tier])
        assert lo <= w * h / 1e6 <= hi
        assert min(abs(max(w, h) / min(w, h) - a) for a in TIERS[tier].aspects) < 0.01


def test_a_webcam_photo_has_a_webcam_size() -> None:
    photo = _shot(3, "webcam", size=None)
    h, w = photo.image.shape[:2]
    lo, hi = TIERS["webcam"].megapixels
    assert lo <= w * h / 1e6 <= hi


def test_unknown_tier_is_a_value_error() -> None:
    with pytest.raises(CameraError, match="unknown tier"):
        _shot(0, "drone")
    assert issubclass(CameraError, ValueError)


def test_unwarp_inverts_the_paper_displacement() -> None:
    warp = PaperWarp(curls=((1.0, 0.0, 0.0, 90.0, 20.0, 250.0, 250.0),
                            (0.0, -1.0, -500.0, 120.0, -30.0, 250.0, 250.0)),
                     fold=(0.0, 1.0, 250.0, 0.02))
    pts = np.random.default_rng(0).uniform(0, 500, (50, 2))
    q = warp.unwarp(pts)
    dx, dy = warp.displacement(q[:, 0], q[:, 1])
    assert np.allclose(q + np.stack([dx, dy], 1), pts, atol=1e-6)
    assert not np.allclose(q, pts)
