"""The console command against the interfaces it promises (docs/INTERFACES.md): the JSON keys of
``scan``, ``score`` and ``batch`` and their exit statuses, run as a user runs it (a subprocess, real
photos from ``samples/``, stdout and stderr apart).

What each sample reads is pinned by tests/test_samples_golden.py: phone_clear_A.jpg has one doubtful cell
that cannot change a winter score with these cards (scored); ``refused_photo()`` is a sample whose
doubts can (refused), whichever the committed models make it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from golden_samples import doubtful_cells, refused_photo

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"
SYMBOLS = set(".FVPWMH^-X?")
SCAN_KEYS = {"side", "grid", "coins", "spent", "stars", "confidence"}
SCORE_KEYS = {"cards", "coins", "monsters"}
SEASON_KEYS = {"name", "edicts", "coins", "monsters", "total"}


def cartoscan(*args: str | Path) -> tuple[int, str, str]:
    """Run the console command with this checkout's code: (exit status, stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", "import cli; cli.main()", *map(str, args)],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False,
    )
    return done.returncode, done.stdout, done.stderr


def one_error_line(stderr: str) -> str:
    """The one error line of `stderr` (notes and warnings may come before it)."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error")]
    assert len(errors) == 1 and lines[-1] == errors[0] and "Traceback" not in stderr, stderr
    return errors[0]


def check_score_object(out: dict[str, Any], season: bool) -> None:
    assert set(out) >= SCORE_KEYS
    assert list(out["cards"]) == CARDS.split(",")
    assert all(isinstance(v, int) for v in out["cards"].values())
    assert isinstance(out["coins"], int) and isinstance(out["monsters"], int) and out["monsters"] <= 0
    if season:
        assert set(out["season"]) >= SEASON_KEYS and out["season"]["name"] == "winter"
        assert isinstance(out["season"]["total"], int)


def test_scan_json_has_the_fixed_keys() -> None:
    status, stdout, _ = cartoscan("scan", SAMPLES / "phone_clear_A.jpg", "--json")
    assert status == 0
    out = json.loads(stdout)
    assert set(out) >= SCAN_KEYS and out["side"] in ("A", "B", "C", "D")
    assert len(out["grid"]) == 11 and all(len(row) == 11 and set(row) <= SYMBOLS for row in out["grid"])
    assert np.asarray(out["confidence"], dtype=float).shape == (11, 11)
    assert isinstance(out["coins"], int) and isinstance(out["spent"], int)
    assert all(isinstance(label, str) for label in out["stars"])


def test_score_of_a_photo_and_of_a_sheet_file() -> None:
    photo = SAMPLES / "phone_clear_A.jpg"
    status, stdout, _ = cartoscan("score", photo, "--cards", CARDS, "--season", "winter", "--json")
    assert status == 0
    check_score_object(json.loads(stdout), season=True)
    status, stdout, _ = cartoscan("score", SAMPLES / "phone_A.sheet", "--cards", CARDS, "--json")
    assert status == 0
    check_score_object(json.loads(stdout), season=False)


def test_doubts_exit_4_unless_allowed_and_then_say_so() -> None:
    photo = SAMPLES / refused_photo()
    doubts = set(doubtful_cells(photo.name))  # as the committed models read the photo (golden file)
    assert doubts
    status, stdout, stderr = cartoscan("score", photo, "--cards", CARDS, "--season", "winter", "--json")
    assert status == 4 and stdout == ""
    assert all(cell in one_error_line(stderr) for cell in doubts)
    status, stdout, _ = cartoscan("score", photo, "--cards", CARDS, "--season", "winter", "--json",
                                  "--allow-doubtful")
    assert status == 0
    out = json.loads(stdout)
    check_score_object(out, season=True)
    assert set(out["doubtful"]["cells"]) == doubts


MALFORMED = "side: A\nFFF\n"  # three cells in one grid line, and one line of eleven


@pytest.mark.parametrize(
    "args",
    [
        ("score", SAMPLES / "phone_A.sheet", "--cards", "no_such_card"),
        ("score", SAMPLES / "phone_A.sheet", "--cards", CARDS, "--season", "monsoon"),
        ("score", SAMPLES / "phone_A.sheet", "--no-such-option"),
        ("score", "{tmp}/bad.sheet", "--cards", CARDS),
    ],
    ids=["unknown card", "unknown season", "unknown option", "malformed sheet"],
)
def test_usage_errors_exit_2(args: tuple[str | Path, ...], tmp_path: Path) -> None:
    (tmp_path / "bad.sheet").write_text(MALFORMED, encoding="utf-8")
    status, stdout, stderr = cartoscan(*(str(a).format(tmp=tmp_path) for a in args))
    assert (status, stdout) == (2, ""), stderr
    one_error_line(stderr)


def test_no_image_or_no_sheet_exits_3(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg at all")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((600, 800, 3), 235, np.uint8))
    for photo in (broken, blank):
        status, stdout, stderr = cartoscan("scan", photo, "--json")
        assert (status, stdout) == (3, ""), stderr
        one_error_line(stderr)


def test_batch_lines_and_the_most_severe_status(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg at all")
    inputs = [SAMPLES / "phone_clear_A.jpg", SAMPLES / refused_photo(), SAMPLES / "phone_A.sheet", broken]
    status, stdout, stderr = cartoscan("batch", *inputs, "--cards", CARDS, "--season", "winter")
    rows = [json.loads(line) for line in stdout.splitlines()]
    assert [row["input"] for row in rows] == [str(p) for p in inputs]
    assert [(row["ok"], row["status"]) for row in rows] == [(True, 0), (False, 4), (True, 0), (False, 3)]
    for row in rows:
        if row["ok"]:
            check_score_object(row, season=True)
        else:
            assert isinstance(row["error"], str) and row["error"]
    assert status == 3  # the most severe failure: a photo that cannot be read
    one_error_line(stderr)
