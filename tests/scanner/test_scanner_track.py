"""scanner.track: the grid followed through a synthetic video, lost when it leaves, checked on the print."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.synth.video import Video, make_video
from scanner.failure import Failure
from scanner.track import corner_error, follow, misalignment, start_track, steady


@pytest.fixture(scope="module")
def video() -> Video:
    return make_video(3, frames=40, size=(640, 360))


def _grey(video: Video, i: int) -> np.ndarray:
    return cv2.cvtColor(video.frame(i), cv2.COLOR_BGR2GRAY)


def test_follows_the_grid_through_moves_holds_and_a_hand(video: Video) -> None:
    track = start_track(_grey(video, 0), video.corners[0])
    assert not isinstance(track, Failure)
    errors = []
    for i in range(1, len(video)):
        followed = follow(track, _grey(video, i))
        assert not isinstance(followed, Failure), f"lost at frame {i}: {followed}"
        track = followed
        errors.append(corner_error(track.corners, video.corners[i]))
    assert max(errors) < 0.2, errors
    assert float(np.median(errors)) < 0.08, errors
    assert any(video.covered(i).sum() > 10 for i in range(len(video)))  # a hand did cross the sheet


def test_steady_only_when_the_sheet_holds_still(video: Video) -> None:
    track = start_track(_grey(video, 0), video.corners[0])
    assert not isinstance(track, Failure)
    seen = []
    for i in range(1, len(video)):
        followed = follow(track, _grey(video, i))
        assert not isinstance(followed, Failure)
        track = followed
        seen.append((steady(track), bool(video.moving[i - 4 : i + 1].any())))
    assert not any(s for s, moving in seen if moving and video.moving[seen.index((s, moving))])
    holding = [s for s, moving in seen if not moving]
    assert holding and sum(holding) >= 0.8 * len(holding)


def test_lost_on_an_empty_table(video: Video) -> None:
    track = start_track(_grey(video, 0), video.corners[0])
    assert not isinstance(track, Failure)
    table = np.full((360, 640), 90, np.uint8)
    cv2.randn(table, 90, 6)  # type: ignore[call-overload]  # OpenCV accepts scalars for mean and deviation
    lost = follow(track, table)
    assert isinstance(lost, Failure) and lost.reason == "lost"


def test_misalignment_sees_a_shifted_grid(video: Video) -> None:
    grey = _grey(video, 20)
    truth = video.corners[20]
    step = (truth[1] - truth[0]) / 11
    assert misalignment(grey, truth) < 0.1
    assert misalignment(grey, truth + 0.3 * step) > 0.2
