"""scanner.pipeline.assemble: an unsure coin is a doubt (refused by `score` like the locator's), never a
silent miscount, since coins have no '?' in the notation."""

from __future__ import annotations

import numpy as np
import pytest

from rules import Sheet
from scanner.classify import SheetReading
from scanner.pipeline import assemble


def _classified(doubtful_coins: tuple[int, ...]) -> SheetReading:
    blank = Sheet.blank("A")
    probs = np.zeros((11, 11, 8))
    probs[..., 0] = 1.0
    states = ("filled",) * 3 + ("empty",) * 11
    return SheetReading(
        side="A", grid=blank.rows, confidence=np.ones((11, 11)), probabilities=probs, coins=3, spent=0,
        coin_states=states, coin_confidence=np.where(np.isin(np.arange(14), doubtful_coins), 0.6, 0.99),
        stars=frozenset(), star_probability=np.zeros((11, 11)), doubtful_coins=doubtful_coins,
    )


@pytest.mark.parametrize("unsure", [(2,), (0, 3)])
def test_unsure_coins_become_one_doubt_naming_them(unsure: tuple[int, ...]) -> None:
    reading = assemble(_classified(unsure), np.zeros((4, 2)), 0, {}, ("printed side A is unclear",))
    assert reading.doubts[0] == "printed side A is unclear"
    assert len(reading.doubts) == 2
    assert ", ".join(str(i + 1) for i in unsure) in reading.doubts[1]
    assert reading.sheet.coins == 3  # the reading itself is kept for --allow-doubtful


def test_sure_coins_add_no_doubt() -> None:
    assert assemble(_classified(()), np.zeros((4, 2)), 0, {}).doubts == ()
