"""The map sheet: terrain symbols, cell labels and the immutable :class:`Sheet` value.

The text notation is fixed by ``docs/INTERFACES.md`` section 1::

    # Alice, game 3, after winter
    side: A
    coins: 5
    FFF........
    FF.^.......
    ...            (11 grid lines, row A first)

Rulebook semantics (base rulebook p.9 "Monster spaces, mountain spaces, and wasteland spaces
all count as filled spaces. Only filled ruins spaces count as filled spaces"; Heroes: destroyed
spaces are filled but have no terrain type; hit stars do not fill a space):

* filled: every symbol except ``.`` (empty, including unfilled ruins) and ``?`` (unreadable);
* terrain types: forest, village, farm, water, monster, hero and mountain;
* wasteland ``-`` and destroyed ``X`` are filled and have no terrain type.

Reading a sheet never scores it, so ``?`` cells are valid in a :class:`Sheet` (scanner output);
everything that scores calls :meth:`Sheet.require_known` first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple, TypeVar

from rules.errors import SheetError
from rules.grid import (
    CELLS,
    COIN_TRACK,
    CUSTOM,
    LABELS,
    NEIGHBOURS,
    ROW_LETTERS,
    SIDE_NAMES,
    SIZE,
    Cell,
    cells_label,
    components,
    neighbours,
    parse_label,
    parse_labels,
)
from rules.sides import PrintedSide, printed_side

__all__ = ["MAX_PROBLEMS", "MAX_TEXT", "SYMBOLS", "Problem", "Sheet", "Terrain"]

MAX_TEXT = 65_536
"""Longest sheet text read (characters): a sheet is ~150, comments included a few hundred; anything far
longer is not a sheet, and reading it whole would cost time and memory for nothing."""
MAX_PROBLEMS = 20
"""Problems listed for one text before the rest are summed up in one last problem (``too_many``)."""

_T = TypeVar("_T")


class Terrain(StrEnum):
    """What one space of the map holds; the value is its one-character notation symbol."""

    EMPTY = "."
    FOREST = "F"
    VILLAGE = "V"
    FARM = "P"
    WATER = "W"
    MONSTER = "M"
    HERO = "H"
    MOUNTAIN = "^"
    WASTELAND = "-"
    DESTROYED = "X"
    UNKNOWN = "?"

    @property
    def is_known(self) -> bool:
        """False only for ``?`` (the scanner could not read the space)."""
        return self is not Terrain.UNKNOWN

    @property
    def is_filled(self) -> bool:
        """Rulebook "filled space"; False for empty and for unknown (check :attr:`is_known`)."""
        return self is not Terrain.EMPTY and self is not Terrain.UNKNOWN

    @property
    def is_terrain_type(self) -> bool:
        """Forest, village, farm, water, monster, hero or mountain (rulebook p.7 + Heroes)."""
        return self in _TERRAIN_TYPES

    @property
    def is_drawable(self) -> bool:
        """A terrain a player can draw with a shape: forest, village, farm, water, monster, hero."""
        return self in _DRAWABLE

    @property
    def is_printed(self) -> bool:
        """Mountain or wasteland: printed on the sheet, never drawn."""
        return self is Terrain.MOUNTAIN or self is Terrain.WASTELAND

    @property
    def word(self) -> str:
        """The lower-case English name, e.g. ``"forest"`` (used in JSON and messages)."""
        return self.name.lower()

    @classmethod
    def from_word(cls, text: str) -> Terrain:
        """Look a terrain up by symbol (``"F"``) or English name (``"forest"``), case-insensitively.

        Raises
        ------
        SheetError
            For anything else.
        """
        key = text.strip()
        for member in cls:
            if key == member.value or key.upper() == member.value or key.lower() == member.word:
                return member
        raise SheetError(f"unknown terrain {text!r}: expected a symbol ({SYMBOLS}) or a name like 'forest'")


_TERRAIN_TYPES = frozenset(
    {
        Terrain.FOREST,
        Terrain.VILLAGE,
        Terrain.FARM,
        Terrain.WATER,
        Terrain.MONSTER,
        Terrain.HERO,
        Terrain.MOUNTAIN,
    }
)
_DRAWABLE = _TERRAIN_TYPES - {Terrain.MOUNTAIN}
_BY_SYMBOL: dict[str, Terrain] = {t.value: t for t in Terrain}
SYMBOLS = " ".join(t.value for t in Terrain)

# ---------------------------------------------------------------------------------------------
# Problems: every issue of a sheet text at once (python-chess status() style)


class Problem(NamedTuple):
    """One issue with a sheet.

    ``fatal`` problems make :meth:`Sheet.parse` raise; the others (``?`` cells, a monster
    left on a hit space) are allowed in a :class:`Sheet` but worth showing to the user.
    ``code`` is a short stable tag for programs: ``symbol``, ``length``, ``grid_lines``,
    ``header``, ``coins``, ``side``, ``ruins``, ``unknown``, ``monster_on_star``, ``too_long`` (a text
    over :data:`MAX_TEXT` characters, not read), ``too_many`` (the problems after
    :data:`MAX_PROBLEMS`, summed up).
    """

    code: str
    message: str
    cells: tuple[Cell, ...] = ()
    line: int | None = None
    fatal: bool = True

    def __str__(self) -> str:
        if self.line is None:
            return self.message
        row = ""
        if self.cells and all(r == self.cells[0][0] for r, _ in self.cells):
            row = f" (row {ROW_LETTERS[self.cells[0][0]]})"
        return f"line {self.line}{row}: {self.message}"


# Under this table a grid string keeps only its printed symbols (everything else becomes ".").
_PRINTED_ONLY = str.maketrans({t.value: "." for t in Terrain if not t.is_printed})
_FILLED: dict[str, bool] = {t.value: t.is_filled for t in Terrain}


@cache
def _expected_printed(side: str) -> str:
    printed = printed_side(side)
    return "".join("^" if c in printed.mountains else "-" if c in printed.wasteland else "." for c in CELLS)


def _field_problems(
    side: str,
    grid: str,
    coins: int,
    spent: int,
    ruins: frozenset[Cell],
    stars: frozenset[Cell],
    ruins_given: bool,
) -> Iterator[Problem]:
    """Fatal problems of already-tokenised fields (shared by the constructor and the parser)."""
    for name, value in (("coins", coins), ("spent", spent)):
        if not (0 <= value <= COIN_TRACK):
            yield Problem("coins", f"{name} is {value}, expected 0..{COIN_TRACK}")
    if coins + spent > COIN_TRACK:
        yield Problem(
            "coins",
            f"coins {coins} + spent {spent} = {coins + spent} exceeds the {COIN_TRACK}-space coin track",
        )
    for cell in sorted(ruins | stars):
        if not (0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE):
            yield Problem("header", f"cell {cell!r} is off the 11x11 map")
    printed = printed_side(side)
    if side != CUSTOM:
        if ruins_given and ruins != printed.ruins:
            yield Problem(
                "ruins", f"ruins can only be listed for side custom (side {side} prints its own ruins)"
            )
        if grid.translate(_PRINTED_ONLY) == _expected_printed(side):
            return  # the common case, checked at C speed; the loop below only words the problems
        for i, ch in enumerate(grid):
            cell, t = CELLS[i], _BY_SYMBOL[ch]
            if cell in printed.mountains and t is not Terrain.MOUNTAIN:
                yield Problem(
                    "side", f"cell {LABELS[i]} is '{t}' but side {side} prints a mountain there", (cell,)
                )
            elif cell in printed.wasteland and t is not Terrain.WASTELAND:
                yield Problem(
                    "side", f"cell {LABELS[i]} is '{t}' but side {side} prints wasteland there", (cell,)
                )
            elif t is Terrain.MOUNTAIN and cell not in printed.mountains:
                yield Problem(
                    "side", f"cell {LABELS[i]} is '^' but side {side} has no mountain there", (cell,)
                )
            elif t is Terrain.WASTELAND and cell not in printed.wasteland:
                yield Problem(
                    "side", f"cell {LABELS[i]} is '-' but side {side} has no wasteland there", (cell,)
                )
    else:
        yield from _custom_ruins_problems(grid, ruins)


def _custom_ruins_problems(grid: str, ruins: frozenset[Cell]) -> Iterator[Problem]:
    """A custom map's ruins on a mountain or wasteland: odd, but it scores (a warning, not an error)."""
    for r, c in sorted(ruins):
        t = _BY_SYMBOL[grid[r * SIZE + c]]
        if t.is_printed:
            message = f"cell {LABELS[r * SIZE + c]} is a ruins space but holds '{t}'"
            yield Problem("ruins", message, ((r, c),), fatal=False)


