"""Explore, ambush and hero cards as data, shape orientations, and drawing on a sheet.

The card facts live in ``rules/data/{explore,ambush,heroes}.json``; this module turns them into
shapes (frozensets of ``(row, col)`` offsets, normalised to a top-left of ``(0, 0)``) and writes
each drawing rule once as verify / can / do:

* :func:`placement_problems` says why cells cannot be drawn (an empty list when they can),
* :func:`can_place` is its boolean,
* :func:`place` draws them (raising :class:`PlacementError` when illegal).

Rules (base rulebook p.5-6, Heroes rulebook "Zeichnen"): a shape may be rotated and flipped; it
must lie on the map and cover only empty spaces (an unfilled ruins space is empty and may be
drawn on); printed gaps (``_`` in a pattern) are not part of the shape.  A shape with a coin
earns 1 coin, and each mountain earns 1 coin once, when its last orthogonal neighbour is filled.
The coin track holds 14 coins; coins beyond it are lost.

Random legal play (the renderer's use)::

    sheet = Sheet.blank("A")
    card = EXPLORE["Hamlet"]
    option = card.shapes[0]
    spots = legal_placements(sheet, option.cells)
    sheet = place(sheet, spots[0], Terrain.VILLAGE, coin=option.coin)
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeVar

from rules.errors import SheetError
from rules.grid import COIN_TRACK, SIZE, Cell, cell_label, neighbours
from rules.sheet import Sheet, Terrain

__all__ = [
    "AMBUSH",
    "EXPLORE",
    "HEROES",
    "AmbushCard",
    "ExploreCard",
    "HeroCard",
    "PlacementError",
    "ShapeOption",
    "ambush_card",
    "can_place",
    "can_place_hero",
    "explore_card",
    "hero_card",
    "legal_placements",
    "mountain_coins",
    "normalise",
    "orientations",
    "overlaps_ruins",
    "parse_pattern",
    "pattern_of",
    "place",
    "place_hero",
    "place_solo_ambush",
    "placement_problems",
    "ruins_placements",
    "solo_ambush_placement",
    "surrounded_mountains",
    "translate",
]

Offset = tuple[int, int]
Shape = frozenset[Offset]


class PlacementError(SheetError):
    """A drawing that breaks the rules (off the map, over a filled space, wrong terrain...)."""


# ---------------------------------------------------------------------------------------------
# Shapes


def parse_pattern(pattern: str) -> tuple[Shape, Shape]:
    """``"X_X/X_X"`` -> (cells, gaps): ``X`` is a cell, ``_`` a printed gap, ``.`` nothing."""
    cells: set[Offset] = set()
    gaps: set[Offset] = set()
    for r, row in enumerate(pattern.split("/")):
        for c, ch in enumerate(row):
            if ch in "X_":
                (cells if ch == "X" else gaps).add((r, c))
            elif ch != ".":
                raise ValueError(f"bad pattern character {ch!r} in {pattern!r}")
    return frozenset(cells), frozenset(gaps)


def normalise(cells: Iterable[Offset]) -> Shape:
    """Shift offsets so the smallest row and the smallest column are 0."""
    cells = list(cells)
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return frozenset((r - r0, c - c0) for r, c in cells)


def pattern_of(shape: Iterable[Offset]) -> str:
    """The ``X``/``.`` pattern of a shape, rows joined by ``/`` (inverse of :func:`parse_pattern`)."""
    cells = normalise(shape)
    h = max(r for r, _ in cells) + 1
    w = max(c for _, c in cells) + 1
    return "/".join("".join("X" if (r, c) in cells else "." for c in range(w)) for r in range(h))


@cache
def orientations(shape: Shape) -> tuple[Shape, ...]:
    """The distinct rotations and reflections of `shape` (1 to 8), normalised, in a fixed order."""
    out: list[Shape] = []
    cur = list(shape)
    for flip in (False, True):
        pts = [(r, -c) for r, c in cur] if flip else cur
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]  # rotate 90 degrees clockwise
            norm = normalise(pts)
            if norm not in out:
                out.append(norm)
    return tuple(sorted(out, key=lambda s: sorted(s)))


def translate(shape: Iterable[Offset], anchor: Cell) -> frozenset[Cell]:
    """The cells covered by `shape` with its ``(0, 0)`` offset at `anchor`."""
    ar, ac = anchor
    return frozenset((ar + r, ac + c) for r, c in shape)


# ---------------------------------------------------------------------------------------------
# Cards as data


@dataclass(frozen=True, slots=True)
class ShapeOption:
    """One shape printed on a card: its cells, printed gaps and whether choosing it earns a coin."""

    pattern: str
    coin: bool
    cells: Shape = field(init=False)
    gaps: Shape = field(init=False)

    def __post_init__(self) -> None:
        cells, gaps = parse_pattern(self.pattern)
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "gaps", gaps)

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def orientations(self) -> tuple[Shape, ...]:
        return orientations(self.cells)


@dataclass(frozen=True, slots=True)
class ExploreCard:
    """An explore card. ``kind`` is ``"explore"`` or ``"ruins"`` (ruins cards have no shapes)."""

    name: str
    game: str
    kind: str
    time: int
    terrains: tuple[Terrain, ...]
    shapes: tuple[ShapeOption, ...]
    confidence: str
    number: str | None = None
    de: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class AmbushCard:
    """An ambush (monster) card: its shape, arrow direction and solo start corner."""

    name: str
    game: str
    shape: ShapeOption
    direction: Literal["clockwise", "counterclockwise"]
    solo_corner: Cell | None
    confidence: str
    monster: str | None = None
    effect: str | None = None
    number: str | None = None
    de: str | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class HeroCard:
    """A hero card (Heroes): the hero is a 1x1 ``H``; ``attack`` offsets are relative to it."""

    name: str
    pattern: str
    attack: frozenset[Offset]
    aka: tuple[str, ...] = ()
    confidence: str = "high"

    @property
    def attack_orientations(self) -> tuple[frozenset[Offset], ...]:
        """The distinct rotations/reflections of the attack pattern around the hero (rule: "Angriffsmuster
        dürft ihr ebenfalls drehen und/oder spiegeln")."""
        return _attack_orientations(self.attack)


@cache
def _attack_orientations(attack: frozenset[Offset]) -> tuple[frozenset[Offset], ...]:
    out: list[frozenset[Offset]] = []
    pts = list(attack)
    for flip in (False, True):
        cur = [(r, -c) for r, c in pts] if flip else pts
        for _ in range(4):
            cur = [(c, -r) for r, c in cur]
            fs = frozenset(cur)
            if fs not in out:
                out.append(fs)
    return tuple(sorted(out, key=lambda s: sorted(s)))


_CORNERS: dict[str, Cell] = {
    "top-left": (0, 0),
    "top-right": (0, SIZE - 1),
    "bottom-right": (SIZE - 1, SIZE - 1),
    "bottom-left": (SIZE - 1, 0),
}


def _data(name: str) -> list[dict[str, Any]]:
    text = resources.files("rules").joinpath(f"data/{name}.json").read_text(encoding="utf-8")
    cards: list[dict[str, Any]] = json.loads(text)["cards"]
    return cards


def _load_explore() -> dict[str, ExploreCard]:
    return {
        e["name"]: ExploreCard(
            name=e["name"],
            game=e["game"],
            kind=e["kind"],
            time=e["time"],
            terrains=tuple(Terrain.from_word(t) for t in e["terrains"]),
            shapes=tuple(ShapeOption(s["pattern"], s["coin"]) for s in e["shapes"]),
            confidence=e["confidence"],
            number=e.get("number"),
            de=e.get("de"),
            note=e.get("note", ""),
        )
        for e in _data("explore")
    }


def _load_ambush() -> dict[str, AmbushCard]:
    return {
        e["name"]: AmbushCard(
            name=e["name"],
            game=e["game"],
            shape=ShapeOption(e["pattern"], False),
            direction=e["direction"],
            solo_corner=_CORNERS[e["solo_corner"]] if e.get("solo_corner") else None,
            confidence=e["confidence"],
            monster=e.get("monster"),
            effect=e.get("effect"),
            number=e.get("number"),
            de=e.get("de"),
            note=e.get("note", ""),
        )
        for e in _data("ambush")
    }


def _load_heroes() -> dict[str, HeroCard]:
    out = {}
    for e in _data("heroes"):
        rows = e["pattern"].split("/")
        hr, hc = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "H")
        attack = frozenset(
            (r - hr, c - hc) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "*"
        )
        out[e["name"]] = HeroCard(e["name"], e["pattern"], attack, tuple(e.get("aka", ())), e["confidence"])
    return out


