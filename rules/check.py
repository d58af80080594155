"""Checking a whole sheet against the rules: every problem at once, each with its cells.

:func:`check_sheet` answers the question a tournament organiser asks of a finished map: could one
game of Cartographers (or Cartographers Heroes) have drawn this?  It reports, in the spirit of
python-chess's ``Board.status()``, every problem it finds (docs/INTERFACES.md §3, ``check``):

* ``unreadable``: ``?`` cells (they are then wildcards for the other checks);
* ``unexplained_region``: cells of one terrain that the game's shapes, within one game's draws,
  cannot have drawn (:func:`explain`: each terrain's cells as an exact cover by the shapes the cards
  offer it, the fewest 1x1 pieces first; the 1x1 pieces then have to fit what a game allows: Rift
  Lands / Kethra's Gates once a season, a ruins card's or an unplaceable shape's 1x1 only when a
  shape could not be drawn, zombies next to zombies);
* ``bad_outline``: an outlined piece (from a photo) in a shape no card offers its terrain;
* ``coins_exceed`` / ``coins_missing``: coins against the mountains surrounded and the coin shapes;
* ``star_without_hero`` / ``hero_stars_missing``: hit stars against the heroes' attack patterns;
* ``monster_on_star``: a living monster on a hit space (it is destroyed, ``X``);
* ``destroyed_without_star``: an ``X`` that neither a hit star nor a destroying monster explains;
* ``season_regression`` / ``season_placement``: with ``before``, what changed in one season.

The placement rules themselves live in :mod:`rules.shapes` (``placement_problems`` / ``can_place``
/ ``place``); this module asks them, and adds only what a finished sheet can still show.  The cover
search is bounded (:data:`NODE_BUDGET` per region): past it the answer is partial
(``CheckResult.partial``) and the region is given the benefit of the doubt, never a hang.

Rulings (docs/RULINGS.md section 7): which game a side plays (:data:`EDITIONS`), and that a 1x1 drawn
because a shape did not fit is accepted when none of some card's shapes fits the final empty spaces
plus those 1x1 cells (spaces never become empty again, so a shape that fits there fitted then too).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple

from rules.errors import SheetError
from rules.grid import (
    CELLS,
    COIN_TRACK,
    CUSTOM,
    SIZE,
    Cell,
    cell_label,
    cells_label,
    clusters_of,
    neighbours,
)
from rules.season import Season
from rules.shapes import (
    AMBUSH,
    EXPLORE,
    HEROES,
    AmbushCard,
    ExploreCard,
    Shape,
    normalise,
    orientations,
    pattern_of,
    surrounded_mountains,
)
from rules.sheet import Sheet, Terrain

__all__ = [
    "EDITIONS",
    "NODE_BUDGET",
    "TIME_BUDGET",
    "CheckProblem",
    "CheckResult",
    "Code",
    "CoinBounds",
    "Edition",
    "Explanation",
    "Piece",
    "check_sheet",
    "check_text",
    "coin_bounds",
    "explain",
    "least_time",
    "outline_problems",
    "pieces_from_labels",
]

NODE_BUDGET = 4000
"""Search nodes per region of one terrain before the cover search gives up (a partial answer)."""
SUBSET_LIMIT = 256
"""Most choices of which 1x1 pieces were forced fallbacks that are tried before accepting them."""


class Code(StrEnum):
    """The problem codes of ``cartoscan check`` (docs/INTERFACES.md §3, ``check``; plus a few of our own)."""

    UNREADABLE = "unreadable"
    UNEXPLAINED_REGION = "unexplained_region"
    BAD_OUTLINE = "bad_outline"
    COINS_EXCEED = "coins_exceed"
    COINS_MISSING = "coins_missing"
    STAR_WITHOUT_HERO = "star_without_hero"
    HERO_STARS_MISSING = "hero_stars_missing"
    MONSTER_ON_STAR = "monster_on_star"
    DESTROYED_WITHOUT_STAR = "destroyed_without_star"
    SEASON_REGRESSION = "season_regression"
    SEASON_PLACEMENT = "season_placement"
    SIDE_MISMATCH = "side_mismatch"
    HEADER = "header"


@dataclass(frozen=True, slots=True)
class CheckProblem:
    """One problem: its code, the cells at fault (row-major) and one readable line."""

    code: Code
    cells: tuple[Cell, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code.value,
            "cells": [cell_label(c) for c in self.cells],
            "message": self.message,
        }

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of an explanation: its cells, terrain, shape pattern and the cards that offer it
    (``cards`` is empty for a 1x1 that no card's shape needs: Rift Lands, a fallback, a zombie)."""

    cells: frozenset[Cell]
    terrain: Terrain
    pattern: str
    cards: tuple[str, ...]

    @property
    def single(self) -> bool:
        return not self.cards


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Everything :func:`check_sheet` found.

    Attributes
    ----------
    problems : tuple of CheckProblem
        Every problem, grouped by code in :class:`Code` order.
    pieces : tuple of Piece
        One explanation of the drawn spaces (the fewest 1x1 pieces).
    edition : str
        The cards the sheet was checked against (``"base"`` or ``"heroes"``).
    partial : bool
        Some search ran out of its budget; its region was given the benefit of the doubt.
    """

    problems: tuple[CheckProblem, ...]
    pieces: tuple[Piece, ...] = ()
    edition: str = "base"
    partial: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        """``{"ok", "problems": [{"code", "cells", "message"}]}`` (docs/INTERFACES.md §3, ``check``), plus
        ``"partial": true`` when a search was cut short."""
        out: dict[str, Any] = {"ok": self.ok, "problems": [p.to_json() for p in self.problems]}
        if self.partial:
            out["partial"] = True
        return out


# ---------------------------------------------------------------------------------------------
# The two editions' cards as shape tables (built once)


@dataclass(frozen=True)
class Edition:
    """The cards one game plays with: explore deck, ambushes, whether ruins cards are in the deck,
    and the season thresholds (rules/data/seasons.json)."""

    name: str
    explore: tuple[ExploreCard, ...]
    ambush: tuple[AmbushCard, ...]
    ruins_cards: bool
    thresholds: tuple[int, ...]

    @property
    def destroyers(self) -> tuple[AmbushCard, ...]:
        """Ambushes whose monster destroys neighbouring spaces (Heroes: gorgon once, troll each season)."""
        return tuple(a for a in self.ambush if a.monster in ("gorgon", "troll"))

    @property
    def zombies(self) -> bool:
        return any(a.monster == "zombie" for a in self.ambush)


def _edition(name: str) -> Edition:
    # Base: 13 explore cards (2 ruins), the 4 base and the 4 promo ambushes; Heroes: 11 explore cards,
    # no ruins cards (de-H "Die 6 Ruinen-Felder haben keine Bedeutung"), 4 Heroes ambushes.
    games = ("base", "promo") if name == "base" else ("heroes",)
    return Edition(
        name=name,
        explore=tuple(c for c in EXPLORE.values() if c.game == name and c.kind == "explore"),
        ambush=tuple(a for a in AMBUSH.values() if a.game in games),
        ruins_cards=any(c.kind == "ruins" for c in EXPLORE.values() if c.game == name),
        thresholds=tuple(s.threshold(name) for s in Season),
    )


EDITIONS: Mapping[str, Edition] = {name: _edition(name) for name in ("base", "heroes")}
"""The cards a side is checked against: sides A and B play the base game, C and D Heroes, a custom map
whichever explains it better (``edition=`` overrides: the Heroes rulebook lets a combined game choose)."""

_SIDE_EDITION = {"A": "base", "B": "base", "C": "heroes", "D": "heroes"}


def _mask(cells: Iterable[Cell]) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << (r * SIZE + c)
    return m


def _cells(mask: int) -> list[Cell]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CELLS[low.bit_length() - 1])
        mask ^= low
    return out


def _placements(shape: Shape) -> tuple[int, ...]:
    """Every on-map placement of `shape` in every orientation, as cell masks (distinct)."""
    out: set[int] = set()
    for o in orientations(normalise(shape)):
        h = max(r for r, _ in o)
        w = max(c for _, c in o)
        base = _mask(o)
        for ar in range(SIZE - h):
            for ac in range(SIZE - w):
                out.add(base << (ar * SIZE + ac))
    return tuple(sorted(out))


@dataclass(frozen=True)
class _Spec:
    """One shape a terrain can be drawn in: the cards that offer it and whether one shows a coin."""

    pattern: str
    size: int
    cards: tuple[str, ...]
    coin_cards: tuple[str, ...]
    placements: tuple[int, ...] = field(repr=False)


@cache
def _specs(edition: str, terrain: Terrain) -> tuple[_Spec, ...]:
    """The multi-cell shapes `terrain` can be drawn in (1x1s are handled by the budget), largest first."""
    ed = EDITIONS[edition]
    found: dict[Shape, tuple[list[str], list[str]]] = {}
    if terrain is Terrain.MONSTER:
        sources = [(a.name, a.shape.cells, False) for a in ed.ambush]
    else:
        sources = [
            (card.name, option.cells, option.coin)
            for card in ed.explore
            if terrain in card.terrains
            for option in card.shapes
        ]
    for name, cells, coin in sources:
        if len(cells) < 2:
            continue
        key = min(orientations(normalise(cells)), key=lambda s: sorted(s))
        cards, coins = found.setdefault(key, ([], []))
        cards.append(name)
        if coin:
            coins.append(name)
    specs = [
        _Spec(pattern_of(key), len(key), tuple(cards), tuple(coins), _placements(key))
        for key, (cards, coins) in found.items()
    ]
    return tuple(sorted(specs, key=lambda s: (-s.size, s.pattern)))


@cache
def _option_placements(edition: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each explore card's placements, all its shapes in all orientations together, for "could this
    card still be drawn?" (a 1x1 is drawn only when none of the card's shapes fits; base rulebook p.5
    "cannot legally draw any of the available shapes")."""
    out: list[tuple[str, tuple[int, ...]]] = []
    for card in EDITIONS[edition].explore:
        if all(len(option.cells) > 1 for option in card.shapes):
            out.append((card.name, tuple(m for option in card.shapes for m in _placements(option.cells))))
    return tuple(out)