# ---------------------------------------------------------------------------------------------
# The Sheet value

_FIELDS = ("side", "coins", "spent", "ruins", "stars")
CellsArg = str | Iterable[Cell] | Iterable[str] | None


def _cells_arg(value: CellsArg) -> frozenset[Cell]:
    if value is None:
        return frozenset()
    if isinstance(value, str):
        return parse_labels(value)
    out = set()
    for item in value:
        if isinstance(item, str):
            out.add(parse_label(item))
        else:
            r, c = item
            out.add((int(r), int(c)))
    return frozenset(out)


def _grid_arg(grid: str | Iterable[str] | Iterable[Terrain]) -> str:
    """A validated 121-symbol grid string from any of the accepted grid forms."""
    if isinstance(grid, str):
        symbols = [ch for ch in grid if not ch.isspace() and ch != "/"]
    else:
        items = list(grid)
        if len(items) == SIZE:
            rows = ["".join(str(row).split()) for row in items]
            for r, row in enumerate(rows):
                if len(row) != SIZE:
                    raise SheetError(f"row {ROW_LETTERS[r]} has {len(row)} cells, expected {SIZE}")
            symbols = [ch for row in rows for ch in row]
        else:
            symbols = items
    if len(symbols) != SIZE * SIZE:
        raise SheetError(f"a grid needs {SIZE * SIZE} cells, got {len(symbols)}")
    for ch in symbols:
        if ch not in _BY_SYMBOL:
            raise SheetError(f"unknown symbol {ch!r}: expected one of {SYMBOLS}")
    return "".join(symbols)


