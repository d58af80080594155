"""How one player draws: a :class:`DrawStyle` sampled per sheet, with disjoint train / eval ranges.

The eval split draws from parameter bins and whole variants that training never sees (hue offsets,
stroke widths and pressures in held-out bins; the crosshatch and loop fills; the pine-tree, hut,
dotted-farm, spiral-water, fanged-monster and banner-hero icons; the ring-with-dot coin mark), so
accuracy measured on eval renders says something about hands the classifier has not learned. The
params split (:data:`HALVES`) takes the held-out hand (bins, fills, fonts) but the training pictures
(icons, coin marks; not the marks and crosses only training hands draw, so its benchmarks stay put),
so new hands and new pictures can be measured apart.

Training offers many drawings of each terrain (seven icon variants each, seven fills, ten coin marks)
and every training icon is drawn with its own size, tilt, offset, sometimes twice small or gone over
twice (``TerrainLook.varied``), so the classifier learns the terrain rather than two pictures of it;
training hands cross spent coins out in their own way too (:class:`CoinCross`).
None of the training variants copies a held-out one. The eval tables and the order of eval random draws
never change, so benchmark seeds keep producing the same eval sheets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

Family = Literal[
    "graphite", "glyph", "color", "color_icon", "marker", "mixed", "doodle", "sketch", "grammar", "outsider",
    "studio",
]
#: The families a style is drawn from when none is asked for (the train, eval and params streams).
FAMILIES: tuple[str, ...] = ("graphite", "color", "color_icon", "marker", "mixed")
#: Every drawing family, for training and the leave-one-family-out table (``glyph``: icon-font designs
#: drawn in pencil, pen or marker, :mod:`models.synth.glyphs`; only drawn when asked for by name, so
#: the default streams stay as they were; ``doodle``: people's *Quick, Draw!* doodles in pencil or
#: colour, :func:`models.synth.glyphs.pick_doodle`, likewise only by name; ``sketch``: pencil icons of
#: :data:`SKETCH_ICONS`, several held-out designs a terrain, never drawn by a training hand; ``grammar``:
#: a new design of every terrain on every sheet, composed from parts by :mod:`models.synth.grammar`,
#: only by name; ``outsider``: pencil icons a second author drew, :mod:`models.synth.outsider`, held
#: out like ``sketch``, in graphite or, on some sheets, coloured pencils; ``studio``: pencil icons a
#: third author drew, :mod:`models.synth.studio`, trainable, a training hand drawing its train half and
#: an eval hand its eval half, in graphite, coloured pencil or marker, only by name; each appended last,
#: so the others' seed ranges stay).
ALL_FAMILIES: tuple[str, ...] = (
    "graphite", "glyph", "color", "color_icon", "marker", "mixed", "doodle", "sketch", "grammar", "outsider",
    "studio",
)
#: Families only held-out hands draw: :meth:`DrawStyle.random` refuses them in the train split.
HELD_OUT_FAMILIES: tuple[str, ...] = ("sketch", "outsider")
#: The share of ``outsider`` sheets drawn in coloured pencils (each terrain in its own colour) rather
#: than one graphite pencil.
OUTSIDER_COLOUR_SHARE = 0.3
#: Icon families a player draws sometimes in marker (a fifth of their sheets) rather than pencil.
MARKER_AT_TIMES_FAMILIES: tuple[str, ...] = ("glyph", "doodle", "grammar", "studio")
#: Families whose every cell is drawn freehand (size, tilt and place varied) in every split, not only
#: by training hands.
FREEHAND_FAMILIES: tuple[str, ...] = ("sketch", "outsider", "studio")
#: The families a training hand may draw, and so the ones anything may be trained or fitted on.
TRAINABLE_FAMILIES: tuple[str, ...] = tuple(f for f in ALL_FAMILIES if f not in HELD_OUT_FAMILIES)
SPLITS = ("train", "eval", "params")


def held_out(families: Iterable[str]) -> list[str]:
    """The names in ``families`` held out for evaluation, sorted: what no net trains or is fitted on."""
    return sorted(set(families) & set(HELD_OUT_FAMILIES))


def fit_families(text: str) -> list[str]:
    """The comma-separated drawing families of ``text`` that a fit may use (``models.fit_decode``,
    ``models.ruins_head``), in order.

    Raises
    ------
    ValueError
        Naming the unknown families, or those held out for evaluation (nothing is fitted on them).
    """
    families = [f.strip() for f in text.split(",") if f.strip()]
    if unknown := sorted(set(families) - set(ALL_FAMILIES)):
        raise ValueError(f"unknown families: {', '.join(unknown)}")
    if held := held_out(families):
        raise ValueError(f"{', '.join(held)} is held out for evaluation: nothing is fitted on it")
    return families


#: Which half of the tables each split draws from: (the hand: parameter bins, fill modes and digit
#: fonts; the pictures: icon variants and coin marks). ``params`` is a hand training never saw drawing
#: the pictures training knows, so it measures new hands apart from new pictures.
HALVES: dict[str, tuple[str, str]] = {"train": ("train", "train"), "eval": ("eval", "eval"),
                                      "params": ("eval", "train")}

# Fill modes and icon variants; the second tuple of each pair is held out for eval.
FILL_MODES = {
    "train": ("hatch", "scribble", "solid", "zigzag", "vertical", "dashes", "tangle"),
    "eval": ("crosshatch", "loops"),
}
ICONS = {
    "F": {"train": ("lollipop", "cloud", "oval", "bush", "bare", "twin", "grove"), "eval": ("pine",)},
    "V": {"train": ("house", "roof", "cottage", "pair", "tower", "church", "chimney"), "eval": ("hut",)},
    "P": {"train": ("hatch", "rows", "wheat", "stubble", "furrows", "contour", "sheaf"), "eval": ("dots",)},
    "W": {"train": ("waves", "ripples", "fish", "drops", "river", "swell", "lake"), "eval": ("spiral",)},
    "M": {"train": ("horned", "mask", "skull", "spiky", "ghost", "eyes", "cyclops"), "eval": ("fanged",)},
    "H": {"train": ("helmet", "sword", "shield", "crown", "stick", "bow", "axe"), "eval": ("banner",)},
}
#: The ``sketch`` family's designs: the eval split's icon of each terrain and three (hero: two) more
#: drawn only for it (:data:`models.synth.icons._SKETCH_ICONS`). The eval family ``graphite`` shows
#: one design a terrain, so its figure turns on how a net happens to read six drawings; a sheet of this
#: family picks one of these per terrain, so its photos together show 23 designs.
SKETCH_ICONS = {
    "F": ("pine", "stick_tree", "palm", "triangles"),
    "V": ("hut", "castle", "tent", "flag_house"),
    "P": ("dots", "grid", "crosses", "sun_field"),
    "W": ("spiral", "boat", "zigzag", "rain"),
    "M": ("fanged", "bat", "octopus", "jaws"),
    "H": ("banner", "spear", "mace"),
}
COIN_MARKS = {"train": ("scribble", "solid", "hatch", "tick", "halfmoon"), "eval": ("ring_dot",)}
#: Gain marks only training hands draw (half of them, instead of one of ``COIN_MARKS["train"]``, which
#: the params hand draws too): marks reaching past the coin (a loop round it, a box) and marks leaving
#: most of it bare (a dot, a spiral, a star), so that a cross over a mark of any shape is still a cross.
TRAIN_ONLY_COIN_MARKS = ("circled", "dot", "spiral", "box", "star")
#: Gain marks that fill the coin (a half-filled moon counts): crossing one out, a training hand's X always
#: reaches past the rim (:data:`FILLED_CROSS_REACH`), since a short X over a fill looks like the fill's own
#: stroke ends. Over a bare coin or an outline mark (a ring, a loop, a box, a dot, a star, a tick) it may
#: stay inside.
FILLED_COIN_MARKS = ("scribble", "solid", "hatch", "halfmoon")
#: The range a training hand's :attr:`CoinCross.reach` is drawn from (half the X's width, in printed coin
#: radii): 0.6 stays inside the coin, 1.45 runs well past it.
CROSS_REACH = (0.6, 1.45)
#: The least reach of each arm of a training hand's X over a filled gain mark, counted as
#: :attr:`CoinCross.reach` is (half the X's width, in printed coin radii).
FILLED_CROSS_REACH = 1.05
#: Other pens a player may pick up to cross spent coins out (BGR): blue and black ballpoint, a dark
#: felt-tip.
CROSS_PENS: tuple[tuple[int, int, int], ...] = ((130, 60, 30), (45, 40, 40), (60, 40, 110), (40, 90, 40))
#: How many times over a scrawling hand goes along each diagonal of its X.
SCRAWL_PASSES = 3
#: The share of training hands whose crosses bleed or smear, and how far (page px, Gaussian sigma; every
#: other stroke spreads 0.6 px): a blurred cross over a mark read as a fill was issue 13's other silent
#: coin track.
BLEED_SHARE = 0.2
BLEED_PX = (1.0, 2.0)
TERRAINS = ("F", "V", "P", "W", "M", "H")


def _bins(rng: np.random.Generator, half: str, edges: list[float]) -> float:
    """Uniform draw from alternating bins of `edges`: even bins train, odd bins eval."""
    pairs = [(edges[i], edges[i + 1]) for i in range(len(edges) - 1)]
    mine = pairs[0::2] if half == "train" else pairs[1::2]
    widths = np.array([b - a for a, b in mine])
    k = int(rng.choice(len(mine), p=widths / widths.sum()))
    a, b = mine[k]
    return float(rng.uniform(a, b))


@dataclass(frozen=True)
class Hand:
    """One person's pencil: what is in their hand and how hard they press."""

    medium: Literal["pencil", "marker"]
    width: float  # stroke width in cell units
    pressure: float  # 0..1, darkness of a full stroke
    jitter: float  # hand tremor in cell units
    overrun: float  # how far fills spill past the cell edge, cell units
    slant: float  # preferred hatching angle in degrees
    graphite: tuple[int, int, int]  # BGR of their grey pencil (or their pen)
    grain: float = 1.0  # how much the paper tooth breaks the line: pencil 1, ballpoint ~0.3, marker ~0.15


