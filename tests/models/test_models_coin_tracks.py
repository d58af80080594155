"""Known answers: coin tracks the coin net misreads with confidence are reported doubtful, never scored
silently (``tests/data/scanner/coin_tracks.json``; synthetic photos rendered from their seeds, read as
``cartoscan score`` reads a photo file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

from models import dataset as ds
from rules.cards import find_card
from rules.policy import decide
from scanner.failure import Failure
from scanner.pipeline import read_photo

DATA = Path(__file__).resolve().parents[1] / "data" / "scanner" / "coin_tracks.json"
CASES = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case['split']}-{case['seed']}")
def test_a_misread_coin_kind_reaches_the_policy_as_a_doubt(case: dict[str, Any], tmp_path: Path) -> None:
    sample = ds.render(case["seed"], split=case["split"], tier=case["tier"])
    path = tmp_path / "sheet.jpg"
    cv2.imwrite(str(path), sample.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    reading = read_photo(path)
    assert not isinstance(reading, Failure), reading
    truth = sample.sheet
    if (reading.coins, reading.spent) == (truth.coins, truth.spent):
        return  # read right: nothing to doubt (a better coin net may read it so)
    assert reading.doubtful_coins, f"coins {truth.coins}/{truth.spent} read {reading.coins}/{reading.spent}"
    # with every unsure cell settled as it truly is, the coins alone still stop the score
    settled = reading.uncertain.fix({cell: truth[cell] for cell in reading.uncertain.alternatives})
    verdict = decide(settled, [find_card("sentinel_wood"), find_card("canal_lake")])
    assert not verdict and "coin track unclear" in verdict.stake
