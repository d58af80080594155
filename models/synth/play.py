"""Plausible game states from random legal play of the real cards (the renderer's truth).

``random_game(rng, side=..., season=..., fill=..., heroes=...)`` deals the explore deck season by
season, resolves ruins, ambushes (drawn by "the neighbour", or by the solo rules), heroes and the
Heroes ambush effects through ``rules.shapes``, and returns a :class:`Game`: the final ``rules.Sheet``
plus every drawn piece (for the pencil outlines) and the log of moves that replays to the sheet.

Players are not random: they prefer spots touching the same terrain (clusters), a neighbour puts
monsters where they hurt, and a hero aims at monsters.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from rules.grid import COIN_TRACK, PRINTED_SIDES, SIZE, Cell, neighbours
from rules.shapes import AMBUSH, EXPLORE, HEROES, AmbushCard, HeroCard, legal_placements, place, place_hero
from rules.shapes import solo_ambush_placement as _solo_spot
from rules.sheet import Sheet, Terrain
from rules.sides import printed_side

SEASONS = ("spring", "summer", "fall", "winter")
THRESHOLDS = {"base": (8, 8, 7, 6), "heroes": (8, 7, 7, 6)}
BASE_SIDES = tuple(s for s in PRINTED_SIDES if printed_side(s).game == "base")
HEROES_SIDES = tuple(s for s in PRINTED_SIDES if printed_side(s).game == "heroes")

# How players choose (tuning constants of the simulation).
CLUSTER_BIAS = 1.2  # weight per neighbouring cell of the same terrain when choosing a spot
EDGE_BIAS = 0.15  # players like the map edge a little (edge-scoring cards)
SPOT_TEMPERATURE = 0.8  # softmax temperature over spot scores; lower = greedier
COIN_SHAPE_CHANCE = 0.55  # how often the small coin shape is taken over the big one
SOLO_CHANCE = 0.3  # share of solo games (ambushes placed by the solo rules, not a neighbour)
SPEND_CHANCE = 0.25  # chance a sheet ends with 1-3 coins crossed out for skills


class PlayError(ValueError):
    """Bad arguments to the game simulation."""


@dataclass(frozen=True)
class Move:
    """One thing written on the sheet, in order.

    ``kind``: ``draw`` (a shape or 1x1 of ``terrain``; ``coin`` when the shape shows a coin), ``hero``
    (``cells`` = the hero's space, ``attack`` = offsets of its hits), ``destroy`` (spaces become ``X``
    by an ambush effect), ``coins`` (``amount`` coins gained outside a drawing, e.g. Dragon Inferno),
    ``spend`` (``amount`` coins crossed out for skills).
    """

    kind: str
    cells: frozenset[Cell] = frozenset()
    terrain: Terrain = Terrain.EMPTY
    coin: bool = False
    attack: frozenset[tuple[int, int]] = frozenset()
    amount: int = 0
    by_neighbour: bool = False
    card: str = ""


@dataclass(frozen=True)
class Game:
    """A game stopped after some season (or at some fill level).

    Attributes
    ----------
    sheet : the final sheet.
    pieces : every drawn shape (terrain shapes, 1x1s, monsters, heroes) in drawing order.
    piece_terrains : what each piece was drawn as (a destroyed monster shows ``X`` on the sheet).
    neighbour_pieces : indices into ``pieces`` drawn by the neighbour (multiplayer ambushes).
    moves : the full log; replaying it with ``rules.shapes`` gives ``sheet`` (see ``replay``).
    seasons : how many seasons were completed (0 when stopped mid-spring by ``fill``).
    """

    sheet: Sheet
    pieces: tuple[frozenset[Cell], ...]
    piece_terrains: tuple[Terrain, ...]
    neighbour_pieces: frozenset[int]
    moves: tuple[Move, ...] = field(repr=False)
    seasons: int
    heroes: bool
    solo: bool


def replay(side: str, moves: Sequence[Move]) -> Sheet:
    """Redo ``moves`` on a blank sheet with the rules' own checks (raises ``PlacementError`` if illegal)."""
    sheet = Sheet.blank(side)
    for m in moves:
        if m.kind == "draw":
            sheet = place(sheet, m.cells, m.terrain, coin=m.coin)
        elif m.kind == "hero":
            (cell,) = m.cells
            sheet = place_hero(sheet, cell, HEROES[m.card], m.attack)
        elif m.kind == "destroy":
            for r, c in m.cells:
                if sheet[r, c].is_printed or sheet[r, c] is Terrain.DESTROYED:
                    raise PlayError(f"cannot destroy {(r, c)}: it is {sheet[r, c].word}")
            sheet = sheet.replace(dict.fromkeys(m.cells, Terrain.DESTROYED))
        elif m.kind == "coins":
            sheet = sheet.replace(coins=min(sheet.coins + m.amount, COIN_TRACK - sheet.spent))
        elif m.kind == "spend":
            sheet = sheet.replace(coins=sheet.coins - m.amount, spent=sheet.spent + m.amount)
        else:
            raise PlayError(f"unknown move {m.kind!r}")
    return sheet