EXPLORE: Mapping[str, ExploreCard] = _load_explore()
"""Explore cards by English name: 13 base (2 of them ruins cards) + 11 Heroes."""
AMBUSH: Mapping[str, AmbushCard] = _load_ambush()
"""Ambush cards by English name: 4 base, 4 promo, 4 Heroes (with effects)."""
HEROES: Mapping[str, HeroCard] = _load_heroes()
"""Hero cards by English name (Cartographers Heroes)."""

_T = TypeVar("_T")


def _lookup(table: Mapping[str, _T], name: str, what: str, aliases: Mapping[str, str] | None = None) -> _T:
    key = " ".join(name.lower().replace("_", " ").replace("'", "").split())
    names = {" ".join(n.lower().replace("'", "").split()): n for n in table}
    names.update(aliases or {})
    if key in names:
        return table[names[key]]
    close = difflib.get_close_matches(key, list(names), n=1)
    hint = f"; did you mean {names[close[0]]!r}?" if close else ""
    raise SheetError(f"unknown {what} {name!r}{hint}")


def explore_card(name: str) -> ExploreCard:
    """Look an explore card up by English name (case-insensitive); raises :class:`SheetError`."""
    return _lookup(EXPLORE, name, "explore card")


def ambush_card(name: str) -> AmbushCard:
    """Look an ambush card up by English name (case-insensitive); raises :class:`SheetError`."""
    return _lookup(AMBUSH, name, "ambush card")