@dataclass(frozen=True)
class CoinCross:
    """How one player crosses out a spent coin (training hands; eval and params hands draw the plain X).

    Players cross out as they like: a small X inside the coin or a large one past it, a thick one in
    marker, turned off the diagonals, drawn in one stroke with its return, gone over twice, or with
    another pen than the one that marked the gains.
    """

    reach: float  # half the X's width in coin radii, in CROSS_REACH (over a fill >= FILLED_CROSS_REACH)
    weight: float  # stroke width against the hand's gain marks
    pressure: float  # darkness of a full stroke, 0..1
    tilt: float  # degrees the X is turned off the diagonals
    # two strokes; one stroke with its return; two gone over twice; each diagonal scrawled three times
    # over, wobbling (:data:`SCRAWL_PASSES`)
    strokes: Literal["two", "one", "twice", "scrawl"]
    color: tuple[int, int, int]  # BGR: the hand's own graphite or another pen (:data:`CROSS_PENS`)
    grain: float  # how much the paper tooth breaks the line (as :attr:`Hand.grain`)
    bleed: float = 0.6  # px the ink spreads (a wet felt-tip, a smudged cross: :data:`BLEED_SHARE`)


def _coin_cross(rng: np.random.Generator, hand: Hand) -> CoinCross:
    """A training hand's way of crossing out coins.

    Some go over their X again and again (``scrawl``) or smear it (:data:`BLEED_SHARE`). Not taken: a
    share pressing 2 to 3 times their gain marks' width; in marker such an X is a blob with four
    bumps, as a thick scribbled fill is, and a coin net trained on them read the params hand's marker
    fills as crossed (eval_coin_tracks --bench --split params: 144 -> 139 tracks right, 0 -> 1 silent)."""
    other_pen = rng.random() < 0.25
    color = CROSS_PENS[int(rng.integers(len(CROSS_PENS)))] if other_pen else hand.graphite
    bleed = float(rng.uniform(*BLEED_PX)) if rng.random() < BLEED_SHARE else 0.6
    return CoinCross(
        reach=float(rng.uniform(*CROSS_REACH)),
        weight=float(rng.uniform(0.8, 2.0)),
        pressure=float(rng.uniform(0.75, 1.0)),
        tilt=float(np.clip(rng.normal(0, 7), -15, 15)),
        strokes=str(rng.choice(("two", "one", "twice", "scrawl"), p=(0.5, 0.15, 0.15, 0.2))),  # type: ignore[arg-type]
        color=color,
        grain=0.3 if other_pen else hand.grain,
        bleed=bleed,
    )