@cache
def _ambush_placements(edition: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return tuple(
        (a.name, _placements(a.shape.cells)) for a in EDITIONS[edition].ambush if len(a.shape.cells) > 1
    )


def _max_draws(thresholds: Sequence[int], times: Sequence[int]) -> list[int]:
    """The most explore cards one season can reveal, per season: cards are revealed until their time
    reaches the threshold, each card once a season; the most come from the cheapest first."""
    out = []
    for t in thresholds:
        total = n = 0
        for time in sorted(times):
            n += 1
            total += time
            if total >= t:
                break
        out.append(n)
    return out


def _draw_caps(ed: Edition) -> list[int]:
    return _max_draws(ed.thresholds, [c.time for c in ed.explore])


def _max_time(ed: Edition, seasons: Sequence[int]) -> int:
    """The most time the explore cards of `seasons` (indices) can show: a season ends as soon as its
    cards' time meets its threshold, so before its last card it stood below the threshold (base
    rulebook "Check Phase"): at most threshold - 1 + the dearest card's time."""
    dearest = max(c.time for c in ed.explore)
    return sum(ed.thresholds[s] - 1 + dearest for s in seasons)


# ---------------------------------------------------------------------------------------------
# The time the drawn terrain costs: one game's draws

TIME_BUDGET = 6000
"""Search states per region of one terrain for the least explore time; past it the region counts 0."""
_NO_CARD = 1000
"""The cost of a 1x1 that no card's fallback can have drawn (only Rift Lands / Kethra's Gates)."""


def _fallback_costs(sheet: Sheet, ed: Edition) -> dict[int, int]:
    """For each cell (bit), the least time of a card whose 1x1 fallback can have drawn it: a card none
    of whose shapes fits the empty spaces plus that cell, or (base deck, after a ruins card) none of
    whose shapes covers a ruins space there (base rulebook p.5 Draw Phase, p.6 Ruins); spaces never
    become empty again, so those spaces were empty then.  :data:`_NO_CARD` where no card's can."""
    free = _mask(sheet.empty_cells)
    ruins = _mask(sheet.ruins) if ed.ruins_cards else 0
    everywhere = (1 << (SIZE * SIZE)) - 1
    cost = dict.fromkeys((1 << i for i in range(SIZE * SIZE)), _NO_CARD)
    for name, placements in _option_placements(ed.name):
        time = EXPLORE[name].time
        fits = 0  # cells where a shape fits with that cell empty too
        covers = 0  # likewise, covering a ruins space
        for m in placements:
            rest = m & ~free
            if rest & (rest - 1):
                continue  # two or more filled cells in the way
            fits |= rest or everywhere
            if m & ruins:
                covers |= rest or everywhere
        blocked = everywhere & ~(covers if ed.ruins_cards else fits)
        for bit in _bits(blocked):
            cost[bit] = min(cost[bit], time)
    return cost


_INF = 1 << 30


def _least_time(
    required: int,
    optional: int,
    placements: Sequence[tuple[int, int]],
    pieces: Sequence[tuple[int, bool]],
    singles: Mapping[int, int],
    free: int,
    budget: int,
    coins: int = 0,
) -> tuple[tuple[int, ...], ...] | None:
    """The least time of explore cards that can have drawn `required` (`optional` cells may be covered
    too): ``out[r][c]`` with up to `r` 1x1s free (Rift Lands), the others costing ``singles[bit]``, and
    `c` coin shapes (``c == coins``: at least that many).  A placement ``(mask, spec)`` costs
    ``pieces[spec] = (time, coin)``.  Exact (memoised on what is left to cover); None past `budget`
    states."""
    by_first: dict[int, list[tuple[int, int, bool]]] = {}
    for mask, k in placements:
        low = (mask & required) & -(mask & required)
        by_first.setdefault(low, []).append((mask, *pieces[k]))
    memo: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
    zero = tuple(tuple(0 if c == 0 else _INF for c in range(coins + 1)) for _ in range(free + 1))

    def add(row: Sequence[int], time: int, coin: bool) -> list[int]:
        if not (coin and coins):
            return [v + time for v in row]
        out = [_INF] * (coins + 1)
        for c, v in enumerate(row):
            k = min(coins, c + 1)
            out[k] = min(out[k], v + time)
        return out

    def least(rem: int, opt: int) -> tuple[tuple[int, ...], ...]:
        if not rem:
            return zero
        got = memo.get((rem, opt))
        if got is not None:
            return got
        if len(memo) > budget:
            raise _Cut
        low = rem & -rem
        avail = rem | opt
        sub = least(rem ^ low, opt)
        cost = singles[low]
        best = [[v + cost for v in sub[0]]]
        best += [
            [min(v + cost, u) for v, u in zip(sub[r], sub[r - 1], strict=True)] for r in range(1, free + 1)
        ]
        for mask, time, coin in by_first.get(low, ()):
            if mask & avail == mask:
                sub = least(rem & ~mask, opt & ~mask)
                best = [
                    [min(b, a) for b, a in zip(row, add(sub[r], time, coin), strict=True)]
                    for r, row in enumerate(best)
                ]
        out = tuple(tuple(row) for row in best)
        memo[(rem, opt)] = out
        return out

    try:
        return least(required, optional)
    except _Cut:
        return None


def _time_table(
    sheet: Sheet, ed: Edition, region: frozenset[Cell] | None, free: int, budget: int, coins: int = 0
) -> tuple[list[list[int]], bool]:
    """:func:`_least_time` over every part of the forest, village, farm and water of `sheet` (within
    `region`): ``table[r][c]``, and whether a search was cut short (its part then counts 0, any coins)."""
    stars = sheet.stars
    wild = 0
    for i, t in enumerate(sheet.cells):
        if t is Terrain.UNKNOWN or (t is Terrain.DESTROYED and CELLS[i] not in stars):
            wild |= 1 << i
    inside = _mask(region) if region is not None else (1 << (SIZE * SIZE)) - 1
    wild &= inside
    costs = _fallback_costs(sheet, ed)
    table = [[0 if c == 0 else _INF for c in range(coins + 1)] for _ in range(free + 1)]
    cut = False
    for terrain in (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER):
        required = _mask(sheet.cells_of(terrain)) & inside
        if not required:
            continue
        specs = _specs(ed.name, terrain)
        pieces = [(min(EXPLORE[n].time for n in spec.cards), bool(spec.coin_cards)) for spec in specs]
        avail = required | wild
        fitting = [
            (m, k) for k, spec in enumerate(specs) for m in spec.placements if m & avail == m and m & required
        ]
        for part in _components(required, wild, fitting):
            inside_part = [pl for pl in fitting if pl[0] & part]
            got = _least_time(part, wild, inside_part, pieces, costs, free, budget, coins)
            if got is None:
                cut = True
                got = tuple(tuple([0] * (coins + 1)) for _ in range(free + 1))
            merged = [[_INF] * (coins + 1) for _ in range(free + 1)]
            for r1, row1 in enumerate(table):
                for r2, row2 in enumerate(got[: free + 1 - r1]):
                    out = merged[r1 + r2]
                    for c1, v1 in enumerate(row1):
                        for c2, v2 in enumerate(row2):
                            k = min(coins, c1 + c2)
                            out[k] = min(out[k], v1 + v2)
            table = merged
    return table, cut


def least_time(
    sheet: Sheet,
    edition: str,
    *,
    region: frozenset[Cell] | None = None,
    seasons: int = 4,
    budget: int = TIME_BUDGET,
) -> tuple[int, bool]:
    """The least total time of the explore cards that can have drawn the forest, village, farm and
    water of `sheet` (within `region`), and whether a search was cut short (that region then counts 0).

    Each piece costs the time of the cheapest card offering its shape in its terrain; a 1x1 costs
    nothing for up to `seasons` of them (Rift Lands / Kethra's Gates, once a season), else the time of
    a card whose fallback can have drawn it (:func:`_fallback_costs`).  Card counts are not limited, so
    this is a lower bound on one game's draws: more than :func:`_max_time` is a problem.
    """
    table, cut = _time_table(sheet, EDITIONS[edition], region, seasons, budget)
    return table[seasons][0], cut


def _coin_shapes_in_time(sheet: Sheet, ed: Edition, region: frozenset[Cell], season: int, want: int) -> int:
    """The most coin shapes, up to `want`, among one season's new spaces `region` when the whole of them
    is drawn within the time that season shows (:func:`_max_time`); `want` when a search is cut short."""
    table, cut = _time_table(sheet, ed, region, 1, TIME_BUDGET, want)
    if cut:
        return want
    most = _max_time(ed, [season])
    return max((c for c in range(want + 1) if min(table[1][c:]) <= most), default=0)


def _seasons_named(which: Sequence[int]) -> str:
    names = [list(Season)[i].value for i in which]
    return names[0] if len(names) == 1 else f"{names[0]} to {names[-1]}"


def _time_problems(
    sheet: Sheet,
    ed: Edition,
    ex: Explanation,
    which: Sequence[int],
    code: Code,
    region: frozenset[Cell] | None = None,
) -> tuple[list[CheckProblem], bool]:
    """More explore time than the seasons `which` can show (:func:`least_time`, :func:`_max_time`).
    The explanation `ex` already found is one way to draw the sheet: when its time is within the
    seasons' time, so is the least, and the search is skipped."""
    most = _max_time(ed, which)
    costs = _fallback_costs(sheet, ed)
    shapes = [p for p in ex.pieces if p.cards and p.terrain is not Terrain.MONSTER]
    singles = sorted(
        (costs[_mask(p.cells)] for p in ex.pieces if not p.cards and p.terrain is not Terrain.MONSTER),
        reverse=True,
    )[len(which) :]
    if sum(min(EXPLORE[n].time for n in p.cards) for p in shapes) + sum(singles) <= most:
        return [], False
    need, cut = least_time(sheet, ed.name, region=region, seasons=len(which))
    if most < need < _NO_CARD:
        drawn = (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER)
        cells = tuple(sorted(c for c in sheet.cells_of(*drawn) if region is None or c in region))
        return [
            CheckProblem(
                code,
                cells,
                f"the drawn terrain needs explore cards with a time of at least {need} in all; "
                f"{_seasons_named(which)} show{'s' if len(which) == 1 else ''} at most {most} "
                "(a season ends once its cards' time meets its threshold)",
            )
        ], cut
    return [], cut


# ---------------------------------------------------------------------------------------------
# The cover search


class _Cut(Exception):
    """The node budget ran out."""


def _cover(
    required: int,
    optional: int,
    placements: Sequence[tuple[int, int]],
    budget: int,
    spec_cards: Sequence[Sequence[int]] | None = None,
    caps: Sequence[int] | None = None,
    colony: bool = False,
    max_pieces: int | None = None,
) -> tuple[list[tuple[int, int]], bool]:
    """An exact cover of `required` by `placements` (``(mask, spec)``; `optional` cells may be covered
    too, each at most once) with the fewest 1x1 pieces (spec ``-1``), larger shapes tried first.

    `spec_cards` names the cards (indices) offering each spec, and `caps` how often each card may be
    drawn (each explore card once a season, an ambush once a game).  With `colony`, 1x1 pieces are
    free when they form one orthogonally connected group (a zombie colony: Zombie Plague spreads to
    every empty neighbour of a zombie); the cost is the 1x1s outside it.  `max_pieces` bounds the
    shapes (not 1x1s) drawn (one ambush a season).

    Returns the pieces and whether the cost is proven minimal (False when the node budget ran out:
    the best found so far is returned).
    """
    by_first: dict[int, list[tuple[int, int]]] = {}
    for mask, spec in placements:
        low = (mask & required) & -(mask & required)
        by_first.setdefault(low.bit_length() - 1, []).append((mask, spec))
    best: list[Any] = [None, 1 << 30]
    nodes = 0
    chosen: list[tuple[int, int]] = []
    used = [0] * len(caps) if caps is not None else []

    def room(spec: int) -> int:
        if caps is None or spec_cards is None:
            return -2
        for card in spec_cards[spec]:
            if used[card] < caps[card]:
                return card
        return -1

    def dfs(rem: int, opt: int, singles: int) -> None:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Cut
        if rem == 0:
            cost = _outside_colony([m for m, k in chosen if k < 0]) if colony else singles
            if cost < best[1]:
                best[0], best[1] = list(chosen), cost
            return
        low = rem & -rem
        avail = rem | opt
        shapes_left = max_pieces is None or len(chosen) - singles < max_pieces
        for mask, spec in by_first.get(low.bit_length() - 1, ()) if shapes_left else ():
            if mask & avail != mask:
                continue
            card = room(spec)
            if card == -1:
                continue
            if card >= 0:
                used[card] += 1
            chosen.append((mask, spec))
            dfs(rem & ~mask, opt & ~mask, singles)
            chosen.pop()
            if card >= 0:
                used[card] -= 1
            if best[1] == 0:
                return
        if colony or singles + 1 < best[1]:
            chosen.append((low, -1))
            dfs(rem ^ low, opt, singles + 1)
            chosen.pop()

    try:
        dfs(required, optional, 0)
    except _Cut:
        if best[0] is None:  # nothing complete yet: finish greedily with 1x1 pieces
            rest = required & ~_union(m for m, _ in chosen)
            best[0] = [*chosen, *((b, -1) for b in _bits(rest))]
        return best[0], False
    return best[0], True


def _within_spreads(group: Iterable[Cell], spreads: int) -> bool:
    """Could `group` have grown from one zombie in `spreads` spreads (each to every empty neighbour)?
    Every cell then lies within `spreads` steps of the first (Manhattan distance, a bound)."""
    cells = list(group)
    return any(all(abs(r - r0) + abs(c - c0) <= spreads for r, c in cells) for r0, c0 in cells)


def _outside_colony(singles: Sequence[int]) -> int:
    """How many of the 1x1 `singles` lie outside their largest orthogonally connected group."""
    if not singles:
        return 0
    groups = clusters_of(CELLS[m.bit_length() - 1] for m in singles)
    return len(singles) - max(len(g) for g in groups)


def _union(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _components(required: int, optional: int, placements: Sequence[tuple[int, int]]) -> list[int]:
    """Split `required` into parts no placement joins (each solved alone)."""
    parent: dict[int, int] = {}

    def find(i: int) -> int:
        while parent.setdefault(i, i) != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for mask, _ in placements:
        bits = [b.bit_length() - 1 for b in _bits(mask)]
        root = find(bits[0])
        for b in bits[1:]:
            other = find(b)
            if other != root:
                parent[other] = root
    groups: dict[int, int] = {}
    for bit in _bits(required):
        i = bit.bit_length() - 1
        groups[find(i)] = groups.get(find(i), 0) | bit
    return list(groups.values())


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


@dataclass(frozen=True)
class Explanation:
    """How the drawn spaces can have been drawn (:func:`explain`): pieces with the fewest 1x1s."""

    pieces: tuple[Piece, ...]
    singles: frozenset[Cell]
    zombie_cells: frozenset[Cell]
    partial: bool
    min_pieces: int
    """A lower bound on the number of explore pieces (1x1s counted, monsters and heroes not)."""


def explain(
    sheet: Sheet,
    edition: str,
    *,
    region: frozenset[Cell] | None = None,
    seasons: int = 4,
    ambushes: int | None = None,
    budget: int = NODE_BUDGET,
) -> Explanation:
    """Explain each drawn terrain of `sheet` as pieces of the shapes `edition` offers it.

    Forest, village, farm and water come from explore cards, monsters (``M`` and destroyed monsters:
    ``X`` under a hit star) from ambush cards; an ``X`` without a star and a ``?`` may be covered by any
    piece or by none.  `region` limits the spaces to explain (a season's new spaces); pieces never
    reach outside it.  Each explore card is drawn at most once in each of `seasons` seasons, each
    ambush card once a game, and at most `ambushes` ambushes (default `seasons`: one joins the deck
    each season, and one not revealed stays for the next).

    Each terrain splits into parts that no shape joins, solved alone (the common case: fast); parts
    that together draw a card more often than the game allows are solved again as one problem.
    """
    grid = sheet.cells
    stars = sheet.stars
    wild = 0
    for i, t in enumerate(grid):
        if t is Terrain.UNKNOWN or (t is Terrain.DESTROYED and CELLS[i] not in stars):
            wild |= 1 << i
    inside = _mask(region) if region is not None else (1 << (SIZE * SIZE)) - 1
    wild &= inside
    ed = EDITIONS[edition]
    # One table of specs for the whole sheet: (terrain, spec) -> global index, with card indices.
    cards: list[str] = []
    spec_list: list[tuple[Terrain, _Spec]] = []
    spec_cards: list[list[int]] = []
    parts: list[tuple[Terrain, int, list[tuple[int, int]]]] = []
    for terrain in (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER):
        cells = sheet.cells_of(terrain)
        if terrain is Terrain.MONSTER:
            cells = cells | (sheet.cells_of(Terrain.DESTROYED) & stars)
        required = _mask(cells) & inside
        if not required:
            continue
        fitting: list[tuple[int, int]] = []
        for spec in _specs(edition, terrain):
            k = len(spec_list)
            spec_list.append((terrain, spec))
            ids = []
            for name in spec.cards:
                if name not in cards:
                    cards.append(name)
                ids.append(cards.index(name))
            spec_cards.append(ids)
            avail = required | wild
            fitting += [(m, k) for m in spec.placements if m & avail == m and m & required]
        if terrain is Terrain.MONSTER:  # few, and ambush cards are drawn once a game: one problem
            parts.append((terrain, required, fitting))
        else:
            parts += [
                (terrain, part, [(m, k) for m, k in fitting if m & part])
                for part in _components(required, wild, fitting)
            ]
    ambush_names = {a.name for a in ed.ambush}
    caps = [1 if name in ambush_names else seasons for name in cards]
    colony_ok = ed.zombies

    solved: list[tuple[Terrain, int, list[tuple[int, int]], bool]] = []
    for terrain, part, fitting in parts:
        monster = terrain is Terrain.MONSTER
        most = (seasons if ambushes is None else ambushes) if monster else None
        got, ok = _cover(part, wild, fitting, budget, spec_cards, caps, monster and colony_ok, most)
        solved.append((terrain, part, got, ok))
    # Cards drawn too often over all parts: solve the parts that draw them as one problem, growing it
    # while the new answer overdraws a card of a part outside it.
    joint: set[int] = set()
    for _ in range(4):
        over = _overdrawn_cards(solved, spec_list, seasons)
        grow = {
            i
            for i, (t, _, got, _) in enumerate(solved)
            if t is not Terrain.MONSTER and any(set(spec_list[k][1].cards) & over for _, k in got if k >= 0)
        }
        if not over or grow <= joint:
            break
        joint |= grow
        required = _union(solved[i][1] for i in joint)
        fitting = [pl for i in sorted(joint) for pl in parts[i][2]]
        got, ok = _cover(required, wild, fitting, budget * 4, spec_cards, caps, False)
        for i in joint:
            t, part, _, _ = solved[i]
            solved[i] = (t, part, [(m, k) for m, k in got if m & part], ok)

    pieces: list[Piece] = []
    singles: set[Cell] = set()
    zombie: set[Cell] = set()
    partial = False
    min_pieces = 0
    for terrain, part, got, ok in solved:
        partial |= not ok
        single_cells = [CELLS[m.bit_length() - 1] for m, k in got if k < 0]
        if terrain is Terrain.MONSTER and colony_ok and single_cells:
            # Zombie Plague: the largest connected group of 1x1 monsters is the colony, and so is a
            # group next to an earlier monster (zombies spreading from an earlier season's colony)
            groups = sorted(clusters_of(single_cells), key=len, reverse=True)
            earlier = _mask(sheet.cells_of(Terrain.MONSTER, Terrain.DESTROYED)) & ~inside
            for n, group in enumerate(groups):
                if (n == 0 and _within_spreads(group, seasons)) or any(
                    _mask(neighbours(*c)) & earlier for c in group
                ):
                    zombie.update(group)
                else:
                    singles.update(group)
        else:
            singles.update(single_cells)
        if terrain is not Terrain.MONSTER:
            biggest = max((spec.size for t, spec in spec_list if t is terrain), default=1)
            rest = part.bit_count() - len(single_cells)
            min_pieces += (len(single_cells) if ok else 0) + -(-rest // biggest)
        for m, k in got:
            cs = frozenset(_cells(m))
            if k < 0:
                pieces.append(Piece(cs, terrain, "X", ()))
            else:
                pieces.append(Piece(cs, terrain, spec_list[k][1].pattern, spec_list[k][1].cards))
    pieces.sort(key=lambda p: min(p.cells))
    return Explanation(tuple(pieces), frozenset(singles), frozenset(zombie), partial, min_pieces)


# ---------------------------------------------------------------------------------------------
# 1x1 pieces against what a game allows


def _fits(placements: Iterable[int], free: int) -> bool:
    return any(m & free == m for m in placements)


def _forced_possible(
    free: int,
    singles: Sequence[Cell],
    k: int,
    options: Iterable[tuple[str, tuple[int, ...]]],
    on: int | None = None,
) -> bool:
    """Could `k` of the 1x1 pieces `singles` have been forced, i.e. drawn when none of some card's
    shapes could be drawn (on `on` cells, for a ruins card)?  `options` holds each card's placements,
    all its shapes together.  Spaces never become empty again, so when those
    1x1s were drawn the empty spaces held today's (`free`) and the 1x1s' cells: a shape that fits
    there fitted then (base rulebook p.5 "If a player cannot legally draw any of the available
    shapes"; p.6 ruins)."""
    opts = [p for _, p in options]

    def blocked(extra: int) -> bool:
        space = free | extra
        target = on if on is None else on & space  # the ruins still unfilled then, at least
        for placements in opts:
            if target is None:
                if not _fits(placements, space):
                    return True
            elif not any(m & space == m and m & target for m in placements):
                return True
        return False

    masks = [1 << (r * SIZE + c) for r, c in singles]
    if blocked(_union(masks)):
        return True  # blocked with all of them free, so with any k of them
    combos = itertools.combinations(masks, k)
    for n, combo in enumerate(combos):
        if n >= SUBSET_LIMIT:
            return True  # too many choices to try: the benefit of the doubt
        if blocked(_union(combo)):
            return True
    return False


def _singles_problems(sheet: Sheet, ex: Explanation, ed: Edition, seasons: int) -> list[CheckProblem]:
    """1x1 pieces beyond Rift Lands / Kethra's Gates (one a season) must have been forced."""
    singles = sorted(ex.singles)
    excess = len(singles) - seasons
    if excess <= 0 or ex.partial:  # a cut search may have left 1x1s a full one would not
        return []
    free = _mask(sheet.empty_cells)
    explore = _option_placements(ed.name)
    monsters = [c for c in singles if sheet[c] in (Terrain.MONSTER, Terrain.DESTROYED)]
    if _forced_possible(free, singles, excess, explore):
        return []
    if ed.ruins_cards and sheet.ruins and excess <= 2 * seasons:
        ruins = _mask(sheet.ruins) & (free | _mask(singles))
        if _forced_possible(free, singles, excess, explore, on=ruins):
            return []
    if (
        monsters
        and len(monsters) >= excess
        and _forced_possible(free, monsters, excess, _ambush_placements(ed.name))
    ):
        return []
    card = "Kethra's Gates" if ed.name == "heroes" else "Rift Lands"
    return [
        CheckProblem(
            Code.UNEXPLAINED_REGION,
            tuple(singles),
            f"{len(singles)} spaces ({cells_label(singles)}) fit no shape their terrain is drawn in; "
            f"{card} gives one 1x1 a season ({seasons} here) and every card's shapes still fit, "
            "so no 1x1 was forced",
        )
    ]


def _overdrawn(pieces: Sequence[Piece], cap: int) -> list[Piece]:
    """Pieces left over when each card may be drawn `cap` times (a card offers its shape in each of its
    terrains, so Fishing Village's line of four as village and as water share one card's draws)."""
    match: dict[str, list[int]] = {}

    def augment(i: int, seen: set[str]) -> bool:
        for card in pieces[i].cards:
            if card in seen:
                continue
            seen.add(card)
            holders = match.setdefault(card, [])
            if len(holders) < cap:
                holders.append(i)
                return True
            for j, other in enumerate(holders):
                if augment(other, seen):
                    holders[j] = i
                    return True
        return False

    return [p for i, p in enumerate(pieces) if not augment(i, set())]


def _overdrawn_cards(
    solved: Sequence[tuple[Terrain, int, list[tuple[int, int]], bool]],
    spec_list: Sequence[tuple[Terrain, _Spec]],
    seasons: int,
) -> set[str]:
    """The explore cards the solved parts draw more often than `seasons` times."""
    pieces = [
        Piece(frozenset(_cells(m)), t, spec_list[k][1].pattern, spec_list[k][1].cards)
        for t, _, got, _ in solved
        if t is not Terrain.MONSTER
        for m, k in got
        if k >= 0
    ]
    return {n for p in _overdrawn(pieces, seasons) for n in p.cards}


def _draws_problems(ex: Explanation, seasons: int, code: Code, when: str) -> list[CheckProblem]:
    out: list[CheckProblem] = []
    if ex.partial:
        return out  # a cut search may have drawn a card too often where another cover would not
    explore = [p for p in ex.pieces if p.cards and p.terrain is not Terrain.MONSTER]
    ambush = [p for p in ex.pieces if p.cards and p.terrain is Terrain.MONSTER]
    for group, cap, what in ((explore, seasons, "explore card"), (ambush, 1, "ambush card")):
        left = _overdrawn(group, cap)
        if left:
            names = sorted({n for p in left for n in p.cards})
            cells = tuple(sorted(c for p in left for c in p.cells))
            times = "once" if cap == 1 else f"{cap} times"
            out.append(
                CheckProblem(
                    code,
                    cells,
                    f"{len(left)} more {' / '.join(names)} shapes at {cells_label(cells)} "
                    f"than {when} allows: "
                    f"each {what} is drawn {times}",
                )
            )
    return out


# ---------------------------------------------------------------------------------------------
# Coins


def _pack(placements: Sequence[int], cap: int, budget: int = 2000) -> int:
    """How many disjoint placements fit (at most `cap`; `cap` when the search runs out)."""
    best = 0
    nodes = 0

    def dfs(start: int, used: int, n: int) -> bool:
        nonlocal best, nodes
        nodes += 1
        best = max(best, n)
        if best >= cap or nodes > budget:
            return True
        for j in range(start, len(placements)):
            m = placements[j]
            if not m & used and dfs(j + 1, used | m, n + 1):
                return True
        return False

    if dfs(0, 0, 0) and nodes > budget:
        return cap
    return min(best, cap)


def _coin_shapes_max(sheet: Sheet, ed: Edition, seasons: int, region: int | None = None) -> int:
    """The most coins the coin shapes can have paid: each coin card once a season, and no more of its
    coin shape than fit (disjoint) in the cells of its terrain."""
    wild = _mask(sheet.unknown) | _mask(sheet.cells_of(Terrain.DESTROYED) - sheet.stars)
    total = 0
    for card in ed.explore:
        for option in card.shapes:
            if not option.coin:
                continue
            cells = _union(_mask(sheet.cells_of(t)) for t in card.terrains) | wild
            if region is not None:
                cells &= region
            inside = [m for m in _placements(option.cells) if m & cells == m and m & ~wild]
            total += _pack(inside, seasons)
    return total


def _dragon_paid_possible(sheet: Sheet, ed: Edition) -> bool:
    """Dragon Inferno: 3 coins once every dragon space is surrounded or destroyed."""
    dragon = next((a for a in ed.ambush if a.monster == "dragon"), None)
    if dragon is None:
        return False
    grid = sheet.cells
    filled = sheet.filled_mask
    monsterish = _mask(sheet.cells_of(Terrain.MONSTER, Terrain.DESTROYED, Terrain.UNKNOWN))
    # Its own shape only: a 1x1 drawn when the shape did not fit carries no letter, so no dragon.
    for m in _placements(dragon.shape.cells):
        if m & monsterish != m:
            continue
        cells = _cells(m)
        if all(
            grid[r * SIZE + c] is not Terrain.MONSTER
            or all(
                filled[n[0] * SIZE + n[1]] or grid[n[0] * SIZE + n[1]] is Terrain.UNKNOWN
                for n in neighbours(r, c)
            )
            for r, c in cells
        ):
            return True
    return False


def _mountains(sheet: Sheet) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """Mountains surrounded for sure, and those that may be (a ``?`` neighbour).  A mountain whose
    last neighbour was filled by a destroying monster (an ``X``) is not counted as sure: the rules
    do not say that pays, and our game player does not pay it."""
    destroyed = sheet.cells_of(Terrain.DESTROYED)
    sure = frozenset(m for m in surrounded_mountains(sheet) if not set(neighbours(*m)) & destroyed)
    maybe = frozenset(
        m
        for m in sheet.cells_of(Terrain.MOUNTAIN)
        if all(sheet[n] is not Terrain.EMPTY for n in neighbours(*m))
    )
    return sure, maybe


class CoinBounds(NamedTuple):
    """What can have paid a sheet's coins (:func:`coin_bounds`)."""

    surrounded: int
    """Mountains surrounded for sure (each paid 1 coin)."""
    maybe: int
    """Mountains that may be surrounded (a ``?`` neighbour counts as filled)."""
    shapes: int
    """The most coin shapes: each coin card once a season, no more than fit disjointly in its terrain."""
    dragon: int
    """3 when a Dragon Inferno can have paid, else 0."""

    @property
    def least(self) -> int:
        return min(self.surrounded, COIN_TRACK)

    @property
    def most(self) -> int:
        return min(COIN_TRACK, self.maybe + self.shapes + self.dragon)


def coin_bounds(sheet: Sheet, edition: str, seasons: int = 4) -> CoinBounds:
    """The coins (filled and spent) `sheet` can hold after `seasons` seasons: at least one per surrounded
    mountain, at most those, the coin shapes and a paid dragon (base rulebook p.5; Dragon Inferno)."""
    ed = EDITIONS[edition]
    sure, maybe = _mountains(sheet)
    dragon = 3 if _dragon_paid_possible(sheet, ed) else 0
    return CoinBounds(len(sure), len(maybe), _coin_shapes_max(sheet, ed, seasons), dragon)


def _coin_problems(sheet: Sheet, ed: Edition, seasons: int) -> list[CheckProblem]:
    out: list[CheckProblem] = []
    have = sheet.coins + sheet.spent
    sure, _ = _mountains(sheet)
    bounds = coin_bounds(sheet, ed.name, seasons)
    if have < bounds.least:
        out.append(
            CheckProblem(
                Code.COINS_MISSING,
                tuple(sorted(sure)),
                f"{have} coins (filled and spent) but {len(sure)} mountains are surrounded "
                "(each pays 1 coin; base rulebook p.5)",
            )
        )
    if have > bounds.most:
        why = f"{bounds.maybe} surrounded mountains and at most {bounds.shapes} coin shapes"
        why += " and the dragon's 3" if bounds.dragon else ""
        out.append(
            CheckProblem(
                Code.COINS_EXCEED,
                (),
                f"{have} coins (filled and spent) but {why} pay at most {bounds.most}",
            )
        )
    return out


def _season_coin_shapes(sheet: Sheet, ed: Edition, new: frozenset[Cell], ex: Explanation) -> int:
    """How many coin shapes one season's new spaces can hold: each coin card once, and only where the
    rest of its terrain's new spaces can still be drawn (its 1x1s within what a season allows: one
    Rift Lands, more only if forced)."""
    wild = _mask(sheet.unknown) | _mask(sheet.cells_of(Terrain.DESTROYED) - sheet.stars)
    free = _mask(sheet.empty_cells)
    # As many 1x1s as the cheapest explanation needs are allowed when it passed (forced, ruins).
    allowed = max(1, len(ex.singles)) if not _singles_problems(sheet, ex, ed, 1) else 1
    total = 0
    for card in ed.explore:
        for option in card.shapes:
            if not option.coin:
                continue
            (terrain,) = card.terrains  # the coin cards offer one terrain each
            if any(card.name in p.cards and p.pattern == _canonical(option.cells) for p in ex.pieces):
                total += 1  # the cheapest explanation already draws it
                continue
            region = _mask(sheet.cells_of(terrain) & new)
            others = [c for c in ex.singles if sheet[c] is not terrain]
            total += _coin_fits(sheet, ed, card.name, option.cells, region, wild, free, others, allowed)
    return total


def _canonical(cells: Iterable[tuple[int, int]]) -> str:
    """The pattern :func:`_specs` names a shape by (its first orientation)."""
    return pattern_of(min(orientations(normalise(cells)), key=lambda s: sorted(s)))


def _coin_fits(
    sheet: Sheet,
    ed: Edition,
    name: str,
    shape: Shape,
    region: int,
    wild: int,
    free: int,
    others: Sequence[Cell],
    allowed: int,
    budget: int = 1000,
    tries: int = 40,
) -> int:
    """1 if `name`'s coin `shape` can be one of the pieces that drew `region` (the rest covered by the
    terrain's other shapes, each card once, and 1x1s within a season's allowance), else 0."""
    terrain = sheet[CELLS[(region & -region).bit_length() - 1]] if region else None
    if terrain is None:
        return 0
    specs = _specs(ed.name, terrain)
    cards = sorted({n for spec in specs for n in spec.cards})
    spec_cards = [[cards.index(n) for n in spec.cards] for spec in specs]
    caps = [0 if n == name else 1 for n in cards]  # the coin piece draws its card's one draw
    placements = [m for m in _placements(shape) if m & (region | wild) == m and m & region]
    for p in placements[:tries]:
        rest = region & ~p
        avail = rest | (wild & ~p)
        fitting = [
            (m, k) for k, spec in enumerate(specs) for m in spec.placements if m & avail == m and m & rest
        ]
        got, ok = _cover(rest, wild & ~p, fitting, budget, spec_cards, caps)
        if not ok:
            return 1  # cut short: the benefit of the doubt
        singles = [*others, *(CELLS[m.bit_length() - 1] for m, k in got if k < 0)]
        excess = len(singles) - allowed
        if excess <= 0 or _forced_possible(free, singles, len(singles) - 1, _option_placements(ed.name)):
            return 1
    return 1 if len(placements) > tries else 0


# ---------------------------------------------------------------------------------------------
# Heroes, stars and destroyed spaces


def _hits(cell: Cell, attack: Iterable[tuple[int, int]]) -> frozenset[Cell]:
    r, c = cell
    return frozenset((r + dr, c + dc) for dr, dc in attack if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)


def _hero_problems(sheet: Sheet, seasons: int) -> list[CheckProblem]:
    """The stars must be exactly the on-map hits of the heroes drawn, each hero card once, each
    pattern rotated or flipped at will (de-H "Held_innen")."""
    heroes = sorted(sheet.cells_of(Terrain.HERO))
    stars = sheet.stars
    out: list[CheckProblem] = []
    if len(heroes) > min(seasons, len(HEROES)):
        out.append(
            CheckProblem(
                Code.UNEXPLAINED_REGION,
                tuple(heroes),
                f"{len(heroes)} heroes but a game reveals at most {min(seasons, len(HEROES))} hero cards",
            )
        )
    if not stars and not heroes:
        return out
    options = [
        [(card.name, _hits(h, attack)) for card in HEROES.values() for attack in card.attack_orientations]
        for h in heroes[: len(HEROES)]
    ]
    best: list[Any] = [None, 1 << 30]
    nodes = 0

    def dfs(i: int, used: frozenset[str], union: frozenset[Cell], chosen: list[frozenset[Cell]]) -> None:
        nonlocal nodes
        nodes += 1
        extra = len(union - stars)
        if extra >= best[1] or nodes > 20000:
            return
        if i == len(options):
            cost = extra + len(stars - union)
            if cost < best[1]:
                best[0], best[1] = union, cost
            return
        ranked = sorted(options[i], key=lambda o: len(o[1] - stars) - len(o[1] & stars))
        for name, hits in ranked:
            if name not in used:
                dfs(i + 1, used | {name}, union | hits, [*chosen, hits])
                if best[1] == 0:
                    return

    dfs(0, frozenset(), frozenset(), [])
    union: frozenset[Cell] = best[0] if best[0] is not None else frozenset()
    lonely = sorted(stars - union)
    missing = sorted(union - stars)
    if lonely:
        who = "no hero on the sheet" if not heroes else "no hero's attack pattern reaches them"
        out.append(
            CheckProblem(Code.STAR_WITHOUT_HERO, tuple(lonely), f"hit stars at {cells_label(lonely)}: {who}")
        )
    if missing:
        out.append(
            CheckProblem(
                Code.HERO_STARS_MISSING,
                tuple(missing),
                f"the heroes' attack patterns also hit {cells_label(missing)}, which carry no star "
                '(every hit on the map is marked; de-H "Held_innen")',
            )
        )
    return out


def _destroyed_problems(sheet: Sheet, ed: Edition, seasons: int) -> list[CheckProblem]:
    """An ``X`` is a monster under a hit star, or a space a gorgon (once) or troll (once a season)
    destroyed next to itself."""
    unstarred = sorted(sheet.cells_of(Terrain.DESTROYED) - sheet.stars)
    if not unstarred:
        return []
    monsterish = _mask(sheet.cells_of(Terrain.MONSTER, Terrain.DESTROYED, Terrain.UNKNOWN))
    near: set[Cell] = set()
    cap = 0
    for card in ed.destroyers:
        # Its own shape only: a 1x1 drawn when the shape did not fit carries no letter and so no
        # effect (de-H Hinterhalt: "In diesem Fall wird kein Buchstabe notiert").
        bodies = [m for m in _placements(card.shape.cells) if m & monsterish == m]
        for m in bodies:
            body = set(_cells(m))
            near |= {n for c in body for n in neighbours(*c)} - body
        if bodies:
            cap += 1 if card.monster == "gorgon" else seasons
    explained = [c for c in unstarred if c in near][:cap]
    wrong = [c for c in unstarred if c not in explained]
    if not wrong:
        return []
    why = (
        "no gorgon or troll is drawn next to them"
        if ed.destroyers
        else f"the {ed.name} game has no monster that destroys spaces"
    )
    return [
        CheckProblem(
            Code.DESTROYED_WITHOUT_STAR,
            tuple(wrong),
            f"destroyed spaces {cells_label(wrong)} carry no hit star and {why}",
        )
    ]


# ---------------------------------------------------------------------------------------------
# Outlines read from a photo


@cache
def _outline_shapes(edition: str) -> dict[Terrain, frozenset[Shape]]:
    """The shapes a player outlines, per terrain: each connected part of a card's shape (a gapped or
    diagonal shape is drawn as separate squares), in every orientation; a 1x1 for every terrain."""
    table: dict[Terrain, set[Shape]] = {}
    ed = EDITIONS[edition]
    sources = [(option.cells, card.terrains) for card in ed.explore for option in card.shapes]
    sources += [(a.shape.cells, (Terrain.MONSTER,)) for a in ed.ambush]
    for cells, terrains in sources:
        for part in clusters_of(cells):
            for o in orientations(normalise(part)):
                for t in terrains:
                    table.setdefault(t, set()).add(o)
    single = frozenset({(0, 0)})
    for t in (Terrain.FOREST, Terrain.VILLAGE, Terrain.FARM, Terrain.WATER, Terrain.MONSTER, Terrain.HERO):
        table.setdefault(t, set()).add(single)
    return {t: frozenset(s) for t, s in table.items()}


def outline_problems(outlines: Iterable[tuple[Iterable[Cell], Terrain]], edition: str) -> list[CheckProblem]:
    """``bad_outline`` for each outlined piece whose shape no card offers its terrain."""
    shapes = _outline_shapes(edition)
    out = []
    for cells, terrain in outlines:
        cs = frozenset(cells)
        if not cs or terrain not in shapes:
            continue
        if normalise(cs) not in shapes[terrain]:
            out.append(
                CheckProblem(
                    Code.BAD_OUTLINE,
                    tuple(sorted(cs)),
                    f"an outlined {terrain.word} piece {pattern_of(cs)} at {cells_label(cs)}: no "
                    f"{edition} card offers that shape in {terrain.word}",
                )
            )
    return out


def pieces_from_labels(labels: Any, sheet: Sheet) -> list[tuple[frozenset[Cell], Terrain]]:
    """Outlined pieces from an (11, 11) array of piece numbers (0 or less: no piece; what
    ``scanner.pieces.find_pieces`` returns), as
    ``(cells, terrain)``; only pieces whose cells all hold the same drawn terrain are kept (an
    unoutlined empty area or a misread cell says nothing about shapes)."""
    groups: dict[int, list[Cell]] = {}
    for r in range(SIZE):
        for c in range(SIZE):
            k = int(labels[r][c])
            if k > 0:
                groups.setdefault(k, []).append((r, c))
    out = []
    for _, cells in sorted(groups.items()):
        kinds = {sheet[c] for c in cells}
        if len(kinds) == 1:
            (t,) = kinds
            if t.is_drawable:
                out.append((frozenset(cells), t))
    return out


# ---------------------------------------------------------------------------------------------
# Season to season


def _season_problems(before: Sheet, after: Sheet, ed: Edition, season: int | None) -> list[CheckProblem]:
    out: list[CheckProblem] = []
    back: list[Cell] = []
    changed: list[Cell] = []
    for cell in CELLS:
        was, now = before[cell], after[cell]
        if was is Terrain.UNKNOWN or now is Terrain.UNKNOWN or was is now or was is Terrain.EMPTY:
            continue
        if now is Terrain.EMPTY:
            back.append(cell)
        elif now is Terrain.DESTROYED:
            continue  # a hit star or a destroying monster; _destroyed_problems judges the X itself
        else:
            changed.append(cell)
    if back:
        out.append(
            CheckProblem(
                Code.SEASON_REGRESSION, tuple(back), f"filled before, empty now: {cells_label(back)}"
            )
        )
    if changed:
        what = ", ".join(f"{cell_label(c)} {before[c].value}->{after[c].value}" for c in changed)
        out.append(
            CheckProblem(Code.SEASON_REGRESSION, tuple(changed), f"changed since the last season: {what}")
        )
    gone = sorted(before.stars - after.stars)
    if gone:
        out.append(
            CheckProblem(Code.SEASON_REGRESSION, tuple(gone), f"hit stars erased: {cells_label(gone)}")
        )
    if after.spent < before.spent or after.coins + after.spent < before.coins + before.spent:
        out.append(
            CheckProblem(
                Code.SEASON_REGRESSION,
                (),
                f"coins went from {before.coins} (+{before.spent} spent) "
                f"to {after.coins} (+{after.spent} spent)",
            )
        )
    # The new spaces: one season's draws.
    new = frozenset(
        c
        for c in CELLS
        if before[c] is Terrain.EMPTY and after[c] is not Terrain.EMPTY and after[c] is not Terrain.UNKNOWN
    )
    if not new:
        return out
    ex = explain(after, ed.name, region=new, seasons=1, ambushes=season + 1 if season is not None else 4)
    caps = _draw_caps(ed)
    cap = caps[season] if season is not None else max(caps)
    if not ex.partial and ex.min_pieces > cap:
        out.append(
            CheckProblem(
                Code.SEASON_PLACEMENT,
                tuple(sorted(new)),
                f"the new spaces need at least {ex.min_pieces} explore draws; "
                f"one season reveals at most {cap}",
            )
        )
    for problem in _singles_problems(after, ex, ed, 1):
        out.append(CheckProblem(Code.SEASON_PLACEMENT, problem.cells, "this season: " + problem.message))
    out += _draws_problems(ex, 1, Code.SEASON_PLACEMENT, "one season")
    which = season if season is not None else max(range(len(ed.thresholds)), key=lambda i: ed.thresholds[i])
    out += _time_problems(after, ed, ex, [which], Code.SEASON_PLACEMENT, region=new)[0]
    # Coins earned this season.
    gained = (after.coins + after.spent) - (before.coins + before.spent)
    sure_before, maybe_before = _mountains(before)
    sure_after, maybe_after = _mountains(after)
    room = COIN_TRACK - (before.coins + before.spent)
    owed = min(len(sure_after - maybe_before), room)
    if gained < owed:
        newly = tuple(sorted(sure_after - maybe_before))
        out.append(
            CheckProblem(
                Code.COINS_MISSING,
                newly,
                f"{len(newly)} mountains surrounded this season but {gained} coins gained",
            )
        )
    mountains = len(maybe_after - sure_before)
    dragon = 3 if _dragon_paid_possible(after, ed) else 0
    shapes = _season_coin_shapes(after, ed, new, ex)
    want = gained - mountains - dragon  # the coin shapes the gain needs
    why = ""
    if 0 < want <= shapes:
        # Coin shapes are small: drawing more of them may take more of the season's time than it shows.
        timed = _coin_shapes_in_time(after, ed, new, which, want)
        if timed < want:
            shapes = timed
            why = f" (the new spaces hold at most {timed} coin shapes within the season's time)"
    most = mountains + shapes + dragon
    if gained > min(most, room):
        out.append(
            CheckProblem(
                Code.COINS_EXCEED,
                (),
                f"{gained} coins gained this season but at most {min(most, room)} earned{why}",
            )
        )
    return out


# ---------------------------------------------------------------------------------------------
# The whole sheet


def _check(
    sheet: Sheet,
    ed: Edition,
    before: Sheet | None,
    outlines: Sequence[tuple[Iterable[Cell], Terrain]] | None,
    seasons: int,
    season: int | None,
    budget: int,
) -> CheckResult:
    problems: list[CheckProblem] = []
    if sheet.unknown:
        problems.append(
            CheckProblem(
                Code.UNREADABLE,
                sheet.unknown,
                f"{len(sheet.unknown)} unreadable spaces ('?'): {cells_label(sheet.unknown)}",
            )
        )
    ex = explain(sheet, ed.name, seasons=seasons, budget=budget)
    problems += _singles_problems(sheet, ex, ed, seasons)
    caps = _draw_caps(ed)
    cap = sum(caps[:seasons])
    if ex.min_pieces > cap:
        drawn = tuple(sorted(c for p in ex.pieces if p.terrain is not Terrain.MONSTER for c in p.cells))
        problems.append(
            CheckProblem(
                Code.UNEXPLAINED_REGION,
                drawn,
                f"the drawn terrain needs at least {ex.min_pieces} explore draws; "
                f"{seasons} seasons reveal at most {cap}",
            )
        )
    problems += _draws_problems(ex, seasons, Code.UNEXPLAINED_REGION, "one game")
    timed, cut = _time_problems(sheet, ed, ex, range(seasons), Code.UNEXPLAINED_REGION)
    problems += timed
    ambush = [p for p in ex.pieces if p.terrain is Terrain.MONSTER and p.cards]
    if len(ambush) > seasons:
        problems.append(
            CheckProblem(
                Code.UNEXPLAINED_REGION,
                tuple(sorted(c for p in ambush for c in p.cells)),
                f"{len(ambush)} ambush shapes; a game reveals one ambush a season ({seasons} here)",
            )
        )
    problems += _coin_problems(sheet, ed, seasons)
    problems += _hero_problems(sheet, seasons)
    on_star = sorted(sheet.cells_of(Terrain.MONSTER) & sheet.stars)
    if on_star:
        problems.append(
            CheckProblem(
                Code.MONSTER_ON_STAR,
                tuple(on_star),
                f"living monsters on hit spaces {cells_label(on_star)}: a monster under a star is destroyed "
                'at once (write X; de-H "Zerstörte Felder")',
            )
        )
    problems += _destroyed_problems(sheet, ed, seasons)
    if outlines:
        problems += outline_problems(outlines, ed.name)
    if before is not None:
        problems += _season_problems(before, sheet, ed, season)
    order = list(Code)
    problems.sort(key=lambda p: (order.index(p.code), p.cells))
    return CheckResult(tuple(problems), ex.pieces, ed.name, ex.partial or cut)


def check_sheet(
    sheet: Sheet,
    *,
    before: Sheet | None = None,
    outlines: Sequence[tuple[Iterable[Cell], Terrain]] | None = None,
    edition: str | None = None,
    season: Season | str | None = None,
    budget: int = NODE_BUDGET,
) -> CheckResult:
    """Every problem of `sheet` at once (see the module docstring for the codes).

    Parameters
    ----------
    before : Sheet, optional
        The same sheet one season earlier: nothing filled may empty or change, and the new spaces must
        be one season's draws.
    outlines : sequence of (cells, Terrain), optional
        Pieces as outlined on a photo (:func:`pieces_from_labels`).
    edition : ``"base"`` or ``"heroes"``, optional
        The cards played; default from the side (A/B base, C/D Heroes, custom whichever fits better).
    season : Season or name, optional
        The season just ended (caps the draws: one Rift Lands, hero and ambush a season); default
        unknown (up to four seasons).
    budget : int
        Search nodes per region before a partial answer.
    """
    if edition is not None and edition not in EDITIONS:
        raise SheetError(f"unknown edition {edition!r}: expected base or heroes")
    which = Season.parse(season) if isinstance(season, str) else season
    index = list(Season).index(which) if which is not None else None
    seasons = index + 1 if index is not None else 4
    names = (
        [edition] if edition else ([_SIDE_EDITION[sheet.side]] if sheet.side != CUSTOM else list(EDITIONS))
    )
    results = [_check(sheet, EDITIONS[n], before, outlines, seasons, index, budget) for n in names]
    return min(results, key=lambda r: len(r.problems))


# ---------------------------------------------------------------------------------------------
# From the text notation: a header problem does not hide the grid's problems

_HEADER_CODES = {
    "coins": Code.COINS_EXCEED,
    "side": Code.SIDE_MISMATCH,
    "ruins": Code.HEADER,
    "header": Code.HEADER,
}


def check_text(
    text: str,
    *,
    before: Sheet | None = None,
    edition: str | None = None,
    season: Season | str | None = None,
) -> CheckResult:
    """:func:`check_sheet` on a sheet text, with the notation's own problems (header values, a grid
    that contradicts its printed side) reported beside the grid's instead of stopping at the first.

    Raises
    ------
    SheetError
        When the text is not a sheet at all (wrong number of grid lines, unknown symbols).
    """
    problems = Sheet.check(text)
    fatal = [p for p in problems if p.fatal]
    if not fatal:
        return check_sheet(Sheet.parse(text), before=before, edition=edition, season=season)
    if any(p.code in ("symbol", "length", "grid_lines") for p in fatal):
        raise SheetError(str(next(p for p in fatal if p.code in ("symbol", "length", "grid_lines"))))
    lines = text.splitlines()
    drop = {p.line for p in fatal if p.code != "side" and p.line is not None and not p.cells}
    side_lines = [i for i, line in enumerate(lines, start=1) if line.strip().lower().startswith("side:")]
    keep = [line for i, line in enumerate(lines, start=1) if i not in drop]
    if any(p.code == "side" for p in fatal):
        # Checked as a custom map with the side's ruins: the printed features are whatever is drawn.
        side = lines[side_lines[0] - 1].split(":", 1)[1].strip() if side_lines else "A"
        ed = edition or _SIDE_EDITION.get(side.upper(), "base")
        from rules.sides import printed_side

        ruins = cells_label(printed_side(side).ruins)
        keep = [line for line in keep if not line.strip().lower().startswith(("side:", "ruins:"))]
        keep = ["side: custom", *([f"ruins: {ruins}"] if ruins else []), *keep]
        edition = ed
    try:
        sheet = Sheet.parse("\n".join(keep))
    except SheetError:
        raise SheetError(str(fatal[0])) from None
    result = check_sheet(sheet, before=before, edition=edition, season=season)
    notation = [
        CheckProblem(_HEADER_CODES.get(p.code, Code.HEADER), tuple(sorted(p.cells)), str(p)) for p in fatal
    ]
    order = list(Code)
    merged = sorted([*notation, *result.problems], key=lambda p: (order.index(p.code), p.cells))
    return CheckResult(tuple(merged), result.pieces, result.edition, result.partial)