def hero_card(name: str) -> HeroCard:
    """Look a hero up by name or alias (e.g. ``"Dwarf Fighter"``); raises :class:`SheetError`."""
    aliases = {a.lower(): h.name for h in HEROES.values() for a in h.aka}
    return _lookup(HEROES, name, "hero", aliases)


# ---------------------------------------------------------------------------------------------
# Drawing: verify / can / do


def _terrain(terrain: Terrain | str) -> Terrain:
    return terrain if isinstance(terrain, Terrain) else Terrain.from_word(terrain)


def _free(grid: tuple[Terrain, ...], cell: Cell) -> bool:
    """The drawing rule for one space, written once: on the map and empty (unfilled ruins are empty)."""
    r, c = cell
    return 0 <= r < SIZE and 0 <= c < SIZE and grid[r * SIZE + c] is Terrain.EMPTY


def placement_problems(sheet: Sheet, cells: Iterable[Cell], terrain: Terrain | str) -> list[str]:
    """Why `terrain` cannot be drawn on `cells` (an empty list when it can).

    Legal: at least one cell, every cell on the map and empty (unfilled ruins are empty), and a
    drawable terrain (forest, village, farm, water, monster, hero).
    """
    problems: list[str] = []
    t = _terrain(terrain)
    if not t.is_drawable:
        problems.append(f"'{t}' ({t.word}) cannot be drawn; drawable: F V P W M H")
    cells = list(cells)
    if not cells:
        problems.append("no cells to draw")
    grid = sheet.cells
    for r, c in sorted(set(cells)):
        if _free(grid, (r, c)):
            continue
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            problems.append(f"cell {(r, c)} is off the map")
            continue
        here = grid[r * SIZE + c]
        if here is Terrain.UNKNOWN:
            problems.append(f"cell {cell_label((r, c))} is unreadable ('?')")
        else:
            problems.append(f"cell {cell_label((r, c))} is already filled ('{here}')")
    return problems


def can_place(sheet: Sheet, cells: Iterable[Cell], terrain: Terrain | str = Terrain.FOREST) -> bool:
    """True exactly when :func:`placement_problems` finds nothing, without wording any message.

    Both ask the same two questions (a drawable terrain; at least one cell, each :func:`_free`);
    ``tests/rules/test_rules_shapes.py::test_verify_can_do_agree`` checks that they agree.
    """
    if not _terrain(terrain).is_drawable:
        return False
    grid = sheet.cells
    cells = list(cells)
    return bool(cells) and all(_free(grid, cell) for cell in cells)


