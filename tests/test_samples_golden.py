"""Golden readings of the bundled photos (``samples/*.jpg``): what each reads and scores today.

``tests/data/samples_golden.json`` holds, per photo, the scan (side, grid with ``?``, coins, stars,
doubtful cells, whole-sheet doubts, orientation), how many cells agree with the photo's truth
(``samples/<name>.sheet``), and what the scoring policy makes of it with fixed cards. A change to the
scanner, the models or the policy that moves any of these shows here; if the change is meant, write
the file again and commit it with the change, saying why::

    PYTHONPATH=. python tests/test_samples_golden.py --write
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from golden_samples import GOLDEN, golden

from rules import Sheet
from rules.cards import parse_card_list
from rules.policy import decide
from rules.season import score_season

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CARDS = "sentinel_wood,canal_lake,wildholds,borderlands"
SEASON = "winter"


def read_sample(photo: Path) -> dict[str, Any]:
    """What `photo` reads and scores, as stored in the golden file."""
    from scanner.failure import Failure
    from scanner.pipeline import read_photo

    reading = read_photo(photo)
    if isinstance(reading, Failure):
        return {"failure": reading.reason}
    scan = reading.to_json()
    truth = Sheet.parse(photo.with_suffix(".sheet").read_text(encoding="utf-8"))
    cards = parse_card_list(CARDS)
    verdict = decide(reading.uncertain, cards, SEASON, allow_doubtful=False)
    allowed = decide(reading.uncertain, cards, SEASON, allow_doubtful=True)
    assert allowed.sheet is not None
    return {
        "scan": {key: scan[key] for key in ("side", "grid", "coins", "spent", "stars", "orientation",
                                            "doubtful", "warnings")},
        "cells_as_truth": sum(a == b for a, b in zip(reading.guess.grid, truth.grid, strict=True)),
        "coins_as_truth": reading.coins == truth.coins and reading.spent == truth.spent,
        "outcome": str(verdict.outcome),
        "stake": verdict.stake,
        "total_allowed": score_season(allowed.sheet, cards, SEASON).total,
    }


def test_every_sample_has_a_golden_reading() -> None:
    assert sorted(golden()["photos"]) == sorted(p.name for p in SAMPLES.glob("*.jpg"))
    assert (golden()["cards"], golden()["season"]) == (CARDS, SEASON)


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.jpg")))
def test_sample_reads_and_scores_as_recorded(name: str) -> None:
    assert read_sample(SAMPLES / name) == golden()["photos"][name]


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    photos = {p.name: read_sample(p) for p in sorted(SAMPLES.glob("*.jpg"))}
    text = json.dumps({"cards": CARDS, "season": SEASON, "photos": photos}, indent=1, ensure_ascii=False)
    GOLDEN.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)} ({len(photos)} photos)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