@dataclass(frozen=True)
class TerrainLook:
    """How one terrain is drawn on this sheet."""

    fill: str | None  # fill mode or None
    icon: str | None  # icon variant or None
    color: tuple[int, int, int]  # BGR of the fill (and of a coloured icon)
    icon_colored: bool  # icon in the fill colour (else graphite)
    coverage: float  # 0.3..1 share of the cell the fill covers
    density: float  # 0..1 how dense hatch lines are / how opaque the fill is
    # each icon drawn at its own size, tilt and offset, sometimes twice (training hands only: eval
    # renders keep their exact sequence of random draws)
    varied: bool = False


#: Other colours players give a terrain (BGR): a player's own habits, used by the glyph family.
HABIT_COLORS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "F": ((40, 100, 30), (60, 140, 110), (30, 80, 60)),
    "V": ((40, 60, 150), (30, 110, 230), (40, 70, 110), (60, 60, 60)),
    "P": ((40, 150, 200), (60, 200, 170), (30, 120, 180)),
    "W": ((180, 90, 20), (200, 170, 60), (140, 60, 40)),
    "M": ((110, 40, 90), (50, 50, 50), (40, 30, 160), (130, 90, 60)),
    "H": ((30, 90, 180), (40, 160, 230), (160, 60, 40)),
}

