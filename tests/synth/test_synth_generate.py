"""Samples end to end: deterministic per seed and split, written files agree with the sample."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.synth.camera import photograph
from models.synth.generate import SynthError, make_sample, write_sample
from models.synth.paper import Page, render_page
from rules.grid import SIZE
from rules.sheet import Sheet

SHOT_SIZE = (640, 480)


def test_a_seed_names_one_sample() -> None:
    a = make_sample(5, tier="phone", size=SHOT_SIZE)
    b = make_sample(5, tier="phone", size=SHOT_SIZE)
    assert a.photo.jpeg == b.photo.jpeg and a.sheet == b.sheet
    assert np.array_equal(a.corners, b.corners)
    assert make_sample(5, tier="phone", split="eval", size=SHOT_SIZE).photo.jpeg != a.photo.jpeg


@pytest.mark.parametrize("tier", ["scan", "webcam"])
def test_written_files_hold_the_truth(tmp_path: Path, tier: str) -> None:
    sample = make_sample(2, tier=tier, size=SHOT_SIZE)
    jpg, sheet, meta = write_sample(sample, tmp_path / "out", "s2")
    written = cv2.imread(str(jpg))
    assert written is not None and np.array_equal(written, sample.image)
    assert Sheet.parse(sheet.read_text(encoding="utf-8")) == sample.sheet
    truth = json.loads(meta.read_text(encoding="utf-8"))
    assert np.allclose(truth["corners"], sample.corners, atol=1e-3)
    assert np.allclose(truth["coin_centers"], sample.coin_centers, atol=1e-3)
    assert truth["coin_states"] == list(sample.coin_states)
    assert sum(s == 2 for s in truth["coin_states"]) == sample.sheet.spent
    assert truth["orientation"] == sample.orientation and truth["side"] == sample.side
    assert truth["tier"] == tier and truth["seed"] == 2
    assert np.array(truth["edges_h"]).shape == (10, 11) and np.array(truth["edges_v"]).shape == (11, 10)


def test_crossings_run_between_the_corners() -> None:
    sample = make_sample(4, tier="hard", size=SHOT_SIZE)
    grid = sample.crossings
    assert grid.shape == (12, 12, 2)
    assert np.allclose([grid[0, 0], grid[0, 11], grid[11, 11], grid[11, 0]], sample.corners)
    # every row line runs from the left edge to the right edge, monotonically along the top edge's direction
    along = (grid[:, 1:] - grid[:, :-1]) @ (sample.corners[1] - sample.corners[0])
    assert (along > 0).all()


def test_bad_tier_or_split_is_a_synth_error(tmp_path: Path) -> None:
    with pytest.raises(SynthError, match="tier"):
        make_sample(0, tier="satellite")
    with pytest.raises(SynthError, match="split"):
        make_sample(0, tier="phone", split="test")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SynthError, match="cannot write"):
        write_sample(make_sample(0, tier="webcam", size=SHOT_SIZE), blocker / "sub", "s")


def _border(page: Page, offset: float) -> np.ndarray:
    """Page px along the grid border moved ``offset`` cells inward."""
    t = np.linspace(0.05, 0.95, 40)[:, None]
    a, b = offset, SIZE - offset
    quad = np.array([[a, a], [b, a], [b, b], [a, b]])
    return page.cells_to_page(np.vstack([quad[i] + t * (quad[(i + 1) % 4] - quad[i]) for i in range(4)]))


@pytest.mark.parametrize("theme", ["color", "printfriendly"])
@pytest.mark.parametrize("tier", ["scan", "phone"])
def test_renderer_and_camera_agree_where_the_frame_is(theme: str, tier: str) -> None:
    # A blank printed sheet: the heavy frame line must lie under the corners the truth gives.
    page = render_page(Sheet.blank("A"), np.random.default_rng(1), ppc=40, theme=theme)
    photo = photograph(page, np.random.default_rng(2), tier=tier, size=(900, 1200))
    grey = cv2.erode(cv2.cvtColor(photo.image, cv2.COLOR_BGR2GRAY), np.ones((5, 5), np.uint8))

    def darkness(offset: float) -> np.ndarray:
        xy = np.round(photo.page_to_photo(_border(page, offset))).astype(int)
        dark: np.ndarray = grey[xy[:, 1], xy[:, 0]]
        return dark

    on_frame, inside = darkness(0.0), darkness(0.5)
    assert (on_frame < np.median(inside) - 40).mean() > 0.9