def _grid(sheet: Sheet) -> np.ndarray:
    return np.array([t.value for t in sheet.cells]).reshape(SIZE, SIZE)


def _neighbour_count(mask: np.ndarray) -> np.ndarray:
    """For every cell, how many of its 4 neighbours are set in ``mask``."""
    m = np.pad(mask.astype(np.int32), 1)
    return np.asarray(m[:-2, 1:-1] + m[2:, 1:-1] + m[1:-1, :-2] + m[1:-1, 2:])


def _choose(rng: np.random.Generator, scores: np.ndarray, temperature: float) -> int:
    z = (scores - scores.max()) / temperature
    p = np.exp(z)
    return int(rng.choice(len(scores), p=p / p.sum()))


def _spot_scores(sheet: Sheet, spots: list[frozenset[Cell]], terrain: Terrain) -> np.ndarray:
    """How much a player likes each spot for ``terrain``: same-terrain contact, edge, ruins."""
    g = _grid(sheet)
    same = _neighbour_count(g == terrain.value) * CLUSTER_BIAS
    edge = np.zeros((SIZE, SIZE))
    edge[[0, -1], :] = edge[:, [0, -1]] = EDGE_BIAS
    value = same + edge
    return np.array([sum(value[r, c] for r, c in s) for s in spots])


def _monster_scores(sheet: Sheet, spots: list[frozenset[Cell]]) -> np.ndarray:
    """How much a neighbour likes each spot for a monster: empty spaces it will border."""
    empty = _grid(sheet) == "."
    scores = []
    for s in spots:
        around = {n for cell in s for n in neighbours(*cell)} - s
        scores.append(0.6 * sum(1 for r, c in around if empty[r, c]))
    return np.array(scores, dtype=np.float64)


