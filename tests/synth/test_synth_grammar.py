"""The grammar drawing family: a new design of each terrain on every sheet, one design per terrain per
sheet, every cell of it a little different, always inside the cell."""

from __future__ import annotations

import numpy as np
import pytest

from models.synth import grammar
from models.synth.icons import varied_icon
from models.synth.style import ALL_FAMILIES, FAMILIES, HELD_OUT_FAMILIES, TERRAINS, DrawStyle


def _signature(paths: list[np.ndarray]) -> tuple[int, ...]:
    """A design's shape up to wobble: how many strokes and how many points each."""
    return tuple(len(p) for p in paths)


@pytest.mark.parametrize("terrain", TERRAINS)
def test_one_design_draws_alike_cells(terrain: str) -> None:
    key = grammar.design_key(terrain, np.random.default_rng(3))
    a = grammar.design_paths(key, np.random.default_rng(1))
    b = grammar.design_paths(key, np.random.default_rng(2))
    assert _signature(a) == _signature(b)
    gap = max(float(np.abs(p - q).max()) for p, q in zip(a, b, strict=True))
    assert 0 < gap < 8 * grammar.CELL_WOBBLE  # two cells of one hand: alike, never identical


@pytest.mark.parametrize("terrain", TERRAINS)
def test_designs_are_many(terrain: str) -> None:
    rng = np.random.default_rng(0)
    shapes = {_signature(grammar.design_paths(grammar.design_key(terrain, rng), rng)) for _ in range(200)}
    # stroke counts alone tell apart dozens of the 200 designs (the parts' sizes differ on top)
    assert len(shapes) >= 12


@pytest.mark.parametrize("terrain", TERRAINS)
def test_a_drawn_cell_stays_inside_its_cell(terrain: str) -> None:
    rng = np.random.default_rng(7)
    for _ in range(100):
        pts = np.vstack(varied_icon(terrain, grammar.design_key(terrain, rng), rng))
        assert np.isfinite(pts).all() and pts.min() >= 0.05 and pts.max() <= 0.95


def test_unknown_terrain_is_refused() -> None:
    with pytest.raises(ValueError, match="no grammar"):
        grammar.design_paths("gram:X:1", np.random.default_rng(0))


def test_the_family_trains_and_draws_one_design_a_terrain() -> None:
    assert "grammar" in ALL_FAMILIES and "grammar" not in FAMILIES and "grammar" not in HELD_OUT_FAMILIES
    keys = set()
    for seed in range(20):
        style = DrawStyle.random(np.random.default_rng(seed), "train", family="grammar")
        for look in style.looks.values():
            assert look.icon is not None and grammar.is_design(look.icon) and look.fill is None
            keys.add(look.icon)
    assert len(keys) == 20 * len(TERRAINS)  # a new design for every terrain of every sheet


def test_a_sketched_design_keeps_its_place_but_not_its_lines() -> None:
    key = grammar.design_key("V", np.random.default_rng(4))
    plain = np.vstack(grammar.design_paths(key, np.random.default_rng(1)))
    sketched = np.vstack(grammar.design_paths(key + ":sketch", np.random.default_rng(1)))
    assert plain.shape != sketched.shape or not np.allclose(plain, sketched)
    # the same drawing, some strokes left out: its ink stays within the plain drawing's box
    assert (sketched.min(0) >= plain.min(0) - 0.06).all() and (sketched.max(0) <= plain.max(0) + 0.06).all()


def test_no_sketch_draw_while_the_share_is_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grammar, "SKETCH_SHARE", 0.0)
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    grammar.design_key("W", a, sketch=True)
    grammar.design_key("W", b)
    assert a.random() == b.random()  # the stream moved alike: the unsketched renders stay as measured


def _paths_at(share: float, monkeypatch: pytest.MonkeyPatch, terrain: str, seed: int) -> np.ndarray:
    monkeypatch.setattr(grammar, "COMMON_SHARE", share)
    grammar._design.cache_clear()  # designs are composed once per seed: forget the other share's
    try:
        return np.vstack(grammar.design_paths(f"gram:{terrain}:{seed}", np.random.default_rng(0)))
    finally:
        grammar._design.cache_clear()


@pytest.mark.parametrize("terrain", TERRAINS)
def test_the_common_motifs_vary_and_stay_inside_the_cell(
    terrain: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shapes = set()
    for seed in range(100):
        pts = _paths_at(1.0, monkeypatch, terrain, seed)
        assert np.isfinite(pts).all() and pts.min() >= 0.05 and pts.max() <= 0.95
        shapes.add(pts.shape)
    assert len(shapes) >= 4


def test_the_common_share_takes_its_designs_and_leaves_the_others_as_they_were(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = 0
    for seed in range(40):
        base, half = (_paths_at(s, monkeypatch, "F", seed) for s in (0.0, 0.5))
        common = np.random.default_rng([seed, 1]).random() < 0.5
        taken += common
        assert (base.shape == half.shape and np.array_equal(base, half)) != common
    assert 10 <= taken <= 30