def surrounded_mountains(sheet: Sheet) -> frozenset[Cell]:
    """Mountains whose orthogonal neighbours on the map are all filled (each such mountain has paid
    its coin: spaces never become empty again, so "once per mountain" needs no bookkeeping)."""
    filled = sheet.filled_mask
    return frozenset(
        (r, c)
        for r, c in sheet.cells_of(Terrain.MOUNTAIN)
        if all(filled[nr * SIZE + nc] for nr, nc in neighbours(r, c))
    )


def mountain_coins(before: Sheet, after: Sheet) -> int:
    """Coins earned by mountains that became surrounded between two states of a sheet."""
    return len(surrounded_mountains(after) - surrounded_mountains(before))


def _with_coins(sheet: Sheet, gained: int) -> int:
    # The track holds 14 spaces including the crossed-out (spent) ones; extra coins are lost.
    return min(sheet.coins + gained, COIN_TRACK - sheet.spent)


def place(sheet: Sheet, cells: Iterable[Cell], terrain: Terrain | str, *, coin: bool = False) -> Sheet:
    """Draw `terrain` on `cells` and collect the coins it earns.

    A monster drawn on a hit space (a hero's star) is destroyed at once (``X``; Heroes rulebook:
    "Es ist egal, ob ihr zuerst die Geländeart oder zuerst den * eingezeichnet habt").

    Parameters
    ----------
    coin : bool
        The chosen shape shows a coin (+1 coin).

    Raises
    ------
    PlacementError
        With every reason, if the drawing is illegal.
    """
    cells = frozenset(cells)
    problems = placement_problems(sheet, cells, terrain)
    if problems:
        raise PlacementError("; ".join(problems))
    t = _terrain(terrain)
    changes = {
        cell: Terrain.DESTROYED if t is Terrain.MONSTER and cell in sheet.stars else t for cell in cells
    }
    drawn = sheet.replace(changes)
    gained = int(coin) + mountain_coins(sheet, drawn)
    return drawn.replace(coins=_with_coins(sheet, gained)) if gained else drawn


def legal_placements(sheet: Sheet, shape: Iterable[Offset], *, rotate: bool = True) -> list[frozenset[Cell]]:
    """Every distinct set of cells where `shape` can legally be drawn (all orientations unless
    ``rotate=False``), in a deterministic order."""
    shapes = orientations(normalise(shape)) if rotate else (normalise(shape),)
    empty = sheet.cells
    seen: set[frozenset[Cell]] = set()
    out: list[frozenset[Cell]] = []
    for s in shapes:
        offsets = sorted(s)
        h = max(r for r, _ in offsets)
        w = max(c for _, c in offsets)
        for ar in range(SIZE - h):
            for ac in range(SIZE - w):
                if all(_free(empty, (ar + r, ac + c)) for r, c in offsets):
                    cells = translate(offsets, (ar, ac))
                    if cells not in seen:
                        seen.add(cells)
                        out.append(cells)
    return out


def overlaps_ruins(sheet: Sheet, cells: Iterable[Cell]) -> bool:
    """True when `cells` cover at least one unfilled ruins space (what a ruins card demands)."""
    unfilled = sheet.unfilled_ruins
    return any(cell in unfilled for cell in cells)


def ruins_placements(sheet: Sheet, shape: Iterable[Offset]) -> list[frozenset[Cell]]:
    """Legal placements of `shape` that overlap an unfilled ruins space. When this is empty the
    rulebook (p.6) says: draw a 1x1 of any terrain anywhere instead."""
    return [cells for cells in legal_placements(sheet, shape) if overlaps_ruins(sheet, cells)]


# ---------------------------------------------------------------------------------------------
# Heroes


def _hits(cell: Cell, attack: Iterable[Offset]) -> frozenset[Cell]:
    r, c = cell
    return frozenset((r + dr, c + dc) for dr, dc in attack if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)


