"""The outsider drawing family: a second author's held-out pencil designs, many a terrain, every one
inside its cell, drawn only by held-out hands, and added without moving any other family's draws."""

from __future__ import annotations

import numpy as np
import pytest

from models.synth import outsider
from models.synth.icons import icon_paths, varied_icon
from models.synth.style import (
    ALL_FAMILIES,
    FAMILIES,
    HELD_OUT_FAMILIES,
    TERRAINS,
    TRAINABLE_FAMILIES,
    DrawStyle,
)

KEYS = [outsider.outsider_key(t, n) for t, names in outsider.OUTSIDER_DESIGNS.items() for n in names]


@pytest.mark.parametrize("key", KEYS)
def test_every_design_draws_finite_strokes_inside_the_cell(key: str) -> None:
    for seed in range(5):
        paths = outsider.outsider_paths(key, np.random.default_rng(seed))
        assert paths and all(p.ndim == 2 and p.shape[1] == 2 and len(p) >= 2 for p in paths)
        pts = np.vstack(paths)
        assert np.isfinite(pts).all() and pts.min() >= 0.05 and pts.max() <= 0.95, key


@pytest.mark.parametrize("key", KEYS)
def test_a_design_varies_a_little_between_calls(key: str) -> None:
    a = np.vstack(outsider.outsider_paths(key, np.random.default_rng(1)))
    b = np.vstack(outsider.outsider_paths(key, np.random.default_rng(2)))
    same = np.vstack(outsider.outsider_paths(key, np.random.default_rng(1)))
    assert np.array_equal(a, same)  # one seed, one drawing
    assert a.shape != b.shape or not np.allclose(a, b)  # proportions drawn from the rng


@pytest.mark.parametrize("terrain", TERRAINS)
def test_many_designs_a_terrain_with_unique_names(terrain: str) -> None:
    names = outsider.OUTSIDER_DESIGNS[terrain]
    assert len(names) >= (6 if terrain == "H" else 8)
    assert len(set(names)) == len(names)
    # shapes differ too, not only names: stroke counts and point counts tell the designs apart
    shapes = {tuple(len(p) for p in outsider.outsider_paths(outsider.outsider_key(terrain, n),
                                                            np.random.default_rng(0))) for n in names}
    assert len(shapes) == len(names)


def test_the_table_covers_exactly_the_terrains() -> None:
    assert set(outsider.OUTSIDER_DESIGNS) == set(TERRAINS)


@pytest.mark.parametrize(
    "variant", ["out:F:nope", "out:X:fir", "out:F", "out:F:fir:extra", "gram:F:fir", "fir"]
)
def test_unknown_variants_are_refused(variant: str) -> None:
    with pytest.raises(ValueError, match="no outsider design"):
        outsider.outsider_paths(variant, np.random.default_rng(0))


def test_keys_are_recognised_by_their_prefix() -> None:
    assert outsider.outsider_key("W", "anchor") == "out:W:anchor"
    assert outsider.is_outsider("out:W:anchor")
    assert not outsider.is_outsider("gram:W:3") and not outsider.is_outsider("anchor")


def test_icon_paths_dispatches_outsider_keys() -> None:
    key = outsider.outsider_key("M", "spider")
    got = icon_paths("M", key, np.random.default_rng(4))
    want = outsider.outsider_paths(key, np.random.default_rng(4))
    assert len(got) == len(want) and all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))
    with pytest.raises(ValueError, match="no outsider design"):
        icon_paths("M", "out:M:nope", np.random.default_rng(0))


@pytest.mark.parametrize("terrain", TERRAINS)
def test_a_varied_cell_stays_inside_its_cell(terrain: str) -> None:
    rng = np.random.default_rng(11)
    for name in outsider.OUTSIDER_DESIGNS[terrain]:
        for _ in range(20):
            pts = np.vstack(varied_icon(terrain, outsider.outsider_key(terrain, name), rng))
            assert np.isfinite(pts).all() and pts.min() >= 0.05 and pts.max() <= 0.95


def test_the_family_is_held_out() -> None:
    assert "outsider" in ALL_FAMILIES and "outsider" in HELD_OUT_FAMILIES
    assert "outsider" not in TRAINABLE_FAMILIES and "outsider" not in FAMILIES
    with pytest.raises(ValueError, match="held out"):
        DrawStyle.random(np.random.default_rng(0), "train", family="outsider")


@pytest.mark.parametrize("split", ["eval", "params"])
def test_the_family_draws_one_outsider_design_of_each_terrain(split: str) -> None:
    rng = np.random.default_rng(3)
    drawn: set[str] = set()
    coloured = 0
    for _ in range(300):
        style = DrawStyle.random(rng, split, family="outsider")
        assert set(style.looks) == set(TERRAINS)
        for t, look in style.looks.items():
            assert look.icon is not None and look.icon.startswith(f"out:{t}:") and look.fill is None
            assert look.varied and not look.icon_colored
            drawn.add(look.icon)
        colours = {look.color for look in style.looks.values()}
        if colours == {style.hand.graphite}:
            continue
        coloured += 1
        assert len(colours) == len(TERRAINS)  # coloured pencils: each terrain its own colour
    assert drawn == set(KEYS)  # every design turns up
    assert 50 <= coloured <= 130  # about 30 % of 300 sheets in coloured pencils


def test_existing_families_keep_their_order() -> None:
    # seeds are ranged by a family's index in ALL_FAMILIES: the family added last moves no other
    assert ALL_FAMILIES[:9] == (
        "graphite", "glyph", "color", "color_icon", "marker", "mixed", "doodle", "sketch", "grammar",
    )
    assert ALL_FAMILIES[9] == "outsider"  # studio, appended after it, leaves it where it was


def test_another_family_draws_as_before() -> None:
    # DrawStyle.random(default_rng(5), "eval", family="sketch") on the code before the family was
    # added: the same looks and the same point in the generator's stream after it
    rng = np.random.default_rng(5)
    style = DrawStyle.random(rng, "eval", family="sketch")
    assert {t: lk.icon for t, lk in style.looks.items()} == SKETCH_5
    assert style.hand.graphite == SKETCH_5_GRAPHITE
    assert rng.random() == SKETCH_5_NEXT


SKETCH_5 = {"F": "stick_tree", "V": "hut", "P": "sun_field", "W": "spiral", "M": "bat", "H": "banner"}
SKETCH_5_GRAPHITE = (108, 109, 108)
SKETCH_5_NEXT = 0.9510229811957994
