"""Every training icon, rendered through the pencil, leaves a readable drawing in its own cell only."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from models.synth.draw import draw_cell
from models.synth.icons import icon_paths
from models.synth.ink import Layout
from models.synth.strokes import Canvas
from models.synth.style import ICONS, Hand, TerrainLook

TRAIN_ICONS = [(t, v) for t, d in ICONS.items() for v in d["train"]]
HAND = Hand("pencil", 0.035, 0.7, 0.01, 0.1, 45.0, (70, 70, 70))
PPC = 32  # small, like a cell in a phone photo


def _render(terrain: str, variant: str, seed: int) -> np.ndarray:
    """Ink (0 white .. 255 black) of one icon drawn in the middle cell of a blank 3 x 3 block."""
    rng = np.random.default_rng(seed)
    side = 3 * PPC
    canvas = Canvas(np.full((side, side, 3), 255, np.uint8), np.ones((side + 4, side + 4), np.float32), rng)
    look = TerrainLook(None, variant, HAND.graphite, False, 1.0, 1.0, varied=True)
    draw_cell(canvas, Layout(PPC, 0.0, 0.0, side, side), 1, 1, terrain, look, HAND, rng)
    ink: np.ndarray = 255 - canvas.render().min(axis=2).astype(np.int32)
    return ink


@pytest.mark.parametrize(("terrain", "variant"), TRAIN_ICONS)
def test_training_icon_inks_its_own_cell(terrain: str, variant: str) -> None:
    for seed in range(3):
        ink = _render(terrain, variant, seed)
        cell = ink[PPC : 2 * PPC, PPC : 2 * PPC]
        dark = cell > 25  # a light pencil line at this size peaks near 70
        assert dark.mean() > 0.03, (seed, dark.mean())  # a drawing, not a speck
        ys, xs = np.nonzero(dark)
        assert np.ptp(xs) > PPC * 0.25 or np.ptp(ys) > PPC * 0.25, seed  # spread over the cell
        outside = ink.copy()
        outside[PPC - 2 : 2 * PPC + 2, PPC - 2 : 2 * PPC + 2] = 0
        assert outside.max() <= 25, (seed, outside.max())  # nothing spills into the neighbours


def test_training_icons_of_a_terrain_are_all_different_drawings() -> None:
    # a new name wired to an existing maker (or to the inline fallback) would make two names one drawing
    for t, d in ICONS.items():
        strokes = {v: icon_paths(t, v, np.random.default_rng(1)) for v in d["train"]}
        for a, b in itertools.combinations(d["train"], 2):
            pa, pb = strokes[a], strokes[b]
            same = len(pa) == len(pb) and all(
                x.shape == y.shape and np.allclose(x, y) for x, y in zip(pa, pb, strict=True)
            )
            assert not same, (t, a, b)