class Sheet:
    """An immutable, hashable map sheet: 121 spaces plus coins, spent coins, ruins and hit stars.

    Build one with :meth:`parse` (the notation of docs/INTERFACES.md), :meth:`blank`, or the constructor
    (what ``repr()`` prints)::

        Sheet("FFF......../...", side="B", coins=5, stars="C4 C5")

    The grid is 121 symbols (whitespace and ``/`` between rows are ignored) or 11 row strings.
    ``ruins`` defaults to the side's printed ruins and may only be given for ``side="custom"``.

    Attributes
    ----------
    side : str
        ``"A"``..``"D"`` or ``"custom"``.
    coins, spent : int
        Filled, unspent coin spaces, and coin spaces crossed out for skills (sum <= 14).
    ruins, stars : frozenset of (row, col)
        Ruins spaces (filled or not) and spaces carrying a hero's hit marking.

    Raises
    ------
    SheetError
        On any hard error (see :meth:`check` for the full list of a text's problems).
    """

    __slots__ = (
        "_cache",
        "_cells",
        "_filled",
        "_grid",
        "_hash",
        "_unknown",
        "coins",
        "ruins",
        "side",
        "spent",
        "stars",
    )

    side: str
    coins: int
    spent: int
    ruins: frozenset[Cell]
    stars: frozenset[Cell]
    _cells: tuple[Terrain, ...]
    _grid: str
    _filled: tuple[bool, ...]
    _unknown: tuple[Cell, ...]
    _hash: int
    _cache: dict[Any, Any]

    def __init__(
        self,
        grid: str | Iterable[str] | Iterable[Terrain],
        *,
        side: str = "A",
        coins: int = 0,
        spent: int = 0,
        ruins: CellsArg = None,
        stars: CellsArg = None,
    ) -> None:
        cells = _grid_arg(grid)  # a validated 121-symbol string
        side = printed_side(side).name
        ruins_set = _cells_arg(ruins)
        stars_set = _cells_arg(stars)
        for problem in _field_problems(
            side, cells, int(coins), int(spent), ruins_set, stars_set, ruins is not None
        ):
            if problem.fatal:
                raise SheetError(str(problem))
        if side != CUSTOM and ruins is None:
            ruins_set = printed_side(side).ruins
        self._init(side, cells, int(coins), int(spent), ruins_set, stars_set)

    def _init(
        self,
        side: str,
        grid: str,
        coins: int,
        spent: int,
        ruins: frozenset[Cell],
        stars: frozenset[Cell],
    ) -> None:
        setter = object.__setattr__
        setter(self, "side", side)
        setter(self, "coins", coins)
        setter(self, "spent", spent)
        setter(self, "ruins", ruins)
        setter(self, "stars", stars)
        # The string is the compact truth (fast to hash, compare and scan); the Terrain tuple serves
        # sheet[r, c] and loops that want enum members.
        setter(self, "_grid", grid)
        setter(self, "_cells", tuple(map(_BY_SYMBOL.__getitem__, grid)))
        setter(self, "_filled", tuple(map(_FILLED.__getitem__, grid)))
        unknown = tuple(CELLS[i] for i, ch in enumerate(grid) if ch == "?") if "?" in grid else ()
        setter(self, "_unknown", unknown)
        setter(self, "_hash", hash((side, grid, coins, spent, ruins, stars)))
        setter(self, "_cache", {})

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Sheet is immutable; use sheet.replace({name}=...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Sheet is immutable")

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def blank(cls, side: str = "A") -> Sheet:
        """A fresh sheet of `side`: its printed mountains and wasteland, everything else empty."""
        printed = printed_side(side)
        sheet = cls.__new__(cls)
        sheet._init(printed.name, _expected_printed(printed.name), 0, 0, printed.ruins, frozenset())
        return sheet

    @classmethod
    def parse(cls, text: str) -> Sheet:
        """Read the sheet notation (docs/INTERFACES.md section 1).

        Raises
        ------
        SheetError
            On the first hard error, e.g. ``line 4 (row C): cell C9 is '.' but side A prints a
            mountain there``.
        """
        sheet, problems = _read(text)
        for problem in problems:
            if problem.fatal:
                raise SheetError(str(problem))
        assert sheet is not None
        return sheet

    @classmethod
    def check(cls, text: str) -> list[Problem]:
        """Every problem of a sheet text at once (fatal ones first, then the warnings)."""
        sheet, problems = _read(text)
        if sheet is not None:
            problems.extend(sheet.problems())
        return problems

    def replace(self, cells: Mapping[Cell, Terrain | str] | None = None, **fields: Any) -> Sheet:
        """A copy with some spaces and/or fields changed (side, coins, spent, ruins, stars).

        Raises
        ------
        SheetError
            If the result is not a valid sheet (e.g. a mountain drawn over on a printed side).
        TypeError
            For an unknown field name.
        """
        unknown = set(fields) - set(_FIELDS)
        if unknown:
            raise TypeError(f"Sheet.replace() got unknown field(s): {', '.join(sorted(unknown))}")
        grid = self._grid
        if cells:
            new = list(grid)
            for (r, c), value in cells.items():
                if not (0 <= r < SIZE and 0 <= c < SIZE):
                    raise SheetError(f"cell {(r, c)!r} is off the 11x11 map")
                try:
                    new[r * SIZE + c] = _BY_SYMBOL[value].value
                except KeyError:
                    raise SheetError(f"unknown symbol {value!r}: expected one of {SYMBOLS}") from None
            grid = "".join(new)
        side = fields.get("side", self.side)
        ruins: CellsArg = fields.get("ruins")
        if ruins is None and side == CUSTOM:
            ruins = self.ruins  # a printed sheet turned custom keeps its ruins spaces
        return Sheet(
            grid,
            side=side,
            coins=fields.get("coins", self.coins),
            spent=fields.get("spent", self.spent),
            ruins=ruins,
            stars=fields.get("stars", self.stars),
        )

    # -- notation ---------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The canonical notation: ``side`` always, other header lines only when not default,
        then 11 compact grid lines; ends with a newline. ``Sheet.parse(s.to_text()) == s``."""
        lines = [f"side: {self.side}"]
        lines += [f"{key}: {value}" for key, value in self._non_default_headers()]
        lines.extend(self.rows)
        return "\n".join(lines) + "\n"

    def _non_default_headers(self) -> list[tuple[str, int | str]]:
        """Header fields other than ``side`` that differ from their defaults, in notation order."""
        fields: list[tuple[str, int | str]] = []
        if self.coins:
            fields.append(("coins", self.coins))
        if self.spent:
            fields.append(("spent", self.spent))
        if self.side == CUSTOM and self.ruins:
            fields.append(("ruins", cells_label(self.ruins)))
        if self.stars:
            fields.append(("stars", cells_label(self.stars)))
        return fields

    def __str__(self) -> str:
        return self.to_text()

    def to_json(self) -> dict[str, Any]:
        """The reading as JSON (INTERFACES section 3 ``scan`` fields, plus ``ruins`` for side custom)."""
        out: dict[str, Any] = {
            "side": self.side,
            "grid": list(self.rows),
            "coins": self.coins,
            "spent": self.spent,
            "stars": cells_label(self.stars).split(),
        }
        if self.side == CUSTOM:
            out["ruins"] = cells_label(self.ruins).split()
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Sheet:
        """Inverse of :meth:`to_json` (extra keys such as ``confidence`` are ignored).

        Raises
        ------
        SheetError
            If a field is missing or invalid.
        """
        try:
            grid = obj["grid"]
            if not isinstance(grid, list) or len(grid) != SIZE or not all(isinstance(r, str) for r in grid):
                raise SheetError(f"'grid' must be a list of {SIZE} strings")
            return cls(
                grid,
                side=str(obj.get("side", "A")),
                coins=int(obj.get("coins", 0)),
                spent=int(obj.get("spent", 0)),
                ruins=obj.get("ruins"),
                stars=obj.get("stars") or None,
            )
        except KeyError as exc:
            raise SheetError(f"sheet JSON lacks {exc.args[0]!r}") from None
        except (TypeError, ValueError) as exc:
            if isinstance(exc, SheetError):
                raise
            raise SheetError(f"bad sheet JSON: {exc}") from None

    def __repr__(self) -> str:
        args = [repr("/".join(self.rows))]
        if self.side != "A":
            args.append(f"side={self.side!r}")
        args += [f"{key}={value!r}" for key, value in self._non_default_headers()]
        return f"Sheet({', '.join(args)})"

    # -- value semantics ----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return (
            self._hash == other._hash
            and self._grid == other._grid
            and self.side == other.side
            and self.coins == other.coins
            and self.spent == other.spent
            and self.ruins == other.ruins
            and self.stars == other.stars
        )

    def __hash__(self) -> int:
        return self._hash

    def __getitem__(self, cell: Cell) -> Terrain:
        r, c = cell
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise IndexError(f"cell {cell!r} is off the 11x11 map")
        return self._cells[r * SIZE + c]

    def __getstate__(self) -> tuple[str, str, int, int, frozenset[Cell], frozenset[Cell]]:
        return (self.side, self._grid, self.coins, self.spent, self.ruins, self.stars)

    def __setstate__(self, state: tuple[str, str, int, int, frozenset[Cell], frozenset[Cell]]) -> None:
        self._init(*state)

    # -- reading ------------------------------------------------------------------------------------

    @property
    def printed(self) -> PrintedSide:
        """The printed features of this sheet's side."""
        return printed_side(self.side)

    @property
    def cells(self) -> tuple[Terrain, ...]:
        """All 121 spaces in row-major order (index ``r * 11 + c``); the fast path for loops."""
        return self._cells

    @property
    def filled_mask(self) -> tuple[bool, ...]:
        """121 booleans in row-major order (``?`` counts as not filled: call :meth:`require_known`)."""
        return self._filled

    @property
    def rows(self) -> tuple[str, ...]:
        """The 11 grid lines in compact notation, row A first."""
        grid = self._grid
        return tuple(grid[i : i + SIZE] for i in range(0, SIZE * SIZE, SIZE))

    @property
    def grid(self) -> str:
        """All 121 symbols in one string, row A first (index ``r * 11 + c``)."""
        return self._grid

    @property
    def unknown(self) -> tuple[Cell, ...]:
        """The ``?`` cells, row-major."""
        return self._unknown

    def require_known(self) -> Sheet:
        """Return self, or raise if any space is ``?`` (scoring needs every space).

        Raises
        ------
        SheetError
            Naming the unreadable cells.
        """
        if self._unknown:
            n = len(self._unknown)
            shown = cells_label(self._unknown[:8]) + (" ..." if n > 8 else "")
            raise SheetError(f"cannot score: {n} unreadable space{'s' * (n != 1)} ('?'): {shown}")
        return self

    def is_filled(self, r: int, c: int) -> bool:
        """Rulebook "filled" (unfilled ruins are empty; mountains, wasteland, monsters, destroyed
        spaces are filled; hit stars do not fill).

        Raises
        ------
        SheetError
            If the space is ``?``.
        """
        i = r * SIZE + c
        if self._cells[i] is Terrain.UNKNOWN:
            raise SheetError(f"space {LABELS[i]} is unreadable ('?')")
        return self._filled[i]

    def is_empty(self, r: int, c: int) -> bool:
        """``not is_filled(r, c)`` (raises on ``?`` too)."""
        return not self.is_filled(r, c)

    @staticmethod
    def neighbours(r: int, c: int) -> tuple[Cell, ...]:
        """The orthogonal neighbours of ``(r, c)`` on the map (same as :func:`rules.grid.neighbours`)."""
        return neighbours(r, c)

    def count(self, *terrains: Terrain) -> int:
        """How many spaces hold any of `terrains`."""
        return len(self.cells_of(*terrains))

    def cells_of(self, *terrains: Terrain | str) -> frozenset[Cell]:
        """The spaces holding any of `terrains` (cached per sheet)."""
        key = ("of", frozenset(terrains))
        hit = self._cache.get(key)
        if hit is None:
            wanted = {_BY_SYMBOL[t].value for t in terrains}
            hit = frozenset(CELLS[i] for i, ch in enumerate(self._grid) if ch in wanted)
            self._cache[key] = hit
        return hit

    @property
    def empty_cells(self) -> frozenset[Cell]:
        """The empty spaces (``.``, including unfilled ruins)."""
        return self.cells_of(Terrain.EMPTY)

    @property
    def filled_ruins(self) -> frozenset[Cell]:
        return frozenset(cell for cell in self.ruins if self._filled[cell[0] * SIZE + cell[1]])

    @property
    def unfilled_ruins(self) -> frozenset[Cell]:
        return frozenset(
            cell for cell in self.ruins if self._cells[cell[0] * SIZE + cell[1]] is Terrain.EMPTY
        )

    def clusters(
        self, which: Terrain | str | Iterable[Terrain] | Callable[[Terrain], bool]
    ) -> tuple[frozenset[Cell], ...]:
        """Connected groups (orthogonal neighbours) of spaces matching `which`.

        Parameters
        ----------
        which : Terrain, symbols string, iterable of Terrain, or predicate
            ``Terrain.VILLAGE``, ``"FV"``, ``{Terrain.FARM, Terrain.WATER}`` or
            ``lambda t: t.is_filled``. Terrain forms are cached per sheet.

        Returns
        -------
        tuple of frozenset of (row, col)
            Ordered by each cluster's first space in row-major order.
        """
        if callable(which) and not isinstance(which, str):
            pred = which
            return tuple(
                frozenset(CELLS[i] for i in comp)
                for comp in components({i for i, t in enumerate(self._cells) if pred(t)})
            )
        wanted = frozenset(_BY_SYMBOL[t].value for t in which)
        key = ("clusters", wanted)
        hit = self._cache.get(key)
        if hit is None:
            comps = components({i for i, ch in enumerate(self._grid) if ch in wanted})
            hit = tuple(frozenset(CELLS[i] for i in comp) for comp in comps)
            self._cache[key] = hit
        return hit

    def derived(self, make: Callable[[Sheet], _T]) -> _T:
        """``make(self)``, computed once per sheet and kept on it (a sheet never changes).

        Readers that analyse a whole sheet (the scoring cards' view) ask for it through here, so
        every card scoring the same sheet shares one analysis and nothing is cached module-wide.
        `make` is the cache key: pass the same function object each time.
        """
        key = ("derived", make)
        if key in self._cache:
            hit: _T = self._cache[key]
            return hit
        value = make(self)
        self._cache[key] = value
        return value

    def monster_penalty_cells(self) -> frozenset[Cell]:
        """Distinct empty spaces next to at least one (living) monster (rulebook p.8).

        Destroyed monsters are ``X`` and no longer count, nor does a monster left on a hit space:
        it is destroyed however it is written (de-H "Sobald sich ein * auf einem Feld mit der
        Geländeart Monster befindet, wird das Feld sofort zerstört").
        """
        key = ("monster",)
        hit = self._cache.get(key)
        if hit is None:
            grid = self._grid
            stars = self.stars  # a monster on a hit space is destroyed (de-H "Zerstörte Felder")
            hit = frozenset(
                CELLS[j]
                for i, ch in enumerate(grid)
                if ch == "M" and CELLS[i] not in stars
                for j in NEIGHBOURS[i]
                if grid[j] == "."
            )
            self._cache[key] = hit
        return hit

    def problems(self) -> tuple[Problem, ...]:
        """Warnings about a valid sheet: unreadable spaces, monsters left on hit spaces.

        A :class:`Sheet` cannot hold fatal problems (construction raises); use :meth:`check`
        on a text to see those as well.
        """
        out: list[Problem] = []
        if self._unknown:
            out.append(
                Problem(
                    "unknown",
                    f"{len(self._unknown)} unreadable space(s) ('?'): {cells_label(self._unknown)}",
                    self._unknown,
                    fatal=False,
                )
            )
        if self.side == CUSTOM:
            out.extend(_custom_ruins_problems(self._grid, self.ruins))
        for r, c in sorted(self.stars):
            if self._cells[r * SIZE + c] is Terrain.MONSTER:
                out.append(
                    Problem(
                        "monster_on_star",
                        f"cell {LABELS[r * SIZE + c]} has a monster on a hit space (should be X; "
                        "scored as destroyed)",
                        ((r, c),),
                        fatal=False,
                    )
                )
        return tuple(out)


# ---------------------------------------------------------------------------------------------
# The parser: collects every problem, so Sheet.parse (first fatal) and Sheet.check (all) agree.

_HEADER_RE = re.compile(r"\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$")


class _Problems(list[Problem]):
    """The problem list of one text: past :data:`MAX_PROBLEMS` only counted, so that a hostile text
    (a megabyte of bad symbols) costs a counter, not an object per symbol."""

    dropped = 0

    def append(self, problem: Problem) -> None:
        if len(self) < MAX_PROBLEMS:
            super().append(problem)
        else:
            self.dropped += 1

    def summed_up(self) -> list[Problem]:
        if not self.dropped:
            return list(self)
        return [*self, Problem("too_many", f"and {self.dropped} more problem(s) not listed")]


def _read(text: str) -> tuple[Sheet | None, list[Problem]]:
    if len(text) > MAX_TEXT:
        why = f"too long for a sheet: {len(text)} characters, more than {MAX_TEXT}"
        return None, [Problem("too_long", why)]
    sheet, problems = _read_text(text.removeprefix("\ufeff"))  # a byte-order mark from an editor
    return sheet, problems.summed_up()


def _read_text(text: str) -> tuple[Sheet | None, _Problems]:
    problems = _Problems()
    header: dict[str, tuple[str, int]] = {}
    grid: list[tuple[int, str]] = []  # (line number, compact symbols)
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = _HEADER_RE.match(line)
        if m:
            key = m.group(1).lower()
            if grid:
                problems.append(Problem("header", f"header line '{key}:' after the grid", line=number))
            elif key not in _FIELDS:
                problems.append(
                    Problem(
                        "header", f"unknown header key {key!r} (expected {', '.join(_FIELDS)})", line=number
                    )
                )
            elif key in header:
                problems.append(Problem("header", f"header key {key!r} given twice", line=number))
            else:
                header[key] = (m.group(2), number)
            continue
        grid.append((number, "".join(line.split())))

    fields, ok = _read_header(header, problems)
    cells: list[Terrain] = []
    row_line: dict[int, int] = {}
    for r, (number, symbols) in enumerate(grid[:SIZE]):
        row_line[r] = number
        row_cells = ((r, 0),)
        for c, ch in enumerate(symbols):
            if ch not in _BY_SYMBOL:
                where = f"cell {ROW_LETTERS[r]}{c + 1}" if c < SIZE else f"position {c + 1}"
                problems.append(
                    Problem(
                        "symbol",
                        f"unknown symbol {ch!r} at {where}; expected one of {SYMBOLS}",
                        ((r, min(c, SIZE - 1)),),
                        number,
                    )
                )
                ok = False
        if len(symbols) != SIZE:
            problems.append(Problem("length", f"{len(symbols)} cells, expected {SIZE}", row_cells, number))
            ok = False
        cells.extend(_BY_SYMBOL.get(ch, Terrain.UNKNOWN) for ch in symbols[:SIZE].ljust(SIZE, "?"))
    if len(grid) != SIZE:
        last = grid[-1][0] if grid else None
        extra = " (a header line needs 'key: value')" if len(grid) > SIZE else ""
        problems.append(
            Problem("grid_lines", f"found {len(grid)} grid lines, expected {SIZE}{extra}", line=last)
        )
        ok = False
    if not ok:
        return None, problems

    side = fields["side"]
    ruins, stars = fields["ruins"], fields["stars"]
    before = len(problems)
    for problem in _field_problems(
        side, "".join(cells), fields["coins"], fields["spent"], ruins, stars, "ruins" in header
    ):
        if problem.cells:
            problems.append(problem._replace(line=row_line[problem.cells[0][0]]))
        else:
            key = "ruins" if problem.code == "ruins" else "coins"
            problems.append(problem._replace(line=header[key][1] if key in header else None))
    if any(p.fatal for p in problems[before:]):
        return None, problems
    if side != CUSTOM:
        ruins = printed_side(side).ruins
    sheet = Sheet.__new__(Sheet)
    sheet._init(side, "".join(cells), fields["coins"], fields["spent"], ruins, stars)
    return sheet, problems


def _read_header(header: dict[str, tuple[str, int]], problems: _Problems) -> tuple[dict[str, Any], bool]:
    fields: dict[str, Any] = {"side": "A", "coins": 0, "spent": 0, "ruins": frozenset(), "stars": frozenset()}
    ok = True
    for key, (value, number) in header.items():
        try:
            if key == "side":
                if value.lower() != CUSTOM and value.upper() not in SIDE_NAMES:
                    raise SheetError(f"side {value!r} is not one of {', '.join(SIDE_NAMES)}")
                fields[key] = printed_side(value).name
            elif key in ("coins", "spent"):
                # at most two digits: 0..14 needs no more, and int() of thousands of digits raises
                if not re.fullmatch(r"0*\d{1,2}", value):
                    shown = value if len(value) <= 20 else value[:17] + "..."
                    raise SheetError(f"{key} {shown!r} is not a whole number 0..{COIN_TRACK}")
                fields[key] = int(value)
                if fields[key] > COIN_TRACK:
                    raise SheetError(f"{key} is {value}, expected 0..{COIN_TRACK}")
            else:
                fields[key] = parse_labels(value)
        except SheetError as exc:
            problems.append(Problem("header", str(exc), line=number))
            ok = False
    return fields, ok
