"""The glyph drawing family: icon-font designs drawn as strokes, train and eval designs apart, the
default drawing streams untouched."""

from __future__ import annotations

import numpy as np
import pytest

from models import dataset as ds
from models.synth import glyphs
from models.synth.icons import icon_paths
from models.synth.style import ALL_FAMILIES, FAMILIES, TERRAINS, DrawStyle

RESERVED = ("symbola", "sjfonts", "kristi", "humor")


def test_no_reserved_font_is_a_source() -> None:
    text = str(glyphs.sources()["sources"]).lower()
    assert not [r for r in RESERVED if r in text]


def test_train_and_eval_designs_come_from_different_sources() -> None:
    train = {k.split(":")[0] for keys in glyphs.catalogue("train").values() for k in keys}
    held = {k.split(":")[0] for keys in glyphs.catalogue("eval").values() for k in keys}
    assert train and held and not train & held
    # every terrain has many training designs: the point of the family
    assert all(len(glyphs.catalogue("train")[t]) >= 20 for t in TERRAINS)


@pytest.mark.parametrize("mode", glyphs.MODES)
def test_glyph_strokes_stay_inside_their_cell(mode: str) -> None:
    for t in TERRAINS:
        key = glyphs.catalogue("train")[t][0]
        paths = glyphs.glyph_strokes(key, mode)
        pts = np.vstack(paths)
        assert len(paths) >= 1 and pts.min() >= 0.1 and pts.max() <= 0.9, (key, mode)
        span = pts.max(axis=0) - pts.min(axis=0)
        # centre lines lie half a stroke inside the glyph's edge, outlines on it
        assert 2 / 3 * glyphs.GLYPH_BOX <= span.max() <= glyphs.GLYPH_BOX + 1e-9


def test_solid_glyphs_add_hatching_to_the_outline() -> None:
    key = glyphs.catalogue("train")["F"][0]
    assert len(glyphs.glyph_strokes(key, "solid")) > len(glyphs.glyph_strokes(key, "outline"))


def test_a_glyph_style_draws_glyphs_of_its_own_half() -> None:
    for split, half in (("train", "train"), ("params", "train"), ("eval", "eval")):
        sources = {s for s, info in glyphs.sources()["sources"].items() if info["half"] == half}
        for seed in range(10):
            style = DrawStyle.random(np.random.default_rng(seed), split, "glyph")
            for t, look in style.looks.items():
                assert look.icon is not None and look.fill is None
                if glyphs.is_glyph(look.icon):
                    assert look.icon.split(":")[1] in sources
                    assert icon_paths(t, look.icon, np.random.default_rng(0))


def test_glyph_is_only_drawn_when_asked_for() -> None:
    assert "glyph" in ALL_FAMILIES and "glyph" not in FAMILIES
    drawn = {DrawStyle.random(np.random.default_rng(s), "train").family for s in range(60)}
    assert drawn == set(FAMILIES)


def test_family_seed_ranges_are_apart() -> None:
    ranges = [set(ds.family_seeds("train", f, 2000)) for f in ALL_FAMILIES]
    legacy = set(ds.seeds("train", 5000))
    for i, r in enumerate(ranges):
        assert not r & legacy
        assert all(not r & other for other in ranges[i + 1 :])