class _Table:
    """The mutable state of one game in progress."""

    def __init__(self, rng: np.random.Generator, side: str, heroes: bool, solo: bool) -> None:
        self.rng = rng
        self.sheet = Sheet.blank(side)
        self.heroes = heroes
        self.solo = solo
        self.moves: list[Move] = []
        self.dragon: frozenset[Cell] | None = None
        self.dragon_paid = False
        self.zombies: set[Cell] = set()
        self.trolls: set[Cell] = set()

    # -- moves ------------------------------------------------------------------------------------
    def draw(self, cells: frozenset[Cell], terrain: Terrain, *, coin: bool = False, neighbour: bool = False,
             card: str = "") -> None:
        self.sheet = place(self.sheet, cells, terrain, coin=coin)
        self.moves.append(Move("draw", cells, terrain, coin=coin, by_neighbour=neighbour, card=card))
        self._dragon_check()

    def destroy(self, cells: frozenset[Cell]) -> None:
        self.sheet = self.sheet.replace(dict.fromkeys(cells, Terrain.DESTROYED))
        self.moves.append(Move("destroy", cells))
        self._dragon_check()

    def _dragon_check(self) -> None:
        # Dragon Inferno: +3 coins once every dragon space is destroyed or has all neighbours filled.
        if self.dragon is None or self.dragon_paid:
            return
        s = self.sheet
        if all(s[c] is Terrain.DESTROYED or all(s.is_filled(*n) for n in neighbours(*c))
               for c in self.dragon):
            self.dragon_paid = True
            self.sheet = s.replace(coins=min(s.coins + 3, COIN_TRACK - s.spent))
            self.moves.append(Move("coins", amount=3))

    def empty_cells(self) -> list[Cell]:
        return sorted(self.sheet.empty_cells)

    # -- cards ------------------------------------------------------------------------------------
    def explore(self, name: str, ruins: bool) -> None:
        card = EXPLORE[name]
        rng = self.rng
        options = list(card.shapes)
        if len(options) == 2 and rng.random() >= COIN_SHAPE_CHANCE:
            options.reverse()  # the preferred shape first, the other when it has no room
        terrains = list(card.terrains)
        if Terrain.MONSTER in terrains and rng.random() < 0.8:  # rift lands: rarely a monster
            terrains.remove(Terrain.MONSTER)
        terrain = terrains[int(rng.integers(len(terrains)))]
        # A 1x1 only when no shape of the card can be drawn (on a ruins space, after a ruins card):
        # base rulebook p.5 "cannot legally draw any of the available shapes", p.6 Ruins.
        for option in options:
            spots = legal_placements(self.sheet, option.cells)
            if ruins:
                spots = [s for s in spots if s & self.sheet.unfilled_ruins]
            if spots:
                break
        else:
            self._one_by_one(card.name)
            return
        k = _choose(rng, _spot_scores(self.sheet, spots, terrain) + rng.normal(0, 0.3, len(spots)),
                    SPOT_TEMPERATURE)
        self.draw(spots[k], terrain, coin=option.coin, card=card.name)

    def _one_by_one(self, card: str) -> None:
        empty = self.empty_cells()
        if not empty:
            return
        terrain = [Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER][int(self.rng.integers(4))]
        spots = [frozenset([c]) for c in empty]
        k = _choose(self.rng, _spot_scores(self.sheet, spots, terrain), SPOT_TEMPERATURE)
        self.draw(spots[k], terrain, card=card)

    def ambush(self, card: AmbushCard) -> None:
        rng = self.rng
        if self.solo and card.solo_corner is not None:
            spot = _solo_spot(self.sheet, card)
            if spot is None:
                return
            cells = spot
        else:
            spots = legal_placements(self.sheet, card.shape.cells)
            if not spots:
                # A 1x1 monster without the monster's letter (de-H Hinterhalt: "In diesem Fall wird
                # kein Buchstabe notiert"), so without its effect: no dragon, zombie, troll or gorgon.
                spots = [frozenset([c]) for c in self.empty_cells()]
                if spots:
                    cells = spots[_choose(rng, _monster_scores(self.sheet, spots), 1.0)]
                    self.draw(cells, Terrain.MONSTER, neighbour=not self.solo, card=card.name)
                return
            cells = spots[_choose(rng, _monster_scores(self.sheet, spots), 1.0)]
        self.draw(cells, Terrain.MONSTER, neighbour=not self.solo, card=card.name)
        if card.monster == "dragon":
            self.dragon = cells
            self._dragon_check()
        elif card.monster == "zombie":
            self.zombies |= cells
        elif card.monster == "troll":
            self.trolls |= cells
        elif card.monster == "gorgon":
            around = sorted({n for c in cells for n in neighbours(*c)} - cells)
            victims = [c for c in around if self.sheet[c] is Terrain.EMPTY]
            if victims:
                self.destroy(frozenset([victims[int(rng.integers(len(victims)))]]))

    def hero(self, card: HeroCard) -> None:
        empty = self.empty_cells()
        if not empty:
            return
        monsters = _grid(self.sheet) == "M"
        best: list[tuple[float, Cell, frozenset[tuple[int, int]]]] = []
        for cell in empty:
            for attack in card.attack_orientations:
                hits = sum(1 for dr, dc in attack if 0 <= cell[0] + dr < SIZE and 0 <= cell[1] + dc < SIZE
                           and monsters[cell[0] + dr, cell[1] + dc])
                best.append((2.0 * hits + float(self.rng.normal(0, 0.5)), cell, attack))
        _, cell, attack = max(best, key=lambda t: t[0])
        self.sheet = place_hero(self.sheet, cell, card, attack)
        self.moves.append(Move("hero", frozenset([cell]), Terrain.HERO, attack=attack, card=card.name))
        self._dragon_check()

    def season_end(self) -> None:
        """Heroes ambush effects after scoring: zombies spread, trolls destroy a space."""
        s = self.sheet
        live_zombies = {c for c in self.zombies if s[c] is Terrain.MONSTER}
        spread = sorted({n for c in live_zombies for n in neighbours(*c) if s[n] is Terrain.EMPTY})
        for cell in spread:
            self.draw(frozenset([cell]), Terrain.MONSTER, card="Zombie Plague")
            self.zombies.add(cell)
        live_trolls = {c for c in self.trolls if self.sheet[c] is Terrain.MONSTER}
        victims = sorted({n for c in live_trolls for n in neighbours(*c) if self.sheet[n] is Terrain.EMPTY})
        if victims:
            self.destroy(frozenset([victims[int(self.rng.integers(len(victims)))]]))

    def spend(self) -> None:
        if self.sheet.coins and self.rng.random() < SPEND_CHANCE:
            amount = int(self.rng.integers(1, min(3, self.sheet.coins) + 1))
            self.sheet = self.sheet.replace(coins=self.sheet.coins - amount, spent=self.sheet.spent + amount)
            self.moves.append(Move("spend", amount=amount))


def _filled_share(sheet: Sheet) -> float:
    """Share of the drawable spaces (not printed) that are filled."""
    printed = sum(1 for t in sheet.cells if t.is_printed)
    drawn = sum(1 for t in sheet.cells if t.is_filled and not t.is_printed)
    return drawn / (SIZE * SIZE - printed)


