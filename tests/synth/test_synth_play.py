"""Random legal play: every game replays under the rules, parses, and looks like a game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from models.synth.play import SEASONS, Game, PlayError, random_game, replay
from rules.grid import COIN_TRACK, SIZE
from rules.shapes import AMBUSH, EXPLORE, legal_placements, orientations
from rules.sheet import Sheet, Terrain

SEEDS = range(30)


def _game(seed: int, **kw: Any) -> Game:
    return random_game(np.random.default_rng(seed), **kw)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_move_is_legal_and_replays_to_the_sheet(seed: int) -> None:
    game = _game(seed)
    assert replay(game.sheet.side, game.moves) == game.sheet  # place() re-checks every drawing
    assert Sheet.parse(game.sheet.to_text()) == game.sheet
    assert game.sheet.coins + game.sheet.spent <= COIN_TRACK
    assert not game.sheet.problems()


@pytest.mark.parametrize("seed", SEEDS)
def test_pieces_are_card_shapes_on_drawable_spaces(seed: int) -> None:
    game = _game(seed, season=4)
    blank = Sheet.blank(game.sheet.side)
    seen: set[tuple[int, int]] = set()
    for piece, terrain, move in zip(game.pieces, game.piece_terrains,
                                    [m for m in game.moves if m.kind in ("draw", "hero")], strict=True):
        assert not (piece & seen), "pieces overlap"
        seen |= piece
        assert all(not blank[c].is_printed for c in piece), "drawing on a printed space"
        for r, c in piece:
            shown = game.sheet[r, c]
            assert shown is terrain or (terrain is Terrain.MONSTER and shown is Terrain.DESTROYED)
        if len(piece) > 1:
            card = EXPLORE.get(move.card) or AMBUSH[move.card]
            options = card.shapes if hasattr(card, "shapes") else (card.shape,)
            top = min(r for r, _ in piece), min(c for _, c in piece)
            shape = frozenset((r - top[0], c - top[1]) for r, c in piece)
            assert any(shape in orientations(o.cells) or shape == o.cells for o in options)
    for r in range(SIZE):
        for c in range(SIZE):
            if (r, c) not in seen and not blank[r, c].is_printed:
                assert game.sheet[r, c] in (Terrain.EMPTY, Terrain.DESTROYED)


@pytest.mark.parametrize("seed", range(40))
def test_a_1x1_only_when_no_shape_of_the_card_fits(seed: int) -> None:
    """A 1x1 for an explore card only when none of its shapes can be drawn (anywhere, or on an unfilled
    ruins space after a ruins card: base rulebook p.5, p.6), and a 1x1 monster (the ambush's shape did
    not fit) carries no letter, so no effect (de-H Hinterhalt): no destroyed space, no dragon coins."""
    game = _game(seed, season=4)
    fallback_monster = False
    for i, move in enumerate(game.moves):
        sheet = replay(game.sheet.side, game.moves[:i])
        if move.kind == "draw" and len(move.cells) == 1 and move.card in EXPLORE:
            card = EXPLORE[move.card]
            if all(len(o.cells) > 1 for o in card.shapes):
                spots = [s for o in card.shapes for s in legal_placements(sheet, o.cells)]
                assert not [s for s in spots if s & sheet.unfilled_ruins], (move.card, spots)
        if move.kind in ("destroy", "coins"):
            assert not fallback_monster, f"a 1x1 monster took effect: {move}"
        if move.kind == "draw":
            fallback_monster = (
                move.card in AMBUSH and len(move.cells) == 1 and len(AMBUSH[move.card].shape.cells) > 1
            )


def test_same_seed_same_game() -> None:
    a, b = _game(11), _game(11)
    assert a.sheet == b.sheet and a.pieces == b.pieces and a.moves == b.moves


def test_seasons_and_fill_levels_stop_the_game() -> None:
    counts = [len(_game(s, season=1, side="A").pieces) for s in range(8)]
    full = [len(_game(s, season=4, side="A").pieces) for s in range(8)]
    assert np.mean(full) > 2 * np.mean(counts)
    for s in range(8):
        g = _game(s, season=4, fill=0.2)
        drawable = sum(1 for t in Sheet.blank(g.sheet.side).cells if not t.is_printed)
        drawn = sum(1 for t in g.sheet.cells if t.is_filled and not t.is_printed)
        assert drawn / drawable < 0.2 + 12 / drawable  # stopped right after crossing the level
    assert len(SEASONS) == 4


def test_heroes_games_have_heroes_and_base_games_do_not() -> None:
    heroes = [_game(s, heroes=True, season=4) for s in range(6)]
    assert all(g.sheet.side in ("C", "D") for g in heroes)
    assert all(g.sheet.count(Terrain.HERO) <= 4 for g in heroes)
    assert np.mean([g.sheet.count(Terrain.HERO) for g in heroes]) >= 2
    assert any(g.sheet.stars for g in heroes)
    base = [_game(s, heroes=False, season=4) for s in range(6)]
    assert all(g.sheet.side in ("A", "B") and not g.sheet.count(Terrain.HERO) for g in base)


def test_clusters_are_bigger_than_random_play() -> None:
    # Players cluster same terrains: most drawn cells touch a same-terrain cell of another piece.
    sizes = []
    for s in range(10):
        sheet = _game(s, season=4, side="A").sheet
        clusters = sheet.clusters(Terrain.FOREST) + sheet.clusters(Terrain.VILLAGE)
        sizes.append(max(len(c) for c in clusters))
    assert np.mean(sizes) >= 7


def test_neighbour_draws_ambushes_in_multiplayer() -> None:
    games = [_game(s, solo=False, season=4, heroes=False) for s in range(6)]
    assert all(g.piece_terrains[i] is Terrain.MONSTER for g in games for i in g.neighbour_pieces)
    assert any(g.neighbour_pieces for g in games)
    assert not any(_game(s, solo=True).neighbour_pieces for s in range(6))


def test_some_sheets_spend_coins() -> None:
    spent = [_game(s, season=4).sheet.spent for s in range(40)]
    assert any(spent) and max(spent) <= 3


@pytest.mark.parametrize("kw", [{"side": "C", "heroes": False}, {"side": "Q"}, {"season": 5}, {"fill": 1.5}])
def test_bad_arguments_are_play_errors(kw: dict[str, Any]) -> None:
    with pytest.raises(PlayError):
        _game(0, **kw)