def can_place_hero(sheet: Sheet, cell: Cell, hero: HeroCard, attack: frozenset[Offset] | None = None) -> bool:
    """True when the hero fits on `cell` and `attack` (default: as printed) is one of its orientations."""
    pattern = hero.attack if attack is None else frozenset(attack)
    return pattern in hero.attack_orientations and can_place(sheet, (cell,), Terrain.HERO)


def place_hero(sheet: Sheet, cell: Cell, hero: HeroCard, attack: frozenset[Offset] | None = None) -> Sheet:
    """Draw a hero on `cell` and mark its hits (Heroes rulebook, "Held_innen").

    The hero is a 1x1 hero space; the attack pattern (`attack`, default as printed) may be any
    rotation/reflection of the card's; hit marks are stars that may lie on filled spaces and past
    the edge (those are not drawn); stars do not fill; a monster under a star is destroyed (``X``).
    Mountain coins are collected for the hero space.

    Raises
    ------
    PlacementError
        If the hero's space is not empty or `attack` is not an orientation of the card's pattern.
    """
    pattern = hero.attack if attack is None else frozenset(attack)
    if pattern not in hero.attack_orientations:
        raise PlacementError(
            f"attack pattern {sorted(pattern)} is not a rotation/reflection of {hero.name}'s"
        )
    drawn = place(sheet, (cell,), Terrain.HERO)
    hits = _hits(cell, pattern)
    grid = drawn.cells
    destroyed = {h: Terrain.DESTROYED for h in hits if grid[h[0] * SIZE + h[1]] is Terrain.MONSTER}
    return drawn.replace(destroyed, stars=drawn.stars | hits)


# ---------------------------------------------------------------------------------------------
# Solo ambushes


def _ring(k: int, corner: Cell, direction: str) -> list[Cell]:
    """Ring `k` (k spaces in from the edge) walked from the ring's `corner` in `direction`."""
    lo, hi = k, SIZE - 1 - k
    if lo > hi:
        return []
    if lo == hi:
        return [(lo, lo)]
    loop = (
        [(lo, c) for c in range(lo, hi)]
        + [(r, hi) for r in range(lo, hi)]
        + [(hi, c) for c in range(hi, lo, -1)]
        + [(r, lo) for r in range(hi, lo, -1)]
    )  # clockwise on the sheet from the top-left corner
    start = (lo if corner[0] == 0 else hi, lo if corner[1] == 0 else hi)
    if direction != "clockwise":
        loop = loop[:1] + loop[:0:-1]
    i = loop.index(start)
    return loop[i:] + loop[:i]


def solo_ambush_placement(
    sheet: Sheet, card: AmbushCard, *, rotate: bool | None = None
) -> frozenset[Cell] | None:
    """Where the solo rules draw an ambush, or None if nowhere (the ambush is discarded).

    Start at the card's corner and walk the map edge in the arrow direction; at each space try to
    draw the monster so that it covers that space; after the whole edge move one ring inward and
    start again at the same corner.  Base rulebook p.11: "without flipping or rotating it";
    Heroes solo rules: "Du darfst die Form dazu beliebig drehen und/oder spiegeln".  `rotate`
    defaults to True for Heroes cards and False otherwise.  Among several placements covering the
    same space the first in a fixed order is taken (the rulebooks leave the choice to the player).

    Raises
    ------
    SheetError
        If the card has no known solo corner (the promo ambushes).
    """
    if card.solo_corner is None:
        raise SheetError(f"{card.name} has no known solo corner")
    rotate = card.game == "heroes" if rotate is None else rotate
    shapes = card.shape.orientations if rotate else (card.shape.cells,)
    for k in range((SIZE + 1) // 2):
        for target in _ring(k, card.solo_corner, card.direction):
            for s in shapes:
                for off in sorted(s):
                    cells = translate(s, (target[0] - off[0], target[1] - off[1]))
                    if can_place(sheet, cells, Terrain.MONSTER):
                        return cells
    return None


def place_solo_ambush(sheet: Sheet, card: AmbushCard, *, rotate: bool | None = None) -> Sheet:
    """Draw the ambush as the solo rules place it (unchanged sheet if it is discarded)."""
    cells = solo_ambush_placement(sheet, card, rotate=rotate)
    return sheet if cells is None else place(sheet, cells, Terrain.MONSTER)
