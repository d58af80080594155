"""What the bundled photos read today, for tests that need a photo's doubtful cells: taken from the
golden file (``tests/data/samples_golden.json``, written by ``tests/test_samples_golden.py``) and the
photo's truth (``samples/<name>.sheet``), so a retrained model changes one data file, not the tests."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from rules import Sheet
from rules.grid import SIZE, cell_label

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "samples_golden.json"


@functools.cache
def golden() -> dict[str, Any]:
    """The golden file, read once."""
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def doubtful_cells(photo: str) -> list[str]:
    """The cells (``"C10"``) the bundled ``photo`` reads as ``?``."""
    cells: list[str] = golden()["photos"][photo]["scan"]["doubtful"]
    return cells


def truth_fixes(photo: str) -> str:
    """``--fix`` text setting each doubtful cell of ``photo`` to its true symbol (``"B7=W,G2=F"``)."""
    truth = Sheet.parse((ROOT / "samples" / photo).with_suffix(".sheet").read_text(encoding="utf-8"))
    labels = {cell_label((r, c)): str(truth[r, c]) for r in range(SIZE) for c in range(SIZE)}
    return ",".join(f"{cell}={labels[cell]}" for cell in doubtful_cells(photo))


def refused_photo() -> str:
    """A bundled photo whose doubts can change its winter score with the tests' four cards, so ``score``
    refuses it (``outcome`` ``refused`` in the golden file): the first such name."""
    names: list[str] = sorted(n for n, entry in golden()["photos"].items() if entry["outcome"] == "refused")
    if not names:
        raise LookupError("no bundled photo is refused by the committed models (golden file)")
    return names[0]
