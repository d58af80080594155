"""Render a whole map page, printed sheet plus the player's drawing, with exact ground truth.

>>> import numpy as np
>>> from rules import Sheet
>>> page = render_page(Sheet.blank("A"), np.random.default_rng(0), ppc=24)
>>> page.image.shape[2], len(page.coin_states)
(3, 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from models.synth import draw
from models.synth.ink import Layout
from models.synth.printed import PAPER_VARIANTS, THEMES, Blank, printed_blank
from models.synth.strokes import Canvas, grain_texture
from models.synth.style import DrawStyle
from rules.grid import COIN_TRACK as COIN_COUNT
from rules.grid import SIZE as GRID_SIZE
from rules.grid import Cell
from scanner.geometry import geometry

DRAWN = ("F", "V", "P", "W", "M", "H")
GRAIN_SEEDS = 4


class SheetLike(Protocol):
    """What the renderer reads from a ``rules.Sheet``."""

    side: str
    coins: int
    spent: int
    ruins: frozenset[Cell]
    stars: frozenset[Cell]

    def __getitem__(self, rc: tuple[int, int]) -> Any: ...


def _symbol(v: Any) -> str:
    return str(getattr(v, "value", v))


@dataclass(frozen=True, eq=False)
class Page:
    """A rendered page and its truth.

    Attributes
    ----------
    image : (H, W, 3) uint8
        BGR, the whole page including margins, top-down.
    ppc : float
        Pixels per cell.
    grid_origin : (x, y)
        Pixel position of the A1 corner (top-left of the grid), in OpenCV's convention (pixel centres at
        integer coordinates), like every pixel position here.
    coin_states : tuple of 14 int
        0 empty, 1 filled, 2 crossed out (spent).
    edges_h : (10, 11) bool
        ``edges_h[r, c]``: a pencil outline is drawn between cells (r, c) and (r + 1, c).
    edges_v : (11, 10) bool
        ``edges_v[r, c]``: a pencil outline is drawn between cells (r, c) and (r, c + 1).
    style : DrawStyle
        The drawing style used.
    theme : str
    pieces : tuple of frozenset
        The pieces the drawing treats as placed shapes (given or derived).
    blank : (H, W, 3) uint8
        The printed sheet before any drawing (read-only, shared between pages).
    """

    image: np.ndarray
    ppc: float
    grid_origin: tuple[float, float]
    coin_states: tuple[int, ...]
    edges_h: np.ndarray
    edges_v: np.ndarray
    style: DrawStyle
    theme: str
    pieces: tuple[frozenset[Cell], ...]
    blank: np.ndarray

    @property
    def affine(self) -> np.ndarray:
        """3x3 matrix mapping homogeneous cell-unit points (x, y, 1) to page pixels."""
        ox, oy = self.grid_origin
        return np.array([[self.ppc, 0, ox], [0, self.ppc, oy], [0, 0, 1]], dtype=np.float64)

    def cells_to_page(self, pts: np.ndarray | Sequence[float] | Sequence[Sequence[float]]) -> np.ndarray:
        """Cell-unit points (..., 2) (origin A1 corner, x right, y down) to page pixels."""
        px: np.ndarray = np.asarray(pts, dtype=np.float64) * self.ppc + np.asarray(self.grid_origin)
        return px

    def page_to_cells(self, pts: np.ndarray | Sequence[float] | Sequence[Sequence[float]]) -> np.ndarray:
        """Page pixels (..., 2) to cell units."""
        cells: np.ndarray = (np.asarray(pts, dtype=np.float64) - np.asarray(self.grid_origin)) / self.ppc
        return cells

    @property
    def corners(self) -> np.ndarray:
        """Grid corners A1, A11, K11, K1 in page pixels, shape (4, 2)."""
        return self.cells_to_page(geometry().grid_corners())

    @property
    def coin_centers(self) -> np.ndarray:
        """Coin circle centres in page pixels, shape (14, 2)."""
        return self.cells_to_page(geometry().coin_centers())


def derive_pieces(sheet: SheetLike) -> tuple[frozenset[Cell], ...]:
    """Connected same-terrain components of the drawn terrains (F, V, P, W, M, H)."""
    seen: set[Cell] = set()
    out = []
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            t = _symbol(sheet[r, c])
            if t not in DRAWN or (r, c) in seen:
                continue
            comp = set()
            stack = [(r, c)]
            seen.add((r, c))
            while stack:
                cr, cc = stack.pop()
                comp.add((cr, cc))
                for nr, nc in ((cr - 1, cc), (cr + 1, cc), (cr, cc - 1), (cr, cc + 1)):
                    if (
                        0 <= nr < GRID_SIZE
                        and 0 <= nc < GRID_SIZE
                        and (nr, nc) not in seen
                        and _symbol(sheet[nr, nc]) == t
                    ):
                        seen.add((nr, nc))
                        stack.append((nr, nc))
            out.append(frozenset(comp))
    return tuple(out)


def coin_states_for(sheet: SheetLike, rng: np.random.Generator) -> tuple[int, ...]:
    """The first ``coins + spent`` circles are marked; `spent` of them (chosen at random) crossed out."""
    n = min(COIN_COUNT, int(sheet.coins) + int(sheet.spent))
    states = [0] * COIN_COUNT
    for i in range(n):
        states[i] = 1
    spent = min(int(sheet.spent), n)
    if spent:
        # players mostly cross out from the start of the track, sometimes anywhere
        idx = np.arange(spent) if rng.random() < 0.6 else np.sort(rng.choice(n, spent, replace=False))
        for i in idx:
            states[int(i)] = 2
    return tuple(states)


def render_page(
    sheet: SheetLike,
    rng: np.random.Generator,
    *,
    ppc: float = 48,
    theme: str = "color",
    style: DrawStyle | None = None,
    pieces: Sequence[frozenset[Cell]] = (),
    split: str = "train",
    blank: Blank | None = None,
    family: str | None = None,
    print_marks: bool = False,
) -> Page:
    """Draw `sheet` as a printed page filled in by hand.

    Parameters
    ----------
    sheet : rules.Sheet
        The truth to draw.
    rng : numpy Generator
        All randomness comes from here (same seed, same page).
    ppc : float
        Pixels per cell.
    theme : "color" or "printfriendly"
    style : DrawStyle, optional
        Drawing style; sampled from `split` when omitted.
    pieces : sequence of frozenset of (row, col)
        Placed shapes, each outlined; derived as same-terrain components when empty.
    split : "train", "eval" or "params"
        Which style bins to sample from when `style` is None.
    family : str, optional
        The drawing family of the sampled style (:data:`~models.synth.style.ALL_FAMILIES`); by default
        one of :data:`~models.synth.style.FAMILIES`.
    blank : Blank, optional
        The printed sheet to draw on (e.g. :func:`~models.synth.printed.blank_on_image` of a real
        one); ``ppc`` and ``theme`` are then unused. Default: the side printed by the renderer.
    print_marks : bool
        Print the renderer's side with the real print's fine marks
        (:func:`~models.synth.printed.printed_blank`'s ``marks``).

    Returns
    -------
    Page
    """
    if theme not in THEMES:
        raise ValueError(f"unknown theme {theme!r}: expected one of {', '.join(THEMES)}")
    if ppc < 8:
        raise ValueError(f"ppc {ppc} too small: need at least 8 pixels per cell")
    style = style or DrawStyle.random(rng, split, family)
    grid = [[_symbol(sheet[r, c]) for c in range(GRID_SIZE)] for r in range(GRID_SIZE)]
    mountains = frozenset((r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if grid[r][c] == "^")
    wasteland = frozenset((r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE) if grid[r][c] == "-")
    side = str(sheet.side)
    variant = int(rng.integers(0, 4 * PAPER_VARIANTS))
    if blank is None:
        blank = printed_blank(
            side, theme, float(ppc), variant, mountains, wasteland, frozenset(sheet.ruins), print_marks
        )
    lay: Layout = blank.layout
    gh, gw = blank.image.shape[:2]
    grain = grain_texture((gh + 32, gw + 32), int(rng.integers(0, GRAIN_SEEDS)))
    canvas = Canvas(blank.image, grain, rng)

    placed = tuple(frozenset(p) for p in pieces) if pieces else derive_pieces(sheet)
    piece_of: dict[Cell, int] = {}
    for i, p in enumerate(placed):
        for cell in p:
            piece_of[cell] = i
    monster_hand = style.ambush_hand if style.ambush_by_neighbour else style.hand

    # terrain cells, drawn piece by piece (one pencil per piece), then the loose ones
    groups: dict[tuple[int, str], list[Cell]] = {}
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            t = grid[r][c]
            if t in DRAWN:
                groups.setdefault((piece_of.get((r, c), -1 - r * GRID_SIZE - c), t), []).append((r, c))
    for (_, t), cells in groups.items():
        if t == "M" and style.ambush_by_neighbour and style.ambush_look is not None:
            look, hand = style.ambush_look, style.ambush_hand
        else:
            look, hand = style.looks[t], style.hand
        draw.draw_cells(canvas, lay, cells, t, look, hand, rng)
    for r in range(GRID_SIZE):
        for c in range(GRID_SIZE):
            if grid[r][c] != "X":
                continue
            # a destroyed cell of a placed piece still shows that piece's terrain under the X
            mates = (
                [grid[a][b] for a, b in placed[piece_of[(r, c)]] if grid[a][b] in DRAWN]
                if (r, c) in piece_of
                else []
            )
            under = rng.random()
            if mates:
                t = mates[0]
                if t == "M" and style.ambush_by_neighbour and style.ambush_look is not None:
                    draw.draw_cell(canvas, lay, r, c, t, style.ambush_look, style.ambush_hand, rng)
                else:
                    draw.draw_cell(canvas, lay, r, c, t, style.looks[t], style.hand, rng)
            elif under < 0.35:  # a hero destroyed a monster: the X goes over the drawn monster
                draw.draw_cell(
                    canvas, lay, r, c, "M", style.ambush_look or style.looks["M"], monster_hand, rng
                )
            elif under < 0.45:
                u = str(rng.choice(("F", "V", "P", "W")))
                draw.draw_cell(canvas, lay, r, c, u, style.looks[u], style.hand, rng)
            draw.draw_destroyed(canvas, lay, r, c, style.hand, rng)

    # piece outlines; truth records exactly the internal edges that got a line
    edges_h = np.zeros((GRID_SIZE - 1, GRID_SIZE), bool)
    edges_v = np.zeros((GRID_SIZE, GRID_SIZE - 1), bool)
    own: list[tuple[str, int, int]] = []
    amb: list[tuple[str, int, int]] = []
    for p in placed:
        if not p or rng.random() > style.outline_prob:
            continue
        bnd = draw.piece_boundary(p)
        kinds = {grid[r][c] for r, c in p} - {"X"}
        is_amb = style.ambush_by_neighbour and kinds == {"M"}
        (amb if is_amb else own).extend(bnd)
        for kind, line, pos in bnd:
            if kind == "h" and 0 < line < GRID_SIZE:
                edges_h[line - 1, pos] = True
            elif kind == "v" and 0 < line < GRID_SIZE:
                edges_v[pos, line - 1] = True
    if own:
        draw.draw_outlines(canvas, lay, draw.outline_runs(own), style.hand, rng)
    if amb:
        draw.draw_outlines(canvas, lay, draw.outline_runs(amb), style.ambush_hand, rng)

    # erasures
    for _ in range(style.smudges):
        r, c = (int(v) for v in rng.integers(0, GRID_SIZE, 2))
        if grid[r][c] not in ("^", "-"):
            draw.draw_smudge(canvas, lay, r, c, style, rng)

    if blank.protect_box[2] > blank.protect_box[0]:
        canvas.protect(blank.protect, blank.protect_box)

    for r, c in sorted(sheet.stars):
        draw.draw_star(canvas, lay, r, c, style.hand, rng)

    states = coin_states_for(sheet, rng)
    draw.draw_coins(canvas, lay, states, style, rng)
    draw.draw_season_scores(canvas, lay, style, rng)

    return Page(
        image=canvas.render(),
        ppc=float(lay.ppc),
        grid_origin=(lay.ox, lay.oy),
        coin_states=states,
        edges_h=edges_h,
        edges_v=edges_v,
        style=style,
        theme=theme,
        pieces=placed,
        blank=blank.image,
    )
