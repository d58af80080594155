"""Known answers: coin tracks as the coin net read them on synthetic eval-split photos
(``tests/data/scanner/coin_track_reads.json``), read by ``scanner.classify.read_coin_track``: right and
clear where only the per-coin threshold doubted them, right where the sheet's own count corrects the
net's, and never silently wrong where the track as a whole is unsure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from scanner.classify import read_coin_track
from scanner.constants import COIN_CLASSES, PATCH

DATA = Path(__file__).resolve().parents[1] / "data" / "scanner" / "coin_track_reads.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]
#: The patches only serve the ink check of the first empty coin; a blank print leaves it silent.
BLANK = np.full((14, PATCH, PATCH, 3), 200, np.uint8)


def _read(case: dict[str, Any]) -> tuple[tuple[int, int], bool]:
    states, _, doubtful = read_coin_track(np.array(case["probs"]), np.array(case["features"]), BLANK)
    names = [COIN_CLASSES[k] for k in states]
    return (names.count("filled"), names.count("crossed")), bool(doubtful.any())


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['expect']}-{case['seed']}")
def test_a_known_coin_track_is_read_as_expected(case: dict[str, Any]) -> None:
    got, doubted = _read(case)
    truth = tuple(case["truth"])
    if case["expect"] == "clear":
        assert (got, doubted) == (truth, False)
    elif case["expect"] == "right":
        assert got == truth
    else:
        assert got == truth or doubted, f"read {got} for {truth} with no coin doubtful"


def test_the_known_answers_cover_each_expectation() -> None:
    assert {case["expect"] for case in CASES} == {"clear", "right", "not_silent"}
    assert all(np.array(case["probs"]).shape == (14, 3) for case in CASES)
