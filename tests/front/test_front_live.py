"""``cartoscan live``: the headless JSON mode on a short synthetic video; a sheet lost and found again;
the overlay; reading in a worker thread as for a camera."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from cli import app
from front.live import Session, draw
from models.synth.video import make_video, write_video
from rules import Sheet
from scanner.track import corner_error

runner = CliRunner()
CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("video")
    write_video(make_video(2, frames=60, size=(960, 540)), out, "clip")
    return out / "clip"


def test_json_lines_of_a_video(clip: Path) -> None:
    result = runner.invoke(app, ["live", str(clip) + ".avi", "--no-window", "--json", "--cards", CARDS,
                                 "--season", "winter"])
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[-1].keys() == {"fps", "frames"} and lines[-1]["frames"] == 60 and lines[-1]["fps"] > 0
    readings = lines[:-1]
    assert readings, "no reading in a video with two steady holds"
    assert [r["frames"] for r in readings] == sorted(r["frames"] for r in readings)
    truth = Sheet.parse(clip.with_suffix(".sheet").read_text())
    last = readings[-1]
    assert len(last["grid"]) == 11 and last["side"] == truth.side
    cells = [(ch, str(truth[r, c])) for r, row in enumerate(last["grid"]) for c, ch in enumerate(row)]
    read = [(a, b) for a, b in cells if a != "?"]
    assert len(read) >= 100 and sum(a == b for a, b in read) >= len(read) - 2
    assert {"confidence", "coins", "spent", "stars", "verdict", "event"} <= last.keys()
    assert ("score" in last) != ("stake" in last)
    assert last["event"] == "captured"  # at the latest, the end of the video captures the tally


def test_missing_video_and_missing_window(tmp_path: Path) -> None:
    result = runner.invoke(app, ["live", str(tmp_path / "none.avi"), "--no-window", "--json"])
    assert result.exit_code == 3 and "no such video file" in result.output
    result = runner.invoke(app, ["live", str(tmp_path / "none.avi"), "--window"])
    assert result.exit_code == 2 and "window" in result.output


def test_lost_and_found() -> None:
    video = make_video(4, frames=40, size=(640, 360))
    table = np.full((360, 640, 3), 80, np.uint8)
    session = Session()
    kinds = []
    for i in range(len(video)):
        frames = [video.frame(i)] + ([table] * 8 if i == 15 else [])
        for frame in frames:
            kinds += [(e.kind, i) for e in session.step(frame) if e.kind in ("found", "lost")]
    assert [k for k, _ in kinds] == ["found", "lost", "found"], kinds
    assert kinds[1][1] == 15
    assert session.track is not None
    assert corner_error(session.track.corners, video.corners[-1]) < 0.15


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    video = make_video(6, frames=40, size=(960, 540))
    return [video.frame(i) for i in range(len(video))]


def test_overlay_draws_the_reading_on_the_followed_grid(frames: list[np.ndarray]) -> None:
    session = Session()
    for frame in frames:
        session.step(frame)
    assert session.result is not None and session.track is not None
    shown = draw(frames[-1], session, 30.0)
    assert shown.shape == frames[-1].shape
    inside = np.zeros(shown.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(session.track.corners).astype(np.int32), 1)
    changed = np.abs(shown.astype(int) - frames[-1].astype(int)).sum(axis=2) > 30
    assert changed[inside > 0].mean() > 0.05  # cells tinted and labelled on the sheet
    assert changed[:60].mean() > 0.01  # the status and score lines at the top


def test_reading_in_the_background_thread(frames: list[np.ndarray]) -> None:
    session = Session(background=True)
    events = []
    for frame in frames:
        events += session.step(frame)
        time.sleep(0.01)  # a camera's pace, a little: the reader thread gets its turn
    session.close()
    readings = [e for e in events if e.kind == "reading"]
    assert readings and all(e.frame <= len(frames) for e in readings)
    assert session.ballots and session.result is not None