BASE_COLORS: dict[str, tuple[int, int, int]] = {
    "F": (60, 150, 45),
    "V": (45, 45, 205),
    "P": (40, 200, 235),
    "W": (205, 130, 40),
    "M": (150, 55, 135),
    "H": (40, 110, 200),
}


def _tint(bgr: tuple[int, int, int], hue_deg: float, sat: float, val: float) -> tuple[int, int, int]:
    import cv2

    px = np.array([[bgr]], np.uint8)
    h, s, v = cv2.cvtColor(px, cv2.COLOR_BGR2HSV)[0, 0].astype(float)
    h = (h + hue_deg / 2.0) % 180
    s = np.clip(s * sat, 20, 255)
    v = np.clip(v * val, 40, 255)
    out = cv2.cvtColor(np.array([[[h, s, v]]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return int(out[0]), int(out[1]), int(out[2])


def _icon_look(
    rng: np.random.Generator,
    terrain: str,
    icon: str,
    color: tuple[int, int, int],
    hand: Hand,
    val: float,
    *,
    habits: bool,
) -> TerrainLook:
    """A terrain drawn as ``icon`` (an icon-font glyph or a doodle) in the hand's graphite or in colour:
    the usual one, or with ``habits`` sometimes one of this player's own colours for it."""
    if hand.medium == "marker" or rng.random() < 0.5:
        if habits and rng.random() < 0.3:
            options = HABIT_COLORS[terrain]
            color = _tint(options[int(rng.integers(len(options)))], float(rng.normal(0, 5)), 1.0, val)
        return TerrainLook(None, icon, color, True, 1.0, 1.0)
    return TerrainLook(None, icon, hand.graphite, False, 1.0, 1.0)


def _hand(rng: np.random.Generator, half: str, medium: Literal["pencil", "marker"]) -> Hand:
    if medium == "marker":
        width = _bins(rng, half, [0.05, 0.065, 0.075, 0.09, 0.1, 0.12])
        pressure = float(rng.uniform(0.75, 0.95))
    else:
        width = _bins(rng, half, [0.022, 0.03, 0.035, 0.045, 0.05, 0.06])
        pressure = _bins(rng, half, [0.35, 0.5, 0.58, 0.72, 0.8, 0.95])
    g = int(rng.integers(55, 110))
    graphite = (g + int(rng.integers(0, 8)), g + int(rng.integers(0, 6)), g)
    grain = 0.15 if medium == "marker" else 1.0
    if medium == "pencil" and rng.random() < 0.15:
        # some players outline and sketch with a ballpoint pen: dark blue or black, smooth line
        graphite = (130, 60, 30) if rng.random() < 0.6 else (45, 40, 40)
        grain, pressure = 0.3, 0.7 + 0.3 * pressure
    return Hand(
        medium=medium,
        width=width,
        pressure=pressure,
        jitter=float(rng.uniform(0.004, 0.018)),
        overrun=float(rng.uniform(0.0, 0.12)),
        slant=float(rng.choice([45.0, 135.0, 60.0, 120.0, 30.0, 150.0]) + rng.normal(0, 8)),
        graphite=graphite,
        grain=grain,
    )


@dataclass(frozen=True)
class DrawStyle:
    """One sheet's consistent drawing style.

    Attributes
    ----------
    family : str
        ``graphite`` (pencil icons), ``glyph`` (icon-font designs in pencil, pen or marker), ``color``
        (coloured-pencil fills), ``color_icon`` (fill plus icon), ``marker`` (felt-tip) or ``mixed`` (a
        different one of graphite, color, color_icon, marker per terrain).
    split : str
        ``"train"``, ``"eval"`` or ``"params"``: which halves of the tables this style was drawn from
        (:data:`HALVES`).
    hand : Hand
        The player's own pencil.
    ambush_hand : Hand
        The neighbour who draws ambush monsters on this sheet.
    ambush_look : TerrainLook
        How that neighbour draws a monster.
    ambush_by_neighbour : bool
        Monsters on this sheet come from the neighbour (multiplayer) rather than the owner (solo).
    looks : dict
        Terrain symbol -> :class:`TerrainLook`.
    outline_prob : float
        Chance each placed piece gets its outline (most players always draw it).
    coin_mark : str
        How a gained coin is marked.
    coin_cross_fill : bool
        Spent coins are filled before being crossed out.
    coin_cross : CoinCross or None
        How spent coins are crossed out; None: the plain X (eval and params hands, whose random draws
        never move). Set, the coins are drawn as :func:`models.synth.draw.draw_coins` says.
    coin_own_mark : str or None
        A gain mark only training hands draw (:data:`TRAIN_ONLY_COIN_MARKS`), drawn instead of
        `coin_mark`; None: `coin_mark`.
    digit_font : int
        Hershey font for season scores.
    smudges : int
        Erasure smudges on the sheet.
    seasons_written : int
        How many season boxes carry numbers (0-4).
    """

    family: str
    split: str
    hand: Hand
    ambush_hand: Hand
    looks: dict[str, TerrainLook] = field(default_factory=dict)
    ambush_look: TerrainLook | None = None
    ambush_by_neighbour: bool = True
    outline_prob: float = 1.0
    coin_mark: str = "scribble"
    coin_cross_fill: bool = True
    coin_cross: CoinCross | None = None
    coin_own_mark: str | None = None
    digit_font: int = 0
    smudges: int = 0
    seasons_written: int = 0

    @classmethod
    def random(cls, rng: np.random.Generator, split: str = "train", family: str | None = None) -> DrawStyle:
        """Sample a style. `family` forces one family (else uniform over :data:`FAMILIES`)."""
        if split not in SPLITS:
            raise ValueError(f"unknown split {split!r}: expected one of {', '.join(SPLITS)}")
        fam = family or str(rng.choice(FAMILIES))
        if fam not in ALL_FAMILIES:
            raise ValueError(f"unknown style family {fam!r}: expected one of {', '.join(ALL_FAMILIES)}")
        if fam in HELD_OUT_FAMILIES and split == "train":
            raise ValueError(f"the {fam} family is held out: no training hand draws it")
        medium: Literal["pencil", "marker"] = "marker" if fam == "marker" else "pencil"
        if fam in MARKER_AT_TIMES_FAMILIES and rng.random() < 0.2:
            medium = "marker"
        half, pictures = HALVES[split]
        hand = _hand(rng, half, medium)
        amb_medium: Literal["pencil", "marker"] = "marker" if rng.random() < 0.2 else "pencil"
        ambush = _hand(rng, half, amb_medium)
        hue = _bins(rng, half, [-20, -12, -7, -2, 2, 7, 12, 20])
        sat = _bins(rng, half, [0.55, 0.7, 0.8, 0.95, 1.05, 1.2])
        val = float(rng.uniform(0.85, 1.1))
        modes = FILL_MODES[half]
        shared_mode = str(rng.choice(modes))
        # drawn only for the outsider family, so every other family's stream of draws stays as it was
        coloured = fam == "outsider" and bool(rng.random() < OUTSIDER_COLOUR_SHARE)
        from models.synth.glyphs import pick_doodle, pick_glyph
        from models.synth.grammar import design_key
        from models.synth.outsider import OUTSIDER_DESIGNS, outsider_key
        from models.synth.studio import STUDIO_DESIGNS, studio_key

        looks: dict[str, TerrainLook] = {}
        for t in TERRAINS:
            sub = fam if fam != "mixed" else str(rng.choice(("graphite", "color", "color_icon", "marker")))
            icons = ICONS[t][pictures]
            color = _tint(BASE_COLORS[t], hue + rng.normal(0, 3), sat, val)
            mode = shared_mode if rng.random() < 0.7 else str(rng.choice(modes))
            if sub == "graphite":
                look = TerrainLook(None, str(rng.choice(icons)), hand.graphite, False, 1.0, 1.0)
            elif sub == "sketch":
                look = TerrainLook(None, str(rng.choice(SKETCH_ICONS[t])), hand.graphite, False, 1.0, 1.0)
            elif sub == "outsider":
                key = outsider_key(t, str(rng.choice(OUTSIDER_DESIGNS[t])))
                look = TerrainLook(None, key, color if coloured else hand.graphite, False, 1.0, 1.0)
            elif sub == "glyph":
                # a built-in icon where the half has no glyph; the training split sketches some glyphs
                icon = pick_glyph(rng, t, pictures, split == "train") or str(rng.choice(icons))
                look = _icon_look(rng, t, icon, color, hand, val, habits=True)
            elif sub == "grammar":
                key = design_key(t, rng, sketch=split == "train")
                look = _icon_look(rng, t, key, color, hand, val, habits=True)
            elif sub == "studio":
                # the split's picture half: eval hands draw only designs no training hand drew
                key = studio_key(t, str(rng.choice(STUDIO_DESIGNS[t][pictures])))
                look = _icon_look(rng, t, key, color, hand, val, habits=True)
            elif sub == "doodle":
                icon = pick_doodle(rng, t, pictures) or str(rng.choice(icons))
                look = _icon_look(rng, t, icon, color, hand, val, habits=False)
            elif sub == "color":
                look = TerrainLook(
                    mode, None, color, False, float(rng.uniform(0.3, 1.0)), float(rng.uniform(0.45, 1.0))
                )
            elif sub == "color_icon":
                look = TerrainLook(
                    mode,
                    str(rng.choice(icons)),
                    color,
                    bool(rng.random() < 0.4),
                    float(rng.uniform(0.3, 1.0)),
                    float(rng.uniform(0.35, 0.85)),
                )
            else:  # marker: doodle icons in colour, or bold fills
                if rng.random() < 0.5:
                    look = TerrainLook(None, str(rng.choice(icons)), color, True, 1.0, 1.0)
                else:
                    look = TerrainLook(
                        mode, None, color, True, float(rng.uniform(0.4, 1.0)), float(rng.uniform(0.5, 1.0))
                    )
            # a sketching player draws each cell freehand: size, tilt and place vary as a training hand's
            looks[t] = replace(look, varied=pictures == "train" or sub in FREEHAND_FAMILIES)
        amb = str(rng.choice(("graphite", "color", "color_icon")))
        m_color = _tint(BASE_COLORS["M"], _bins(rng, half, [-20, -12, -7, -2, 2, 7, 12, 20]), sat, val)
        ambush_look = TerrainLook(
            None if amb == "graphite" else str(rng.choice(modes)),
            None if amb == "color" else str(rng.choice(ICONS["M"][pictures])),
            ambush.graphite if amb == "graphite" else m_color,
            amb != "graphite" and rng.random() < 0.5,
            float(rng.uniform(0.4, 1.0)),
            float(rng.uniform(0.4, 1.0)),
            varied=pictures == "train",
        )
        # the hero is often drawn as a mark even by players who only colour
        if looks["H"].icon is None and rng.random() < 0.6:
            looks["H"] = replace(looks["H"], icon=str(rng.choice(ICONS["H"][pictures])))
        import cv2

        fonts = [cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_PLAIN]
        eval_fonts = [cv2.FONT_HERSHEY_SCRIPT_COMPLEX, cv2.FONT_HERSHEY_DUPLEX]
        style = cls(
            family=fam,
            split=split,
            hand=hand,
            ambush_hand=ambush,
            looks=looks,
            ambush_look=ambush_look,
            ambush_by_neighbour=bool(rng.random() < 0.6),
            outline_prob=1.0 if rng.random() < 0.8 else float(rng.uniform(0.8, 1.0)),
            coin_mark=str(rng.choice(COIN_MARKS[pictures])),
            coin_cross_fill=bool(rng.random() < 0.6),
            digit_font=int(rng.choice(fonts if half == "train" else eval_fonts)),
            smudges=int(rng.integers(0, 4)),
            seasons_written=int(rng.integers(0, 5)),
        )
        if split == "train":
            # from a generator of their own: the page's stream (and so the rest of the page) stays as it was
            own = rng.spawn(1)[0]
            mark = str(own.choice(TRAIN_ONLY_COIN_MARKS)) if own.random() < 0.5 else None
            style = replace(style, coin_own_mark=mark, coin_cross=_coin_cross(own, hand))
        return style

    def describe(self) -> str:
        """A one-line summary for logs and debug image names."""
        looks = " ".join(f"{t}:{lk.fill or '-'}/{lk.icon or '-'}" for t, lk in self.looks.items())
        hand = f"{self.hand.medium} w={self.hand.width:.3f} p={self.hand.pressure:.2f}"
        return f"{self.family}[{self.split}] {hand} {looks}"


__all__ = [
    "ALL_FAMILIES",
    "BLEED_PX",
    "BLEED_SHARE",
    "CROSS_REACH",
    "FAMILIES",
    "FILLED_COIN_MARKS",
    "FILLED_CROSS_REACH",
    "FREEHAND_FAMILIES",
    "HELD_OUT_FAMILIES",
    "MARKER_AT_TIMES_FAMILIES",
    "OUTSIDER_COLOUR_SHARE",
    "SCRAWL_PASSES",
    "SKETCH_ICONS",
    "TRAINABLE_FAMILIES",
    "CoinCross",
    "DrawStyle",
    "Hand",
    "TerrainLook",
    "held_out",
]