def random_game(rng: np.random.Generator, *, side: str | None = None, season: int | None = None,
                fill: float | None = None, heroes: bool | None = None, solo: bool | None = None) -> Game:
    """Play a random legal game.

    Parameters
    ----------
    rng : the only source of randomness.
    side : ``A``/``B`` (base) or ``C``/``D`` (Heroes); default: random for the game.
    season : stop after this many seasons (1 = after spring ... 4 = after winter); default random.
    fill : stop as soon as this share of the drawable spaces is filled (may cut a season short).
    heroes : the Heroes game (heroes, Heroes cards, sides C/D); default: from ``side``, else random.
    solo : ambushes by the solo rules instead of a neighbour; default: random.

    Raises
    ------
    PlayError
        For an unknown side, a side that does not belong to the chosen game, or a bad season/fill.
    """
    if heroes is None:
        heroes = side in HEROES_SIDES if side is not None else bool(rng.random() < 0.4)
    sides = HEROES_SIDES if heroes else BASE_SIDES
    if side is None:
        side = sides[int(rng.integers(2))]
    if side not in sides:
        raise PlayError(f"side {side!r} is not a side of the {'Heroes' if heroes else 'base'} game; "
                        f"choose {' or '.join(sides)}")
    if season is None:
        season = int(rng.integers(1, 5))
    if not 1 <= season <= 4:
        raise PlayError(f"season must be 1-4 (spring-winter), not {season}")
    if fill is not None and not 0.0 <= fill <= 1.0:
        raise PlayError(f"fill must be a share between 0 and 1, not {fill}")
    if solo is None:
        solo = bool(rng.random() < SOLO_CHANCE)
    printed_side(side)  # raises for an unknown side
    game = "heroes" if heroes else "base"
    table = _Table(rng, side, heroes, solo)

    explore = [n for n, c in EXPLORE.items() if c.game == game]
    ambushes = [n for n, c in AMBUSH.items() if c.game == game]
    rng.shuffle(ambushes)
    hero_cards = list(HEROES) if heroes else []
    rng.shuffle(hero_cards)
    pending: list[str] = []  # ambushes shuffled in but not yet revealed
    pending_heroes: list[str] = []  # likewise heroes (Heroes: one more per season)
    done = 0
    stopped = False
    for k in range(season):
        if ambushes:
            pending.append(ambushes.pop())
        if hero_cards:
            pending_heroes.append(hero_cards.pop())
        deck = ([("explore", n) for n in explore] + [("ambush", n) for n in pending]
                + [("hero", n) for n in pending_heroes])
        order = rng.permutation(len(deck))
        time = 0
        ruins = False
        for i in order:
            kind, name = deck[int(i)]
            if kind == "ambush":
                table.ambush(AMBUSH[name])
                pending.remove(name)
            elif kind == "hero":
                table.hero(HEROES[name])
                pending_heroes.remove(name)
            elif EXPLORE[name].kind == "ruins":
                ruins = True
            else:
                table.explore(name, ruins)
                ruins = False
                time += EXPLORE[name].time
            if fill is not None and _filled_share(table.sheet) >= fill:
                stopped = True
                break
            if time >= THRESHOLDS[game][k]:
                break
        if stopped:
            break
        table.season_end()
        done += 1
    table.spend()

    draws = [m for m in table.moves if m.kind in ("draw", "hero")]
    return Game(
        sheet=table.sheet,
        pieces=tuple(m.cells for m in draws),
        piece_terrains=tuple(m.terrain for m in draws),
        neighbour_pieces=frozenset(i for i, m in enumerate(draws) if m.by_neighbour),
        moves=tuple(table.moves),
        seasons=done,
        heroes=heroes,
        solo=solo,
    )


def random_sheet(rng: np.random.Generator, **kwargs: object) -> Sheet:
    """Just the sheet of :func:`random_game` (same keywords)."""
    return random_game(rng, **kwargs).sheet  # type: ignore[arg-type]


def season_sheets(seed: int, **kwargs: object) -> tuple[Game, list[Sheet]]:
    """One whole game (seed `seed`, keywords as :func:`random_game` but ``season``) and its sheet after
    each of the four seasons: a game stopped after season k plays the same first k seasons (the
    season count is given, not drawn), so each earlier sheet is a replay of a prefix of the moves."""
    full = random_game(np.random.default_rng(seed), season=4, **kwargs)  # type: ignore[arg-type]
    sheets = []
    for k in range(1, 4):
        moves = list(random_game(np.random.default_rng(seed), season=k, **kwargs).moves)  # type: ignore[arg-type]
        if moves and moves[-1].kind == "spend":  # coins are crossed out only at the end of a game
            moves.pop()
        if tuple(moves) != full.moves[: len(moves)]:
            raise PlayError(f"seed {seed}: season {k} is not a prefix of the whole game")
        sheets.append(replay(full.sheet.side, moves))
    return full, [*sheets, full.sheet]
